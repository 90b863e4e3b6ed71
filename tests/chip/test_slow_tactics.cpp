// Groups 9 (pins) and 10 (tactics) of the slow evaluation: each feature on positions built to
// trigger it and not, the PINNED index fields, and the group values on the chip model. The
// chip-against-reference and colour-symmetry tests of test_slow_eval.cpp cover both groups too.
#include <gtest/gtest.h>

#include "chess/position.h"
#include "chip/array_model.h"
#include "chip/chip_client.h"
#include "chip/chip_model.h"
#include "chip/placement.h"
#include "chip/slow_tactics.h"
#include "chip/slow_weights.h"
#include "chip_data.h"

namespace db::chip {
namespace {

SlowBoard board_of(const std::string& fen) {
  const Position pos = Position::from_fen(fen);
  std::array<std::uint8_t, 64> b{};
  for (int sq = 0; sq < 64; ++sq) b[sq] = to_chip_piece(pos.piece_on(Square(sq)));
  return SlowBoard(b);
}

int sq(const char* name) { return (name[0] - 'a') + 8 * (name[1] - '1'); }
bool has(std::uint64_t bb, const char* name) { return (bb >> sq(name) & 1) != 0; }
int pin_index(int type, int pinner, int king, int press) { return (((type - 1) * 3 + pinner) * 2 + king) * 4 + press; }

TEST(SlowTactics, PinsAndTheirIndex) {
  // Bishop a4 pins the undefended knight c6 against the king: pressure 2 (undefended).
  {
    const SlowBoard b = board_of("4k3/8/2n5/8/B7/8/8/4K3 w - - 0 1");
    const PinInfo p = find_pins(b, 0);
    EXPECT_TRUE(has(p.pinned, "c6"));
    EXPECT_TRUE(has(p.against_king, "c6"));
    EXPECT_TRUE(has(p.by_bishop, "c6"));
    EXPECT_EQ(pinned_file_index(b, 0, p, 2), pin_index(CHIP_KNIGHT, 0, 1, 2));
    EXPECT_EQ(pinned_file_index(b, 0, p, 3), -1);
    EXPECT_EQ(find_pins(b, 1).pinned, 0u);
    const TacticsFlags f = tactics_flags(b, 0, p);
    EXPECT_TRUE(f.pinned_simple_hung);
    EXPECT_TRUE(f.perm_pin_simple_hung);
    EXPECT_FALSE(f.pinned_hung);
    EXPECT_FALSE(f.mpin_hung);
  }
  // Defended by the b7 pawn, one attacker class each: pressure 0; a white pawn on d5 attacks it
  // (cheaper): pressure 3, hung by the detailed analysis.
  {
    const SlowBoard b = board_of("4k3/1p6/2n5/8/B7/8/8/4K3 w - - 0 1");
    const PinInfo p = find_pins(b, 0);
    EXPECT_EQ(pinned_file_index(b, 0, p, 2), pin_index(CHIP_KNIGHT, 0, 1, 0));
    EXPECT_FALSE(tactics_flags(b, 0, p).pinned_simple_hung);
    EXPECT_FALSE(tactics_flags(b, 0, p).pinned_hung);
    const SlowBoard b2 = board_of("4k3/1p6/2n5/3P4/B7/8/8/4K3 w - - 0 1");
    const PinInfo p2 = find_pins(b2, 0);
    EXPECT_EQ(pinned_file_index(b2, 0, p2, 2), pin_index(CHIP_KNIGHT, 0, 1, 3));
    EXPECT_TRUE(tactics_flags(b2, 0, p2).pinned_hung);
  }
  // Not a pin: a knight in front of a bishop (the same value class), or of an own piece.
  EXPECT_EQ(find_pins(board_of("4b2k/8/2n5/8/B7/8/8/K7 w - - 0 1"), 0).pinned, 0u);
  EXPECT_EQ(find_pins(board_of("4k3/3P4/2n5/8/B7/8/8/4K3 b - - 0 1"), 0).pinned, 0u);
  // A rook pins a bishop against the queen (not the king), the queen defending it: pressure 0.
  {
    const SlowBoard b = board_of("k3q3/8/8/4b3/8/8/8/K3R3 w - - 0 1");
    const PinInfo p = find_pins(b, 0);
    EXPECT_TRUE(has(p.by_rook, "e5"));
    EXPECT_FALSE(has(p.against_king, "e5"));
    EXPECT_EQ(pinned_file_index(b, 0, p, 4), pin_index(CHIP_BISHOP, 1, 0, 0));
    EXPECT_EQ(p.mpin, 0u);
  }
  // Black's queen pins white's rook against the king: black is the pinning side.
  {
    const SlowBoard b = board_of("4k3/8/8/8/q7/8/2R5/3K4 b - - 0 1");
    const PinInfo p = find_pins(b, 1);
    EXPECT_TRUE(has(p.by_queen, "c2"));
    // Defended by the king, one attacker class each: pressure 0.
    EXPECT_EQ(pinned_file_index(b, 1, p, 2), pin_index(CHIP_ROOK, 2, 1, 0));
  }
}

TEST(SlowTactics, PinAgainstThePinnersValueHung) {
  // Rook e1 pins the bishop e5 against the rook e8 (the pinner's value); the d4 pawn attacks it.
  const SlowBoard b = board_of("k3r3/8/8/4b3/3P4/8/8/K3R3 w - - 0 1");
  const PinInfo p = find_pins(b, 0);
  EXPECT_TRUE(has(p.mpin, "e5"));
  EXPECT_TRUE(tactics_flags(b, 0, p).mpin_hung);
  EXPECT_TRUE(tactics_flags(b, 0, p).pinned_hung);
  // Without the pawn the rook e8 defends it, one class each: not hung.
  const SlowBoard b2 = board_of("k3r3/8/8/4b3/8/8/8/K3R3 w - - 0 1");
  const PinInfo p2 = find_pins(b2, 0);
  EXPECT_TRUE(has(p2.mpin, "e5"));
  EXPECT_FALSE(tactics_flags(b2, 0, p2).mpin_hung);
}

TEST(SlowTactics, XRay) {
  EXPECT_TRUE(tactics_flags(board_of("4k3/8/8/8/8/8/3Q4/3RK3 w - - 0 1"), 0, {}).xray);
  EXPECT_TRUE(tactics_flags(board_of("4k3/8/8/8/8/2B5/8/Q3K3 w - - 0 1"), 0, {}).xray);
  EXPECT_FALSE(tactics_flags(board_of("4k3/8/8/8/8/8/3B4/3RK3 w - - 0 1"), 0, {}).xray);
  EXPECT_TRUE(tactics_flags(board_of("4k3/8/8/8/8/8/1B6/Q3K3 w - - 0 1"), 0, {}).xray);     // adjacent
  EXPECT_FALSE(tactics_flags(board_of("4k3/8/8/8/8/2B5/1P6/Q3K3 w - - 0 1"), 0, {}).xray);  // a pawn between
  EXPECT_TRUE(tactics_flags(board_of("3rk3/3r4/8/8/8/8/8/4K3 b - - 0 1"), 1, {}).xray);
}

TEST(SlowTactics, Traps) {
  // Knight a8: b6 attacked by the a7 pawn, c7 a pawn defended by the king: trapped (pattern 0).
  EXPECT_TRUE(tactics_flags(board_of("N2k4/p1p5/8/8/8/8/8/4K3 w - - 0 1"), 0, {}).knight_trap[0]);
  EXPECT_FALSE(tactics_flags(board_of("N3k3/p7/8/8/8/8/8/4K3 w - - 0 1"), 0, {}).knight_trap[0]);  // c7 safe
  // Black's knight on h1 (black's a8/h8): the mirrored trap.
  EXPECT_TRUE(tactics_flags(board_of("4k3/8/8/8/8/8/5P1P/4K2n b - - 0 1"), 1, {}).knight_trap[0]);
  // Rook h1 shut in by its king on g1 and the h2 pawn; with h2 empty it can move.
  {
    const TacticsFlags f = tactics_flags(board_of("4k3/8/8/8/8/8/6PP/6KR w - - 0 1"), 0, {});
    EXPECT_TRUE(f.rook_trap[0]);
    EXPECT_FALSE(f.rook_trap[1] || f.rook_trap[2] || f.rook_trap[3]);
  }
  EXPECT_FALSE(tactics_flags(board_of("4k3/8/8/8/8/8/6P1/6KR w - - 0 1"), 0, {}).rook_trap[0]);
  // The initial position traps nothing.
  {
    const SlowBoard b = board_of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    for (int c = 0; c < 2; ++c) {
      const TacticsFlags f = tactics_flags(b, c, find_pins(b, c));
      for (bool t : f.rook_trap) EXPECT_FALSE(t);
      for (bool t : f.knight_trap) EXPECT_FALSE(t);
      EXPECT_FALSE(f.queen_trap);
    }
  }
  // Queenside: king b1, rook a1, pawns a2 b2.
  EXPECT_TRUE(tactics_flags(board_of("4k3/8/8/8/8/8/PP6/RK6 w - - 0 1"), 0, {}).rook_trap[1]);
  // Rook a8 boxed in by the bishop b8 (defended by the king) and the a7 pawn (defended by the
  // bishop): deep (pattern 3); attacked by the c7 knight as well: pattern 2.
  {
    const TacticsFlags f = tactics_flags(board_of("Rbk5/p7/8/8/8/8/8/4K3 w - - 0 1"), 0, {});
    EXPECT_TRUE(f.rook_trap[3]);
    EXPECT_FALSE(f.rook_trap[2]);
    EXPECT_TRUE(tactics_flags(board_of("Rbk5/p1n5/8/8/8/8/8/4K3 w - - 0 1"), 0, {}).rook_trap[2]);
  }
  // Queen a8: b8, a7, b7 all defended, attacked by the c7 knight: trapped; without the knight it
  // is not attacked.
  EXPECT_TRUE(tactics_flags(board_of("Qbk5/ppn5/8/8/8/8/8/4K3 w - - 0 1"), 0, {}).queen_trap);
  EXPECT_FALSE(tactics_flags(board_of("Qbk5/pp6/8/8/8/8/8/4K3 w - - 0 1"), 0, {}).queen_trap);
}

// ---------------------------------------------------------------- the groups on the chip model

struct Chip {
  ChipClient chip;
  explicit Chip(const SlowEvalWeights& w) : chip(std::make_unique<ChipModel>()) {
    chip.load_phase(default_phase());
    chip.load_slow_weights(w);
  }
  ChipClient::SlowEval eval(const std::string& fen) {
    chip.load(Position::from_fen(fen));
    chip.eval_init();
    return chip.slow_eval();
  }
};

TEST(SlowTactics, PinsGroupLooksUpPinnedPerFile) {
  SlowEvalWeights w;
  w.regs[ER_EVAL_CONTROL] = 1u << SG_PINS;
  w.tables[ET_PINNED][pin_index(CHIP_KNIGHT, 0, 1, 2)] = 25;
  w.tables[ET_PINNED + 1][pin_index(CHIP_KNIGHT, 0, 1, 2)] = 7;
  Chip g(w);
  EXPECT_EQ(g.eval("4k3/8/2n5/8/B7/8/8/4K3 w - - 0 1").group[SG_PINS], 25);
  EXPECT_EQ(g.eval("4k3/8/8/b7/8/2N5/8/4K3 w - - 0 1").group[SG_PINS], -7);
  EXPECT_EQ(g.eval("4k3/8/8/8/B7/8/8/4K3 b - - 0 1").group[SG_PINS], 0);
  EXPECT_EQ(g.eval("4k3/8/2n5/8/B7/8/8/4K3 w - - 0 1").value, 25);
}

TEST(SlowTactics, TacticsGroupAddsTheRegisters) {
  SlowEvalWeights w;
  w.regs[ER_EVAL_CONTROL] = 1u << SG_TACTICS;
  w.regs[ER_XRAY] = 5;
  w.regs[ER_XRAY + 1] = 6;
  w.regs[ER_PINNED_SIMPLE_HUNG] = 40;
  w.regs[ER_PERM_PIN_SIMPLE_HUNG] = 60;
  w.regs[ER_ROOK_TRAP] = 30;
  w.regs[ER_ROOK_TRAP + 4] = 33;
  w.regs[ER_QUEEN_TRAP] = 150;
  Chip g(w);
  EXPECT_EQ(g.eval("4k3/8/8/8/8/8/3Q4/3RK3 w - - 0 1").group[SG_TACTICS], 5);
  EXPECT_EQ(g.eval("3rk3/3r4/8/8/8/8/8/4K3 b - - 0 1").group[SG_TACTICS], -6);
  EXPECT_EQ(g.eval("4k3/8/2n5/8/B7/8/8/4K3 w - - 0 1").group[SG_TACTICS], 100);
  EXPECT_EQ(g.eval("6kr/6pp/8/8/8/8/6PP/6KR w - - 0 1").group[SG_TACTICS], 33 - 30);
  EXPECT_EQ(g.eval("Qbk5/ppn5/8/8/8/8/8/4K3 w - - 0 1").group[SG_TACTICS], -150);
}

TEST(SlowTactics, DefaultWeightsAreColourSymmetric) {
  const SlowEvalWeights w = default_slow_weights();
  EXPECT_EQ(colour_symmetric(w).regs, w.regs);
  EXPECT_EQ(colour_symmetric(w).tables[ET_PINNED + 1], w.tables[ET_PINNED + 1]);
}

}  // namespace
}  // namespace db::chip

namespace db::chip {
namespace {

// The cosim tests compare these groups on the shared data: make sure the data exercises them.
TEST(SlowTactics, SharedDataExercisesTheFeatures) {
  int pins = 0, tactics = 0, counts[13] = {};
  const SlowEvalWeights w = default_slow_weights();
  std::vector<std::string> fens = testdata::wac_positions();
  for (unsigned seed = 1; seed <= 3; ++seed) {
    for (const auto& fen : testdata::random_game_positions(seed, 2, 60)) fens.push_back(fen);
  }
  for (const auto& fen : fens) {
    const Position pos = Position::from_fen(fen);
    std::array<std::uint8_t, 64> board{};
    for (int sq = 0; sq < 64; ++sq) board[sq] = to_chip_piece(pos.piece_on(Square(sq)));
    const SlowEvalResult r = slow_evaluate(board, pos.side_to_move() == BLACK, pos.castling_rights(), 0, 0, w);
    pins += r.group[SG_PINS] != 0;
    tactics += r.group[SG_TACTICS] != 0;
    const SlowBoard b(board);
    for (int c = 0; c < 2; ++c) {
      const TacticsFlags f = tactics_flags(b, c, find_pins(b, c));
      const bool flags[13] = {
          f.xray,           f.mpin_hung,      f.pinned_simple_hung, f.pinned_hung,  f.perm_pin_simple_hung,
          f.knight_trap[0], f.knight_trap[1], f.knight_trap[2],     f.rook_trap[0], f.rook_trap[1],
          f.rook_trap[2],   f.rook_trap[3],   f.queen_trap};
      for (int i = 0; i < 13; ++i) counts[i] += flags[i];
    }
  }
  std::string seen;
  for (int i = 0; i < 13; ++i) seen += " " + std::to_string(counts[i]);
  RecordProperty("feature_counts", seen);
  std::printf("positions %zu, pins %d, tactics %d, features%s\n", fens.size(), pins, tactics, seen.c_str());
  EXPECT_GT(pins, int(fens.size()) / 20);
  EXPECT_GT(tactics, int(fens.size()) / 20);
  for (int i = 0; i < 5; ++i) EXPECT_GT(counts[i], 0) << i;
}

}  // namespace
}  // namespace db::chip
