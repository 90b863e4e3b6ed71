// The host's cost model (ChipLeafSearch::set_host_node_ns): the software's own time passes in
// simulated time while the chips search on. It changes the time, never the tree of one worker.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "chip_search_run.h"

namespace db::search {
namespace {

constexpr const char* kFen = "r1r1q1k1/6p1/3b1p1p/1p1PpP2/1Pp5/2P4P/R1B2QP1/R5K1 w - - 0 37";  // AIJ 4.2 pos. 1

using Outcome = chip_test::ChipRun;

Outcome search(int depth, int chips, std::uint32_t host_node_ns, int workers = 1) {
  ChipLeafSearch leaf(chip_test::model_clients(chips), 2);
  leaf.set_host_node_ns(host_node_ns);
  EXPECT_EQ(leaf.host_node_ns(), host_node_ns);
  return chip_test::run_to_depth(leaf, kFen, depth, workers);
}

TEST(HostCost, FreeByDefault) {
  const Outcome o = search(4, 2, 0);
  EXPECT_EQ(o.chips.host_clocks, 0u);
  // The software nodes are counted all the same: the search's nodes are the software's and the chips'.
  EXPECT_EQ(o.chips.software_nodes, o.result.nodes - o.chips.nodes);
  EXPECT_GT(o.chips.software_nodes, 0u);
  EXPECT_GT(o.chips.parallel_clocks, 0u);
}

TEST(HostCost, TheHostsTimePassesAndTheTreeStays) {
  constexpr std::uint32_t kNs = 20000;  // 20 us a node: 480 chip clocks
  const Outcome free = search(5, 4, 0);
  const Outcome costly = search(5, 4, kNs);
  // One worker: the same questions in the same order, so the same tree and answers.
  EXPECT_EQ(free.result.best, costly.result.best);
  EXPECT_EQ(free.result.score, costly.result.score);
  EXPECT_EQ(free.result.nodes, costly.result.nodes);
  EXPECT_EQ(free.chips.searches, costly.chips.searches);
  EXPECT_EQ(free.chips.nodes, costly.chips.nodes);
  // Every software node is charged once: the search's nodes are the software's and the chips'.
  EXPECT_EQ(costly.chips.software_nodes, costly.result.nodes - costly.chips.nodes);
  EXPECT_GT(costly.chips.software_nodes, 100u);
  // The host's time, in whole polling rounds (17 clocks), within one round of the exact cost.
  const double exact = double(costly.chips.software_nodes) * kNs * 24e6 / 1e9;
  EXPECT_LE(double(costly.chips.host_clocks), exact);
  EXPECT_GT(double(costly.chips.host_clocks), exact - double(ChipLeafSearch::kQuantum + 1));
  // The simulated time grows, but by less than the host's time: the chips searched meanwhile.
  EXPECT_GT(costly.chips.parallel_clocks, free.chips.parallel_clocks);
  EXPECT_LT(costly.chips.parallel_clocks, free.chips.parallel_clocks + costly.chips.host_clocks);
  EXPECT_GE(costly.chips.parallel_clocks, costly.chips.host_clocks);
}

TEST(HostCost, SeveralWorkersShareOneHost) {
  // Four workers on one host processor: their software time adds up on the host's clock, and a
  // run repeats exactly (the workers' interleaving changes with the cost, but deterministically).
  constexpr std::uint32_t kNs = 20000;
  const Outcome a = search(5, 4, kNs, 4);
  const Outcome b = search(5, 4, kNs, 4);
  EXPECT_EQ(a.result.best, b.result.best);
  EXPECT_EQ(a.result.score, b.result.score);
  EXPECT_EQ(a.result.nodes, b.result.nodes);
  EXPECT_EQ(a.chips.parallel_clocks, b.chips.parallel_clocks);
  EXPECT_EQ(a.chips.host_clocks, b.chips.host_clocks);
  EXPECT_GT(a.chips.software_nodes, 100u);
  EXPECT_GE(a.chips.parallel_clocks, a.chips.host_clocks);
}

}  // namespace
}  // namespace db::search
