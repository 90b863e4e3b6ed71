// The king-and-pawn array's "pawn can run" against the KPK ROM: every KPK placement where the pawn
// can run must be a win in the ROM (the square rule may miss wins, never invent them).
#include <gtest/gtest.h>

#include "chess/position.h"
#include "eval/king_pawn.h"
#include "eval/kpk.h"
#include "kpk_fen.h"

namespace db::eval {
namespace {

TEST(KingPawnArray, PawnCanRunImpliesAKpkWin) {
  const KpkRom& rom = kpk_rom();
  int runs = 0, wins = 0;
  for (Color side : {WHITE, BLACK})
    for (Color stm : {WHITE, BLACK})
      for (Square p = 8; p < 56; ++p)
        for (Square sk = 0; sk < 64; ++sk)
          for (Square wk = 0; wk < 64; ++wk) {
            if (sk == wk || sk == p || wk == p) continue;
            Position pos;
            try {
              pos = Position::from_fen(kpk_fen(side, stm, sk, p, wk));
            } catch (const FenError&) {
              continue;
            }
            const bool win = rom.pawn_side_wins(side, stm, sk, p, wk);
            wins += win;
            if (pawn_can_run(pos, p)) {
              ++runs;
              ASSERT_TRUE(win) << pos.fen() << ": the pawn runs, but the ROM says draw";
            }
          }
  EXPECT_GT(runs, 20000);  // the rule fires often ...
  EXPECT_LT(runs, wins);   // ... and finds a subset of the wins
}

TEST(KingPawnArray, SquareRuleAndBlockers) {
  // 4k3/8/8/P7/8/8/8/7K: black's king is outside the square with white to move (a5: 3 moves; e8-a8: 4).
  EXPECT_TRUE(pawn_can_run(Position::from_fen("4k3/8/8/P7/8/8/8/7K w - - 0 1"), 32));
  // With black to move it steps into the square.
  EXPECT_FALSE(pawn_can_run(Position::from_fen("4k3/8/8/P7/8/8/8/7K b - - 0 1"), 32));
  // A double step counts: a2 needs 5 moves, the king on f8 needs 5 to reach a8 and is too slow only
  // when white moves first... here black moves first and catches it.
  EXPECT_FALSE(pawn_can_run(Position::from_fen("5k2/8/8/8/8/8/P7/7K b - - 0 1"), 8));
  EXPECT_TRUE(pawn_can_run(Position::from_fen("6k1/8/8/8/8/8/P7/7K w - - 0 1"), 8));
  // Our own king in the way stops the run; an enemy knight makes the rule not apply.
  EXPECT_FALSE(pawn_can_run(Position::from_fen("7k/8/K7/P7/8/8/8/8 w - - 0 1"), 32));
  EXPECT_FALSE(pawn_can_run(Position::from_fen("4k1n1/8/8/P7/8/8/8/7K w - - 0 1"), 32));
  // Not passed: an enemy pawn ahead on an adjacent file.
  EXPECT_FALSE(pawn_can_run(Position::from_fen("4k3/1p6/8/P7/8/8/8/7K w - - 0 1"), 32));
  EXPECT_EQ(fastest_runner(Position::from_fen("4k3/8/8/P7/8/8/8/7K w - - 0 1"), WHITE), 3);
  EXPECT_EQ(fastest_runner(Position::from_fen("4k3/8/8/P7/8/8/8/7K w - - 0 1"), BLACK), -1);
}

}  // namespace
}  // namespace db::eval
