// The rule that maps the host's wall-clock silence on the pty to the board's inter-byte timeout
// (board_pty.h): only after a frame cut short, after the timeout's wall time (at least 50 ms), once.
#include <gtest/gtest.h>

#include "tools/board_pty.h"

namespace db::boardsim {
namespace {

using namespace std::chrono_literals;
using Clock = QuietRule::Clock;

TEST(QuietRule, OnlyAfterAFrameCutShort) {
  QuietRule q(2400000, 24000000);  // 100 ms at 24 MHz
  const Clock::time_point t0 = Clock::now();
  EXPECT_FALSE(q.wait_limit(t0));  // nothing received
  const std::uint8_t whole[] = {0x02, 0x11, 0x00};
  q.bytes(whole, 3, t0);
  EXPECT_FALSE(q.wait_limit(t0 + 10s));  // the host paused between frames: no clocks run
  const std::uint8_t part[] = {0x05, 0x11};
  q.bytes(part, 2, t0);
  ASSERT_TRUE(q.wait_limit(t0));
  EXPECT_EQ(*q.wait_limit(t0), 100ms);
  EXPECT_EQ(*q.wait_limit(t0 + 40ms), 60ms);
  EXPECT_EQ(*q.wait_limit(t0 + 100ms), Clock::duration::zero());
  EXPECT_EQ(*q.wait_limit(t0 + 5s), Clock::duration::zero());
  q.fired();
  EXPECT_FALSE(q.wait_limit(t0 + 6s));  // once per silence
  q.bytes(part, 1, t0 + 7s);
  EXPECT_EQ(*q.wait_limit(t0 + 7s), 100ms);
}

TEST(QuietRule, FloorAndNoTimeout) {
  QuietRule short_timeout(24000, 24000000);  // 1 ms: the floor applies
  EXPECT_EQ(short_timeout.quiet(), QuietRule::kMinQuiet);
  QuietRule none(0, 24000000);
  const std::uint8_t part[] = {0x05};
  none.bytes(part, 1, Clock::now());
  EXPECT_FALSE(none.wait_limit(Clock::now() + 1h));
}

}  // namespace
}  // namespace db::boardsim
