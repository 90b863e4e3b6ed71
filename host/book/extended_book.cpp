// See extended_book.h. File format (little-endian): "DBXBOOK1", u32 version 1, u32 latest year,
// u64 entry count, then the entries of 48 bytes each, sorted by key: u64 key, u16 move, u16 0,
// u32 games, wins, draws, losses, rated, u64 Elo sum, u16 last year, good, bad, 0.
#include "book/extended_book.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>

#include "book/book_move.h"
#include "book/polyglot_key.h"
#include "chess/notation.h"

namespace db::book {

namespace {

constexpr char kMagic[8] = {'D', 'B', 'X', 'B', 'O', 'O', 'K', '1'};
constexpr std::uint32_t kVersion = 1;
constexpr std::size_t kXHeaderBytes = 24, kSummaryBytes = 48;

// A tag's leading number ("2650", "1997.05.11"), or 0.
int leading_number(const std::string* text, std::size_t max_digits) {
  if (!text) return 0;
  int n = 0;
  std::size_t digits = 0;
  for (char c : *text) {
    if (!std::isdigit(static_cast<unsigned char>(c)) || digits == max_digits) break;
    n = n * 10 + (c - '0');
    ++digits;
  }
  return digits == 0 ? 0 : n;
}

// +1 for a good move ("!", "!!", "!?" or NAG 1, 3, 5), -1 for a bad one ("?", "??", "?!", 2, 4, 6).
int annotation(const std::string& san, int nag) {
  if (nag >= 1 && nag <= 6) return nag % 2 == 1 ? 1 : -1;
  const std::size_t at = san.find_first_of("!?");
  if (at == std::string::npos) return 0;
  return san[at] == '!' ? 1 : -1;  // "!?" leans good, "?!" bad: the first mark decides
}

void put(std::string& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(char(v >> (8 * i) & 0xFF));
}

std::uint64_t get(const unsigned char* p, int bytes) {
  std::uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = v << 8 | p[i];
  return v;
}

}  // namespace

double MoveSummary::score() const { return games == 0 ? 0.5 : (wins + 0.5 * draws) / games; }

int MoveSummary::average_elo() const { return rated == 0 ? 0 : int(elo_sum / rated); }

int move_bonus(const MoveSummary& m, std::uint32_t position_games, int year) {
  if (m.games == 0 || position_games == 0) return 0;
  const double share = double(m.games) / position_games;
  const double confidence = m.games / (m.games + 4.0);
  const double result = 2.0 * (m.score() - 0.5);
  const double strength = m.rated == 0 ? 0.0 : std::clamp((m.average_elo() - 2300) / 400.0, -1.0, 1.0);
  const double recency = m.last_year == 0 ? 0.5 : std::exp(-std::max(0, year - int(m.last_year)) / 15.0);
  const double remarks = double(int(m.good) - int(m.bad)) / (m.good + m.bad + 1.0);
  const double raw = confidence * (0.40 * share + 0.25 * result + 0.15 * strength + 0.10 * recency + 0.10 * remarks);
  return int(std::lround(kMaxBonus * std::clamp(raw, -1.0, 1.0)));
}

ExtendedBook ExtendedBook::build(const std::vector<PgnGame>& games, const ExtendedBuildOptions& options,
                                 ExtendedBuildStats* stats) {
  if (options.max_ply < 1) throw std::invalid_argument("max ply must be at least 1");
  if (options.min_games < 1) throw std::invalid_argument("min games must be at least 1");
  ExtendedBuildStats s;
  std::map<std::pair<std::uint64_t, std::uint16_t>, MoveSummary> tally;
  ExtendedBook book;
  for (const PgnGame& game : games) {
    ++s.games;
    const int year = leading_number(game.tag("Date"), 4);
    book.latest_year_ = std::max(book.latest_year_, year);
    const int elo[2] = {leading_number(game.tag("WhiteElo"), 4), leading_number(game.tag("BlackElo"), 4)};
    std::map<std::size_t, int> nags(game.nags.begin(), game.nags.end());
    try {
      Position pos = game.start_position();
      const std::size_t plies = std::min(game.san_moves.size(), std::size_t(options.max_ply));
      for (std::size_t i = 0; i < plies; ++i) {
        const Move m = parse_san(pos, game.san_moves[i]);
        const Color us = pos.side_to_move();
        MoveSummary& t = tally[{polyglot_key(pos), encode_move(m)}];
        t.key = polyglot_key(pos);
        t.move = encode_move(m);
        ++t.games;
        const bool white_won = game.result == "1-0", black_won = game.result == "0-1";
        if (game.result == "1/2-1/2") {
          ++t.draws;
        } else if ((white_won && us == WHITE) || (black_won && us == BLACK)) {
          ++t.wins;
        } else if (white_won || black_won) {
          ++t.losses;
        }
        if (elo[us] > 0) {
          ++t.rated;
          t.elo_sum += std::uint64_t(elo[us]);
        }
        t.last_year = std::uint16_t(std::max<int>(t.last_year, year));
        const auto nag = nags.find(i);
        const int a = annotation(game.san_moves[i], nag == nags.end() ? 0 : nag->second);
        if (a > 0 && t.good < 0xFFFF) ++t.good;
        if (a < 0 && t.bad < 0xFFFF) ++t.bad;
        pos.make_move(m);
      }
    } catch (const std::runtime_error&) {  // FEN and notation errors: the game counts up to there
      ++s.bad_games;
    }
  }
  for (const auto& [k, t] : tally)
    if (t.games >= std::uint32_t(options.min_games)) book.entries_.push_back(t);
  std::sort(book.entries_.begin(), book.entries_.end(), [](const MoveSummary& a, const MoveSummary& b) {
    if (a.key != b.key) return a.key < b.key;
    if (a.games != b.games) return a.games > b.games;
    return a.move < b.move;
  });
  s.moves = book.entries_.size();
  for (std::size_t i = 0; i < book.entries_.size(); ++i)
    if (i == 0 || book.entries_[i].key != book.entries_[i - 1].key) ++s.positions;
  if (stats) *stats = s;
  return book;
}

void ExtendedBook::write(const std::string& path) const {
  std::string out(kMagic, sizeof kMagic);
  put(out, kVersion, 4);
  put(out, std::uint64_t(latest_year_), 4);
  put(out, entries_.size(), 8);
  for (const MoveSummary& e : entries_) {
    put(out, e.key, 8);
    put(out, e.move, 2);
    put(out, 0, 2);
    for (std::uint32_t v : {e.games, e.wins, e.draws, e.losses, e.rated}) put(out, v, 4);
    put(out, e.elo_sum, 8);
    for (std::uint16_t v : {e.last_year, e.good, e.bad, std::uint16_t(0)}) put(out, v, 2);
  }
  std::ofstream f(path, std::ios::binary);
  f.write(out.data(), std::streamsize(out.size()));
  if (!f) throw BookError("extended book '" + path + "': cannot write");
}

ExtendedBook ExtendedBook::read(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw BookError("extended book '" + path + "': cannot open: " + std::strerror(errno));
  const std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  const auto fail = [&](const std::string& what) { return BookError("extended book '" + path + "': " + what); };
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  if (bytes.size() < kXHeaderBytes || std::memcmp(p, kMagic, sizeof kMagic) != 0)
    throw fail("not an extended book (no DBXBOOK1 header; a Polyglot book goes to --book)");
  if (get(p + 8, 4) != kVersion) throw fail("version " + std::to_string(get(p + 8, 4)) + ", this program reads 1");
  const std::uint64_t count = get(p + 16, 8);
  if (count > (bytes.size() - kXHeaderBytes) / kSummaryBytes || bytes.size() != kXHeaderBytes + count * kSummaryBytes)
    throw fail("size " + std::to_string(bytes.size()) + " bytes does not hold the " + std::to_string(count) +
               " entries its header counts (truncated or damaged)");
  ExtendedBook book;
  book.latest_year_ = int(get(p + 12, 4));
  book.entries_.resize(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    const unsigned char* q = p + kXHeaderBytes + i * kSummaryBytes;
    MoveSummary& e = book.entries_[i];
    e.key = get(q, 8);
    e.move = std::uint16_t(get(q + 8, 2));
    e.games = std::uint32_t(get(q + 12, 4));
    e.wins = std::uint32_t(get(q + 16, 4));
    e.draws = std::uint32_t(get(q + 20, 4));
    e.losses = std::uint32_t(get(q + 24, 4));
    e.rated = std::uint32_t(get(q + 28, 4));
    e.elo_sum = get(q + 32, 8);
    e.last_year = std::uint16_t(get(q + 40, 2));
    e.good = std::uint16_t(get(q + 42, 2));
    e.bad = std::uint16_t(get(q + 44, 2));
    const std::string where = "entry " + std::to_string(i) + ": ";
    if (e.games == 0 || std::uint64_t(e.wins) + e.draws + e.losses > e.games || e.rated > e.games)
      throw fail(where + "counts do not add up (games " + std::to_string(e.games) + ")");
    if (i > 0 && e.key < book.entries_[i - 1].key) throw fail(where + "keys out of order");
  }
  return book;
}

std::vector<MoveSummary> ExtendedBook::moves(const Position& pos) const {
  const std::uint64_t key = polyglot_key(pos);
  auto it = std::lower_bound(entries_.begin(), entries_.end(), key,
                             [](const MoveSummary& e, std::uint64_t k) { return e.key < k; });
  std::vector<MoveSummary> out;
  for (; it != entries_.end() && it->key == key; ++it)
    if (!decode_move(pos, it->move).is_none()) out.push_back(*it);
  return out;
}

std::vector<RootBonus> ExtendedBook::bonuses(const Position& pos, int year) const {
  const std::vector<MoveSummary> here = moves(pos);
  std::uint32_t total = 0;
  for (const MoveSummary& m : here) total += m.games;
  std::vector<RootBonus> out;
  for (const MoveSummary& m : here)
    out.push_back({decode_move(pos, m.move), move_bonus(m, total, year > 0 ? year : latest_year_), m});
  return out;
}

std::optional<Move> ExtendedBook::immediate(const Position& pos, int year) const {
  const std::vector<RootBonus> b = bonuses(pos, year);
  if (b.empty()) return std::nullopt;
  std::uint32_t total = 0;
  for (const RootBonus& r : b) total += r.summary.games;
  const RootBonus& top =
      *std::max_element(b.begin(), b.end(), [](const RootBonus& x, const RootBonus& y) { return x.bonus < y.bonus; });
  for (const RootBonus& r : b)
    if (&r != &top && r.bonus + 20 > top.bonus) return std::nullopt;
  if (top.summary.games < 10 || top.summary.games * 10 < total * 7 || top.bonus < 30) return std::nullopt;
  return top.move;
}

}  // namespace db::book
