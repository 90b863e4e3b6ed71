// The software search on chips behind real `deepblue chipd` servers (child processes on loopback):
// the same tree as on in-process model chips (move, score, node counts, simulated clocks), at most
// two round trips and a bounded number of bytes per chip search, and servers that die, hang or
// answer garbage mid-search (chipd --fault) lose their chips without changing the answer.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "chip/chip_model.h"
#include "chip/remote_chip.h"
#include "chipd_process.h"
#include "search/chip_leaf_search.h"
#include "search/search.h"

namespace db::link {
namespace {

using namespace std::chrono_literals;

// AIJ 4.2 position 1: a quiet middlegame, some thousands of chip searches at these depths.
const char* const kFen = "r1r1q1k1/6p1/3b1p1p/1p1PpP2/1Pp5/2P4P/R1B2QP1/R5K1 w - - 0 37";
constexpr int kDepth = 5, kChipDepth = 2;

struct Outcome {
  search::SearchResult result;
  search::LeafStats chips;
  ConnectionStats link;  // summed over the servers
};

Outcome search(std::vector<std::unique_ptr<chip::SearchChip>> chips, const std::vector<chip::LinkPtr>& links = {}) {
  search::ChipLeafSearch leaf(std::move(chips), kChipDepth);
  search::TranspositionTable tt(8);
  search::Searcher searcher(tt);
  searcher.set_leaf_search(&leaf);
  search::Limits limits;
  limits.depth = kDepth;
  Outcome r{searcher.run(Position::from_fen(kFen), limits), leaf.stats(), {}};
  for (const chip::LinkPtr& l : links) {
    r.link.round_trips += l->stats().round_trips;
    r.link.bytes_sent += l->stats().bytes_sent;
    r.link.bytes_received += l->stats().bytes_received;
  }
  return r;
}

Outcome run_in_process(int n) {
  std::vector<std::unique_ptr<chip::SearchChip>> chips;
  for (int i = 0; i < n; ++i) {
    chips.push_back(std::make_unique<chip::LocalSearchChip>(
        std::make_unique<chip::ChipClient>(std::make_unique<chip::ChipModel>())));
  }
  return search(std::move(chips));
}

std::string address(const std::vector<const test::ChipdProcess*>& servers) {
  std::string s = "remote:";
  for (const test::ChipdProcess* p : servers)
    s += (s.size() > 7 ? "," : "") + ("127.0.0.1:" + std::to_string(p->port()));
  return s;
}

Outcome run_remote(const std::vector<const test::ChipdProcess*>& servers, int n,
                   std::chrono::milliseconds timeout = 10s) {
  std::vector<std::unique_ptr<chip::SearchChip>> chips;
  std::set<chip::LinkPtr> links;
  for (const chip::RemoteChip& c : chip::claim_remote_chips(address(servers), n, timeout)) {
    chips.push_back(std::make_unique<chip::RemoteSearchChip>(c.link, c.chip));
    links.insert(c.link);
  }
  return search(std::move(chips), {links.begin(), links.end()});
}

void expect_same_tree(const Outcome& a, const Outcome& b) {
  EXPECT_EQ(a.result.best, b.result.best);
  EXPECT_EQ(a.result.score, b.result.score);
  EXPECT_EQ(a.result.nodes, b.result.nodes);
  EXPECT_EQ(a.chips.searches, b.chips.searches);
  EXPECT_EQ(a.chips.nodes, b.chips.nodes);
}

TEST(RemoteSearch, ChipsOnTwoServersGiveTheModelsTreeClockForClock) {
  const Outcome local = run_in_process(4);
  test::ChipdProcess a({"--chips", "3"}), b({"--chips", "1"});
  const Outcome remote = run_remote({&a, &b}, 4);
  expect_same_tree(local, remote);
  // Chips as transactions keep the simulated time too (docs/search.md).
  EXPECT_EQ(local.chips.busy_clocks, remote.chips.busy_clocks);
  EXPECT_EQ(local.chips.parallel_clocks, remote.chips.parallel_clocks);
  EXPECT_EQ(local.chips.wasted_searches, remote.chips.wasted_searches);
  // Aborted searches counted without their results, the same clocks and nodes behind the link.
  EXPECT_GT(remote.chips.wasted_nodes, 0u);  // searches aborted on the chips, not only questions never started
  EXPECT_EQ(local.chips.wasted_nodes, remote.chips.wasted_nodes);
  EXPECT_EQ(remote.chips.chips_lost, 0u);
  // The link's cost per chip search (docs/link.md, "Cost of a chip search"): at most two round trips,
  // and bytes within the stated bound (weights, HELLO and CLAIM included in the totals).
  const double jobs = double(remote.chips.searches + remote.chips.wasted_searches);
  ASSERT_GT(jobs, 500);
  EXPECT_LE(double(remote.link.round_trips) / jobs, 2.0);
  EXPECT_LE(double(remote.link.bytes_sent + remote.link.bytes_received) / jobs, 1000.0);
  EXPECT_EQ(a.stop(), 0);
  EXPECT_EQ(b.stop(), 0);
}

struct FaultCase {
  const char* fault;
  int exit_code;  // of the faulty server when stopped after the search
};

class RemoteFaults : public ::testing::TestWithParam<FaultCase> {};

TEST_P(RemoteFaults, AServerThatFailsMidSearchLosesItsChipsNotTheAnswer) {
  const Outcome local = run_in_process(4);
  test::ChipdProcess faulty({"--chips", "2", "--fault", GetParam().fault}), good({"--chips", "2"});
  // A hung server is given up after a second.
  const Outcome remote = run_remote({&faulty, &good}, 4, 1000ms);
  expect_same_tree(local, remote);
  EXPECT_EQ(remote.chips.chips_lost, 2u);  // both chips of the faulty server
  EXPECT_EQ(faulty.stop(), GetParam().exit_code) << faulty.log();
  EXPECT_EQ(good.stop(), 0) << good.log();
  EXPECT_NE(faulty.log().find("fault injection"), std::string::npos) << faulty.log();
}

INSTANTIATE_TEST_SUITE_P(Faults, RemoteFaults,
                         ::testing::Values(FaultCase{"die:40", 3}, FaultCase{"hang:40", 0}, FaultCase{"garbage:40", 0}),
                         [](const auto& param_info) {
                           const std::string f = param_info.param.fault;
                           return f.substr(0, f.find(':'));
                         });

TEST(RemoteSearch, WhenEveryServerIsGoneTheModelInThisProcessFinishesTheSearch) {
  const Outcome local = run_in_process(2);
  test::ChipdProcess only({"--chips", "2", "--fault", "die:25"});
  const Outcome remote = run_remote({&only}, 2);
  expect_same_tree(local, remote);
  EXPECT_EQ(remote.chips.chips_lost, 2u);
  EXPECT_EQ(only.stop(), 3);
}

}  // namespace
}  // namespace db::link
