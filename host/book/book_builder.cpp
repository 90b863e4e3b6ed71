#include "book/book_builder.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <stdexcept>
#include <utility>

#include "book/book_move.h"
#include "book/polyglot_key.h"
#include "chess/notation.h"

namespace db::book {

namespace {

struct Tally {
  std::uint64_t games = 0;
  std::uint64_t score = 0;  // 2 per win, 1 per draw of the side that played the move
};

// Points of a game's result for the side to move: 2 win, 1 draw, 0 loss or unknown.
std::uint64_t points(const std::string& result, Color side) {
  if (result == "1/2-1/2") return 1;
  if (result == "1-0") return side == WHITE ? 2 : 0;
  if (result == "0-1") return side == BLACK ? 2 : 0;
  return 0;
}

}  // namespace

std::vector<Entry> build_entries(const std::vector<PgnGame>& games, const BuildOptions& options, BuildStats* stats) {
  if (options.max_ply < 1) throw std::invalid_argument("max ply must be at least 1");
  if (options.min_games < 1) throw std::invalid_argument("min games must be at least 1");
  BuildStats s;
  std::map<std::pair<Key, std::uint16_t>, Tally> tallies;
  for (const PgnGame& game : games) {
    ++s.games;
    try {
      Position pos = game.start_position();
      const std::size_t plies = std::min(game.san_moves.size(), std::size_t(options.max_ply));
      for (std::size_t i = 0; i < plies; ++i) {
        const Move m = parse_san(pos, game.san_moves[i]);
        Tally& t = tallies[{polyglot_key(pos), encode_move(m)}];
        ++t.games;
        t.score += points(game.result, pos.side_to_move());
        pos.make_move(m);
      }
    } catch (const std::runtime_error&) {  // FEN and notation errors: the game counts up to there
      ++s.bad_games;
    }
  }
  std::uint64_t top = 0;
  for (const auto& [k, t] : tallies) {
    if (t.games < std::uint64_t(options.min_games)) continue;
    top = std::max(top, options.weight_results ? t.score : t.games);
  }
  std::vector<Entry> entries;
  for (const auto& [k, t] : tallies) {
    if (t.games < std::uint64_t(options.min_games)) continue;
    std::uint64_t w = options.weight_results ? t.score : t.games;
    if (w == 0) continue;  // lost every time: Polyglot leaves such moves out
    // One scale for the whole book keeps the ratios between moves (and between positions).
    if (top > 0xffff) w = std::max<std::uint64_t>(1, w * 0xffff / top);
    entries.push_back({k.first, k.second, std::uint16_t(w), 0});
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    if (a.key != b.key) return a.key < b.key;
    if (a.weight != b.weight) return a.weight > b.weight;
    return a.move < b.move;
  });
  s.entries = entries.size();
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (i == 0 || entries[i].key != entries[i - 1].key) ++s.positions;
  if (stats) *stats = s;
  return entries;
}

void write_book(const std::string& path, const std::vector<Entry>& entries) {
  std::string bytes;
  bytes.reserve(entries.size() * kEntryBytes);
  for (const Entry& e : entries) put_entry(bytes, e);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw BookError("book '" + path + "': cannot write");
  out.write(bytes.data(), std::streamsize(bytes.size()));
  out.close();
  if (!out) throw BookError("book '" + path + "': write failed");
}

}  // namespace db::book
