// AIJ 4.3 two-part scores (score, tie-breaker) in the software search: the packing orders pairs
// lexicographically, and draws carry the tie-breakers the paper describes.
#include <gtest/gtest.h>

#include "chess/notation.h"
#include "search/interim_eval.h"
#include "search/score.h"
#include "search/search.h"

namespace db::search {
namespace {

TEST(TwoPartScore, PackingKeepsBothPartsAndTheirOrder) {
  int previous = two_part(-kInfinite, -kMaxTie) - 1;
  for (int v : {-kInfinite, -kMate, -501, -1, 0, 1, 2, 499, kMate - 3, kInfinite}) {
    EXPECT_LT(value_floor(v), two_part(v, -kMaxTie));
    EXPECT_GT(value_floor(v), two_part(v - 1, kMaxTie));
    EXPECT_EQ(value_of(value_floor(v)), v);
    for (int t = -kMaxTie; t <= kMaxTie; ++t) {
      const int s = two_part(v, t);
      ASSERT_EQ(value_of(s), v) << v << " " << t;
      ASSERT_EQ(tie_of(s), t) << v << " " << t;
      ASSERT_GT(s, previous) << v << " " << t;  // lexicographic: value first, then tie-breaker
      ASSERT_EQ(-s, two_part(-v, -t));          // negamax negates both parts
      previous = s;
    }
  }
  EXPECT_EQ(tie_of(two_part(0, 5000)), kMaxTie);  // clamped
  EXPECT_EQ(tie_of(two_part(0, -5000)), -kMaxTie);
}

SearchResult search(const std::string& fen, int depth) {
  TranspositionTable tt(8);
  Searcher searcher(tt);
  Limits limits;
  limits.depth = depth;
  return searcher.run(Position::from_fen(fen), limits);
}

// White, a queen and a rook down, has a perpetual check: Qe8+ Kh7 Qh5+ Kg8 Qe8+ ... Black has
// no interposition and no escape (Stockfish 15.1: cp 0, pv e2e8 g8h7 e8h5 h7g8 h5e8).
constexpr const char* kPerpetual = "6k1/6p1/8/8/8/1q6/r3Q1PP/7K w - - 0 1";
constexpr const char* kPerpetualAfterCheck = "4Q1k1/6p1/8/8/8/1q6/r5PP/7K b - - 1 1";

TEST(TwoPartScore, TheLosingSideStrivesForTheRepetitionTheWinningSideAvoidsIt) {
  const SearchResult white = search(kPerpetual, 7);
  EXPECT_EQ(move_to_uci(white.best), "e2e8");
  EXPECT_EQ(white.score, 0);
  EXPECT_GT(white.tie, 0);  // white strives for the draw: moves until repetition, positive
  const SearchResult black = search(kPerpetualAfterCheck, 7);
  EXPECT_EQ(move_to_uci(black.best), "g8h7");
  EXPECT_EQ(black.score, 0);
  EXPECT_LT(black.tie, 0);  // black, far ahead, is trying to avoid the draw: negative
}

TEST(TwoPartScore, TheNearestRepetitionHasTheLargestTieBreaker) {
  // Striving side: the perpetual found with more plies to spare keeps the same (nearest) repetition.
  const SearchResult shallow = search(kPerpetual, 6);
  const SearchResult deep = search(kPerpetual, 8);
  EXPECT_EQ(shallow.score, 0);
  EXPECT_EQ(deep.score, 0);
  EXPECT_EQ(shallow.tie, deep.tie);
  EXPECT_EQ(deep.tie, kMaxTie + 1 - 5);  // the repetition comes at ply 5: Qe8+ Kh7 Qh5+ Kg8 Qe8+
}

TEST(TwoPartScore, ATheoreticallyDrawnEndingKeepsItsStaticValueAsTieBreaker) {
  // King and pawn against king that the ROM calls a draw (Stockfish 15.1: cp 6 at depth 20):
  // score 0, but the side with the pawn still sees its static advantage in the tie-breaker.
  const Position pos = Position::from_fen("4k3/8/4P3/4K3/8/8/8/8 w - - 0 1");
  EXPECT_EQ(interim_evaluate(pos), 0);
  EXPECT_GT(interim_draw_tie(pos), 0);
  const SearchResult r = search("4k3/8/4P3/4K3/8/8/8/8 w - - 0 1", 1);
  EXPECT_EQ(r.score, 0);
  EXPECT_GT(r.tie, 0);  // the root side's view: white keeps its plus in the tie-breaker
}

}  // namespace
}  // namespace db::search
