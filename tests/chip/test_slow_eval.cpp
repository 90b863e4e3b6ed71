// The slow evaluation (AIJ Tables 4 and 5): the chip's SLOW_EVAL command against the reference
// function, RTL against model in lock-step over the shared data and random games with default and
// random weights, each feature group on positions built to trigger it (and not), colour
// symmetry, timing, and the host port's errors.
#include <gtest/gtest.h>

#include <random>

#include "chess/position.h"
#include "chip/chip_client.h"
#include "chip/chip_model.h"
#include "chip/chip_regs.h"
#include "chip/generator_params.h"
#include "chip/placement.h"
#include "chip/rtl_backend.h"
#include "chip/slow_bits.h"
#include "chip/slow_pawns.h"
#include "chip/slow_weights.h"
#include "chip_data.h"
#include "slow_reference.h"

namespace db::chip {
namespace {

class SlowEvalChip : public ::testing::TestWithParam<std::string> {};

TEST_P(SlowEvalChip, SharedDataWithDefaultWeightsMatchesTheReference) {
  ChipClient chip(make_backend(GetParam()));
  const SlowEvalWeights w = default_slow_weights();
  chip.load_placement(default_placement());
  chip.load_phase(default_phase());
  chip.load_slow_weights(w);
  for (const auto& fen : testdata::shared_positions())
    expect_chip_matches_reference(chip, Position::from_fen(fen), default_phase(), w);
}

TEST_P(SlowEvalChip, RandomWeightsAlongRandomGamesMatchTheReference) {
  ChipClient chip(make_backend(GetParam()));
  for (unsigned seed = 1; seed <= 3; ++seed) {
    const SlowEvalWeights w = random_slow_weights(seed);
    const PhaseTable phase = random_phase(seed);
    chip.load_placement(random_placement(seed));
    chip.load_phase(phase);
    chip.load_slow_weights(w);
    for (const auto& fen : testdata::random_game_positions(seed, 2, 60)) {
      expect_chip_matches_reference(chip, Position::from_fen(fen), phase, w);
    }
    for (const auto& fen : testdata::shared_positions()) {
      expect_chip_matches_reference(chip, Position::from_fen(fen), phase, w);
    }
  }
}

TEST_P(SlowEvalChip, MirroredPositionNegatesTheSlowEvaluation) {
  ChipClient chip(make_backend(GetParam()));
  chip.load_phase(default_phase());  // colour-symmetric
  for (unsigned seed = 4; seed <= 5; ++seed) {
    chip.load_slow_weights(colour_symmetric(random_slow_weights(seed)));
    for (const auto& fen : testdata::random_game_positions(seed, 2, 50)) {
      const Position pos = Position::from_fen(fen);
      chip.load(pos);
      chip.eval_init();
      const auto a = chip.slow_eval();
      const auto draw_a = std::int16_t(chip.read(reg::DRAW_SCORE));
      chip.load(Position::from_fen(testdata::mirror_fen(pos)));
      chip.eval_init();
      const auto b = chip.slow_eval();
      EXPECT_EQ(std::int16_t(chip.read(reg::DRAW_SCORE)), std::int16_t(-draw_a)) << fen;
      for (int g = 0; g < SLOW_GROUPS; ++g)
        EXPECT_EQ(b.group[g], std::int16_t(-a.group[g])) << slow_group_name(g) << " " << fen;
      EXPECT_EQ(b.value, a.value) << fen;  // side to move's view: the same for the mirrored side
    }
  }
}

// The tables are read synchronously (block RAM): a host read's word comes from the RAM in the
// response clock, selected by the table of the request. Every table, first, middle and last
// entries, each read right after its write and again after all the others were written.
TEST_P(SlowEvalChip, TablesReadBackWhatWasWritten) {
  ChipClient chip(make_backend(GetParam()));
  std::mt19937 rng(2026);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> written;
  for (int t = 0; t < EVAL_TABLES_COUNT; ++t) {
    const std::uint32_t mask = EVAL_TABLE_BITS[t] == 32 ? 0xFFFFFFFFu : (1u << EVAL_TABLE_BITS[t]) - 1;
    for (const int entry : {0, EVAL_TABLE_ENTRIES[t] / 2, EVAL_TABLE_ENTRIES[t] - 1}) {
      const std::uint32_t addr = EVAL_TABLES_BASE + std::uint32_t(t) * EVAL_TABLES_WINDOW + std::uint32_t(entry);
      const std::uint32_t value = std::uint32_t(rng()) & mask;
      chip.write(addr, value);
      ASSERT_EQ(chip.read(addr), value) << "table " << t << " entry " << entry;
      written.emplace_back(addr, value);
    }
  }
  for (const auto& [addr, value] : written) EXPECT_EQ(chip.read(addr), value) << "address " << addr;
}

TEST_P(SlowEvalChip, HostPortErrors) {
  ChipClient chip(make_backend(GetParam()));
  ChipBackend& bus = chip.backend();
  // Too wide for the register (BIAS: 8 bits) and the table (MOBILITY: 9 bits).
  EXPECT_TRUE(bus.access(true, EVAL_REGS_BASE + ER_BIAS, 0x100).error);
  EXPECT_EQ(chip.read(reg::ERROR) & 0xFF, err::BAD_ARGUMENT);
  chip.write(reg::ERROR, 0);
  const std::uint32_t mob = EVAL_TABLES_BASE + ET_MOBILITY * EVAL_TABLES_WINDOW;
  EXPECT_TRUE(bus.access(true, mob + 5, 0x200).error);
  chip.write(reg::ERROR, 0);
  chip.write(mob + 5, 0x1FF);
  EXPECT_EQ(chip.read(mob + 5), 0x1FFu);
  // A 32-bit register takes every bit.
  chip.write(EVAL_REGS_BASE + ER_EVAL_CONTROL + 1, 0xFFFFFFFFu);
  EXPECT_EQ(chip.read(EVAL_REGS_BASE + ER_EVAL_CONTROL + 1), 0xFFFFFFFFu);
  // Past a table's entries, inside its window: unmapped. Past the last table: unmapped.
  EXPECT_TRUE(bus.access(false, EVAL_TABLES_BASE + ET_MULTI_PAWNS * EVAL_TABLES_WINDOW + 80, 0).error);
  EXPECT_EQ(chip.read(reg::ERROR) & 0xFF, err::BAD_ADDRESS);
  chip.write(reg::ERROR, 0);
  EXPECT_TRUE(bus.access(false, EVAL_TABLES_BASE + EVAL_TABLES_COUNT * EVAL_TABLES_WINDOW, 0).error);
  EXPECT_TRUE(bus.access(false, EVAL_REGS_BASE + EVAL_REGS_COUNT, 0).error);
  chip.write(reg::ERROR, 0);
  // Result registers are read-only.
  EXPECT_TRUE(bus.access(true, reg::SLOW_EVAL, 1).error);
  EXPECT_EQ(chip.read(reg::ERROR) & 0xFF, err::READ_ONLY);
  chip.write(reg::ERROR, 0);
  EXPECT_TRUE(bus.access(true, reg::SE_GROUP_BASE + 1, 1).error);
  EXPECT_EQ(chip.read(reg::ERROR) & 0xFF, err::READ_ONLY);
  chip.write(reg::ERROR, 0);
  EXPECT_EQ(chip.read(reg::SE_GROUP_BASE + reg::SE_GROUP_COUNT - 1), 0u);  // past the last group
  EXPECT_TRUE(bus.access(false, reg::SE_GROUP_BASE + reg::SE_GROUP_COUNT, 0).error);
  chip.write(reg::ERROR, 0);
  // While the scan runs: tables cannot be read, nothing can be written; an abort leaves it ready.
  chip.load(Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
  chip.write(reg::CMD, op::SLOW_EVAL);
  EXPECT_TRUE(bus.access(false, mob + 5, 0).error);
  EXPECT_EQ(chip.read(reg::ERROR) & 0xFF, err::BUSY);
  EXPECT_TRUE(bus.access(true, EVAL_REGS_BASE, 1).error);
  chip.write(reg::ABORT, 1);
  EXPECT_EQ(chip.read(reg::STATUS) & 1, 0u);
  chip.write(reg::ERROR, 0);
  EXPECT_EQ(chip.read(mob + 5), 0x1FFu);
  CommandStats stats;
  chip.slow_eval(&stats);
  EXPECT_EQ(stats.cycles, SLOW_EVAL_CLOCKS);
}

INSTANTIATE_TEST_SUITE_P(Backends, SlowEvalChip, ::testing::Values("model", "cosim"));

// ---------------------------------------------------------------- feature groups, reference side

FileIndices indices(const std::string& fen, int colour, int file) {
  const SlowBoard b(chip_board(Position::from_fen(fen)));
  return file_indices(b, colour, file);
}
int rook_index(int unopposed, int blockage, int semi, int file, int rooks) {
  return (((unopposed * 4 + blockage) * 2 + semi) * 4 + std::min(file, 7 - file)) * 3 + rooks;
}

TEST(SlowEvalFeatures, RooksOnFiles) {
  // Open d-file, nothing guards d7/d8 for black: blockage 0.
  EXPECT_EQ(indices("7k/8/8/8/8/8/8/3RK3 w - - 0 1", 0, 3).rook_files, rook_index(1, 0, 1, 3, 1));
  // Doubled rooks; a rook behind its own pawn does not count.
  EXPECT_EQ(indices("7k/8/8/8/8/8/3R4/3RK3 w - - 0 1", 0, 3).rook_count, 2);
  EXPECT_EQ(indices("7k/8/8/8/3P4/8/8/3RK3 w - - 0 1", 0, 3).rook_count, 0);
  // Black's knight on d5 defended by the e6 pawn blocks the open file: blockage 1.
  EXPECT_EQ(indices("7k/8/4p3/3n4/8/8/8/3RK3 w - - 0 1", 0, 3).rook_files, rook_index(1, 1, 1, 3, 1));
  // Enemy minors guard d7 and d8 (knights on b6 and f7): blockage 2; a queen on a1 guards neither;
  // a queen guarding both: 3.
  EXPECT_EQ(indices("6k1/5n2/1n6/8/8/8/8/3RK3 w - - 0 1", 0, 3).rook_files, rook_index(1, 2, 1, 3, 1));
  EXPECT_EQ(indices("6k1/8/8/8/8/8/8/q2RK3 w - - 0 1", 0, 3).rook_files, rook_index(1, 0, 1, 3, 1));
  EXPECT_EQ(indices("6k1/8/3q4/8/8/8/8/3RK3 w - - 0 1", 0, 3).rook_files, rook_index(1, 3, 1, 3, 1));
  // Half-open: black's d6 pawn unprotected (0), protected by a pawn (3, granite), by a knight (2).
  EXPECT_EQ(indices("7k/8/3p4/8/8/8/8/3RK3 w - - 0 1", 0, 3).rook_files, rook_index(0, 0, 1, 3, 1));
  EXPECT_EQ(indices("7k/4p3/3p4/8/8/8/8/3RK3 w - - 0 1", 0, 3).rook_files, rook_index(0, 3, 1, 3, 1));
  EXPECT_EQ(indices("7k/1n6/3p4/8/8/8/8/3RK3 w - - 0 1", 0, 3).rook_files, rook_index(0, 2, 1, 3, 1));
  // A lever (d4 can take e5) makes the d-file count as half-open for the rook, at half value.
  const FileIndices lever = indices("7k/8/8/4p3/3P4/8/8/3RK3 w - - 0 1", 0, 3);
  EXPECT_TRUE(lever.rook_lever);
  EXPECT_EQ(lever.rook_files, rook_index(1, 0, 1, 3, 0));
  const FileIndices closed = indices("7k/8/4p3/8/3P4/8/8/3RK3 w - - 0 1", 0, 3);
  EXPECT_FALSE(closed.rook_lever);
  EXPECT_EQ(closed.rook_files, rook_index(1, 0, 0, 3, 0));
  // The same from black's side, on the a-file (centrality 0).
  EXPECT_EQ(indices("r3k3/8/8/8/8/8/8/4K3 b - - 0 1", 1, 0).rook_files, rook_index(1, 0, 1, 0, 1));
  EXPECT_TRUE(file_near_king(0, 2));
  EXPECT_TRUE(file_near_king(7, 5));
  EXPECT_FALSE(file_near_king(0, 3));
}

TEST(SlowEvalFeatures, MultiplePawns) {
  // Doubled isolated c-pawns, unopposed, not tripled: index 0..15 block.
  EXPECT_EQ(indices("4k3/8/8/8/2P5/2P5/8/4K3 w - - 0 1", 0, 2).multi_pawns, 0 * 8 + 0 * 4 + 2);
  // Tripled and opposed.
  EXPECT_EQ(indices("4k3/2p5/8/2P5/2P5/2P5/8/4K3 w - - 0 1", 0, 2).multi_pawns, 8 + 4 + 2);
  // Duo: a b-pawn beside one of the doubled c-pawns.
  EXPECT_EQ(indices("4k3/8/8/8/1PP5/2P5/8/4K3 w - - 0 1", 0, 2).multi_pawns, 32 + 2);
  // Supported: a d-pawn defends the front c-pawn.
  EXPECT_EQ(indices("4k3/8/8/2P5/3P4/2P5/8/4K3 w - - 0 1", 0, 2).multi_pawns, 16 + 2);
  // Pseudo-isolated and backward: the b-pawn is ahead of the rear c-pawn, whose stop square c4 is
  // attacked by black's d5 pawn.
  EXPECT_EQ(indices("4k3/8/1P6/2Pp4/8/2P5/8/4K3 w - - 0 1", 0, 2).multi_pawns, 64 + 2);
  EXPECT_EQ(indices("4k3/8/1P6/2P5/8/2P5/8/4K3 w - - 0 1", 0, 2).multi_pawns, 48 + 2);
  // One pawn: no lookup.
  EXPECT_EQ(indices("4k3/8/8/8/8/2P5/8/4K3 w - - 0 1", 0, 2).multi_pawns, -1);
}

TEST(SlowEvalFeatures, PassedPawns) {
  // A free e-pawn on the sixth: rank class 3, centrality 3, free.
  EXPECT_EQ(indices("k7/8/4P3/8/8/8/8/K7 w - - 0 1", 0, 4).passed, (3 * 4 + 3) * 16 + 1);
  // Blocked by the king, protected, connected to a passed d-pawn.
  EXPECT_EQ(indices("7k/4K3/4P3/3P4/8/8/8/8 w - - 0 1", 0, 4).passed, (3 * 4 + 3) * 16 + 8 + 4 + 2 + 1);
  // Its stop square attacked by the black king: not free.
  EXPECT_EQ(indices("5k2/8/4P3/8/8/8/8/K7 w - - 0 1", 0, 4).passed, (3 * 4 + 3) * 16);
  // Not passed: an enemy pawn ahead on the next file.
  EXPECT_EQ(indices("k7/3p4/8/4P3/8/8/8/K7 w - - 0 1", 0, 4).passed, -1);
  // Black's a-pawn on its third rank (relative rank 2): rank class 0, centrality 0.
  EXPECT_EQ(indices("k7/8/p7/8/8/8/8/7K b - - 0 1", 1, 0).passed, 0 * 16 + 1);
}

TEST(SlowEvalFeatures, MaterialAndDevelopment) {
  const auto mi = [](const std::string& fen) {
    const Position pos = Position::from_fen(fen);
    return material_indices(SlowBoard(chip_board(pos)), pos.castling_rights());
  };
  // The start position: 4 undeveloped minors each (capped at 3), kings at home able to castle.
  const MaterialIndices start = mi("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  EXPECT_EQ(start.development, 3 << 6 | 3 << 4 | 1 << 2 | 1);
  EXPECT_EQ(start.signature[0], 1 << 6 | 2 << 4 | 2 << 2 | 2);
  EXPECT_EQ(start.joint, 0xFF);
  // White castled with two minors at home; black's king moved without castling rights.
  const MaterialIndices dev = mi("rnbq1bnr/ppppkppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQ1RK1 w - - 0 1");
  EXPECT_EQ(dev.development, 2 << 6 | 3 << 4 | 0 << 2 | 3);
  EXPECT_EQ(mi("4k3/8/8/8/8/8/8/R3K2R w - - 0 1").development, 0 << 6 | 0 << 4 | 2 << 2 | 2);
  // Queen and knight against rook and bishop.
  const MaterialIndices m = mi("4k3/8/2b5/8/8/8/8/QN2K2r w - - 0 1");
  EXPECT_EQ(m.signature[0], 1 << 6 | 1);
  EXPECT_EQ(m.signature[1], 1 << 4 | 1 << 2);
  EXPECT_EQ(m.joint, 0x9 << 4 | 0x6);
}

TEST(SlowEvalFeatures, ControlLevels) {
  // e4 attacked by white's d3 pawn and knight f2... and by black's queen: 8 + 3 - 1.
  const SlowBoard b(chip_board(Position::from_fen("4k3/8/8/8/7q/3P4/5N2/4K3 w - - 0 1")));
  EXPECT_EQ(control_level(b, 28), 8 + 3 - 1);
  EXPECT_EQ(control_level(b, 63 - 7), 8);  // a8: nobody
}

// SlowBoard's precomputed views (every square's control level at once, the files as columns from
// each side, the mailbox, the passed pawns) against their square-by-square definitions.
TEST(SlowEvalFeatures, TheBoardsPrecomputedViewsEqualTheirDefinitions) {
  int passed_seen = 0;
  for (const std::string& fen : testdata::random_game_positions(7, 30, 100)) {
    const Position pos = Position::from_fen(fen);
    const std::array<std::uint8_t, 64> board = chip_board(pos);
    const SlowBoard b(board);
    const std::array<std::uint8_t, 64> levels = control_levels(b);
    for (int sq = 0; sq < 64; ++sq) {
      ASSERT_EQ(levels[std::size_t(sq)], control_level(b, sq)) << fen << " square " << sq;
      for (int c = 0; c < 2; ++c) {
        const int type = board[std::size_t(sq)] & 7;
        const bool mine = type != 0 && (board[std::size_t(sq)] >> 3 & 1) == c;
        ASSERT_EQ(b.type_on(c, sq), mine ? type : 0) << fen << " square " << sq;
      }
    }
    for (int c = 0; c < 2; ++c) {
      const int e = 1 - c;
      const SideColumns& v = b.cols[std::size_t(c)];
      ASSERT_EQ(b.passed[std::size_t(c)], slow_passed_pawns(b, c)) << fen;
      passed_seen += b.passed[std::size_t(c)] != 0;
      EXPECT_EQ(slowbits::file_of(v.occupied, -1), 0);
      EXPECT_EQ(slowbits::file_of(v.occupied, 8), 0);
      for (int f = 0; f < 8; ++f) {
        using slowbits::column;
        using slowbits::file_of;
        ASSERT_EQ(file_of(v.own_pawns, f), column(b.pieces[c][CHIP_PAWN], f, c)) << fen << " file " << f;
        ASSERT_EQ(file_of(slowbits::beside(v.enemy_pawns), f),
                  column(b.pieces[e][CHIP_PAWN], f - 1, c) | column(b.pieces[e][CHIP_PAWN], f + 1, c))
            << fen << " file " << f;
        ASSERT_EQ(file_of(v.enemy_any, f), column(b.attacks[e].any(), f, c)) << fen << " file " << f;
        ASSERT_EQ(file_of(v.occupied, f), column(b.occupied, f, c)) << fen << " file " << f;
        ASSERT_EQ(file_of(v.light, f), column(slowbits::LIGHT, f, c)) << fen << " file " << f;
      }
    }
  }
  EXPECT_GT(passed_seen, 100);  // the games reach positions with passed pawns
}

// ---------------------------------------------------------------- groups on the chip (model)

struct OneGroup {
  ChipClient chip;
  explicit OneGroup(SlowEvalWeights w) : chip(std::make_unique<ChipModel>()) {
    chip.load_phase(default_phase(GeneratorParams::hand()));  // the relevances the tests count with
    chip.load_slow_weights(w);
  }
  ChipClient::SlowEval eval(const std::string& fen) {
    chip.load(Position::from_fen(fen));
    chip.eval_init();
    return chip.slow_eval();
  }
};

TEST(SlowEvalGroups, EndgameDrawsZeroTheWholeEvaluation) {
  OneGroup g(default_slow_weights());
  g.chip.write(reg::EVAL_CTRL, 3);                               // endgame rules and ROMs on
  const auto drawn = g.eval("8/5k2/8/3P4/8/8/5K2/8 w - - 0 1");  // KPK: the ROM says draw
  EXPECT_NE(drawn.value, 0);
  EXPECT_EQ(drawn.total, 0);
  const auto won = g.eval("8/8/8/3PK3/8/8/8/k7 w - - 0 1");  // the pawn side wins
  EXPECT_EQ(won.total, std::int16_t(g.chip.fast_eval() + won.value));
  EXPECT_NE(won.total, 0);
}

TEST(SlowEvalGroups, RegistersGroup) {
  SlowEvalWeights w;
  w.regs[ER_EVAL_CONTROL] = 1u << SG_REGISTERS;
  w.regs[ER_BISHOP_PAIR] = 30;
  w.regs[ER_BISHOP_PAIR + 1] = 20;
  w.regs[ER_SIDE_TO_MOVE] = 5;
  w.regs[ER_SIDE_TO_MOVE + 1] = 7;
  w.regs[ER_BIAS] = 0xFE;  // -2
  OneGroup g(w);
  EXPECT_EQ(g.eval("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1").group[SG_REGISTERS], 30 + 5 - 2);
  EXPECT_EQ(g.eval("2b1kb2/8/8/8/8/8/8/2B1KB2 b - - 0 1").group[SG_REGISTERS], 30 - 20 - 7 - 2);
  EXPECT_EQ(g.eval("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1").group[SG_REGISTERS], 5 - 2);
  // Group disabled: nothing.
  w.regs[ER_EVAL_CONTROL] = 0;
  OneGroup off(w);
  EXPECT_EQ(off.eval("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1").value, 0);
}

TEST(SlowEvalGroups, HungPiecesAndRooksOnTheSeventh) {
  SlowEvalWeights w;
  w.regs[ER_EVAL_CONTROL] = 1u << SG_REGISTERS;
  w.regs[ER_HUNG] = 40;       // white benefits, on move
  w.regs[ER_HUNG + 1] = 10;   // white benefits, black on move
  w.regs[ER_ROOK7] = 20;      // white, single, regular
  w.regs[ER_ROOK7 + 1] = 50;  // white, single, absolute, king trapped
  OneGroup g(w);
  // Black's knight on d5 attacked by the e4 pawn, undefended.
  EXPECT_EQ(g.eval("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1").group[SG_REGISTERS], 40);
  EXPECT_EQ(g.eval("4k3/8/8/3n4/4P3/8/8/4K3 b - - 0 1").group[SG_REGISTERS], 10);
  EXPECT_EQ(g.eval("4k3/8/4p3/3n4/4P3/8/8/4K3 w - - 0 1").group[SG_REGISTERS], 0);  // defended
  // Rook on the seventh with a (defended) black pawn there; absolute with the king cut off on the
  // eighth.
  EXPECT_EQ(g.eval("8/2R4p/6k1/8/8/8/8/4K3 w - - 0 1").group[SG_REGISTERS], 20);
  EXPECT_EQ(g.eval("6k1/2R5/8/8/8/8/8/4K3 w - - 0 1").group[SG_REGISTERS], 50);
}

TEST(SlowEvalGroups, KingSafetyScalesWithRelevance) {
  SlowEvalWeights w;
  w.regs[ER_EVAL_CONTROL] = 1u << SG_KING_SAFETY;
  for (int i = 0; i < 192; ++i) w.tables[ET_ROOK_FILES][i] = 10;  // base 10, kmod 0 (2x), kmodOpp 0
  OneGroup g(w);
  // White rook on the open g-file next to black's king on g8 (same wing): 10 x 2 (half units: 40).
  // Black's king relevance (default phase): min(15, 6 x white queens + 2 x rooks + minors).
  // Files f, g, h are near the king: three files of base 10, times 4 half-units each.
  const auto r = g.eval("6k1/8/8/8/8/8/8/6RK b - - 0 1");
  EXPECT_EQ(r.group[SG_KING_SAFETY], (3 * 10 * 4 * 2) >> 5);
  // White has no pieces: no relevance for black's king, no king safety.
  EXPECT_EQ(g.eval("6k1/8/8/8/8/8/P7/7K w - - 0 1").group[SG_KING_SAFETY], 0);
}

}  // namespace
}  // namespace db::chip
