// The reference model of rtl/chip_ctrl.sv: one call of clock_edge() is one clock. The code
// follows the RTL's always_comb block in the same order (controller first, then the host bus,
// whose assignments win), so that differences between the two are easy to find.
#include "chip/chip_model.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>
#include <vector>

#include "chess/bitboard.h"
#include "chip/array_model.h"
#include "chip/chip_regs.h"
#include "eval/kpk.h"

namespace db::chip {

namespace {

// Placement table index of a piece on a square: {type, square relative to its owner}.
int pst_index(std::uint8_t piece, int sq) { return (piece & 7) << 6 | (sq ^ ((piece & CHIP_BLACK) ? 56 : 0)); }

std::uint8_t castle_mask(int sq) {
  switch (sq) {
    case 0:
      return 0x2;
    case 4:
      return 0x3;
    case 7:
      return 0x1;
    case 56:
      return 0x8;
    case 60:
      return 0xC;
    case 63:
      return 0x4;
    default:
      return 0;
  }
}

std::uint8_t promo_type(int idx) {
  static constexpr std::uint8_t TYPES[4] = {CHIP_QUEEN, CHIP_ROOK, CHIP_BISHOP, CHIP_KNIGHT};
  return TYPES[idx & 3];
}

bool is_promotion(std::uint8_t piece, int to, bool side) {
  return (piece & 7) == CHIP_PAWN && (to >> 3) == (side ? 0 : 7);
}

int from_of(std::uint16_t m) { return m & 63; }
int to_of(std::uint16_t m) { return (m >> 6) & 63; }
bool valid_of(std::uint16_t m) { return (m >> 15) & 1; }
bool promo_of(std::uint16_t m) { return (m >> 14) & 1; }
int promo_idx_of(std::uint16_t m) { return (m >> 12) & 3; }

std::uint16_t gen_move(int from, int to, bool promo) {
  return std::uint16_t(0x8000 | (promo ? 0x4000 : 0) | (to << 6) | from);
}

// A few entries per clock, no heap: the model's clock loop is hot. The storage is left
// uninitialised (only the entries pushed are constructed): many clocks push nothing.
template <typename T, std::size_t N>
class SmallList {
  static_assert(std::is_trivially_destructible_v<T>, "entries are never destroyed");

 public:
  SmallList() {}  // not = default: the union's entries are not to be constructed
  void push_back(const T& v) { new (&items_[size_++]) T(v); }
  void assign_one(const T& v) { new (&items_[0]) T(v), size_ = 1; }
  const T* begin() const { return items_; }
  const T* end() const { return items_ + size_; }

 private:
  union {
    T items_[N];
  };
  std::size_t size_ = 0;
};

struct BoardWrite {
  int sq;
  std::uint8_t piece;
};

// A write to the move stack, applied at the end of the clock: the whole entry, or its move only.
struct StackWrite {
  int index;
  bool whole;
  ChipModel::StackEntry entry;
};

using reg::is_read_only;  // the decode generated from rtl/regmap.json
using reg::is_read_write;

bool is_board(std::uint32_t a) { return a >= reg::BOARD_BASE && a < reg::BOARD_BASE + reg::BOARD_COUNT; }
bool is_pst(std::uint32_t a) { return a >= reg::PST_BASE && a < reg::PST_BASE + reg::PST_COUNT; }
bool is_phase_ram(std::uint32_t a) {
  return a >= reg::PHASE_RAM_BASE && a < reg::PHASE_RAM_BASE + reg::PHASE_RAM_COUNT;
}

bool is_eval_reg(std::uint32_t a) { return a >= EVAL_REGS_BASE && a < EVAL_REGS_BASE + EVAL_REGS_COUNT; }
// A table entry: inside a table's window and below its entry count.
bool is_eval_table(std::uint32_t a) {
  if (a < EVAL_TABLES_BASE || a >= EVAL_TABLES_BASE + EVAL_TABLES_COUNT * EVAL_TABLES_WINDOW) return false;
  const std::uint32_t off = a - EVAL_TABLES_BASE;
  return off % EVAL_TABLES_WINDOW < std::uint32_t(EVAL_TABLE_ENTRIES[off / EVAL_TABLES_WINDOW]);
}
// Data with bits set above a register's or table's width.
bool too_wide(std::uint32_t data, int bits) { return bits < 32 && (data >> bits) != 0; }

// A game phase event (rtl/eval_phase.sv): a piece's location register toggles by loc, its count
// changes by delta.
struct PhaseEvent {
  std::uint8_t piece;
  int loc;
  int delta;
};

void apply_phase_events(ChipModel::Registers& d, const SmallList<PhaseEvent, 4>& events) {
  for (const PhaseEvent& e : events) {
    const int type = e.piece & 7;
    if (type == 0 || type == 7) continue;
    const int colour = (e.piece >> 3) & 1;
    d.locs[colour * 6 + type - 1] ^= std::uint8_t(e.loc & 63);
    if (type != CHIP_KING) {
      std::uint8_t& c = d.counts[colour * 5 + type - 1];
      c = std::uint8_t((c + e.delta) & 15);
    }
  }
}

// Endgame logic (rtl/eval_kpk.sv): {active, pawn side wins}.
std::pair<bool, bool> kpk_state(const ChipModel::Registers& r) {
  bool only_one_pawn = r.counts[0] + r.counts[5] == 1;
  for (int t = 1; t < 5; ++t) only_one_pawn = only_one_pawn && r.counts[t] == 0 && r.counts[5 + t] == 0;
  const bool active = (r.eval_ctrl & 2) && only_one_pawn;
  if (!active) return {false, false};  // every use of the ROM's bit is gated by active (saves its lookup)
  const bool pawn_black = r.counts[5] != 0;
  const int pawn = pawn_black ? r.locs[6] : r.locs[0];
  const int strong = pawn_black ? r.locs[11] : r.locs[5];
  const int weak = pawn_black ? r.locs[5] : r.locs[11];
  const int flip = (pawn_black ? 56 : 0) | ((pawn & 4) ? 7 : 0);
  const int p = pawn ^ flip;
  const std::uint32_t addr = std::uint32_t(r.stm ^ pawn_black) << 17 | std::uint32_t(weak ^ flip) << 11 |
                             std::uint32_t(strong ^ flip) << 5 | std::uint32_t(p & 3) << 3 |
                             std::uint32_t(((p >> 3) - 1) & 7);
  const bool win = (eval::kpk_rom().bits()[addr >> 3] >> (addr & 7)) & 1;
  return {active, win};
}

int chebyshev(int a, int b) { return std::max(std::abs((a & 7) - (b & 7)), std::abs((a >> 3) - (b >> 3))); }

// Endgame draw rules (rtl/eval_rules.sv): bit 0 KQKP, 1 KRKP, 2 KRPKR.
std::uint32_t rule_draws(const ChipModel::Registers& r) {
  if (!(r.eval_ctrl & 1)) return 0;
  auto side = [&r](int c) {
    std::uint32_t v = 0;
    for (int t = 0; t < 5; ++t) v |= std::uint32_t(r.counts[c * 5 + t]) << (4 * t);
    return v;
  };
  constexpr std::uint32_t ONLY_PAWN = 0x00001, ONLY_QUEEN = 0x10000, ONLY_ROOK = 0x01000, ROOK_PAWN = 0x01001;
  std::uint32_t draws = 0;
  for (int weak_black = 0; weak_black < 2; ++weak_black) {
    const std::uint32_t strong_c = side(weak_black ? 0 : 1), weak_c = side(weak_black);
    // Every rule needs this material on both sides: the squares need not be looked at otherwise.
    if ((strong_c != ONLY_QUEEN && strong_c != ONLY_ROOK && strong_c != ROOK_PAWN) ||
        (weak_c != ONLY_PAWN && weak_c != ONLY_ROOK)) {
      continue;
    }
    const int weak_pawn = r.locs[weak_black * 6], strong_pawn = r.locs[(1 - weak_black) * 6];
    const int weak_king = r.locs[weak_black * 6 + 5], strong_king = r.locs[(1 - weak_black) * 6 + 5];
    const int weak_pawn_rank = (weak_pawn >> 3) ^ (weak_black ? 7 : 0);
    const int strong_pawn_rank = (strong_pawn >> 3) ^ (weak_black ? 0 : 7);
    const int weak_king_rank_s = (weak_king >> 3) ^ (weak_black ? 0 : 7);
    const int queening = (weak_black ? 0 : 56) | (weak_pawn & 7);
    const int file = weak_pawn & 7;
    const bool rook_or_bishop_file = file == 0 || file == 2 || file == 5 || file == 7;
    if (strong_c == ONLY_QUEEN && weak_c == ONLY_PAWN && weak_pawn_rank == 6 && rook_or_bishop_file &&
        chebyshev(weak_king, weak_pawn) == 1 && chebyshev(strong_king, queening) >= 3) {
      draws |= 1;
    }
    if (strong_c == ONLY_ROOK && weak_c == ONLY_PAWN && weak_pawn_rank >= 5 && chebyshev(weak_king, weak_pawn) == 1 &&
        chebyshev(strong_king, queening) >= 3) {
      draws |= 2;
    }
    if (strong_c == ROOK_PAWN && weak_c == ONLY_ROOK && (weak_king & 7) == (strong_pawn & 7) &&
        weak_king_rank_s > strong_pawn_rank) {
      draws |= 4;
    }
  }
  return draws;
}

// King-and-pawn array (rtl/eval_kpa.sv): the fewest own moves for a runner of colour c to
// promote, 7 = none.
int fastest_runner(const ChipModel::Registers& r, int c) {
  const int them = 1 - c;
  bool only_kp = true;
  for (int t = 1; t < 5; ++t) only_kp = only_kp && r.counts[them * 5 + t] == 0;
  if (!only_kp) return 7;
  const int our_king = r.locs[c * 6 + 5], their_king = r.locs[them * 6 + 5];
  const bool them_to_move = int(r.stm) != c;
  int best = 7;
  for (int s = 0; s < 64; ++s) {
    if (r.board[s] != std::uint8_t((c ? CHIP_BLACK : 0) | CHIP_PAWN)) continue;
    const int f = s & 7, rank = s >> 3, rel = c ? 7 - rank : rank;
    bool passed = true, path_clear = true;
    for (int t = 0; t < 64; ++t) {
      const int tr = t >> 3, tf = t & 7;
      if (!(c == 0 ? tr > rank : tr < rank)) continue;
      if (std::abs(tf - f) <= 1 && r.board[t] == std::uint8_t((them ? CHIP_BLACK : 0) | CHIP_PAWN)) passed = false;
      if (tf == f && (r.board[t] & 7)) path_clear = false;
    }
    const bool taken = them_to_move && chebyshev(their_king, s) == 1 && chebyshev(our_king, s) != 1;
    const int moves = 7 - rel - (rel == 1 ? 1 : 0);
    const int promotion = (c == 0 ? 56 : 0) + f;
    const int defender_moves = chebyshev(their_king, promotion) - (them_to_move ? 1 : 0);
    if (passed && path_clear && !taken && defender_moves > moves) best = std::min(best, moves);
  }
  return best;
}

// Widely separated passed pawns of colour c (rtl/eval_kpa.sv): passed pawns on files four or more
// apart, the defender with nothing but king and pawns.
bool separated_passers(const ChipModel::Registers& r, int c) {
  const int them = 1 - c;
  for (int t = 1; t < 5; ++t) {
    if (r.counts[them * 5 + t] != 0) return false;
  }
  int lo = 8, hi = -1;
  for (int s = 0; s < 64; ++s) {
    if (r.board[s] != std::uint8_t((c ? CHIP_BLACK : 0) | CHIP_PAWN)) continue;
    const int f = s & 7, rank = s >> 3;
    bool passed = true;
    for (int t = 0; t < 64; ++t) {
      const int tr = t >> 3, tf = t & 7;
      if ((c == 0 ? tr > rank : tr < rank) && std::abs(tf - f) <= 1 &&
          r.board[t] == std::uint8_t((them ? CHIP_BLACK : 0) | CHIP_PAWN)) {
        passed = false;
      }
    }
    if (passed) lo = std::min(lo, f), hi = std::max(hi, f);
  }
  return hi - lo >= 4;
}

// The pawn race: +1 white wins it, -1 black, 0 nobody.
int pawn_race(const ChipModel::Registers& r) {
  const int w = fastest_runner(r, 0), b = fastest_runner(r, 1);
  if (w != 7 && (b == 7 || (r.stm ? w < b : w <= b))) return 1;
  if (b != 7 && (w == 7 || (r.stm ? b <= w : b < w))) return -1;
  return 0;
}

// The endgame logic calls the position a draw (the whole evaluation is 0).
bool endgame_draw(const ChipModel::Registers& r) {
  const auto [active, win] = kpk_state(r);
  return (active && !win) || rule_draws(r) != 0;
}

// The fast evaluation before the endgame logic: placement, material combination, pawn race.
std::uint16_t fast_static_white(const ChipModel::Registers& r, const ChipModel::Tables& t) {
  const int race = pawn_race(r);
  std::uint16_t race_value = race > 0 ? r.runner_bonus : race < 0 ? std::uint16_t(0 - r.runner_bonus) : 0;
  if (separated_passers(r, 0)) race_value = std::uint16_t(race_value + r.sep_bonus);
  if (separated_passers(r, 1)) race_value = std::uint16_t(race_value - r.sep_bonus);
  return std::uint16_t(r.pst + std::uint16_t(std::int16_t(std::int8_t(ChipModel::phase_word(r, t) & 0xFF))) +
                       race_value);
}

// An ending the KPK ROM or an endgame rule calls a draw is worth nothing.
std::uint16_t fast_white(const ChipModel::Registers& r, const ChipModel::Tables& t) {
  return endgame_draw(r) ? 0 : fast_static_white(r, t);
}

}  // namespace

ChipModel::ChipModel() = default;

BusResponse ChipModel::access(bool write, std::uint32_t addr, std::uint32_t data) {
  return clock_edge(true, write, addr, data);
}

void ChipModel::tick(std::uint64_t n) {
  for (std::uint64_t i = 0; i < n; ++i) clock_edge(false, false, 0, 0);
}

std::string ChipModel::fen() const {
  const Registers& r = registers();
  static constexpr const char* LETTERS = " PNBRQK?";
  std::string f;
  for (int rank = 7; rank >= 0; --rank) {
    int gap = 0;
    for (int file = 0; file < 8; ++file) {
      const std::uint8_t p = r.board[rank * 8 + file];
      if ((p & 7) == 0) {
        ++gap;
        continue;
      }
      if (gap) f += char('0' + gap), gap = 0;
      const char c = LETTERS[p & 7];
      f += (p & CHIP_BLACK) ? char(c - 'A' + 'a') : c;
    }
    if (gap) f += char('0' + gap);
    if (rank) f += '/';
  }
  f += r.stm ? " b " : " w ";
  std::string rights;
  if (r.castling & 1) rights += 'K';
  if (r.castling & 2) rights += 'Q';
  if (r.castling & 4) rights += 'k';
  if (r.castling & 8) rights += 'q';
  f += rights.empty() ? "-" : rights;
  f += ' ';
  if (r.ep_valid) {
    f += char('a' + (r.ep_sq & 7));
    f += char('1' + (r.ep_sq >> 3));
  } else {
    f += '-';
  }
  return f + " " + std::to_string(r.half) + " " + std::to_string(r.full);
}

namespace {
// Material signature of one side (rtl/eval_phase.sv): {queens >= 1, min(rooks, 2), min(minors, 3)}.
int material_signature(const ChipModel::Registers& r, int colour) {
  const int n = r.counts[colour * 5 + 1], b = r.counts[colour * 5 + 2], rk = r.counts[colour * 5 + 3],
            q = r.counts[colour * 5 + 4];
  const int minors = n + b;
  return (q != 0) << 4 | (rk >= 2 ? 2 : rk) << 2 | (minors >= 3 ? 3 : minors);
}
}  // namespace

std::uint16_t ChipModel::phase_word(const Registers& r, const Tables& t) {
  return t.phase_ram[material_signature(r, 0) << 5 | material_signature(r, 1)];
}

std::uint16_t ChipModel::phase_word_swapped(const Registers& r, const Tables& t) {
  return t.phase_ram[material_signature(r, 1) << 5 | material_signature(r, 0)];
}

DebugPort ChipModel::debug() const {
  const Registers& r = registers();
  return DebugPort{
      r.state, r.ply,
      r.mv,    std::uint32_t(r.count),
      r.leaf,  std::uint8_t(r.phase << 6 | (r.stop ? 0x20 : 0) | (r.child_fail ? 0x10 : 0) | (r.result & 15))};
}

bool ChipModel::no_progress(const Registers& r, int moves) const {
  const std::uint8_t mover = r.stm ? 0 : CHIP_BLACK;  // the side that just moved
  for (int k = r.base; k + 3 <= moves && k < 32; ++k) {
    if (((moves - k) & 1) == 0) continue;  // the other side to move there
    int differ = 0;
    bool movers = false, others = false;
    for (int sq = 0; sq < 64; ++sq) {
      if (boards_[k][sq] == r.board[sq]) continue;
      ++differ;
      const std::uint8_t p = r.board[sq];
      if (p & 7) ((p & CHIP_BLACK) == mover ? movers : others) = true;
    }
    if (differ == 2 && movers && !others) return true;
  }
  return false;
}

std::uint16_t ChipModel::repeating_move(const Registers& r) const {
  const std::uint8_t own = r.stm ? CHIP_BLACK : 0;
  for (int k = 0; k < r.ply && k < 32; ++k) {
    if (((r.ply - k) & 1) == 0) continue;  // the other side to move there
    int differ = 0, from = 0, to = 0;
    bool owns = false, others = false, empties = false;
    for (int sq = 0; sq < 64; ++sq) {
      if (boards_[k][sq] == r.board[sq]) continue;
      ++differ;
      const std::uint8_t p = r.board[sq];
      if ((p & 7) == 0) {
        empties = true;
        to |= sq;
      } else {
        ((p & CHIP_BLACK) == own ? owns : others) = true;
        from |= sq;
      }
    }
    if (differ == 2 && owns && !others && empties) return std::uint16_t(0x8000 | to << 6 | from);
  }
  return 0;
}

std::uint8_t ChipModel::rep_status(const Registers& r, int moves) const {
  const std::uint8_t ep = std::uint8_t((r.ep_valid ? 0x40 : 0) | r.ep_sq);
  std::uint8_t status = 0;
  // The current board as eight words of eight squares (4-bit piece codes in bytes).
  std::uint64_t now[8];
  std::memcpy(now, r.board.data(), sizeof now);
  for (int k = 0; k < moves && k < 32; ++k) {
    std::uint64_t then[8];
    std::memcpy(then, boards_[k].data(), sizeof then);
    int differ = 0;  // differing squares, counted up to 3 as the comparator saturates
    for (int w = 0; w < 8 && differ < 3; ++w) {
      std::uint64_t x = now[w] ^ then[w];
      x |= x >> 1;
      x |= x >> 2;  // bit 0 of each byte: the square's code differs
      differ += popcount(x & 0x0101010101010101ULL);
    }
    const bool same_side = ((moves - k) & 1) == 0;
    if (same_side && differ == 0 && stack_[k].castling == r.castling && stack_[k].ep == ep) status |= 1;
    if (!same_side && differ == 2) status |= 2;
  }
  return status;
}

bool ChipModel::repetition(const Registers& r, int moves) const {
  // sets_ holds r.board (r is the registers before the clock), so sets_.hash is its hash.
  const std::uint8_t ep = std::uint8_t((r.ep_valid ? 0x40 : 0) | r.ep_sq);
  for (int k = moves & 1; k < moves && k < 32; k += 2) {  // the entries with the same side to move
    if (board_hashes_[k] == sets_.hash && boards_[k] == r.board && stack_[k].castling == r.castling &&
        stack_[k].ep == ep) {
      return true;
    }
  }
  return false;
}

void ChipModel::FreeMemo::operator()(SlowMemoEntry* p) const { std::free(p); }

SlowEvalResult ChipModel::slow_eval_cached(const std::array<std::uint8_t, 64>& board, bool stm, std::uint8_t castling,
                                           std::uint16_t phase, std::uint16_t phase_swap) {
  if (!slow_memo_) {
    void* p = std::calloc(std::size_t(1) << SLOW_MEMO_BITS, sizeof(SlowMemoEntry));
    if (!p) throw std::bad_alloc();
    slow_memo_.reset(static_cast<SlowMemoEntry*>(p));
  }
  std::uint64_t key[4], rest;
  SlowMemoEntry& e = slow_memo_[slow_memo_key(board, stm, castling, phase, phase_swap, key, rest)];
  SlowEvalResult res;
  if (e.generation == slow_memo_generation_ && e.rest == rest && std::memcmp(e.board, key, sizeof key) == 0) {
    res.group = e.group;
    res.white = e.white;
    res.draw_score = e.draw_score;
    return res;
  }
  res = slow_evaluate(board, stm, castling, phase, phase_swap, tables_.slow);
  std::memcpy(e.board, key, sizeof key);
  e.rest = rest;
  e.generation = slow_memo_generation_;
  e.group = res.group;
  e.white = res.white;
  e.draw_score = res.draw_score;
  return res;
}

std::size_t ChipModel::slow_memo_key(const std::array<std::uint8_t, 64>& board, bool stm, std::uint8_t castling,
                                     std::uint16_t phase, std::uint16_t phase_swap, std::uint64_t key[4],
                                     std::uint64_t& rest) {
  // The board's codes are 4 bits: two squares a byte, 32 bytes.
  for (int i = 0; i < 4; ++i) {
    std::uint64_t lo, hi;
    std::memcpy(&lo, board.data() + 16 * i, 8);
    std::memcpy(&hi, board.data() + 16 * i + 8, 8);
    auto pack = [](std::uint64_t w) {
      w &= 0x0F0F0F0F0F0F0F0FULL;
      w = (w | (w >> 4)) & 0x00FF00FF00FF00FFULL;
      w = (w | (w >> 8)) & 0x0000FFFF0000FFFFULL;
      return (w | (w >> 16)) & 0xFFFFFFFFULL;
    };
    key[i] = pack(lo) | pack(hi) << 32;
  }
  rest = std::uint64_t(phase_swap) << 21 | std::uint64_t(phase) << 5 | std::uint64_t(castling & 15) << 1 |
         std::uint64_t(stm);
  std::uint64_t h = rest * 0x9E3779B97F4A7C15ULL;
  for (int i = 0; i < 4; ++i) h = (h ^ key[i]) * 0xFF51AFD7ED558CCDULL;
  return std::size_t((h ^ (h >> 29)) >> (64 - SLOW_MEMO_BITS));
}

BusResponse ChipModel::clock_edge(bool req, bool write, std::uint32_t addr, std::uint32_t data) {
  ++clock_;
  const Registers& q = regs_[cur_];
  ++state_clocks_[q.state < CTRL_STATES ? q.state : 0];
  // A stand pat's clocks waiting for the slow evaluation (SEVAL before the evaluation's last clock,
  // no bus request) change nothing but the evaluation's clock and CYCLES: the full step below
  // would find the same after all its decoding (about one clock in eleven of a search).
  if (!req && q.state == S_SEVAL && q.se_busy && q.se_clock < SLOW_EVAL_CLOCKS - 1) {
    Registers& r = regs_[cur_];
    r.cycles = q.cycles + 1;
    r.se_clock = std::uint8_t(q.se_clock + 1);
    return BusResponse{};
  }
  addr &= (1u << ADDRESS_BITS) - 1;  // the bus has 17 address lines
  const Tables& t = tables_;
  Registers& d = regs_[cur_ ^ 1];  // the registers after the clock: as before unless assigned
  d = q;
  SmallList<BoardWrite, 4> writes;
  SmallList<StackWrite, 4> stack_writes;
  int board_snapshot = -1;  // MAKE stores the board before the move at this stack entry
  SmallList<PhaseEvent, 4> phase_events;
  bool phase_clear = false;
  bool clear = false;
  bool pst_write = false;
  bool phase_write = false;
  bool eval_reg_write = false, eval_table_write = false;
  BusResponse resp;

  const ArrayModel array(sets_, q.stm, q.castling, q.ep_valid, q.ep_sq);
  const bool busy = q.state != S_IDLE || q.se_busy;
  namespace cmdf = field::cmd;
  namespace sc = field::search_ctrl;
  namespace oc = field::offset_ctrl;
  const int op = int(cmdf::OP.get(q.cmd));
  const int mode = int(cmdf::MODE.get(q.cmd));
  const int depth = int(cmdf::DEPTH.get(q.cmd));  // PERFT's depth; the search's is sdepth below
  const int pi = q.ply & 31;
  const std::uint16_t last = stack_[pi].move;
  const bool searching = op == int(op::SEARCH);
  // Hardware search: the node being expanded is at ply p = q.ply, rel_p plies from the root; its
  // child is at c = p + 1. Even plies test "value >= (V, Vtb)", odd plies "value > (-V, -Vtb)".
  const int rel_p = q.ply - q.base, rel_c = rel_p + 1;
  const bool qs_on = sc::QUIESCENCE.get(q.search_ctrl), ev_on = sc::EVASIONS.get(q.search_ctrl);
  const bool rep_on = sc::REPETITION.get(q.search_ctrl), np_on = sc::NO_PROGRESS.get(q.search_ctrl);
  const bool ignore_stalemate = sc::IGNORE_STALEMATE.get(q.search_ctrl);
  const bool ext_pawn7 = sc::EXT_PAWN7.get(q.search_ctrl), ext_hung2 = sc::EXT_HUNG2.get(q.search_ctrl);
  const bool ext_hung1 = sc::EXT_HUNG1.get(q.search_ctrl), ext_opp_hung = sc::EXT_OPP_HUNG.get(q.search_ctrl);
  const bool rep_tie_on = sc::REP_TIE.get(q.search_ctrl), rep_strive = sc::REP_STRIVE.get(q.search_ctrl);
  const bool rep_bound = sc::REP_BOUND.get(q.search_ctrl), ext_pawn6 = sc::EXT_PAWN6.get(q.search_ctrl);
  const int qs_mating = int(sc::MATING_CHECKS.get(q.search_ctrl));
  const int qs_singular = int(sc::SINGULAR_CHECKS.get(q.search_ctrl));
  const int qs_depth = int(sc::QS_DEPTH.get(q.search_ctrl));
  // Offset searches at the root (AIJ 5, parameters 2 and 7): after the search failed high with a
  // move, the other root moves are searched to the offset depth against the test value less the
  // margin; if the number that reach it is one the flags ask for (none: singular, one: binary,
  // two: trinary), the fail-high move is searched again one ply deeper and decides the result.
  enum { PH_MAIN = 0, PH_OFFSET = 1, PH_EXTEND = 2 };
  const int off_depth = int(oc::DEPTH.get(q.offset_ctrl)), off_margin = int(oc::MARGIN.get(q.offset_ctrl));
  const bool off_single = oc::SINGULAR.get(q.offset_ctrl), off_binary = oc::BINARY.get(q.offset_ctrl);
  const bool off_trinary = oc::TRINARY.get(q.offset_ctrl);
  const bool off_on = off_single || off_binary || off_trinary;
  const int alt_limit = off_trinary ? 3 : off_binary ? 2 : 1;  // stop counting here: no condition left
  const int sdepth = q.phase == PH_OFFSET ? off_depth : q.phase == PH_EXTEND ? depth + 1 : depth;
  const int test_s = std::int16_t(q.test_value) - (q.phase == PH_OFFSET ? off_margin : 0);
  const int test_tb = std::int16_t(q.test_tie);
  auto succeeds = [&](int s, int tb, bool odd) {
    return odd ? (s > -test_s || (s == -test_s && tb > -test_tb)) : (s > test_s || (s == test_s && tb >= test_tb));
  };
  const bool odd_p = rel_p & 1, odd_c = !odd_p;
  // The tie-breaker of a repetition draw at the child, "moves until repetition" (AIJ 4.3): the
  // base SEARCH_CTRL[28:22] less its plies from the root, positive from the root side's view when
  // it strives for the draw, negative when it avoids it; negated at odd plies.
  const int rep_tie_mag = int(sc::REP_BASE.get(q.search_ctrl)) - rel_c;
  const int rep_tie = !rep_tie_on ? 0 : (rep_strive != odd_c) ? rep_tie_mag : -rep_tie_mag;

  // ------------------------------------------------------------ controller
  if (busy) d.cycles = q.cycles + 1;
  auto set_error = [&](std::uint8_t code, std::uint32_t a) {
    d.err_code = code;
    d.err_addr = a;
  };
  auto finish = [&] {
    d.state = S_IDLE;
    d.done = true;
  };

  // The slow evaluation (rtl/eval_slow.sv): 8 file steps and 3 clocks of latency; the last clock
  // writes the result.
  if (q.se_busy) {
    d.se_clock = std::uint8_t(q.se_clock + 1);
    if (q.se_clock == SLOW_EVAL_CLOCKS - 1) {
      const SlowEvalResult res =
          slow_eval_cached(q.board, q.stm, q.castling, phase_word(q, t), phase_word_swapped(q, t));
      d.draw_score = res.draw_score;
      d.se_group = res.group;
      d.se_value = q.stm ? std::uint16_t(0 - res.white) : res.white;
      d.se_busy = false;
      if (q.state == S_IDLE) d.done = true;
      // The low-pass filter follows every slow evaluation.
      const int shift = (t.slow.regs[ER_EVAL_CONTROL + 1] >> 16) & 15;
      const int step = (int(std::int16_t(res.white)) - int(std::int16_t(q.slow_est))) >> shift;
      d.slow_est = std::uint16_t(q.slow_est + step);
      if (q.lazy_pending) {
        const std::uint16_t fast = q.stm ? std::uint16_t(0 - fast_white(q, t)) : fast_white(q, t);
        const std::int16_t total = std::int16_t(std::uint16_t(fast + d.se_value));
        d.lazy = std::uint8_t(4 | (total >= std::int16_t(q.test_value) ? 2 : 0));
        d.lazy_pending = false;
      }
    }
  }

  bool undo = false;
  const bool se_finish = q.se_busy && q.se_clock == SLOW_EVAL_CLOCKS - 1;
  auto fast_stm = [&] { return q.stm ? std::uint16_t(0 - fast_white(q, t)) : fast_white(q, t); };
  // The search's unwinding: the node at ply p succeeded (its parent goes on with its next move) or
  // failed (its parent succeeds and returns at once); at the root either ends the search.
  // The root decided (or, in the offset phase, one alternative reached the offset test value).
  // RESULT: [0] finished, [1] fail high, [3] no legal move, [5:4] alternatives found, [6] the
  // offset searches ran, [7] the fail-high move was searched one ply deeper.
  auto root_result = [&](bool success, std::uint16_t best, bool none = false) {
    auto final_result = [&](bool s, std::uint16_t b, int flags) {
      d.result = std::uint8_t(1 | (s ? 2 : 0) | (none ? 8 : 0) | flags);
      d.best_move = s ? b : 0;
      finish();
    };
    auto restart_root = [&] {
      stack_writes.push_back({q.base & 31, false, StackEntry{0}});
      d.legal = d.legal & ~(1u << (q.base & 31));
      d.child_fail = false;
      d.state = S_GEN;
    };
    const int ran = 0x40, extended = 0x80;
    if (q.phase == PH_MAIN) {
      if (success && off_on && best != 0) {
        d.phase = PH_OFFSET;
        d.main_best = best;
        d.alternatives = 0;
        restart_root();
      } else {
        final_result(success, best, 0);
      }
    } else if (q.phase == PH_OFFSET) {
      const bool condition = (q.alternatives == 0 && off_single) || (q.alternatives == 1 && off_binary) ||
                             (q.alternatives == 2 && off_trinary);
      if (success && q.alternatives + 1 == alt_limit) {
        final_result(true, q.main_best, ran | alt_limit << 4);
      } else if (success) {
        d.alternatives = std::uint8_t(q.alternatives + 1);  // go on with the next root move
        d.child_fail = false;
        d.state = S_GEN;
      } else if (condition) {
        d.phase = PH_EXTEND;
        restart_root();
      } else {
        final_result(true, q.main_best, ran | q.alternatives << 4);
      }
    } else {
      final_result(success, best, ran | extended | q.alternatives << 4);
    }
  };
  auto node_done = [&](bool success, bool none) {
    if (q.ply == q.base) {
      // Out of moves at the root: only the search proper scores a mate or stalemate there.
      root_result(q.phase == PH_MAIN && success, 0, q.phase == PH_MAIN && none);
    } else {
      d.ply = std::uint8_t(q.ply - 1);
      d.child_fail = !success;
      d.state = S_UNMAKE;
    }
  };
  auto descend = [&](std::uint8_t qc) {
    undo = false;
    const int c = q.ply + 1;
    d.ply = std::uint8_t(c);
    stack_writes.push_back({c & 31, false, StackEntry{0}});
    d.legal = d.legal & ~(1u << (c & 31));
    d.rtried = q.rtried & ~(1u << (c & 31));
    d.extended = q.extended & ~(1u << (c & 31));
    d.qc = qc;
    d.state = S_GEN;
  };
  // A leaf (a stand pat, or a repetition: terminal) decided whether the child succeeds: if a stand
  // pat failed, the quiescence search goes on below it when it may; otherwise the node at p succeeds.
  auto leaf_decided = [&](bool child_success, std::uint8_t qc, bool terminal) {
    if (child_success) {
      d.state = S_GEN;
    } else if (!terminal && qs_on && rel_c < sdepth + qs_depth && q.ply < 31) {
      descend(qc);
    } else if (q.ply == q.base) {
      root_result(true, q.mv);
    } else {
      d.ply = std::uint8_t(q.ply - 1);
      d.child_fail = false;
      d.state = S_UNMAKE;
    }
  };
  // Quiescence checks (AIJ 5, parameters 5 and 6), classified on the child's board
  // (ArrayModel::check_class). Counters: [1:0] white's mating checks, [3:2] black's, [5:4] and
  // [7:6] the singular ones; in the child the mover is the side not to move (q.stm = 1: white moved).
  using CheckClass = ArrayModel::CheckClass;
  const bool quiet_filtered = q.qfilter && stack_[pi].captured == 0;
  // A filtered non-capture is searched when it checks and its class has checks left for its mover.
  auto check_allowed = [&] {
    const int mover_shift = q.stm ? 0 : 2;
    switch (array.check_class(to_of(q.mv))) {
      case CheckClass::kMating:
        return qs_mating > (q.qc >> mover_shift & 3);
      case CheckClass::kSingular:
        return qs_singular > (q.qc >> (4 + mover_shift) & 3);
      default:
        return false;
    }
  };
  // The counters after the move at p: a searched checking non-capture counts in its class.
  auto qc_after_move = [&] {
    if (!quiet_filtered) return q.qc;
    const int mover_shift = q.stm ? 0 : 2;
    const int shift = array.check_class(to_of(q.mv)) == CheckClass::kMating ? mover_shift : 4 + mover_shift;
    return std::uint8_t(q.qc + (1 << shift));
  };
  switch (q.state) {
    case S_CHECK: {
      const int from = from_of(q.move), to = to_of(q.move);
      const bool ok = valid_of(q.move) && (array.attackers_of(to) >> from & 1) && array.target_candidate(to, false) &&
                      promo_of(q.move) == is_promotion(q.board[from], to, q.stm) &&
                      (promo_of(q.move) || promo_idx_of(q.move) == 0);
      if (!ok) {
        finish();
        set_error(std::uint8_t(err::BAD_MOVE), reg::CMD);
      } else if (op == int(op::MAKE)) {
        d.mv = q.move;
        d.state = S_MAKE;
      } else {
        d.state = S_GEN;
      }
      break;
    }
    case S_GEN: {
      // Quiescence nodes generate captures, or every move filtered to captures and checks while the
      // side may still check; a side in check there searches all its moves (evasions).
      const bool in_check = array.in_check();
      const bool qnode = searching && rel_p >= sdepth && !(in_check && ev_on) && !(q.extended >> pi & 1);
      const int own_shift = q.stm ? 2 : 0;
      const bool checks_ok = qs_mating > (q.qc >> own_shift & 3) || qs_singular > (q.qc >> (4 + own_shift) & 3);
      d.qfilter = qnode && checks_ok;
      // The node's repeating move first (SEARCH_CTRL[20]), once, below the root.
      const std::uint16_t rep_move =
          searching && rep_on && rep_bound && !valid_of(last) && !(q.rtried >> pi & 1) && q.ply != q.base
              ? repeating_move(q)
              : 0;
      const bool captures_only = (mode == int(mode::CAPTURES) && op == int(op::GEN)) || (qnode && !checks_ok);
      int att = -1;
      if (valid_of(last) && !(promo_of(last) && promo_idx_of(last) != 3)) {
        att = array.arbitrate_attacker(to_of(last), true, from_of(last));
      }
      if (rep_move != 0) {
        d.mv = rep_move;
        d.rtried = q.rtried | 1u << pi;
        d.state = S_REPCHK;
      } else if (valid_of(last) && promo_of(last) && promo_idx_of(last) != 3) {
        d.mv = std::uint16_t((last & 0xC000) | (((promo_idx_of(last) + 1) & 3) << 12) | (last & 0x0FFF));
        d.state = S_MAKE;
        d.generated = q.generated + 1;
      } else if (valid_of(last) && att >= 0) {
        d.mv = gen_move(att, to_of(last), is_promotion(q.board[att], to_of(last), q.stm));
        d.state = S_MAKE;
        d.generated = q.generated + 1;
      } else {
        const int tgt = array.arbitrate_target(captures_only, valid_of(last), to_of(last));
        if (tgt >= 0) {
          d.tgt = std::uint8_t(tgt);
          d.state = S_GENATT;
        } else if (op == int(op::PERFT) && q.ply != q.base) {
          d.ply = std::uint8_t(q.ply - 1);
          d.state = S_UNMAKE;
        } else if (searching) {
          // Exhausted: every move failed, unless there was none (mate or stalemate) at a full-width
          // or evasion node.
          const bool none = !qnode && !(q.legal >> pi & 1);
          // With the flag, a stalemate one ply above quiescence is not scored: the node fails.
          const bool stale_ignored = ignore_stalemate && !in_check && rel_p + 1 == sdepth;
          const bool success = none && !stale_ignored && succeeds(in_check ? -(int(MATE_SCORE) - rel_p) : 0, 0, odd_p);
          node_done(success, none);
        } else {
          finish();
          d.move_valid = false;
        }
      }
      break;
    }
    case S_REPCHK: {
      // The repeating move is made only if the piece can move there (the checks of a host move).
      const int from = from_of(q.mv), to = to_of(q.mv);
      const bool ok = (array.attackers_of(to) >> from & 1) && array.target_candidate(to, false) &&
                      !is_promotion(q.board[from], to, q.stm);
      if (ok) d.rtry = true;
      d.state = ok ? S_MAKE : S_GEN;
      break;
    }
    case S_GENATT: {
      const int att = array.arbitrate_attacker(q.tgt, false, 0);
      const int from = att < 0 ? (q.stm ? 56 : 0) : att;  // the RTL's arbiter reads key 0 when nobody bids
      d.mv = gen_move(from, q.tgt, is_promotion(q.board[from], q.tgt, q.stm));
      d.state = S_MAKE;
      d.generated = q.generated + 1;
      break;
    }
    case S_MAKE: {
      const int from = from_of(q.mv), to = to_of(q.mv);
      const int base = q.stm ? 56 : 0;
      const std::uint8_t pc = q.board[from];
      const bool pawn = (pc & 7) == CHIP_PAWN;
      const bool ep = pawn && q.ep_valid && to == q.ep_sq;
      const bool castle = (pc & 7) == CHIP_KING && from == base + 4 && (to == base + 6 || to == base + 2);
      const std::uint8_t me = q.stm ? CHIP_BLACK : 0;
      const std::uint8_t cap = ep ? std::uint8_t((q.stm ? 0 : CHIP_BLACK) | CHIP_PAWN) : q.board[to];
      const std::uint8_t moved = promo_of(q.mv) ? std::uint8_t(me | promo_type(promo_idx_of(q.mv))) : pc;
      const int rook_from = to == base + 6 ? base + 7 : base;
      const int rook_to = to == base + 6 ? base + 5 : base + 3;
      writes.push_back({from, 0});
      writes.push_back({to, moved});
      if (ep) writes.push_back({to ^ 8, 0});
      if (castle) {
        writes.push_back({rook_from, 0});
        writes.push_back({rook_to, std::uint8_t(me | CHIP_ROOK)});
      }
      StackEntry e;
      e.move = q.mv;
      e.captured = cap;
      e.castling = q.castling;
      e.ep = std::uint8_t((q.ep_valid ? 0x40 : 0) | q.ep_sq);
      e.halfmove = q.half;
      e.flags = std::uint8_t((castle ? 2 : 0) | (ep ? 1 : 0));
      e.qc = q.qc;
      board_snapshot = pi;
      d.stm = !q.stm;
      d.castling = std::uint8_t(q.castling & ~(castle_mask(from) | castle_mask(to)));
      const bool dpush = pawn && ((from ^ to) == 16);
      d.ep_valid = dpush;
      d.ep_sq = dpush ? std::uint8_t((from + to) >> 1) : 0;
      d.half = (pawn || cap != 0) ? 0 : std::uint16_t(q.half + 1);
      d.full = std::uint16_t(q.full + (q.stm ? 1 : 0));
      {
        const int capsq = ep ? (to ^ 8) : to;
        const std::uint16_t va = t.pst_ram[pst_index(pc, from)];
        const std::uint16_t vb = t.pst_ram[pst_index(moved, to)];
        const std::uint16_t vc = (cap & 7) ? t.pst_ram[pst_index(cap, capsq)] : 0;
        const std::uint16_t cdelta = !castle ? 0 : (to == base + 6 ? q.castle_k : q.castle_q);
        const std::uint16_t delta = std::uint16_t(vb - va + vc + cdelta);
        d.pst = std::uint16_t(q.stm ? q.pst - delta : q.pst + delta);
        e.pst = q.pst;
        stack_writes.push_back({pi, true, e});
        const bool promo = promo_of(q.mv);
        phase_events.push_back({pc, from, promo ? -1 : 0});
        phase_events.push_back({moved, to, promo ? 1 : 0});
        if (cap & 7) phase_events.push_back({cap, capsq, -1});
        if (castle) phase_events.push_back({std::uint8_t(me | CHIP_ROOK), rook_from ^ rook_to, 0});
      }
      d.state = S_TEST;
      break;
    }
    case S_TEST:
    case S_UNMAKE: {
      undo = true;
      if (q.state == S_TEST) {
        if (op == int(op::PERFT)) {
          if (array.king_capture()) {
            d.state = S_GEN;
          } else if (q.ply + 1 == q.base + depth) {
            d.count = q.count + 1;
            d.state = S_GEN;
          } else {
            undo = false;
            d.ply = std::uint8_t(q.ply + 1);
            stack_writes.push_back({(pi + 1) & 31, false, StackEntry{0}});
            d.state = S_GEN;
          }
        } else if (searching) {
          // The offset searches skip the fail-high move at the root; the extended search the others.
          const bool root_skip = q.ply == q.base && ((q.phase == PH_OFFSET && q.mv == q.main_best) ||
                                                     (q.phase == PH_EXTEND && q.mv != q.main_best));
          const bool legal_move = !array.king_capture() && !root_skip;
          // The detector (evaluated only where the RTL's result is used: the model's time).
          const bool repeats = legal_move && (q.rtry || rep_on) && repetition(q, q.ply + 1);
          // A repeating move counts only when it repeats the position (castling and en passant too).
          const bool accept = q.rtry ? repeats : !quiet_filtered || (array.in_check() && check_allowed());
          d.rtry = false;
          if (q.rtry) stack_writes.push_back({pi, false, StackEntry{0}});  // generation starts afresh
          if (!legal_move || !accept) {
            d.state = S_GEN;
          } else {
            d.count = q.count + 1;
            d.legal = q.legal | 1u << pi;
            const std::uint8_t qc_after = qc_after_move();
            // Quiescence extensions: the child's hung pieces (side to move's; two, or one pinned),
            // a pawn on the 7th.
            const Bitboard hung = array.hung();
            const int c = q.ply + 1;
            const bool one_hung = hung != 0 && (hung & (hung - 1)) == 0;
            d.hung1 = (q.hung1 & ~(1u << (c & 31))) | (one_hung ? 1u << (c & 31) : 0u);
            const int to = to_of(q.mv);
            const bool pawn7 = (q.board[to] & 7) == CHIP_PAWN && (to >> 3) == (q.stm ? 6 : 1);
            // Flag 9's "pawn to the 6th in some cases": a passed pawn on the 6th with the square
            // ahead empty (no pawn of the side to move on the 7th rank on its file or beside it).
            const int front = q.stm ? to + 8 : to - 8;
            const std::uint8_t enemy_pawn = std::uint8_t((q.stm ? CHIP_BLACK : 0) | CHIP_PAWN);
            const bool pawn6 = (q.board[to] & 7) == CHIP_PAWN && (to >> 3) == (q.stm ? 5 : 2) &&
                               (q.board[front & 63] & 7) == 0 &&
                               ((to & 7) == 0 || q.board[(front - 1) & 63] != enemy_pawn) &&
                               ((to & 7) == 7 || q.board[(front + 1) & 63] != enemy_pawn);
            std::uint32_t path = 0;  // plies base+1 .. c-1
            for (int k = q.base + 1; k < c; ++k) path |= 1u << (k & 31);
            const bool extend = q.ply < 31 && (q.extended & path) == 0 &&
                                ((ext_pawn7 && pawn7) || (ext_pawn6 && pawn6) ||
                                 (ext_hung2 && hung != 0 && (!one_hung || (hung & array.pinned()) != 0)) ||
                                 (ext_hung1 && one_hung && rel_c >= 3 && (q.hung1 >> ((c - 2) & 31) & 1)) ||
                                 (ext_opp_hung && array.opp_hung() != 0));
            if (q.node_limit != 0 && q.count + 1 >= q.node_limit) {
              d.stop = true;
              d.result = 4;
              if (q.ply == q.base)
                finish();
              else {
                d.ply = std::uint8_t(q.ply - 1);
                d.state = S_UNMAKE;
              }
            } else if (rep_on && repeats) {
              d.leaf = 0;
              leaf_decided(succeeds(0, rep_tie, odd_c), qc_after, true);
            } else if (np_on && no_progress(q, q.ply + 1)) {
              leaf_decided(true, qc_after, true);  // no progress: fails low for its mover
            } else if (rel_c < sdepth || (ev_on && array.in_check() && q.ply < 31)) {
              descend(qc_after);
            } else if (extend) {
              descend(qc_after);
              d.extended |= 1u << (c & 31);  // searched full width, no stand pat
            } else {
              // Stand pat: an endgame draw, the lazy decision, or the slow evaluation.
              const std::uint32_t lz = t.slow.regs[ER_EVAL_CONTROL + 1];
              const int margin = int(lz & 0xFFFF), min_pieces = int(lz >> 24 & 15);
              int pieces = 0;
              for (int side = 0; side < 2; ++side) {
                for (int type = 1; type < 5; ++type) pieces += q.counts[side * 5 + type];
              }
              // fast_stm() from its parts, each computed once (the model's time).
              const bool draw = endgame_draw(q);
              const std::uint16_t raw = fast_static_white(q, t);
              const int raw_stm = std::int16_t(q.stm ? std::uint16_t(0 - raw) : raw);
              const int fast = draw ? 0 : raw_stm;
              const int est = q.stm ? -int(std::int16_t(q.slow_est)) : int(std::int16_t(q.slow_est));
              const int thr = odd_c ? -test_s : test_s;
              const bool active = (lz >> 20 & 1) && pieces >= min_pieces;
              if (draw) {
                const int tb = raw_stm;
                d.leaf = 0;
                leaf_decided(succeeds(0, tb, odd_c), qc_after, false);
              } else if (active && fast + est - margin > thr) {
                d.leaf = std::uint16_t(fast);
                leaf_decided(true, qc_after, false);
              } else if (active && fast + est + margin < thr) {
                d.leaf = std::uint16_t(fast);
                leaf_decided(false, qc_after, false);
              } else {
                undo = false;
                d.se_busy = true;
                d.se_clock = 0;
                d.state = S_SEVAL;
              }
            }
          }
        } else if (op == int(op::MAKE)) {
          if (array.king_capture()) {
            finish();
            set_error(std::uint8_t(err::BAD_MOVE), reg::CMD);
          } else {
            undo = false;
            d.host_ply = std::uint8_t(q.host_ply + 1);
            finish();
          }
        } else {
          bool accept = true;
          const StackEntry& e = stack_[pi];
          if (mode == int(mode::CAPTURES))
            accept = e.captured != 0;
          else if (mode == int(mode::CHECKS))
            accept = array.in_check();
          else if (mode == int(mode::ATTACKS))
            accept = e.captured == 0 && array.tsel_attacks(to_of(q.mv));
          if (!array.king_capture() && accept) {
            d.move = q.mv;
            d.move_valid = true;
            finish();
          } else {
            d.state = S_GEN;
          }
        }
      } else if (op == int(op::UNMAKE)) {
        d.host_ply = q.ply;
        finish();
      } else if (searching && (q.stop || q.child_fail)) {
        // Stopping unwinds to the root; a failed child means this node succeeded.
        if (q.ply == q.base) {
          if (q.stop)
            finish();
          else
            root_result(true, stack_[pi].move);
        } else {
          d.ply = std::uint8_t(q.ply - 1);
          d.child_fail = false;
        }
      } else {
        d.state = S_GEN;
      }
      break;
    }
    case S_SEVAL: {
      // The stand pat waits for the slow evaluation; its last clock decides.
      if (se_finish) {
        const std::uint16_t total = std::uint16_t(fast_stm() + d.se_value);
        d.leaf = total;
        undo = true;
        leaf_decided(succeeds(std::int16_t(total), 0, odd_c), qc_after_move(), false);
      }
      break;
    }
    case S_EINIT: {
      d.scan = std::uint8_t(q.scan + 1);
      if (q.scan < 64) {
        const std::uint8_t p = q.board[q.scan];
        const std::uint16_t v = (p & 7) ? t.pst_ram[pst_index(p, q.scan)] : 0;
        d.pst = std::uint16_t((p & CHIP_BLACK) ? q.pst - v : q.pst + v);
        phase_events.push_back({p, q.scan, 1});
      } else {
        // Clock 64: the O-O rook (h1 to f1); clock 65: the O-O-O rook (a1 to d1); relative squares.
        const bool queen_side = q.scan & 1;
        const std::uint16_t from = t.pst_ram[CHIP_ROOK << 6 | (queen_side ? 0 : 7)];
        const std::uint16_t to = t.pst_ram[CHIP_ROOK << 6 | (queen_side ? 3 : 5)];
        if (!queen_side) {
          d.castle_k = std::uint16_t(to - from);
        } else {
          d.castle_q = std::uint16_t(to - from);
          finish();
        }
      }
      break;
    }
    default:
      break;
  }
  if (undo) {
    const StackEntry& e = stack_[pi];
    const int from = from_of(e.move), to = to_of(e.move);
    const bool mover = !q.stm;
    const int base = mover ? 56 : 0;
    const std::uint8_t orig = promo_of(e.move) ? std::uint8_t((mover ? CHIP_BLACK : 0) | CHIP_PAWN) : q.board[to];
    const bool ep = e.flags & 1, castle = e.flags & 2;
    writes.push_back({from, orig});
    writes.push_back({to, ep ? std::uint8_t(0) : e.captured});
    if (ep) writes.push_back({to ^ 8, e.captured});
    if (castle) {
      const int rook_from = to == base + 6 ? base + 7 : base;
      const int rook_to = to == base + 6 ? base + 5 : base + 3;
      writes.push_back({rook_to, 0});
      writes.push_back({rook_from, std::uint8_t((mover ? CHIP_BLACK : 0) | CHIP_ROOK)});
    }
    d.stm = mover;
    d.castling = e.castling;
    d.ep_valid = (e.ep >> 6) & 1;
    d.ep_sq = e.ep & 63;
    d.half = e.halfmove;
    d.full = std::uint16_t(q.full - (mover ? 1 : 0));
    d.pst = e.pst;
    d.qc = e.qc;
    const bool promo = promo_of(e.move);
    phase_events.push_back({orig, from, promo ? 1 : 0});
    phase_events.push_back({q.board[to], to, promo ? -1 : 0});
    if (e.captured & 7) phase_events.push_back({e.captured, ep ? (to ^ 8) : to, 1});
    if (castle) {
      const int rook_from = to == base + 6 ? base + 7 : base;
      const int rook_to = to == base + 6 ? base + 5 : base + 3;
      phase_events.push_back({std::uint8_t((mover ? CHIP_BLACK : 0) | CHIP_ROOK), rook_from ^ rook_to, 0});
    }
  }

  // ------------------------------------------------------------ host bus
  if (req) {
    const bool board_addr = is_board(addr);
    const bool ro = is_read_only(addr), rw = is_read_write(addr);
    // Read data (from the registers before the clock).
    const bool pst_addr = is_pst(addr);
    const bool phase_addr = is_phase_ram(addr);
    const bool ereg_addr = is_eval_reg(addr), etab_addr = is_eval_table(addr);
    const bool group_addr = addr >= reg::SE_GROUP_BASE && addr < reg::SE_GROUP_BASE + reg::SE_GROUP_COUNT;
    if (group_addr) {
      const std::uint32_t g = addr - reg::SE_GROUP_BASE;
      resp.data = g < SLOW_GROUPS ? q.se_group[g] : 0;
    } else if (ereg_addr) {
      resp.data = t.slow.regs[addr - EVAL_REGS_BASE];
    } else if (etab_addr) {
      const std::uint32_t off = addr - EVAL_TABLES_BASE;
      resp.data = busy ? 0 : t.slow.tables[off / EVAL_TABLES_WINDOW][off % EVAL_TABLES_WINDOW];
    } else if (board_addr) {
      resp.data = q.board[addr & 63];
    } else if (pst_addr) {
      resp.data = busy ? 0 : t.pst_ram[addr & 511];
    } else if (phase_addr) {
      resp.data = t.phase_ram[addr & 1023];
    } else {
      switch (addr) {
        case reg::ID:
          resp.data = CHIP_ID;
          break;
        case reg::VERSION:
          resp.data = CHIP_VERSION;
          break;
        case reg::CMD:
          resp.data = q.cmd;
          break;
        case reg::STATUS:
          resp.data = field::status::BUSY.put(busy) | field::status::DONE.put(q.done) |
                      field::status::ERROR.put(q.err_code != 0) | field::status::IN_CHECK.put(array.in_check()) |
                      field::status::MOVE_VALID.put(q.move_valid) | field::status::LEGAL.put(!array.king_capture()) |
                      field::status::ABORTED.put(q.aborted) | field::status::ERR_CODE.put(q.err_code);
          break;
        case reg::ERROR:
          resp.data = q.err_addr << 8 | q.err_code;
          break;
        case reg::STM:
          resp.data = q.stm;
          break;
        case reg::CASTLING:
          resp.data = q.castling;
          break;
        case reg::EP:
          resp.data = std::uint32_t(q.ep_valid) << 6 | q.ep_sq;
          break;
        case reg::HALFMOVE:
          resp.data = q.half;
          break;
        case reg::FULLMOVE:
          resp.data = q.full;
          break;
        case reg::MOVE:
          resp.data = q.move;
          break;
        case reg::PLY:
          resp.data = q.host_ply;
          break;
        case reg::COUNT_LO:
          resp.data = std::uint32_t(q.count);
          break;
        case reg::COUNT_HI:
          resp.data = std::uint32_t(q.count >> 32);
          break;
        case reg::CYCLES_LO:
          resp.data = std::uint32_t(q.cycles);
          break;
        case reg::CYCLES_HI:
          resp.data = std::uint32_t(q.cycles >> 32);
          break;
        case reg::HUNG_LO:
          resp.data = std::uint32_t(array.hung());
          break;
        case reg::HUNG_HI:
          resp.data = std::uint32_t(array.hung() >> 32);
          break;
        case reg::GENERATED:
          resp.data = q.generated;
          break;
        case reg::PINNED_LO:
          resp.data = std::uint32_t(array.pinned());
          break;
        case reg::PINNED_HI:
          resp.data = std::uint32_t(array.pinned() >> 32);
          break;
        case reg::EVAL_CTRL:
          resp.data = q.eval_ctrl;
          break;
        case reg::FAST_EVAL:
          resp.data = q.stm ? std::uint16_t(0 - fast_white(q, t)) : fast_white(q, t);
          break;
        case reg::PIECE_COUNT_W:
        case reg::PIECE_COUNT_B: {
          const int c = addr == reg::PIECE_COUNT_B;
          for (int type = 0; type < 5; ++type) resp.data |= std::uint32_t(q.counts[c * 5 + type]) << (4 * type);
          break;
        }
        case reg::PIECE_LOC_W:
        case reg::PIECE_LOC_B: {
          const int c = addr == reg::PIECE_LOC_B;
          for (int type = 0; type < 5; ++type) resp.data |= std::uint32_t(q.locs[c * 6 + type]) << (6 * type);
          break;
        }
        case reg::KING_SQ:
          resp.data = std::uint32_t(q.locs[11]) << 8 | q.locs[5];
          break;
        case reg::PHASE:
          resp.data = phase_word(q, t);
          break;
        case reg::ENDGAME: {
          const auto [active, win] = kpk_state(q);
          resp.data = rule_draws(q) << 2 | std::uint32_t(active && win) << 1 | std::uint32_t(active);
          break;
        }
        case reg::RUNNER_BONUS:
          resp.data = q.runner_bonus;
          break;
        case reg::SEP_BONUS:
          resp.data = q.sep_bonus;
          break;
        case reg::KPA: {
          const int race = pawn_race(q);
          resp.data = std::uint32_t(separated_passers(q, 1)) << 11 | std::uint32_t(separated_passers(q, 0)) << 10 |
                      std::uint32_t(race < 0) << 9 | std::uint32_t(race > 0) << 8 |
                      std::uint32_t(fastest_runner(q, 1)) << 4 | std::uint32_t(fastest_runner(q, 0));
          break;
        }
        case reg::PST_SUM:
          resp.data = q.pst;
          break;
        case reg::SLOW_EVAL:
          resp.data = q.se_value;
          break;
        case reg::EVAL_TOTAL: {
          // An endgame the endgame logic calls a draw is worth 0, slow evaluation included.
          const bool draw = endgame_draw(q);
          const std::uint16_t fast = q.stm ? std::uint16_t(0 - fast_white(q, t)) : fast_white(q, t);
          resp.data = draw ? 0 : std::uint16_t(fast + q.se_value);
          break;
        }
        case reg::TEST_VALUE:
          resp.data = q.test_value;
          break;
        case reg::SLOW_EST:
          resp.data = q.slow_est;
          break;
        case reg::LAZY:
          resp.data = q.lazy;
          break;
        case reg::DRAW_SCORE:
          resp.data = q.draw_score;
          break;
        case reg::SEARCH_CTRL:
          resp.data = q.search_ctrl;
          break;
        case reg::TEST_TIE:
          resp.data = q.test_tie;
          break;
        case reg::NODE_LIMIT:
          resp.data = q.node_limit;
          break;
        case reg::OFFSET_CTRL:
          resp.data = q.offset_ctrl;
          break;
        case reg::RESULT:
          resp.data = q.result;
          break;
        case reg::BEST_MOVE:
          resp.data = q.best_move;
          break;
        case reg::REP_STATUS:
          resp.data = rep_status(q, q.state == S_TEST ? q.ply + 1 : q.host_ply);
          break;
        case reg::CASTLE_DELTA:
          resp.data = std::uint32_t(q.castle_q) << 16 | q.castle_k;
          break;
        default:
          resp.data = 0;
          break;
      }
    }
    auto bus_error = [&](std::uint32_t code) {
      resp.error = true;
      set_error(std::uint8_t(code), addr & 0x1FFFF);
    };
    if (!(board_addr || pst_addr || phase_addr || ro || rw || ereg_addr || etab_addr || group_addr)) {
      bus_error(err::BAD_ADDRESS);
    } else if (!write && (pst_addr || etab_addr) && busy) {
      bus_error(err::BUSY);  // the table's host port is in use by the running command
    } else if (write) {
      if (addr == reg::ABORT) {
        if (busy) {
          d.state = S_IDLE;
          d.se_busy = false;
          d.lazy_pending = false;
          d.aborted = true;
          d.done = true;
          d.host_ply = 0;
        }
      } else if (addr == reg::ERROR) {
        d.err_code = 0;
        d.err_addr = 0;
      } else if (busy) {
        bus_error(err::BUSY);
      } else if (ro || group_addr) {
        bus_error(err::READ_ONLY);
      } else if (ereg_addr) {
        if (too_wide(data, EVAL_REG_BITS[addr - EVAL_REGS_BASE]))
          bus_error(err::BAD_ARGUMENT);
        else
          eval_reg_write = true;
      } else if (etab_addr) {
        if (too_wide(data, EVAL_TABLE_BITS[(addr - EVAL_TABLES_BASE) / EVAL_TABLES_WINDOW]))
          bus_error(err::BAD_ARGUMENT);
        else
          eval_table_write = true;
      } else if (phase_addr) {
        if (data >> 16)
          bus_error(err::BAD_ARGUMENT);
        else
          phase_write = true;
      } else if (pst_addr) {
        if (data >> 16)
          bus_error(err::BAD_ARGUMENT);
        else
          pst_write = true;
      } else if (board_addr) {
        if ((data & 7) == 7 || (data & 15) == 8 || (data >> 4) != 0) {
          bus_error(err::BAD_ARGUMENT);
        } else {
          writes.assign_one(BoardWrite{int(addr & 63), std::uint8_t(data & 15)});
          d.host_ply = 0;
        }
      } else {
        switch (addr) {
          case reg::STM:
            d.stm = data & 1;
            d.host_ply = 0;
            break;
          case reg::CASTLING:
            d.castling = data & 15;
            d.host_ply = 0;
            break;
          case reg::EP:
            d.ep_valid = field::ep::VALID.get(data);
            d.ep_sq = std::uint8_t(field::ep::SQUARE.get(data));
            d.host_ply = 0;
            break;
          case reg::HALFMOVE:
            d.half = data & 0xFFFF;
            d.host_ply = 0;
            break;
          case reg::FULLMOVE:
            d.full = data & 0xFFFF;
            d.host_ply = 0;
            break;
          case reg::MOVE:
            d.move = data & 0xFFFF;
            break;
          case reg::EVAL_CTRL:
            if (too_wide(data, field::eval_ctrl::WIDTH))
              bus_error(err::BAD_ARGUMENT);
            else
              d.eval_ctrl = std::uint8_t(data);
            break;
          case reg::TEST_VALUE:  // the 16-bit registers: one width check
          case reg::SLOW_EST:
          case reg::SEP_BONUS:
          case reg::RUNNER_BONUS:
          case reg::TEST_TIE:
            if (data >> 16)
              bus_error(err::BAD_ARGUMENT);
            else if (addr == reg::TEST_VALUE)
              d.test_value = std::uint16_t(data);
            else if (addr == reg::SLOW_EST)
              d.slow_est = std::uint16_t(data);
            else if (addr == reg::SEP_BONUS)
              d.sep_bonus = std::uint16_t(data);
            else if (addr == reg::RUNNER_BONUS)
              d.runner_bonus = std::uint16_t(data);
            else
              d.test_tie = std::uint16_t(data);
            break;
          case reg::SEARCH_CTRL:
            if (too_wide(data, sc::WIDTH))
              bus_error(err::BAD_ARGUMENT);
            else
              d.search_ctrl = data;
            break;
          case reg::NODE_LIMIT:
            d.node_limit = data;
            break;
          case reg::OFFSET_CTRL:
            if (too_wide(data, oc::WIDTH))
              bus_error(err::BAD_ARGUMENT);
            else
              d.offset_ctrl = data;
            break;
          case reg::CMD: {
            const std::uint32_t wop = cmdf::OP.get(data), wmode = cmdf::MODE.get(data), wdepth = cmdf::DEPTH.get(data);
            d.cmd = data;
            d.cycles = 0;
            d.generated = 0;
            d.done = false;
            d.aborted = false;
            d.ply = q.host_ply;
            d.base = q.host_ply;
            auto cmd_error = [&](std::uint32_t code) {
              bus_error(code);
              d.done = true;
            };
            if (wop == op::CLEAR) {
              clear = true;
              d.stm = false;
              d.castling = 0;
              d.ep_valid = false;
              d.ep_sq = 0;
              d.half = 0;
              d.full = 1;
              d.host_ply = 0;
              d.done = true;
            } else if (wop == op::GEN) {
              d.move_valid = false;
              if (wmode > mode::ATTACKS) {
                cmd_error(err::BAD_ARGUMENT);
              } else if (q.host_ply >= STACK_DEPTH) {
                cmd_error(err::STACK);
              } else if (wmode == mode::EVASIONS && !array.in_check()) {
                d.done = true;
              } else {
                stack_writes.push_back({q.host_ply & 31, false, StackEntry{q.move}});
                d.state = valid_of(q.move) ? S_CHECK : S_GEN;
              }
            } else if (wop == op::MAKE) {
              if (q.host_ply >= STACK_DEPTH)
                cmd_error(err::STACK);
              else
                d.state = S_CHECK;
            } else if (wop == op::UNMAKE) {
              if (q.host_ply == 0) {
                cmd_error(err::STACK);
              } else {
                d.ply = std::uint8_t(q.host_ply - 1);
                d.state = S_UNMAKE;
              }
            } else if (wop == op::PERFT) {
              d.count = 0;
              if (wdepth == 0 || q.host_ply + wdepth > STACK_DEPTH) {
                cmd_error(err::BAD_ARGUMENT);
              } else {
                stack_writes.push_back({q.host_ply & 31, false, StackEntry{0}});
                d.state = S_GEN;
              }
            } else if (wop == op::EVAL_INIT) {
              if (q.host_ply != 0) {
                cmd_error(err::STACK);
              } else {
                d.pst = 0;
                d.scan = 0;
                phase_clear = true;
                d.state = S_EINIT;
              }
            } else if (wop == op::SLOW_EVAL) {
              d.se_busy = true;
              d.se_clock = 0;
            } else if (wop == op::LAZY_EVAL) {
              // Decide from the fast value and the filter's estimate when they clear the margin
              // (not with few pieces: an unusual position); otherwise run the slow evaluation.
              const std::uint32_t lz = t.slow.regs[ER_EVAL_CONTROL + 1];
              const int margin = int(lz & 0xFFFF), min_pieces = int(lz >> 24 & 15);
              const bool on = lz >> 20 & 1;
              int pieces = 0;
              for (int c = 0; c < 2; ++c) {
                for (int type = 1; type < 5; ++type) pieces += q.counts[c * 5 + type];
              }
              const int fast = std::int16_t(q.stm ? std::uint16_t(0 - fast_white(q, t)) : fast_white(q, t));
              const int est = q.stm ? -int(std::int16_t(q.slow_est)) : int(std::int16_t(q.slow_est));
              const int test = std::int16_t(q.test_value);
              const bool active = on && pieces >= min_pieces;
              if (endgame_draw(q)) {
                d.lazy = std::uint8_t(1 | (0 >= test ? 2 : 0));
                d.done = true;
              } else if (active && fast + est - margin >= test) {
                d.lazy = 3;
                d.done = true;
              } else if (active && fast + est + margin < test) {
                d.lazy = 1;
                d.done = true;
              } else {
                d.se_busy = true;
                d.se_clock = 0;
                d.lazy_pending = true;
              }
            } else if (wop == op::SEARCH) {
              d.count = 0;
              d.result = 0;
              d.best_move = 0;
              d.legal = 0;
              d.extended = 0;
              d.hung1 = 0;
              d.qc = 0;
              d.stop = false;
              d.child_fail = false;
              d.phase = PH_MAIN;
              d.alternatives = 0;
              d.main_best = 0;
              d.rtry = false;
              // Offset searches need an offset depth of 1..depth and room for the extension.
              const std::uint32_t off = oc::DEPTH.get(q.offset_ctrl);
              const bool offsets = off_on;
              if (wdepth == 0 || q.host_ply + wdepth > STACK_DEPTH ||
                  (offsets && (off == 0 || off > wdepth || q.host_ply + wdepth + 1 > STACK_DEPTH))) {
                cmd_error(err::BAD_ARGUMENT);
              } else {
                stack_writes.push_back({q.host_ply & 31, false, StackEntry{0}});
                d.state = S_GEN;
              }
            } else {
              cmd_error(err::BAD_COMMAND);
            }
            break;
          }
          default:
            break;
        }
      }
    }
  }

  if (pst_write) tables_.pst_ram[addr & 511] = std::uint16_t(data);
  if (phase_write) tables_.phase_ram[addr & 1023] = std::uint16_t(data);
  if (eval_reg_write) tables_.slow.regs[addr - EVAL_REGS_BASE] = data;
  if (eval_table_write) {
    const std::uint32_t off = addr - EVAL_TABLES_BASE;
    tables_.slow.tables[off / EVAL_TABLES_WINDOW][off % EVAL_TABLES_WINDOW] = data;
  }
  if ((eval_reg_write || eval_table_write) && ++slow_memo_generation_ == 0) {  // the memo's values are stale
    slow_memo_.reset();  // the generation wrapped: no old entry may match
    slow_memo_generation_ = 1;
  }
  apply_phase_events(d, phase_events);
  if (phase_clear) {
    d.counts.fill(0);
    d.locs.fill(0);
  }
  if (board_snapshot >= 0) {
    boards_[board_snapshot & 31] = q.board;
    board_hashes_[board_snapshot & 31] = sets_.hash;  // sets_ still holds q.board
    SavedAttacks& a = saved_attacks_[board_snapshot & 31];
    a.ready = sets_.attacks_ready;
    if (a.ready) {
      a.attacked[0] = sets_.attacked[0], a.attacked[1] = sets_.attacked[1];
      a.attacked_np[0] = sets_.attacked_np[0], a.attacked_np[1] = sets_.attacked_np[1];
    }
  }
  for (const BoardWrite& w : writes) {
    d.board[w.sq] = w.piece;
    sets_.set(w.sq, w.piece);
  }
  if (undo) {
    // The move taken back: the board is most often the one stored at its MAKE.
    const SavedAttacks& a = saved_attacks_[pi];
    if (a.ready && !sets_.attacks_ready && sets_.hash == board_hashes_[pi] && sets_.board == boards_[pi]) {
      sets_.attacked[0] = a.attacked[0], sets_.attacked[1] = a.attacked[1];
      sets_.attacked_np[0] = a.attacked_np[0], sets_.attacked_np[1] = a.attacked_np[1];
      sets_.attacks_ready = true;
    }
  }
  for (const StackWrite& w : stack_writes) {
    StackEntry& e = stack_[w.index & 31];
    if (w.whole)
      e = w.entry;
    else
      e.move = w.entry.move;
  }
  if (clear) {
    d.board.fill(0);
    sets_ = BoardSets{};
  }
  cur_ ^= 1;  // d becomes the registers
  return resp;
}

}  // namespace db::chip
