// See eval_blocks.h.
#include "chip/model/eval_blocks.h"

#include <algorithm>
#include <cstdlib>

#include "eval/kpk.h"

namespace db::chip {

namespace {

int chebyshev(int a, int b) { return std::max(std::abs((a & 7) - (b & 7)), std::abs((a >> 3) - (b >> 3))); }

}  // namespace

KpkState kpk_state(const PhaseRegs& r, bool stm, bool kpk_en) {
  bool only_one_pawn = r.counts[0] + r.counts[5] == 1;
  for (int t = 1; t < 5; ++t) only_one_pawn = only_one_pawn && r.counts[t] == 0 && r.counts[5 + t] == 0;
  const bool active = kpk_en && only_one_pawn;
  if (!active) return {false, false};  // every use of the ROM's bit is gated by active (saves its lookup)
  const bool pawn_black = r.counts[5] != 0;
  const int pawn = pawn_black ? r.locs[6] : r.locs[0];
  const int strong = pawn_black ? r.locs[11] : r.locs[5];
  const int weak = pawn_black ? r.locs[5] : r.locs[11];
  const int flip = (pawn_black ? 56 : 0) | ((pawn & 4) ? 7 : 0);
  const int p = pawn ^ flip;
  const std::uint32_t addr = std::uint32_t(stm ^ pawn_black) << 17 | std::uint32_t(weak ^ flip) << 11 |
                             std::uint32_t(strong ^ flip) << 5 | std::uint32_t(p & 3) << 3 |
                             std::uint32_t(((p >> 3) - 1) & 7);
  const bool win = (eval::kpk_rom().bits()[addr >> 3] >> (addr & 7)) & 1;
  return {active, win};
}

std::uint32_t rule_draws(const PhaseRegs& r, bool rules_en) {
  if (!rules_en) return 0;
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

int fastest_runner(const PhaseRegs& r, const std::array<std::uint8_t, 64>& board, bool stm, int c) {
  const int them = 1 - c;
  bool only_kp = true;
  for (int t = 1; t < 5; ++t) only_kp = only_kp && r.counts[them * 5 + t] == 0;
  if (!only_kp) return 7;
  const int our_king = r.locs[c * 6 + 5], their_king = r.locs[them * 6 + 5];
  const bool them_to_move = int(stm) != c;
  int best = 7;
  for (int s = 0; s < 64; ++s) {
    if (board[s] != std::uint8_t((c ? CHIP_BLACK : 0) | CHIP_PAWN)) continue;
    const int f = s & 7, rank = s >> 3, rel = c ? 7 - rank : rank;
    bool passed = true, path_clear = true;
    for (int t = 0; t < 64; ++t) {
      const int tr = t >> 3, tf = t & 7;
      if (!(c == 0 ? tr > rank : tr < rank)) continue;
      if (std::abs(tf - f) <= 1 && board[t] == std::uint8_t((them ? CHIP_BLACK : 0) | CHIP_PAWN)) passed = false;
      if (tf == f && (board[t] & 7)) path_clear = false;
    }
    const bool taken = them_to_move && chebyshev(their_king, s) == 1 && chebyshev(our_king, s) != 1;
    const int moves = 7 - rel - (rel == 1 ? 1 : 0);
    const int promotion = (c == 0 ? 56 : 0) + f;
    const int defender_moves = chebyshev(their_king, promotion) - (them_to_move ? 1 : 0);
    if (passed && path_clear && !taken && defender_moves > moves) best = std::min(best, moves);
  }
  return best;
}

bool separated_passers(const PhaseRegs& r, const std::array<std::uint8_t, 64>& board, int c) {
  const int them = 1 - c;
  for (int t = 1; t < 5; ++t) {
    if (r.counts[them * 5 + t] != 0) return false;
  }
  int lo = 8, hi = -1;
  for (int s = 0; s < 64; ++s) {
    if (board[s] != std::uint8_t((c ? CHIP_BLACK : 0) | CHIP_PAWN)) continue;
    const int f = s & 7, rank = s >> 3;
    bool passed = true;
    for (int t = 0; t < 64; ++t) {
      const int tr = t >> 3, tf = t & 7;
      if ((c == 0 ? tr > rank : tr < rank) && std::abs(tf - f) <= 1 &&
          board[t] == std::uint8_t((them ? CHIP_BLACK : 0) | CHIP_PAWN)) {
        passed = false;
      }
    }
    if (passed) lo = std::min(lo, f), hi = std::max(hi, f);
  }
  return hi - lo >= 4;
}

}  // namespace db::chip
