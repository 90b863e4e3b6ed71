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

  // A lazy evaluation as Deep Blue's chip does one (IEEE Micro, "Search control"): the quiescence
  // search's stand pat decided from the cheap fast part plus a running estimate of the slow part
  // when that clears the window by the margin. An evaluator without such a split says margin 0.
  struct LazyControl {
    int margin = 0;      // the evaluator's own margin; 0: no lazy evaluation
    int shift = 0;       // the estimate moves 1/2^shift of the way to each slow part seen
    int min_pieces = 0;  // not below this many knights, bishops, rooks and queens
  };
  virtual LazyControl lazy_control() const { return {}; }
  struct FastPart {
    int fast = 0;        // side to move's view
    bool exact = false;  // fast is the whole value (an endgame draw): no estimate needed
    int pieces = 0;      // knights, bishops, rooks and queens on the board
  };
  virtual FastPart fast_part(const Position& pos) const { return {evaluate(pos), true, 0}; }
  // The slow part of evaluate(pos), white's view: what the running estimate follows.
  virtual int slow_part_white(const Position&) const { return 0; }
};

// Makes the evaluator for a search from root; an empty factory means the interim evaluation.
using EvaluatorFactory = std::function<std::shared_ptr<const StaticEvaluator>(const Position& root)>;

}  // namespace db::search
