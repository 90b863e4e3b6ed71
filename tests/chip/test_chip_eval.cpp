// Deep Blue's evaluation in software (chip/chip_eval.h) against the model chip's registers:
// FAST_EVAL, SLOW_EVAL and EVAL_TOTAL after EVAL_INIT and SLOW_EVAL, with the weights the host
// generates for each position as a root and for another root, on the shared positions, random
// game positions and endgames where the KPK ROM, the draw rules and the pawn race decide.
#include <gtest/gtest.h>

#include <memory>

#include "chip/chip_client.h"
#include "chip/chip_eval.h"
#include "chip/chip_model.h"
#include "chip/placement.h"
#include "chip/slow_weights.h"
#include "chip_data.h"

namespace db::chip {
namespace {

void expect_same_as_chip(ChipClient& chip, const EvalWeights& w, const std::string& fen) {
  const Position pos = Position::from_fen(fen);
  chip.load(pos);
  chip.eval_init();
  const int fast = chip.fast_eval();
  const ChipClient::SlowEval se = chip.slow_eval();
  const ChipEvaluation e = ChipEvaluator(w).evaluate(pos);
  ASSERT_EQ(e.fast, fast) << fen;
  // The fast evaluation alone (the lazy stand pat's), from the bitboards or the trace.
  const FastEvaluation f = ChipEvaluator(w).fast(pos);
  ASSERT_EQ(f.fast, fast) << fen;
  ASSERT_EQ(f.draw, e.draw) << fen;
  ASSERT_EQ(e.slow, se.value) << fen;
  ASSERT_EQ(e.total, se.total) << fen;
  if (!e.draw) {
    EXPECT_EQ(e.undrawn, e.total) << fen;
  }
}

TEST(ChipEvaluator, EqualsTheChipOnSharedAndRandomPositions) {
  ChipClient chip(std::make_unique<ChipModel>());
  std::vector<std::string> fens = testdata::shared_positions(3);
  for (const std::string& f : testdata::random_game_positions(23, 40, 120)) fens.push_back(f);
  ASSERT_GE(fens.size(), 200u);
  const EvalWeights opening = generate_weights(Position::from_fen(fens.front()));
  download(chip, opening);
  for (const std::string& f : fens) expect_same_as_chip(chip, opening, f);
  // Each position with its own root's weights (king placement and development follow the root).
  for (std::size_t i = 0; i < fens.size(); i += 7) {
    const EvalWeights w = generate_weights(Position::from_fen(fens[i]));
    download(chip, w);
    expect_same_as_chip(chip, w, fens[i]);
  }
}

// The tuner's feature trace: taken once per position, then replayed under weights it was not
// taken with (random tables and registers, the generator's for other roots), it must give the
// model chip's value with those weights downloaded, to the bit.
TEST(ChipEvaluator, OneTraceReplaysTheChipUnderAnyWeights) {
  ChipClient chip(std::make_unique<ChipModel>());
  std::vector<std::string> fens = testdata::shared_positions(2);
  for (const std::string& f : testdata::random_game_positions(31, 20, 100)) fens.push_back(f);
  std::vector<EvalTrace> traces;
  for (const std::string& f : fens) traces.push_back(ChipEvaluator::trace(Position::from_fen(f)));
  std::vector<EvalWeights> sets;
  for (std::uint32_t seed : {3u, 4u, 5u}) {
    EvalWeights w = generate_weights(Position::from_fen(fens[seed * 11 % fens.size()]));
    w.slow = random_slow_weights(seed);
    w.placement = random_placement(seed);
    w.phase = random_phase(seed);
    w.runner_bonus = std::uint16_t(100 * seed);
    sets.push_back(w);
  }
  sets.push_back(generate_weights(Position()));
  int compared = 0;
  for (const EvalWeights& w : sets) {
    download(chip, w);
    for (std::size_t i = 0; i < fens.size(); ++i) {
      const Position pos = Position::from_fen(fens[i]);
      chip.load(pos);
      chip.eval_init();
      const int fast = chip.fast_eval();
      const ChipClient::SlowEval se = chip.slow_eval();
      const ChipEvaluation e = ChipEvaluator::replay(traces[i], w);
      ASSERT_EQ(e.fast, fast) << fens[i];
      ASSERT_EQ(e.slow, se.value) << fens[i];
      ASSERT_EQ(e.total, se.total) << fens[i];
      ++compared;
    }
  }
  EXPECT_GE(compared, 4 * 150);
}

TEST(ChipEvaluator, EqualsTheChipInEndgamesTheRomAndRulesDecide) {
  ChipClient chip(std::make_unique<ChipModel>());
  const std::vector<std::string> fens = {
      "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",    // KPK: drawn with the defender in front
      "8/8/8/8/8/3k4/4P3/4K3 b - - 0 1",    // KPK
      "8/4P3/8/8/8/8/k7/4K3 w - - 0 1",     // KPK: a runner wins
      "8/8/8/8/8/8/1kp5/4Q2K w - - 0 1",    // KQKP: the c-pawn on its seventh, the draw rule
      "8/8/8/8/8/2k5/2p5/R6K w - - 0 1",    // KRKP
      "4k3/8/8/3KP3/8/8/8/r6R b - - 0 1",   // KRPKR
      "8/p7/8/8/8/8/6P1/k6K w - - 0 1",     // the pawn race
      "8/pp4k1/8/8/8/8/6PP/6K1 w - - 0 1",  // pawn ending
  };
  for (const std::string& f : fens) {
    const EvalWeights w = generate_weights(Position::from_fen(f));
    download(chip, w);
    expect_same_as_chip(chip, w, f);
  }
  // At least one of them is a draw by the endgame logic and one is not.
  int draws = 0;
  for (const std::string& f : fens) {
    const Position pos = Position::from_fen(f);
    draws += ChipEvaluator(generate_weights(pos)).evaluate(pos).draw;
  }
  EXPECT_GT(draws, 0);
  EXPECT_LT(draws, int(fens.size()));
}

TEST(ChipEvaluator, MirroredPositionsHaveTheSameValue) {
  for (const std::string& f : testdata::shared_positions(9)) {
    const Position pos = Position::from_fen(f);
    const Position mirror = Position::from_fen(testdata::mirror_fen(pos));
    const EvalWeights w = generate_weights(pos);
    EXPECT_EQ(ChipEvaluator(w).evaluate(pos).total, ChipEvaluator(w).evaluate(mirror).total) << f;
  }
}

}  // namespace
}  // namespace db::chip
