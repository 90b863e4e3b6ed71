// The evaluation function generator (AIJ 7.1): weights made from the root position, downloaded to
// the chip, evaluated the same on the model and the RTL.
#include <gtest/gtest.h>

#include "chip/array_model.h"
#include "chip/chip_client.h"
#include "chip/chip_regs.h"
#include "chip/eval_generator.h"
#include "chip/generator_params.h"
#include "chip/rtl_backend.h"
#include "chip_data.h"

namespace db::chip {
namespace {

TEST(EvalGenerator, GameStageFromTheMaterial) {
  EXPECT_EQ(game_stage(Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")), 24);
  EXPECT_EQ(game_stage(Position::from_fen("4k3/pp6/8/8/8/8/6PP/4K3 w - - 0 1")), 0);
  EXPECT_EQ(game_stage(Position::from_fen("4k3/pp6/8/8/8/8/6PP/R3K3 w - - 0 1")), 2);
}

// The generator's structure, on the hand-set values (the tuned ones may weigh a term differently:
// the fit placed the ending's king less centrally, for one).
TEST(EvalGenerator, KingPlacementFollowsTheRootsStage) {
  const GeneratorParams& hand = GeneratorParams::hand();
  const EvalWeights opening =
      generate_weights(Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), hand);
  const EvalWeights ending = generate_weights(Position::from_fen("4k3/pp6/8/8/8/8/6PP/4K3 w - - 0 1"), hand);
  const auto king = [](const EvalWeights& w, int sq) { return w.placement[CHIP_KING << 6 | sq]; };
  // g1 (6) against e4 (28): sheltered in the opening, central in the ending.
  EXPECT_GT(king(opening, 6), king(opening, 28));
  EXPECT_LT(king(ending, 6), king(ending, 28));
  // Everything else is the generator's fixed tables.
  for (int i = 0; i < 6 * 64; ++i) EXPECT_EQ(opening.placement[i], ending.placement[i]);
}

TEST(EvalGenerator, DevelopmentCountsInTheOpeningOnly) {
  const GeneratorParams& hand = GeneratorParams::hand();
  const EvalWeights early =
      generate_weights(Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"), hand);
  const EvalWeights late =
      generate_weights(Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 30"), hand);
  const int idx = 3 << 6 | 0 << 4;  // white: three minors at home; black: none
  const auto value = [](std::uint32_t v) { return int(v << 23) >> 23; };
  EXPECT_LT(value(early.slow.tables[ET_DEVELOPMENT][idx]), 0);
  EXPECT_EQ(value(late.slow.tables[ET_DEVELOPMENT][idx]), value(early.slow.tables[ET_DEVELOPMENT][idx]) / 4);
}

// The generated weights of each root, downloaded to the RTL and the model in lock-step.
TEST(EvalGenerator, DownloadedWeightsEvaluateTheSameOnModelAndRtl) {
  ChipClient chip(make_backend("cosim"));
  int nonzero = 0;
  const auto fens = testdata::match_1997_positions();
  for (std::size_t i = 0; i < fens.size(); i += 40) {
    const Position pos = Position::from_fen(fens[i]);
    download(chip, generate_weights(pos));
    chip.load(pos);
    chip.eval_init();
    const auto r = chip.slow_eval();
    nonzero += r.value != 0;
  }
  EXPECT_GT(nonzero, 0);
}

}  // namespace
}  // namespace db::chip
