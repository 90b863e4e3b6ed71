// Dual credit with delayed extensions (AIJ figure 1), no-progress pruning, and the TT's credit envelope.
#include <gtest/gtest.h>

#include "chess/movegen.h"
#include "chess/notation.h"
#include "search/credit.h"
#include "search/no_progress.h"
#include "search/search.h"

namespace db::search {
namespace {

TEST(Credit, CashInFollowsFigureOne) {
  // The paper's examples, with CREDIT_LIMIT 2: 2.5 plies of credit give 1 ply, 3.25 give 2.
  EXPECT_EQ(cash_in(0, 10).extension_plies, 1);
  EXPECT_EQ(cash_in(0, 10).his_credit, 6);
  EXPECT_EQ(cash_in(0, 13).extension_plies, 2);
  EXPECT_EQ(cash_in(0, 13).his_credit, 5);
  // Exactly the limit: ceiling(0) = 0, nothing cashed in.
  EXPECT_EQ(cash_in(3, 8).extension_plies, 0);
  EXPECT_EQ(cash_in(3, 8).my_credit, 3);
  // The other side gives up as much, but not below zero.
  EXPECT_EQ(cash_in(12, 10).my_credit, 8);
  EXPECT_EQ(cash_in(2, 13).my_credit, 0);
  EXPECT_EQ(cash_in(5, 7).extension_plies, 0);
}

TEST(NoProgress, SamePieceTwiceWhereOneMoveWouldDo) {
  const Position pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
  MoveList moves;
  generate_legal(pos, moves);
  const Move a1a4(SQ_A1, 24), a4h4(24, 31), e8d8(SQ_E8, SQ_D8), e8e7(SQ_E8, 52);
  // Ra1-a4, Ke8-d8, Ra4-h4: Ra1... cannot reach h4 in one move (not on a line), so no pruning.
  EXPECT_FALSE(is_no_progress(a1a4, e8d8, a4h4, moves));
  // Ra1-a4, Ke8-e7, Ra4-a7: Ra1-a7 was legal at once.
  const Move a4a7(24, 48);
  EXPECT_TRUE(is_no_progress(a1a4, e8e7, a4a7, moves));
  // The reply moved onto the rook's path (a5): not the same position, so no pruning.
  EXPECT_FALSE(is_no_progress(a1a4, Move(SQ_E8, 32), a4a7, moves));
  // A different piece, or a capture, is never no progress.
  EXPECT_FALSE(is_no_progress(a1a4, e8e7, Move(SQ_E1, 12), moves));
  EXPECT_FALSE(is_no_progress(a1a4, e8e7, Move(24, 48, CAPTURE), moves));
}

TEST(TranspositionTable, KeepsTheCreditEnvelope) {
  TranspositionTable tt(1);
  const Key key = 0x123456789ABCDEF0ULL;
  tt.store(key, Move(SQ_E1, 12), 17, 12, Bound::LOWER, 5, 9);
  const TTEntry* e = tt.probe(key);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->my_credit, 5);
  EXPECT_EQ(e->his_credit, 9);
  EXPECT_EQ(e->score, 17);
  EXPECT_EQ(tt.probe(key ^ (Key(1) << 40)), nullptr);
}

IterationInfo last_iteration(const char* fen, int depth, SearchOptions options) {
  TranspositionTable tt(8);
  Searcher searcher(tt, options);
  Limits limits;
  limits.depth = depth;
  IterationInfo last;
  searcher.run(Position::from_fen(fen), limits, [&](const IterationInfo& info) { last = info; });
  return last;
}

TEST(DualCredit, ForcingLinesAreSearchedBeyondTheNominalDepth) {
  // Kasparov - Deep Blue 1997, game 2, before 37.Be4 (AIJ 4.2, position 1): tactical lines.
  const char* fen = "r1r1q1k1/6p1/3b1p1p/1p1PpP2/1Pp5/2P4P/R1B2QP1/R5K1 w - - 0 37";
  SearchOptions on;
  const IterationInfo with = last_iteration(fen, 8, on);
  EXPECT_GT(with.extensions, 0u);
  EXPECT_GT(with.max_software_ply, 8);

  SearchOptions zero;  // the same search with every credit amount zero: no extension at all
  zero.credit = CreditTable{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 50, 5, 150, 3};
  const IterationInfo without = last_iteration(fen, 8, zero);
  EXPECT_EQ(without.extensions, 0u);
  EXPECT_LE(without.max_software_ply, 8);
}

}  // namespace
}  // namespace db::search
