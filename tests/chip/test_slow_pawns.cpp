// The pawn family of the slow evaluation (groups pawn_structure, pawn_shelter, pawn_registers):
// the per-file indices on positions built to trigger each feature (and not), and each group on
// the chip, model and RTL in lock-step. The random-weight cosim and colour-symmetry tests of
// test_slow_eval.cpp cover these groups too.
#include <gtest/gtest.h>

#include "chess/position.h"
#include "chip/chip_client.h"
#include "chip/chip_regs.h"
#include "chip/generator_params.h"
#include "chip/placement.h"
#include "chip/rtl_backend.h"
#include "chip/slow_pawns.h"
#include "chip/slow_weights.h"

namespace db::chip {
namespace {

PawnFileIndices pawn_indices(const std::string& fen, int colour, int file) {
  const Position pos = Position::from_fen(fen);
  std::array<std::uint8_t, 64> board{};
  for (int sq = 0; sq < 64; ++sq) board[sq] = to_chip_piece(pos.piece_on(Square(sq)));
  return pawn_file_indices(SlowBoard(board), colour, file);
}
// PAWN_STRUCTURE index: class 0 isolated, 1 duo, 2 supported, 3 backward, 4 unsupported.
int structure(int cls, int opposed, int rank_class, int centrality) {
  return ((cls * 2 + opposed) * 4 + rank_class) * 4 + centrality;
}
int shelter(int rel_file, int back, int centrality, int dist, int defended) {
  return ((rel_file * 2 + back) * 4 + centrality) * 16 + dist * 2 + defended;
}
int storm(int king_file, int blocked, int dist, int centrality) {
  return ((king_file * 2 + blocked) * 8 + dist) * 4 + centrality;
}

TEST(SlowPawnFeatures, PawnStructureOfTheRearmostPawn) {
  EXPECT_EQ(pawn_indices("4k3/8/8/8/8/2P5/8/4K3 w - - 0 1", 0, 2).structure, structure(0, 0, 1, 2));    // isolated
  EXPECT_EQ(pawn_indices("4k3/2p5/8/8/8/2P5/8/4K3 w - - 0 1", 0, 2).structure, structure(0, 1, 1, 2));  // opposed
  EXPECT_EQ(pawn_indices("4k3/8/8/8/8/2PP4/8/4K3 w - - 0 1", 0, 2).structure, structure(1, 0, 1, 2));   // duo
  EXPECT_EQ(pawn_indices("4k3/8/8/8/2P5/3P4/8/4K3 w - - 0 1", 0, 2).structure, structure(2, 0, 2, 2));  // supported
  // d3 with its neighbour ahead: unsupported; with d4 attacked by black's e5 pawn: backward.
  EXPECT_EQ(pawn_indices("4k3/8/8/8/2P5/3P4/8/4K3 w - - 0 1", 0, 3).structure, structure(4, 0, 1, 3));
  EXPECT_EQ(pawn_indices("4k3/8/8/4p3/2P5/3P4/8/4K3 w - - 0 1", 0, 3).structure, structure(3, 0, 1, 3));
  // The rearmost of doubled pawns; an advanced pawn: rank class 3.
  EXPECT_EQ(pawn_indices("4k3/8/2P5/8/8/8/2P5/4K3 w - - 0 1", 0, 2).structure, structure(0, 0, 0, 2));
  EXPECT_EQ(pawn_indices("4k3/8/P7/8/8/8/8/4K3 w - - 0 1", 0, 0).structure, structure(0, 0, 3, 0));
  // Black's c6 pawn is white's c3 seen from the other side; no pawn: no lookup.
  EXPECT_EQ(pawn_indices("4k3/8/2p5/8/8/8/8/4K3 b - - 0 1", 1, 2).structure, structure(0, 0, 1, 2));
  EXPECT_EQ(pawn_indices("4k3/8/2p5/8/8/8/8/4K3 b - - 0 1", 0, 2).structure, -1);
}

TEST(SlowPawnFeatures, ShelterAndStormNextToTheKing) {
  const std::string castled = "6k1/8/8/8/8/8/5PPP/6K1 w - - 0 1";
  EXPECT_EQ(pawn_indices(castled, 0, 6).shelter, shelter(1, 1, 1, 1, 0));
  EXPECT_EQ(pawn_indices(castled, 0, 6).storm, storm(1, 0, 0, 1));
  EXPECT_EQ(pawn_indices(castled, 0, 5).shelter, shelter(0, 1, 2, 1, 0));
  EXPECT_EQ(pawn_indices(castled, 0, 7).shelter, shelter(2, 1, 0, 1, 0));
  EXPECT_EQ(pawn_indices(castled, 0, 4).shelter, -1);  // two files away
  EXPECT_EQ(pawn_indices(castled, 0, 4).storm, -1);
  // g3 defended by f2 and h2; black's g4 pawn three ranks up, blocked by g3.
  const std::string storm_pos = "6k1/8/8/8/6p1/6P1/5P1P/6K1 w - - 0 1";
  EXPECT_EQ(pawn_indices(storm_pos, 0, 6).shelter, shelter(1, 1, 1, 2, 1));
  EXPECT_EQ(pawn_indices(storm_pos, 0, 6).storm, storm(1, 1, 3, 1));
  EXPECT_EQ(pawn_indices("6k1/8/8/8/5p2/8/5P2/6K1 w - - 0 1", 0, 5).storm, storm(0, 0, 3, 2));
  // Black's castled king, the mirror of the first position; a king off its back rank.
  EXPECT_EQ(pawn_indices("6k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", 1, 6).shelter, shelter(1, 1, 1, 1, 0));
  EXPECT_EQ(pawn_indices("6k1/8/8/8/8/6P1/6K1/8 w - - 0 1", 0, 6).shelter, shelter(1, 0, 1, 1, 0));
  // An open file in front of the king: distance 0.
  EXPECT_EQ(pawn_indices("6k1/8/8/8/8/8/5P1P/6K1 w - - 0 1", 0, 6).shelter, shelter(1, 1, 1, 0, 0));
}

TEST(SlowPawnFeatures, RookBehindAPassedPawn) {
  EXPECT_TRUE(pawn_indices("4k3/8/8/3P4/8/8/8/3RK3 w - - 0 1", 0, 3).rook_behind);
  EXPECT_FALSE(pawn_indices("4k3/8/8/3P4/8/3N4/8/3RK3 w - - 0 1", 0, 3).rook_behind);  // a knight between
  EXPECT_FALSE(pawn_indices("7k/3R4/8/3P4/8/8/8/4K3 w - - 0 1", 0, 3).rook_behind);    // in front
  EXPECT_FALSE(pawn_indices("4k3/4p3/8/3P4/8/8/8/3RK3 w - - 0 1", 0, 3).rook_behind);  // not passed
  EXPECT_TRUE(pawn_indices("3rk3/8/8/8/3p4/8/8/4K3 b - - 0 1", 1, 3).rook_behind);
}

// ---------------------------------------------------------------- groups on the chip

class SlowPawnGroups : public ::testing::TestWithParam<std::string> {
 protected:
  std::unique_ptr<ChipClient> chip;
  void setup(const SlowEvalWeights& w) {
    chip = std::make_unique<ChipClient>(make_backend(GetParam()));
    chip->load_phase(default_phase(GeneratorParams::hand()));  // the relevances and scales the tests count with
    chip->load_slow_weights(w);
  }
  int group(const std::string& fen, int g) {
    chip->load(Position::from_fen(fen));
    chip->eval_init();
    return chip->slow_eval().group[g];
  }
  std::uint32_t phase() { return chip->read(reg::PHASE); }
};

TEST_P(SlowPawnGroups, PawnStructure) {
  SlowEvalWeights w;
  w.regs[ER_EVAL_CONTROL] = 1u << SG_PAWN_STRUCTURE;
  w.tables[ET_PAWN_STRUCTURE][structure(0, 0, 1, 2)] = 10 | 32u << 16;  // static 10, endgame 32
  w.tables[ET_PAWN_STRUCTURE + 1][structure(0, 0, 1, 2)] = 0xFFF9;      // -7
  setup(w);
  // Pawn ending: pawn scale 15, 10 + 32 x 15 / 16 = 40.
  EXPECT_EQ(group("4k3/8/8/8/8/2P5/8/4K3 w - - 0 1", SG_PAWN_STRUCTURE), 40);
  EXPECT_EQ(group("4k3/8/2p5/8/8/8/8/4K3 w - - 0 1", SG_PAWN_STRUCTURE), 7);
  EXPECT_EQ(group("4k3/8/8/8/8/2PP4/8/4K3 w - - 0 1", SG_PAWN_STRUCTURE), 0);  // a duo, not isolated
}

TEST_P(SlowPawnGroups, ShelterAndStormScaleWithTheKingsRelevance) {
  SlowEvalWeights w;
  w.regs[ER_EVAL_CONTROL] = 1u << SG_PAWN_SHELTER;
  for (int i = 0; i < 384; ++i) w.tables[ET_PAWN_SHELTER][i] = 16;
  for (int i = 0; i < 128; ++i) w.tables[ET_PAWN_STORM][i] = (0x4000 - 8) | 8u << 14;  // -8, x2 on opposite wings
  setup(w);
  // White's king on g1 with a black queen on the board: relevance 6; three files of 16 - 8.
  const std::string same = "q5k1/8/8/8/8/8/5PPP/6K1 w - - 0 1";
  EXPECT_EQ(group(same, SG_PAWN_SHELTER), (3 * 8 * 6) >> 4);
  EXPECT_EQ(phase() >> 8 & 15, 6u);
  // Kings on opposite wings: the storm counts double, 3 x (16 - 16).
  EXPECT_EQ(group("qk6/8/8/8/8/8/5PPP/6K1 w - - 0 1", SG_PAWN_SHELTER), 0);
  // No black pieces: no relevance for white's king.
  EXPECT_EQ(group("6k1/8/8/8/8/8/5PPP/6K1 w - - 0 1", SG_PAWN_SHELTER), 0);
  // A king on the a-file has two files (black's king on b8: the same wing).
  EXPECT_EQ(group("qk6/8/8/8/8/8/PP6/K7 w - - 0 1", SG_PAWN_SHELTER), (2 * 8 * 6) >> 4);
}

TEST_P(SlowPawnGroups, PawnRegisters) {
  SlowEvalWeights w;
  w.regs[ER_EVAL_CONTROL] = 1u << SG_PAWN_REGISTERS;
  w.regs[ER_ROOK_BEHIND_PASSED] = 15;
  w.regs[ER_SEPARATED_PASSED] = 20;
  w.regs[ER_SEPARATED_PASSED + 1] = 25;
  w.regs[ER_MISSING_WING] = 40;
  w.regs[ER_WASTED_PAWNS] = 12;
  setup(w);
  // (Black's h-pawn puts pawns on both wings: no missing wing.)
  EXPECT_EQ(group("4k3/7p/8/3P4/8/8/8/3RK3 w - - 0 1", SG_PAWN_REGISTERS), 15);
  EXPECT_EQ(group("4k3/7p/8/3P4/8/3N4/8/3RK3 w - - 0 1", SG_PAWN_REGISTERS), 0);
  // Passed a- and e-pawns (four files apart) against none; a and c: not separated.
  EXPECT_EQ(group("4k3/8/8/8/8/8/P3P3/4K3 w - - 0 1", SG_PAWN_REGISTERS), 20);
  EXPECT_EQ(group("4k3/p3p3/8/8/8/8/8/4K3 w - - 0 1", SG_PAWN_REGISTERS), -25);
  EXPECT_EQ(group("4k3/7p/8/8/8/8/P1P5/4K3 w - - 0 1", SG_PAWN_REGISTERS), 0);
  // Pure opposite-colour bishops (c1 dark, c8 light): the separated bonus doubles.
  EXPECT_EQ(group("2b1k3/8/8/8/8/8/P3P3/2B1K3 w - - 0 1", SG_PAWN_REGISTERS), 40);
  EXPECT_EQ(group("4k3/b7/8/8/8/8/P3P3/2B1K3 w - - 0 1", SG_PAWN_REGISTERS), 20);  // same colour
  // White ahead (a rook) with all pawns on the king's wing; without the rook: even material.
  EXPECT_EQ(group("4k3/7p/8/8/8/8/6P1/R3K3 w - - 0 1", SG_PAWN_REGISTERS), -40);
  EXPECT_EQ(group("4k3/7p/8/8/8/8/6P1/4K3 w - - 0 1", SG_PAWN_REGISTERS), 0);
  // Doubled c-pawns against black's b-pawn: no passed pawn can come of the majority; pawn scale 15.
  EXPECT_EQ(group("4k3/1p5p/8/8/8/2P5/2P4P/4K3 w - - 0 1", SG_PAWN_REGISTERS), -((12 * 15) >> 2));
  EXPECT_EQ(phase() >> 12 & 15, 15u);
  EXPECT_EQ(group("4k3/1p5p/8/8/8/2P5/3P3P/4K3 w - - 0 1", SG_PAWN_REGISTERS), 0);  // c and d: not wasted
}

TEST_P(SlowPawnGroups, OppositeColourBishopsReduceThePawnAdvantage) {
  SlowEvalWeights w;
  w.regs[ER_EVAL_CONTROL] = 1u << SG_PAWN_REGISTERS;
  w.regs[ER_BOC] = 30;
  w.regs[ER_BOC + 1] = 10;
  setup(w);
  EXPECT_EQ(group("2b1k3/8/8/8/8/8/PP6/2B1K3 w - - 0 1", SG_PAWN_REGISTERS), -60);   // two pawns up
  EXPECT_EQ(group("2b1k3/8/8/8/8/8/PP6/2B1K2R w - - 0 1", SG_PAWN_REGISTERS), -20);  // with a rook
  EXPECT_EQ(group("2b1k3/pp6/p7/8/8/8/8/2B1K3 w - - 0 1", SG_PAWN_REGISTERS), 90);   // black three up
  EXPECT_EQ(group("2b1k3/8/8/8/8/8/PP6/1NB1K3 w - - 0 1", SG_PAWN_REGISTERS), 0);    // a knight: not BOC
}

INSTANTIATE_TEST_SUITE_P(Backends, SlowPawnGroups, ::testing::Values("model", "cosim"));

}  // namespace
}  // namespace db::chip
