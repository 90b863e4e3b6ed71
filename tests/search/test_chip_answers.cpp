// The chips' answers of a search (search/chip_answers.h): the bounds they put on a position's value
// at a depth, what a contradiction does, and that a full table forgets, never confuses.
#include "search/chip_answers.h"

#include <gtest/gtest.h>

namespace db::search {
namespace {

constexpr int kLow = -100000, kHigh = 100000;

struct Bounds {
  int lo = kLow, hi = kHigh;
};

Bounds narrowed(const ChipAnswers& answers, Key key, int depth, Bounds b = {}) {
  answers.narrow(key, depth, b.lo, b.hi);
  return b;
}

TEST(ChipAnswers, AnswersNarrowTheirPositionAndDepthOnly) {
  ChipAnswers answers;
  answers.record(0x1234, 3, 100, true);   // value >= 100
  answers.record(0x1234, 3, 300, false);  // value < 300
  answers.record(0x1234, 3, 50, true);    // weaker than what is known: no change
  answers.record(0x1234, 3, 400, false);  // likewise
  const Bounds b = narrowed(answers, 0x1234, 3);
  EXPECT_EQ(b.lo, 100);
  EXPECT_EQ(b.hi, 300);
  EXPECT_EQ(narrowed(answers, 0x1234, 2).lo, kLow);   // another depth: nothing known
  EXPECT_EQ(narrowed(answers, 0x1235, 3).hi, kHigh);  // another position
}

TEST(ChipAnswers, TheCallersTighterBoundsStand) {
  ChipAnswers answers;
  answers.record(7, 4, 100, true);
  answers.record(7, 4, 300, false);
  const Bounds b = narrowed(answers, 7, 4, {150, 250});
  EXPECT_EQ(b.lo, 150);
  EXPECT_EQ(b.hi, 250);
  // Bounds that the answers contradict are left as they were rather than emptied.
  const Bounds c = narrowed(answers, 7, 4, {350, 500});
  EXPECT_EQ(c.lo, 350);
  EXPECT_EQ(c.hi, 500);
}

TEST(ChipAnswers, AContradictingAnswerReplacesTheBoundItContradicts) {
  ChipAnswers answers;
  answers.record(9, 2, 100, true);
  answers.record(9, 2, 200, false);
  answers.record(9, 2, 250, true);  // value >= 250, though an earlier answer said < 200
  Bounds b = narrowed(answers, 9, 2);
  EXPECT_EQ(b.lo, 250);
  EXPECT_EQ(b.hi, kHigh);
  answers.record(9, 2, 120, false);  // and now < 120: the lower bound goes
  b = narrowed(answers, 9, 2);
  EXPECT_EQ(b.lo, kLow);
  EXPECT_EQ(b.hi, 120);
}

TEST(ChipAnswers, AFullTableForgetsTheOlderPositionAndClearForgetsAll) {
  ChipAnswers answers(0);  // one slot: every position and depth shares it
  answers.record(1, 3, 100, true);
  answers.record(2, 3, 200, false);
  Bounds b = narrowed(answers, 1, 3);  // replaced, and position 2's bound not lent to position 1
  EXPECT_EQ(b.lo, kLow);
  EXPECT_EQ(b.hi, kHigh);
  EXPECT_EQ(narrowed(answers, 2, 3).hi, 200);
  EXPECT_EQ(narrowed(answers, 2, 4).hi, kHigh);  // the same position at another depth: nothing
  answers.record(2, 4, 50, true);
  b = narrowed(answers, 2, 3);  // depth 4's answer replaced depth 3's
  EXPECT_EQ(b.lo, kLow);
  EXPECT_EQ(b.hi, kHigh);
  answers.clear();
  EXPECT_EQ(narrowed(answers, 2, 3).hi, kHigh);
}

}  // namespace
}  // namespace db::search
