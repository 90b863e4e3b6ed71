// Deep Blue's evaluation in software: the value the chip's EVAL_TOTAL register holds after
// EVAL_INIT and SLOW_EVAL on a position (the fast evaluation: placement, material combination,
// pawn race, endgame ROM and rules; plus the slow evaluation), computed directly from the
// position with the model's own blocks, without clocking a chip. The software search scores its
// leaves with it when no chips are used (issue 23), so every configuration plays the chip's
// evaluation. tests/chip/test_chip_eval.cpp holds it to the model chip's registers.
#pragma once

#include <array>
#include <cstdint>

#include "chess/position.h"
#include "chip/eval_generator.h"
#include "chip/slow_features.h"

namespace db::chip {

struct ChipEvaluation {
  int fast = 0;       // FAST_EVAL: side to move's view, 0 when the endgame logic calls it a draw
  int slow = 0;       // SLOW_EVAL: side to move's view
  int total = 0;      // EVAL_TOTAL: fast + slow, 0 for an endgame draw
  bool draw = false;  // the KPK ROM or an endgame rule calls the position a draw
  int undrawn = 0;    // fast + slow without the draw knowledge (a draw's tie-breaker)
};

// The fast evaluation alone (FAST_EVAL), and what the chip's lazy evaluation needs besides: the
// whole evaluation costs about ten times as much, almost all of it the slow part's features.
struct FastEvaluation {
  int fast = 0;       // FAST_EVAL, side to move's view, 0 for an endgame draw
  bool draw = false;  // the KPK ROM or an endgame rule calls the position a draw
  int pieces = 0;     // knights, bishops, rooks and queens of both sides (the lazy evaluation's minimum)
};

// The chip's lazy evaluation control (EVAL_CONTROL word 1): decide "value >= t" from the fast value
// plus a low-pass filter's estimate of the slow part when that clears the margin, on positions with
// at least min_pieces pieces; the filter moves 1/2^shift of the way to every slow value it sees.
struct LazyControl {
  bool on = false;
  int margin = 0, shift = 0, min_pieces = 0;
  static LazyControl of(const EvalWeights& w);
};

// Everything the evaluation reads off a position, independent of the weights: the placement
// table's indices, the phase RAM's two addresses, the pawn race, the draw knowledge and the slow
// evaluation's features. ChipEvaluator::replay(trace, w) is the chip's value under weights w,
// exactly (evaluate() is trace then replay): the evaluation tuner's feature trace.
struct EvalTrace {
  std::array<std::int16_t, 64> placement{};  // placement index of each man; a black man's as -1 - index
  std::uint8_t men = 0;                      // entries used
  std::uint16_t phase_index = 0, phase_swap_index = 0;
  bool white_race = false, black_race = false;
  bool separated[2] = {false, false};  // widely separated passed pawns against a lone king
  bool kpk_draw = false;               // the KPK ROM calls it a draw (EVAL_CTRL bit 1)
  bool rule_draw = false;              // an endgame rule calls it a draw (EVAL_CTRL bit 0)
  bool black_to_move = false;
  SlowFeatures slow;
};

class ChipEvaluator {
 public:
  static EvalTrace trace(const Position& pos);
  static ChipEvaluation replay(const EvalTrace& t, const EvalWeights& w);

  // The weights a search from a root uses: generate_weights(root) as the host downloads them.
  explicit ChipEvaluator(const EvalWeights& weights) : w_(weights) {}
  ChipEvaluation evaluate(const Position& pos) const;
  FastEvaluation fast(const Position& pos) const;
  const EvalWeights& weights() const { return w_; }

 private:
  EvalWeights w_;
};

}  // namespace db::chip
