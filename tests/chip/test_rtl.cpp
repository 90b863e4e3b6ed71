// The verilated chip against the published perft counts, the chess core, and the reference model
// (co-simulation compares bus responses and the debug port on every clock).
#include <gtest/gtest.h>

#include <algorithm>

#include "chip/chip_client.h"
#include "chip/chip_regs.h"
#include "chip/rtl_backend.h"
#include "chip_data.h"
#include "support/core_reference.h"

namespace db::chip {
namespace {

#ifdef DB_CHIP_DEEP
constexpr int kMinDepth = 4, kMaxDepth = 4;
#else
constexpr int kMinDepth = 1, kMaxDepth = 3;
#endif

TEST(ChipRtlPerft, PublishedCountsOfTheWholeFile) {
  const auto data = testdata::load_perft_file("perft-sf15-d1-d4.epd");
  ASSERT_GE(data.size(), 150u);
  ChipClient chip(make_backend("rtl"));
  for (const auto& p : data) {
    const Position pos = Position::from_fen(p.fen);
    for (int d = kMinDepth; d <= kMaxDepth && d <= int(p.counts.size()); ++d) {
      chip.load(pos);
      EXPECT_EQ(chip.perft(d), p.counts[d - 1]) << "line " << p.line << " depth " << d << ": " << p.fen;
    }
  }
}

#ifndef DB_CHIP_DEEP
TEST(ChipRtl, IdentifiesItself) {
  ChipClient chip(make_backend("rtl"));
  EXPECT_EQ(chip.read(reg::ID), CHIP_ID);
  EXPECT_EQ(chip.read(reg::VERSION), CHIP_VERSION);
}

// Lock-step perft: every clock of the RTL equals the model's (state, ply, move being made).
TEST(ChipCosim, PerftDepth2OnEveryPositionClockForClock) {
  ChipClient chip(make_backend("cosim"));
  for (const auto& p : testdata::load_perft_file("perft-sf15-d1-d4.epd")) {
    chip.load(Position::from_fen(p.fen));
    CommandStats stats;
    EXPECT_EQ(chip.perft(2, &stats), p.counts[1]) << p.fen;
    EXPECT_GT(stats.cycles, 0u);
  }
}

void expect_same_sequences(const std::string& fen) {
  const Position pos = Position::from_fen(fen);
  ChipClient cosim(make_backend("cosim"));
  ChipClient model(make_backend("model"));
  cosim.load(pos);
  model.load(pos);
  for (GenMode mode : {GenMode::ALL, GenMode::CAPTURES, GenMode::CHECKS, GenMode::EVASIONS, GenMode::ATTACKS}) {
    CommandStats rtl_stats, model_stats;
    const std::vector<std::uint16_t> rtl = cosim.generate(mode, &rtl_stats);
    EXPECT_EQ(rtl, model.generate(mode, &model_stats)) << gen_mode_name(mode) << ": " << fen;
    EXPECT_EQ(rtl_stats.cycles, model_stats.cycles) << gen_mode_name(mode) << ": " << fen;
    std::vector<std::uint16_t> sorted = rtl;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(sorted, reference::expected_moves(pos, mode)) << gen_mode_name(mode) << ": " << fen;
  }
  EXPECT_EQ(cosim.in_check(), pos.in_check()) << fen;
  EXPECT_EQ(cosim.hung(), reference::expected_hung(pos)) << fen;
  EXPECT_EQ(cosim.pinned(), reference::expected_pinned(pos)) << fen;
}

// The array's pin detector (PINNED_LO/HI) and hung map against the model's on every position of the
// shared data, and the pins against the chess core's.
TEST(ChipRtl, PinnedAndHungMapsEqualTheModelsOnTheSharedData) {
  ChipClient rtl(make_backend("rtl"));
  ChipClient model(make_backend("model"));
  const std::vector<std::string> fens = testdata::shared_positions();
  ASSERT_GT(fens.size(), 1000u);
  std::size_t pinned_positions = 0;
  for (const std::string& fen : fens) {
    const Position pos = Position::from_fen(fen);
    rtl.load(pos);
    model.load(pos);
    const std::uint64_t pinned = rtl.pinned();
    EXPECT_EQ(pinned, model.pinned()) << fen;
    EXPECT_EQ(pinned, reference::expected_pinned(pos)) << fen;
    EXPECT_EQ(rtl.hung(), model.hung()) << fen;
    pinned_positions += pinned != 0;
  }
  EXPECT_GT(pinned_positions, 0u);
}

TEST(ChipCosim, EveryModeSameSequenceOnPerftPositions) {
  for (const auto& p : testdata::load_perft_file("perft.epd")) expect_same_sequences(p.fen);
}

TEST(ChipCosim, EveryModeSameSequenceAlongRandomGames) {
  for (const auto& fen : testdata::random_game_positions(20261123, 12, 80)) expect_same_sequences(fen);
}

TEST(ChipCosim, MakeUnmakeAlongARandomGame) {
  ChipClient chip(make_backend("cosim"));
  Position pos = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  chip.load(pos);
  std::mt19937 rng(42);
  for (int ply = 0; ply < 30; ++ply) {
    const std::vector<std::uint16_t> moves = chip.generate(GenMode::ALL);
    if (moves.empty()) break;
    const std::uint16_t m = moves[rng() % moves.size()];
    chip.make(m);
    pos.make_move(from_chip_move(pos, m));
    EXPECT_EQ(chip.read(reg::PLY), std::uint32_t(ply + 1));
    for (int s = 0; s < 64; ++s) ASSERT_EQ(chip.read(reg::BOARD_BASE + s), to_chip_piece(pos.piece_on(s)));
    EXPECT_EQ(chip.in_check(), pos.in_check());
  }
  // Unmake everything back to the start.
  while (chip.read(reg::PLY) > 0) chip.unmake();
  const Position start = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  for (int s = 0; s < 64; ++s) EXPECT_EQ(chip.read(reg::BOARD_BASE + s), to_chip_piece(start.piece_on(s)));
}
#endif

}  // namespace
}  // namespace db::chip
