// Pins, x-rays, hung-piece refinements and traps of the slow evaluation (groups 9 "pins" and 10
// "tactics"; docs/evaluation.md). Reference side of rtl/es_tactics.sv: the code walks the pinners'
// rays square by square, the RTL uses occluded fills; the two must agree bit for bit.
#pragma once

#include <cstdint>

#include "chip/slow_eval.h"

namespace db::chip {

// The pins of one pinning side c: pieces of the opponent e (not the king) that are the first
// piece on a ray of one of c's bishops, rooks or queens (along a line that slider moves on) and
// whose next piece further along the ray is a piece of e of a higher value class (pawn 0, knight
// and bishop 1, rook 2, queen 3, king 4).
struct PinInfo {
  std::uint64_t pinned = 0;                                // pinned pieces of e
  std::uint64_t against_king = 0;                          // pinned against e's king (permanent pins)
  std::uint64_t by_bishop = 0, by_rook = 0, by_queen = 0;  // pinned by a slider of that type
  std::uint64_t mpin = 0;  // pinned against a piece of the pinner's class (bishop: minor)
};
PinInfo find_pins(const SlowBoard& b, int c);

// Value class of a chip piece type (1-6): pawn 0, knight/bishop 1, rook 2, queen 3, king 4.
int value_class(int type);

// Pressure of side c on the opponent's piece on sq: 3 attacked by a cheaper class of c, else 2
// undefended, else 1 attacked by more classes than defended, else 0.
int pressure(const SlowBoard& b, int c, int sq);

// PINNED[c] index of the piece of e pinned by c on sq: ((type - 1)*3 + pinner)*2 + king)*4 +
// pressure, pinner the cheapest of its pinners (0 bishop, 1 rook, 2 queen), king = pinned against
// the king. The file's lookup: the largest index among its pinned pieces, -1 when none.
int pinned_index(const SlowBoard& b, int c, const PinInfo& pins, int sq);
int pinned_file_index(const SlowBoard& b, int c, const PinInfo& pins, int file);

// Group 10 (white's view): XRAY, MPIN_HUNG, PINNED_SIMPLE_HUNG, PINNED_HUNG, PERM_PIN_SIMPLE_HUNG,
// KNIGHT_TRAP, ROOK_TRAP, QUEEN_TRAP. The feature flags, for tests: per side.
struct TacticsFlags {
  bool xray = false, mpin_hung = false, pinned_simple_hung = false, pinned_hung = false, perm_pin_simple_hung = false;
  bool knight_trap[3] = {false, false, false};
  bool rook_trap[4] = {false, false, false, false};
  bool queen_trap = false;
};
TacticsFlags tactics_flags(const SlowBoard& b, int c, const PinInfo& pins);
std::uint16_t tactics_value(const SlowBoard& b, const SlowEvalWeights& w);
// The group's value from both sides' flags (white's, black's) under a set of weights.
std::uint16_t tactics_sum(const TacticsFlags (&flags)[2], const SlowEvalWeights& w);

}  // namespace db::chip
