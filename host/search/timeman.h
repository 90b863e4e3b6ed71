// Time control as in AIJ section 8.4: a normal target from the time left and the moves to go, and a
// panic target of about a third of the time left, used when the search is in trouble (the best move
// dropped 15 points or more, the previous best failed low, or a new move is failing high).
#pragma once

#include <cstdint>

namespace db::search {

struct ClockState {
  std::int64_t time_left_ms = -1;  // < 0: no clock
  std::int64_t increment_ms = 0;
  int moves_to_go = 0;  // 0: sudden death
  std::int64_t move_overhead_ms = 30;
};

struct TimeTargets {
  std::int64_t normal_ms;
  std::int64_t panic_ms;
};

TimeTargets compute_time_targets(const ClockState& clock);

// The AIJ 8.4 trouble conditions: any of them lets the search run on to the panic target.
struct TroubleSignals {
  int previous_best_score;
  int current_best_score;
  bool best_failed_low;
  bool new_move_failing_high;
};
bool in_trouble(const TroubleSignals& s);

}  // namespace db::search
