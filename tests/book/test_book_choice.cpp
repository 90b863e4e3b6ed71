// Choosing the move to play: weighted random (seeded, so repeatable) and best.
#include <gtest/gtest.h>

#include <map>

#include "book/choice.h"
#include "chess/notation.h"

namespace db::book {
namespace {

std::vector<BookMove> moves(const std::vector<std::pair<const char*, std::uint16_t>>& list) {
  const Position start;
  std::vector<BookMove> out;
  for (const auto& [uci, w] : list) out.push_back({parse_uci(start, uci), w, 0});
  return out;
}

TEST(BookChoice, BestTakesTheHighestWeightAndTheFirstOfEquals) {
  std::mt19937_64 rng(1);
  EXPECT_EQ(move_to_uci(choose(moves({{"d2d4", 5}, {"e2e4", 9}, {"c2c4", 9}}), Choice::Best, rng)), "e2e4");
}

TEST(BookChoice, NothingToPlayGivesNoMove) {
  std::mt19937_64 rng(1);
  EXPECT_TRUE(choose({}, Choice::Weighted, rng).is_none());
  EXPECT_TRUE(choose({}, Choice::Best, rng).is_none());
  EXPECT_TRUE(choose(moves({{"e2e4", 0}, {"d2d4", 0}}), Choice::Weighted, rng).is_none());
  EXPECT_TRUE(choose(moves({{"e2e4", 0}, {"d2d4", 0}}), Choice::Best, rng).is_none());
}

TEST(BookChoice, WeightedFollowsTheWeightsAndNeverPlaysWeightZero) {
  const std::vector<BookMove> list = moves({{"e2e4", 60}, {"d2d4", 30}, {"g1f3", 10}, {"b1c3", 0}});
  std::mt19937_64 rng(2026);
  std::map<std::string, int> count;
  const int n = 20000;
  for (int i = 0; i < n; ++i) ++count[move_to_uci(choose(list, Choice::Weighted, rng))];
  EXPECT_EQ(count.count("b1c3"), 0u);
  EXPECT_NEAR(count["e2e4"] / double(n), 0.6, 0.02);
  EXPECT_NEAR(count["d2d4"] / double(n), 0.3, 0.02);
  EXPECT_NEAR(count["g1f3"] / double(n), 0.1, 0.02);
}

TEST(BookChoice, SameSeedSameChoices) {
  const std::vector<BookMove> list = moves({{"e2e4", 6}, {"d2d4", 3}, {"g1f3", 1}});
  std::mt19937_64 a(42), b(42);
  std::string first, second;
  for (int i = 0; i < 50; ++i) {
    first += move_to_uci(choose(list, Choice::Weighted, a));
    second += move_to_uci(choose(list, Choice::Weighted, b));
  }
  EXPECT_EQ(first, second);
}

TEST(BookChoice, ParsesItsNames) {
  EXPECT_EQ(parse_choice("weighted"), Choice::Weighted);
  EXPECT_EQ(parse_choice("best"), Choice::Best);
  EXPECT_THROW(parse_choice("random"), std::invalid_argument);
}

}  // namespace
}  // namespace db::book
