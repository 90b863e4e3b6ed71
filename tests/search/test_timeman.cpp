// Time targets of AIJ 8.4: normal from time left / moves to go, panic about a third of the time left.
#include <gtest/gtest.h>

#include "search/timeman.h"

namespace db::search {
namespace {

TEST(TimeManager, NormalTargetSplitsTimeOverMovesToGo) {
  const TimeTargets t = compute_time_targets({60'000 + 30, 0, 20, 30});
  EXPECT_EQ(t.normal_ms, 3000);
  EXPECT_EQ(t.panic_ms, 20000);
}

TEST(TimeManager, PanicTargetCapsTheNormalOne) {
  const TimeTargets t = compute_time_targets({3000 + 30, 0, 1, 30});
  EXPECT_EQ(t.panic_ms, 1000);
  EXPECT_EQ(t.normal_ms, 1000);
}

TEST(TimeManager, IncrementAddsToTheNormalTarget) {
  const TimeTargets without = compute_time_targets({100'000, 0, 0, 0});
  const TimeTargets with = compute_time_targets({100'000, 2000, 0, 0});
  EXPECT_EQ(with.normal_ms - without.normal_ms, 1500);
}

TEST(TimeManager, TroubleConditions) {
  EXPECT_FALSE(in_trouble({20, 10, false, false}));
  EXPECT_TRUE(in_trouble({20, 5, false, false}));  // dropped 15 points
  EXPECT_TRUE(in_trouble({20, 20, true, false}));
  EXPECT_TRUE(in_trouble({20, 20, false, true}));
}

}  // namespace
}  // namespace db::search
