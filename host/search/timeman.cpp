#include "search/timeman.h"

#include <algorithm>

namespace db::search {

TimeTargets compute_time_targets(const ClockState& clock) {
  const std::int64_t left = std::max<std::int64_t>(0, clock.time_left_ms - clock.move_overhead_ms);
  // Sudden death: plan for 35 more moves, as many programs of the time did.
  const int moves = clock.moves_to_go > 0 ? clock.moves_to_go : 35;
  std::int64_t normal = left / moves + clock.increment_ms * 3 / 4;
  std::int64_t panic = left / 3;
  normal = std::min(normal, panic);
  return {std::max<std::int64_t>(1, normal), std::max<std::int64_t>(1, panic)};
}

bool in_trouble(const TroubleSignals& s) {
  return s.current_best_score <= s.previous_best_score - 15 || s.best_failed_low || s.new_move_failing_high;
}

}  // namespace db::search
