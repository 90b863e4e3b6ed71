// The slow evaluation's memo (chip/slow_memo.h): one for the process, shared by every chip model,
// its entries for one content of the weights, named by weights_id(). The chips must get their own
// weights' values whatever the other chips evaluated before them, on one thread or several.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "chip/chip_model.h"
#include "chip/slow_memo.h"
#include "chip/slow_weights.h"
#include "slow_reference.h"

namespace db::chip {
namespace {

TEST(SlowEvalMemo, WeightsNumbersFollowTheContent) {
  const SlowEvalWeights a = random_slow_weights(11), b = random_slow_weights(12);
  const std::uint32_t id_a = weights_id(a);
  EXPECT_NE(id_a, 0u);
  EXPECT_EQ(weights_id(a), id_a);
  EXPECT_EQ(weights_id(SlowEvalWeights(a)), id_a);  // the content, not the object
  const std::uint32_t id_b = weights_id(b);
  EXPECT_NE(id_b, id_a);
  SlowEvalWeights a_last = a;  // one word apart, the last of the last table
  a_last.tables[EVAL_TABLES_COUNT - 1][EVAL_TABLES_WINDOW - 1] ^= 1;
  const std::uint32_t id_a_last = weights_id(a_last);
  EXPECT_NE(id_a_last, id_a);
  EXPECT_NE(id_a_last, id_b);
  // Past kRememberedWeights other contents a is forgotten: it gets a new number, never an old one.
  std::set<std::uint32_t> given = {id_a, id_b, id_a_last};
  for (int i = 0; i < kRememberedWeights; ++i) {
    SlowEvalWeights w = a;
    w.regs[0] ^= std::uint32_t(i + 1);
    EXPECT_TRUE(given.insert(weights_id(w)).second) << i;
  }
  EXPECT_TRUE(given.insert(weights_id(a)).second);
}

// Two chips with other weights evaluate the same positions one after the other: each must get its
// own weights' values, not the entry the other chip just stored.
TEST(SlowEvalMemo, ChipsWithOtherWeightsShareNoEntry) {
  ChipClient chip_a(std::make_unique<ChipModel>()), chip_b(std::make_unique<ChipModel>());
  const SlowEvalWeights wa = random_slow_weights(21), wb = random_slow_weights(22);
  for (ChipClient* chip : {&chip_a, &chip_b}) {
    chip->load_placement(default_placement());
    chip->load_phase(default_phase());
  }
  chip_a.load_slow_weights(wa);
  chip_b.load_slow_weights(wb);
  int differ = 0;
  for (const auto& fen : testdata::random_game_positions(23, 2, 40)) {
    const Position pos = Position::from_fen(fen);
    expect_chip_matches_reference(chip_a, pos, default_phase(), wa);
    expect_chip_matches_reference(chip_b, pos, default_phase(), wb);
    differ += reference(pos, default_phase(), wa).white != reference(pos, default_phase(), wb).white;
  }
  EXPECT_GT(differ, 20);  // the weights give other values: a shared entry would have shown
}

// Chips on two threads at once (the chips on threads, --threads) use the one memo: the same
// answers as the reference on both (scripts/test --tsan runs it under ThreadSanitizer).
TEST(SlowEvalMemo, ChipsOnTwoThreadsGetTheirOwnValues) {
  const std::vector<std::string> fens = testdata::random_game_positions(31, 2, 40);
  auto run = [&](unsigned seed, std::string& failure) {
    ChipClient chip(std::make_unique<ChipModel>());
    const SlowEvalWeights w = random_slow_weights(seed);
    chip.load_placement(default_placement());
    chip.load_phase(default_phase());
    chip.load_slow_weights(w);
    for (int round = 0; round < 2; ++round) {  // the second round finds the first round's entries
      for (const auto& fen : fens) {
        const Position pos = Position::from_fen(fen);
        chip.load(pos);
        chip.eval_init();
        const std::int16_t white = std::int16_t(reference(pos, default_phase(), w).white);
        const std::int16_t want = pos.side_to_move() == WHITE ? white : std::int16_t(-white);
        if (chip.slow_eval().value != want && failure.empty()) failure = fen;
      }
    }
  };
  std::string failure_a, failure_b, failure_c;
  std::thread a(run, 32u, std::ref(failure_a)), b(run, 33u, std::ref(failure_b)), c(run, 32u, std::ref(failure_c));
  a.join();
  b.join();
  c.join();
  EXPECT_EQ(failure_a, "");
  EXPECT_EQ(failure_b, "");
  EXPECT_EQ(failure_c, "");
}

}  // namespace
}  // namespace db::chip
