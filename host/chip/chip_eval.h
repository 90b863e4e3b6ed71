// Deep Blue's evaluation in software: the value the chip's EVAL_TOTAL register holds after
// EVAL_INIT and SLOW_EVAL on a position (the fast evaluation: placement, material combination,
// pawn race, endgame ROM and rules; plus the slow evaluation), computed directly from the
// position with the model's own blocks, without clocking a chip. The software search scores its
// leaves with it when no chips are used (issue 23), so every configuration plays the chip's
// evaluation. tests/chip/test_chip_eval.cpp holds it to the model chip's registers.
#pragma once

#include <cstdint>

#include "chess/position.h"
#include "chip/eval_generator.h"

namespace db::chip {

struct ChipEvaluation {
  int fast = 0;       // FAST_EVAL: side to move's view, 0 when the endgame logic calls it a draw
  int slow = 0;       // SLOW_EVAL: side to move's view
  int total = 0;      // EVAL_TOTAL: fast + slow, 0 for an endgame draw
  bool draw = false;  // the KPK ROM or an endgame rule calls the position a draw
  int undrawn = 0;    // fast + slow without the draw knowledge (a draw's tie-breaker)
};

class ChipEvaluator {
 public:
  // The weights a search from a root uses: generate_weights(root) as the host downloads them.
  explicit ChipEvaluator(const EvalWeights& weights) : w_(weights) {}
  ChipEvaluation evaluate(const Position& pos) const;
  const EvalWeights& weights() const { return w_; }

 private:
  EvalWeights w_;
};

}  // namespace db::chip
