// Bishops and minor pieces in the slow evaluation (groups 11 and 12): the indices of
// host/chip/slow_pieces.cpp on positions built to trigger each feature and not to. The chip's
// agreement with these functions is tested in test_slow_eval.cpp (cosim, random weights).
#include <gtest/gtest.h>

#include "chess/position.h"
#include "chip/chip_client.h"
#include "chip/slow_pieces.h"

namespace db::chip {
namespace {

PieceIndices at(const std::string& fen, int colour, int file) {
  const Position pos = Position::from_fen(fen);
  std::array<std::uint8_t, 64> board{};
  for (int sq = 0; sq < 64; ++sq) board[sq] = to_chip_piece(pos.piece_on(Square(sq)));
  return piece_indices(SlowBoard(board), colour, file);
}
int trapped(const std::string& fen, int colour) {
  const Position pos = Position::from_fen(fen);
  std::array<std::uint8_t, 64> board{};
  for (int sq = 0; sq < 64; ++sq) board[sq] = to_chip_piece(pos.piece_on(Square(sq)));
  return trapped_bishop_index(SlowBoard(board), colour);
}
int outpost(int rank_class, int cent, bool bishop, bool supported, int challenge) {
  return (((rank_class * 4 + cent) * 2 + int(bishop)) * 2 + int(supported)) * 3 + challenge;
}

TEST(SlowEvalPieces, MinorOnWeakSquare) {
  // Knight on d5 (relative rank 4), supported by e4, no black pawn on c/e files ahead: an outpost;
  // black has no minor to challenge it.
  EXPECT_EQ(at("4k3/8/8/3N4/4P3/8/8/4K3 w - - 0 1", 0, 3).minor_on_weak, outpost(1, 3, false, true, 0));
  // A black pawn on e7 can still drive it away: not weak.
  EXPECT_EQ(at("4k3/4p3/8/3N4/4P3/8/8/4K3 w - - 0 1", 0, 3).minor_on_weak, -1);
  // Black's light-squared bishop can challenge it (d5 is light), a knight less so, a dark-squared
  // bishop not at all.
  EXPECT_EQ(at("4k3/1b6/8/3N4/8/8/8/4K3 w - - 0 1", 0, 3).minor_on_weak, outpost(1, 3, false, false, 2));
  EXPECT_EQ(at("4kb2/8/8/3N4/8/8/8/4K3 w - - 0 1", 0, 3).minor_on_weak, outpost(1, 3, false, false, 0));
  EXPECT_EQ(at("4k1n1/8/8/3N4/8/8/8/4K3 w - - 0 1", 0, 3).minor_on_weak, outpost(1, 3, false, false, 1));
  // Black's knight on e4 (its relative rank 4), white pawns only on the a-file.
  EXPECT_EQ(at("4k3/8/8/8/4n3/8/P7/4K3 b - - 0 1", 1, 4).minor_on_weak, outpost(1, 3, false, false, 0));
  // Not advanced enough (relative rank 2).
  EXPECT_EQ(at("4k3/8/8/8/8/3N4/8/4K3 w - - 0 1", 0, 3).minor_on_weak, -1);
}

TEST(SlowEvalPieces, BishopDiagonals) {
  // White bishop on b2 (file 1, rank 1): the long diagonal (id 1 - 1 + 7 = 7) with mobility,
  // reaching black's king on g7's zone; the other diagonal a1-c1... (id 1 + 1 = 2), short.
  const PieceIndices p = at("8/6k1/8/8/8/8/1B6/4K3 b - - 0 1", 0, 1);
  EXPECT_EQ(p.bishops[0], 7 * 8 + 4 + 0 + 1);
  EXPECT_EQ(p.bishops[1], 2 * 8 + 0 + 0 + 0);
  // An own pawn on the long diagonal (d4) blocks it: mobility 2, pawn on the line.
  const PieceIndices q = at("8/6k1/8/8/3P4/8/1B6/4K3 w - - 0 1", 0, 1);
  EXPECT_EQ(q.bishops[0], 7 * 8 + 0 + 2 + 1);
  // The mirrored black bishop on b7 gives the same indices from black's side.
  EXPECT_EQ(at("4k3/1b6/8/8/8/8/6K1/8 w - - 0 1", 1, 1).bishops[0], 7 * 8 + 4 + 0 + 1);
  EXPECT_EQ(at("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0, 1).bishops[0], -1);
}

TEST(SlowEvalPieces, PawnsAgainstBishops) {
  // White's dark-squared bishop (c1) and a pawn on d4 (dark), blocked by black's d5 pawn:
  // self-block, rank class 2, centrality 3, blocked, not protected, one bishop, opposed.
  const PieceIndices p = at("4k3/8/8/3p4/3P4/8/8/2B1K3 w - - 0 1", 0, 3);
  EXPECT_EQ(p.self_block, ((((2 * 4 + 3) * 2 + 1) * 2 + 0) * 2 + 0) * 2 + 1);
  // Black's d5 pawn is on a light square: no opp-block for a dark-squared bishop.
  EXPECT_EQ(p.opp_block, -1);
  // With a light-squared bishop (f1) instead: no self-block, but the d5 pawn blocks it, and it is
  // blocked by white's own d4 pawn.
  const PieceIndices q = at("4k3/8/8/3p4/3P4/8/8/4KB2 w - - 0 1", 0, 3);
  EXPECT_EQ(q.self_block, -1);
  EXPECT_EQ(q.opp_block, (((2 * 4 + 3) * 2 + 0) * 2 + 1) * 2 + 0);
  // Doubled c-pawns (c2 light... c3 dark, c4 light) with a dark bishop: back-block.
  const PieceIndices r = at("4k3/8/8/8/2P5/2P5/8/2B1K3 w - - 0 1", 0, 2);
  EXPECT_EQ(r.back_block, (((1 * 4 + 2) * 2 + 1) * 2 + 0) * 2 + 0);
  // Without a bishop, nothing.
  EXPECT_EQ(at("4k3/8/8/8/2P5/2P5/8/4K3 w - - 0 1", 0, 2).back_block, -1);
}

TEST(SlowEvalPieces, TrappedBishop) {
  // Bishop a7 with black's b6 pawn defended by c7, escape b8 free: class 0.
  EXPECT_EQ(trapped("4k3/B1p5/1p6/8/8/8/8/4K3 w - - 0 1", 0), 0 * 64 + 0 * 8 + 4 + 2 + 0);
  // Black's bishop on h2 (its h7) with white's g3 pawn, escape g1 occupied by the king.
  EXPECT_EQ(trapped("4k3/8/8/8/8/6P1/7b/6K1 w - - 0 1", 1), 64 + 1 * 8 + 4 + 0 + 1);
  // No bishop on a pattern square.
  EXPECT_EQ(trapped("4k3/8/1p6/8/8/8/8/2B1K3 w - - 0 1", 0), -1);
}

}  // namespace
}  // namespace db::chip
