// What scores the software search's own leaves: its interim evaluation by default, or another
// evaluation the caller plugs in (Deep Blue's chip evaluation, search/chip_evaluation.h), made for
// each search's root because Deep Blue's weights depend on the root (AIJ 7: the host generates
// them before every search). The search knows no chips; this is the door they come in by.
#pragma once

#include <functional>
#include <memory>

#include "chess/position.h"

namespace db::search {

class StaticEvaluator {
 public:
  virtual ~StaticEvaluator() = default;
  // Side to move's view, in centipawns. Called from every worker thread at once: const and pure.
  virtual int evaluate(const Position& pos) const = 0;
  // A theoretically drawn position's tie-breaker (AIJ 4.3): what it would be worth without the
  // draw knowledge; 0 for a position that is not such a draw.
  virtual int draw_tie(const Position& pos) const = 0;
};

// Makes the evaluator for a search from root; an empty factory means the interim evaluation.
using EvaluatorFactory = std::function<std::shared_ptr<const StaticEvaluator>(const Position& root)>;

}  // namespace db::search
