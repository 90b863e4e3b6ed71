// Lazy evaluation (IEEE Micro, "Search control"): LAZY_EVAL decides "evaluation >= TEST_VALUE"
// from the fast value plus the low-pass filter's estimate of the slow evaluation when they clear
// the margin, and runs the slow evaluation otherwise; every slow evaluation moves the filter.
// Checked against an independent computation on the model and on the RTL in lock-step.
#include <gtest/gtest.h>

#include <random>

#include "chess/position.h"
#include "chip/chip_client.h"
#include "chip/chip_regs.h"
#include "chip/placement.h"
#include "chip/rtl_backend.h"
#include "chip/slow_weights.h"
#include "chip_data.h"

namespace db::chip {
namespace {

std::uint32_t lazy_control(int margin, int shift, bool on, int min_pieces) {
  return std::uint32_t(margin) | std::uint32_t(shift) << 16 | std::uint32_t(on) << 20 | std::uint32_t(min_pieces) << 24;
}

int pieces(const Position& pos) {
  int n = 0;
  for (Color c : {WHITE, BLACK}) {
    for (PieceType t : {KNIGHT, BISHOP, ROOK, QUEEN}) n += popcount(pos.pieces(c, t));
  }
  return n;
}

struct LazyRun {
  std::uint32_t result = 0;
  std::uint64_t cycles = 0;
};

LazyRun lazy_eval(ChipClient& chip, int test) {
  chip.write(reg::TEST_VALUE, std::uint16_t(test));
  CommandStats stats;
  chip.run(op::LAZY_EVAL, &stats);
  return {chip.read(reg::LAZY), stats.cycles};
}

class LazyEvalChip : public ::testing::TestWithParam<std::string> {};

TEST_P(LazyEvalChip, DecisionsAndFilterMatchAnIndependentComputation) {
  ChipClient chip(make_backend(GetParam()));
  std::mt19937 rng(21);
  chip.load_placement(default_placement());
  chip.load_phase(default_phase());
  SlowEvalWeights w = default_slow_weights();
  const int margin = 60, shift = 2, min_pieces = 4;
  w.regs[ER_EVAL_CONTROL + 1] = lazy_control(margin, shift, true, min_pieces);
  chip.load_slow_weights(w);
  int decided = 0, slow = 0;
  for (const auto& fen : testdata::random_game_positions(3, 3, 60)) {
    const Position pos = Position::from_fen(fen);
    chip.load(pos);
    chip.eval_init();
    const int fast = chip.fast_eval();
    const int est_white = std::int16_t(chip.read(reg::SLOW_EST));
    const int est = pos.side_to_move() == WHITE ? est_white : -est_white;
    const int test = fast + int(rng() % 301) - 150;
    const LazyRun r = lazy_eval(chip, test);
    const bool active = pieces(pos) >= min_pieces;
    if (active && fast + est - margin >= test) {
      ASSERT_EQ(r.result, 3u) << fen;  // decided, >= test
      ASSERT_EQ(r.cycles, 0u);
      ++decided;
    } else if (active && fast + est + margin < test) {
      ASSERT_EQ(r.result, 1u) << fen;  // decided, < test
      ++decided;
    } else {
      // The slow evaluation ran: its value (SLOW_EVAL) decides, and the filter moved towards it.
      const int value = std::int16_t(chip.read(reg::SLOW_EVAL));
      const int white = pos.side_to_move() == WHITE ? value : -value;
      ASSERT_EQ(r.cycles, SLOW_EVAL_CLOCKS) << fen;
      ASSERT_EQ(r.result, 4u | (std::int16_t(fast + value) >= test ? 2u : 0u)) << fen;
      ASSERT_EQ(std::int16_t(chip.read(reg::SLOW_EST)), std::int16_t(est_white + ((white - est_white) >> shift)))
          << fen;
      ++slow;
    }
  }
  EXPECT_GT(decided, 0);
  EXPECT_GT(slow, 0);
}

TEST_P(LazyEvalChip, OffWithFewPiecesOrWhenDisabled) {
  ChipClient chip(make_backend(GetParam()));
  chip.load_placement(default_placement());
  chip.load_phase(default_phase());
  SlowEvalWeights w = default_slow_weights();
  w.regs[ER_EVAL_CONTROL + 1] = lazy_control(50, 3, true, 4);
  chip.load_slow_weights(w);
  // A rook ending with three pieces: lazy evaluation is off, even far from the test value.
  chip.load(Position::from_fen("8/5k2/8/8/3R4/8/1r3K2/2R5 w - - 0 1"));
  chip.eval_init();
  EXPECT_EQ(lazy_eval(chip, -10000).result & 4u, 4u);
  // The middlegame: decided far from the test value, in no clocks.
  chip.load(Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"));
  chip.eval_init();
  EXPECT_EQ(lazy_eval(chip, -10000).result, 3u);
  EXPECT_EQ(lazy_eval(chip, 10000).result, 1u);
  // Disabled: always the slow evaluation.
  w.regs[ER_EVAL_CONTROL + 1] = lazy_control(50, 3, false, 4);
  chip.write(EVAL_REGS_BASE + ER_EVAL_CONTROL + 1, w.regs[ER_EVAL_CONTROL + 1]);
  EXPECT_EQ(lazy_eval(chip, -10000).result, 6u);
}

TEST_P(LazyEvalChip, FilterFollowsTheSlowEvaluation) {
  ChipClient chip(make_backend(GetParam()));
  chip.load_phase(default_phase());
  SlowEvalWeights w = default_slow_weights();
  w.regs[ER_EVAL_CONTROL + 1] = lazy_control(0, 2, false, 0);
  chip.load_slow_weights(w);
  chip.load(Position::from_fen("4k3/8/8/3P4/8/8/8/4K2R w K - 0 1"));
  chip.write(reg::SLOW_EST, std::uint16_t(-1000));
  int last_gap = 1 << 30;
  for (int i = 0; i < 40; ++i) {
    const auto r = chip.slow_eval();
    const int gap = std::abs(r.value - std::int16_t(chip.read(reg::SLOW_EST)));
    EXPECT_LE(gap, last_gap);
    last_gap = gap;
  }
  EXPECT_LE(last_gap, 4);  // within the filter's rounding of the value
}

TEST_P(LazyEvalChip, EndgameDrawIsDecidedAsZero) {
  ChipClient chip(make_backend(GetParam()));
  chip.load_phase(default_phase());
  chip.load_slow_weights(default_slow_weights());
  chip.write(reg::EVAL_CTRL, 3);
  chip.load(Position::from_fen("8/5k2/8/3P4/8/8/5K2/8 w - - 0 1"));  // KPK, drawn
  chip.eval_init();
  EXPECT_EQ(lazy_eval(chip, 0).result, 3u);
  EXPECT_EQ(lazy_eval(chip, 1).result, 1u);
  // Test value and estimate take 16 bits only.
  EXPECT_TRUE(chip.backend().access(true, reg::TEST_VALUE, 0x10000).error);
  EXPECT_EQ(chip.read(reg::ERROR) & 0xFF, err::BAD_ARGUMENT);
}

INSTANTIATE_TEST_SUITE_P(Backends, LazyEvalChip, ::testing::Values("model", "cosim"));

}  // namespace
}  // namespace db::chip
