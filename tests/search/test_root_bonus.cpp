// Root moves' extended-book bonuses (Limits::root_bonus, AIJ 8.2): a bonus offsets the move's
// window and score, so it decides between moves the search finds close, never against a mate.
#include <gtest/gtest.h>

#include "chess/notation.h"
#include "search/search.h"

namespace db::search {
namespace {

SearchResult search(const std::string& fen, int depth, std::vector<std::pair<Move, int>> bonus = {}) {
  TranspositionTable tt(16);
  Searcher searcher(tt);
  Limits limits;
  limits.depth = depth;
  limits.root_bonus = std::move(bonus);
  return searcher.run(Position::from_fen(fen), limits);
}

const char* const kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

TEST(RootBonus, ABonusDecidesBetweenCloseMoves) {
  const SearchResult plain = search(kStart, 4);
  const Position start = Position::from_fen(kStart);
  // Another sound opening move than the search's choice, with the full half pawn.
  const Move other = parse_uci(start, move_to_uci(plain.best) == "g1f3" ? "b1c3" : "g1f3");
  const SearchResult with = search(kStart, 4, {{other, 50}});
  EXPECT_EQ(with.best, other);
  EXPECT_GT(with.score, plain.score);
  EXPECT_LE(with.score, plain.score + 50);
  // A bonus for the move it would play anyway raises its score by exactly the bonus.
  const SearchResult same = search(kStart, 4, {{plain.best, 20}});
  EXPECT_EQ(same.best, plain.best);
  EXPECT_EQ(same.score, plain.score + 20);
}

TEST(RootBonus, NeverOverAMate) {
  const char* const mate_in_one = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
  const Position pos = Position::from_fen(mate_in_one);
  const SearchResult r = search(mate_in_one, 3, {{parse_uci(pos, "d2d3"), 50}});
  EXPECT_EQ(move_to_uci(r.best), "h5f7");
  EXPECT_TRUE(is_mate_score(r.score));
}

}  // namespace
}  // namespace db::search
