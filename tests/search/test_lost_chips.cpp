// Chips lost mid-search (a chip server that dies, hangs or answers garbage shows up in the search as
// chip::ChipLost from one of a chip's calls): the leaf search drops the chip, asks its question again
// of another chip (an in-process model chip when none is left) and must end with the same tree as
// with no fault: answers never depend on which chip gave them. Here the faults are injected in
// process by a wrapper chip, at every kind of call; tests/link/test_remote_search.cpp does the same
// with real chip servers.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "chess/notation.h"
#include "chip/chip_model.h"
#include "chip/generator_params.h"
#include "chip_search_run.h"
#include "search/chip_leaf_search.h"
#include "search/score.h"
#include "search/search.h"

namespace db::search {
namespace {

// A model chip that is lost at its n-th call of one kind (and stays lost).
class FlakyChip final : public chip::SearchChip {
 public:
  enum class Call { WEIGHTS, START, BEGIN_RUN, END_RUN, ABORT };
  FlakyChip(Call call, int nth)
      : inner_(std::make_unique<chip::ChipClient>(std::make_unique<chip::ChipModel>())), call_(call), nth_(nth) {}

  void load_weights(const std::vector<chip::WriteBlock>& w, std::uint64_t generation) override {
    check(Call::WEIGHTS);
    inner_.load_weights(w, generation);
  }
  void start(const chip::SearchJob& job) override {
    check(Call::START);
    inner_.start(job);
  }
  void begin_run(std::uint64_t max_quanta) override {
    check(Call::BEGIN_RUN);
    inner_.begin_run(max_quanta);
  }
  chip::RunOutcome end_run() override {
    check(Call::END_RUN);
    return inner_.end_run();
  }
  chip::SearchResult abort() override {
    check(Call::ABORT);
    return inner_.abort();
  }
  // Where to note the loss for the test (the chip itself goes with the leaf search that owns it).
  void report_to(bool* lost) { report_ = lost; }

 private:
  void check(Call c) {
    if (!lost_ && c == call_ && ++count_ == nth_) {
      lost_ = true;
      if (report_) *report_ = true;
    }
    if (lost_) throw chip::ChipLost("flaky chip: lost (test)");
  }

  chip::LocalSearchChip inner_;
  Call call_;
  int nth_;
  int count_ = 0;
  bool lost_ = false;
  bool* report_ = nullptr;
};

std::unique_ptr<chip::SearchChip> model_chip() {
  return std::make_unique<chip::LocalSearchChip>(
      std::make_unique<chip::ChipClient>(std::make_unique<chip::ChipModel>()));
}

using Outcome = chip_test::ChipRun;

Outcome search(std::vector<std::unique_ptr<chip::SearchChip>> chips, const std::string& fen, int depth,
               int workers = 1) {
  ChipLeafSearch leaf(std::move(chips), 2);
  // The fault points below were chosen on the tree of the hand-set weights (a lost chip's search
  // in flight, then rerun): pinned, so that tuning the defaults does not move them.
  leaf.set_generator_params(std::make_shared<const chip::GeneratorParams>(chip::GeneratorParams::hand()));
  return chip_test::run_to_depth(leaf, fen, depth, workers);
}

std::vector<std::unique_ptr<chip::SearchChip>> models(int n) {
  std::vector<std::unique_ptr<chip::SearchChip>> chips;
  for (int i = 0; i < n; ++i) chips.push_back(model_chip());
  return chips;
}

// AIJ 4.2 position 1 (a quiet middlegame): many chip searches, some asked ahead and aborted.
const char* const kFen = "r1r1q1k1/6p1/3b1p1p/1p1PpP2/1Pp5/2P4P/R1B2QP1/R5K1 w - - 0 37";

TEST(LostChips, EveryKindOfCallLosingAChipGivesTheSameTree) {
  const Outcome clean = search(models(3), kFen, 5);
  ASSERT_GT(clean.chips.wasted_searches, 0u);  // aborts happen, so ABORT is exercised
  using Call = FlakyChip::Call;
  const struct {
    Call call;
    int nth;
  } faults[] = {{Call::WEIGHTS, 1}, {Call::START, 1},    {Call::START, 40}, {Call::BEGIN_RUN, 25},
                {Call::END_RUN, 1}, {Call::END_RUN, 60}, {Call::ABORT, 1}};
  for (const auto& f : faults) {
    SCOPED_TRACE(testing::Message() << "call " << int(f.call) << " #" << f.nth);
    std::vector<std::unique_ptr<chip::SearchChip>> chips = models(2);
    auto flaky = std::make_unique<FlakyChip>(f.call, f.nth);
    bool lost = false;
    flaky->report_to(&lost);
    chips.insert(chips.begin() + 1, std::move(flaky));
    const Outcome faulty = search(std::move(chips), kFen, 5);
    EXPECT_TRUE(lost);
    EXPECT_EQ(faulty.chips.chips_lost, 1u);
    EXPECT_EQ(faulty.result.best, clean.result.best);
    EXPECT_EQ(faulty.result.score, clean.result.score);
    EXPECT_EQ(faulty.result.nodes, clean.result.nodes);      // the software saw the same tree
    EXPECT_EQ(faulty.chips.searches, clean.chips.searches);  // and the same answers
    EXPECT_EQ(faulty.chips.nodes, clean.chips.nodes);
  }
}

TEST(LostChips, WhenEveryChipIsLostAModelChipInThisProcessTakesOver) {
  const Outcome clean = search(models(2), kFen, 5);
  std::vector<std::unique_ptr<chip::SearchChip>> chips;
  chips.push_back(std::make_unique<FlakyChip>(FlakyChip::Call::END_RUN, 3));
  chips.push_back(std::make_unique<FlakyChip>(FlakyChip::Call::START, 10));
  const Outcome faulty = search(std::move(chips), kFen, 5);
  EXPECT_EQ(faulty.chips.chips_lost, 2u);
  EXPECT_GE(faulty.chips.reruns, 1u);
  EXPECT_EQ(faulty.result.best, clean.result.best);
  EXPECT_EQ(faulty.result.score, clean.result.score);
  EXPECT_EQ(faulty.result.nodes, clean.result.nodes);
  EXPECT_EQ(faulty.chips.nodes, clean.chips.nodes);
}

TEST(LostChips, ParallelWorkersFinishTheMateWhenChipsAreLost) {
  // Mate in two (Stockfish 15.1: mate 2, d5f6): two workers on four chips, two of them lost.
  const std::string fen = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1";
  std::vector<std::unique_ptr<chip::SearchChip>> chips = models(2);
  chips.push_back(std::make_unique<FlakyChip>(FlakyChip::Call::END_RUN, 5));
  chips.push_back(std::make_unique<FlakyChip>(FlakyChip::Call::START, 8));
  const Outcome faulty = search(std::move(chips), fen, 4, 2);
  EXPECT_EQ(faulty.chips.chips_lost, 2u);
  EXPECT_EQ(move_to_uci(faulty.result.best), "d5f6");
  EXPECT_EQ(faulty.result.score, kMate - 3);
}

}  // namespace
}  // namespace db::search
