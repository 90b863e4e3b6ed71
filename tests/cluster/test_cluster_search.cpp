// The simulated cluster (worker nodes in this process over the simulated switch): the same best
// moves and mates as one node's search, reproducible run to run, workers' jobs handed back when too
// big; a worker node's simulated time, its handling of bad and cancelled jobs, and answers that do
// not depend on how its grants cut the time up.
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include "chess/notation.h"
#include "chip/chip_model.h"
#include "cluster/cluster_leaf.h"
#include "cluster/cluster_search.h"
#include "cluster/master_link.h"
#include "cluster/worker_node.h"
#include "search/chip_leaf_search.h"
#include "search/score.h"

namespace db::cluster {
namespace {

constexpr int kChips = 4;
constexpr int kChipDepth = 2;

std::unique_ptr<search::LeafSearch> model_chips(std::uint32_t node_limit = 0) {
  std::vector<std::unique_ptr<chip::ChipClient>> clients;
  for (int i = 0; i < kChips; ++i)
    clients.push_back(std::make_unique<chip::ChipClient>(std::make_unique<chip::ChipModel>()));
  auto chips = std::make_unique<search::ChipLeafSearch>(std::move(clients), kChipDepth);
  chips->set_node_limit(node_limit);
  return chips;
}

struct Outcome {
  search::SearchResult result;
  ClusterStats stats;
  search::LeafStats leaf;
  int job_depth = 0;                             // the last iteration's
  std::uint64_t most_late = 0;                   // the most any node's JOB or CANCEL came in behind its clock
  std::vector<std::pair<int, int>> job_credits;  // each JOB's root credits, mine and his, as sent
};

struct ClusterSetup {
  std::uint64_t node_limit = 0;                     // a worker's software nodes before it hands a job back (0: none)
  int master_plies = 0;                             // ClusterConfig::master_plies (0: jobs of a fixed depth)
  bool affinity = false;                            // ClusterConfig::affinity
  std::size_t job_table = 0;                        // ClusterConfig::job_table
  std::uint32_t chip_limit = 0;                     // every node's chip node limit (ClusterConfig::chip_node_limit)
  SwitchModel network = ClusterConfig{}.network;    // the SP2 switch
  SwitchModel own_node = ClusterConfig{}.own_node;  // the master's own node, on its host
  bool own_node_to_answer = ClusterConfig{}.own_node_to_answer;
  int bad_message = 0;  // worker 1's n-th message does not decode, as MpiLink reports it (0: none)
  int threads = 1;      // InProcessLink's threads for the nodes other than the master's own
};

// The link with worker 1's n-th message malformed: receive() throws as MpiLink's does when a
// rank's bytes do not decode. It keeps the credits of every JOB sent.
class FaultyLink : public MasterLink {
 public:
  FaultyLink(MasterLink& link, int bad_message) : link_(link), bad_message_(bad_message) {}
  int workers() const override { return link_.workers(); }
  void send(int worker, const Message& m) override {
    if (const auto* job = std::get_if<Job>(&m)) job_credits.emplace_back(job->my_credit, job->his_credit);
    link_.send(worker, m);
  }
  std::optional<std::pair<int, Message>> receive() override {
    auto in = link_.receive();
    if (in && in->first == 1 && ++from_one_ == bad_message_)
      throw ClusterError("from rank 1: cluster message magic 0x00000000, not 0x31434244");
    return in;
  }
  void wait() override { link_.wait(); }

 private:
  MasterLink& link_;
  int bad_message_;
  int from_one_ = 0;

 public:
  std::vector<std::pair<int, int>> job_credits;
};

// The command line's defaults (--master-plies, --job-affinity, --job-table), scaled to these
// shallow searches.
constexpr ClusterSetup kDefaults{0, 2, true, 64};

Outcome cluster_search(const Position& root, int depth, int nodes, const ClusterSetup& setup = {}) {
  search::TranspositionTable tt(8);
  WorkerConfig config;
  config.search.workers = kChips;
  config.software_node_limit = setup.node_limit;
  std::vector<std::unique_ptr<WorkerNode>> workers;
  for (int i = 0; i < nodes; ++i) {
    config.shared_table = i == 0 ? &tt : nullptr;  // the master's own node shares its table
    workers.push_back(std::make_unique<WorkerNode>(config, model_chips(setup.chip_limit)));
  }
  WorkerNode& own = *workers[0];
  InProcessLink link(std::move(workers), setup.threads);
  FaultyLink faulty(link, setup.bad_message);
  ClusterConfig cc;
  cc.depth = kChipDepth + 1;
  cc.min_depth = kChipDepth;
  cc.master_plies = setup.master_plies;
  cc.affinity = setup.affinity;
  cc.job_table = setup.job_table;
  cc.chip_node_limit = setup.chip_limit;
  cc.network = setup.network;
  cc.own_node = setup.own_node;
  cc.own_node_to_answer = setup.own_node_to_answer;
  ClusterLeafSearch leaf(faulty, cc, tt);
  search::Searcher searcher(tt);
  // As the command line: with master plies one run (the early iterations' root jobs on the own
  // node); with a fixed job depth, iterations 1-3 on the master's own node, the rest on the cluster.
  const int own_until = setup.master_plies > 0 ? 0 : cc.depth;
  ClusterSearch master(searcher, *own.chips(), kChips, leaf, leaf.chips(), own_until);
  search::Limits limits;
  limits.depth = depth;
  const search::SearchResult r = master.run(root, limits);
  leaf.finish();
  std::uint64_t most_late = 0;
  for (int i = 0; i < nodes; ++i) most_late = std::max(most_late, link.node(i).most_late());
  return {r, leaf.cluster_stats(), master.stats(), leaf.depth(), most_late, faulty.job_credits};
}

Outcome cluster_search(const std::string& fen, int depth, int nodes, const ClusterSetup& setup = {}) {
  return cluster_search(Position::from_fen(fen), depth, nodes, setup);
}

search::SearchResult node_search(const Position& root, int depth, std::uint32_t chip_limit = 0) {
  search::TranspositionTable tt(8);
  search::SearchOptions options;
  options.workers = kChips;
  search::Searcher searcher(tt, options);
  const auto chips = model_chips(chip_limit);
  searcher.set_leaf_search(chips.get());
  search::Limits limits;
  limits.depth = depth;
  return searcher.run(root, limits);
}

search::SearchResult node_search(const std::string& fen, int depth, std::uint32_t chip_limit = 0) {
  return node_search(Position::from_fen(fen), depth, chip_limit);
}

// Win At Chess 1 (../shared/data/wac.epd): Qg6, a clear best move at this depth. AIJ 4.2 position
// 1 (Bxe4 in the paper): at depth 5 on two-ply chips Rxa8 and Qb6 have the same score.
const char* kWac1 = "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1";
const char* kAij1 = "r1r1q1k1/6p1/3b1p1p/1p1PpP2/1Pp5/2P4P/R1B2QP1/R5K1 w - - 0 37";

TEST(ClusterSearch, SameBestMovesAsOneNode) {
  for (const ClusterSetup& setup : {ClusterSetup{}, kDefaults}) {
    for (const char* fen : {kWac1, kAij1}) {
      const Outcome c = cluster_search(fen, 5, 3, setup);
      const search::SearchResult one = node_search(fen, 5);
      EXPECT_EQ(c.result.score, one.score) << fen;
      if (std::string(fen) == kWac1) {
        EXPECT_EQ(c.result.best, one.best) << fen;
      } else {  // AIJ #1's two moves of the same score: either, as the answers' order has it
        const std::string best = move_to_uci(c.result.best);
        EXPECT_TRUE(best == "a2a8" || best == "f2b6") << best;
      }
      EXPECT_GT(c.stats.jobs, 0u);
      EXPECT_LE(c.most_late, search::ChipLeafSearch::kQuantum) << fen;  // no job or cancel past a grant
      // The remote workers got jobs (after the iterations on the master's own node), and with
      // them the master's table entries where it has them.
      EXPECT_GT(c.stats.jobs_per[1] + c.stats.jobs_per[2], 0u) << fen;
      EXPECT_EQ(c.stats.table_entries_down > 0, setup.job_table > 0) << fen;
    }
    EXPECT_EQ(move_to_uci(cluster_search(kWac1, 5, 3, setup).result.best), "g3g6");
  }
}

// A job's root has the credit the master's search gave it (AIJ 4: quarter plies, after its cash-in),
// and the job carries it, so that its worker's software plies get the extensions the master's own
// search would give them. Before 2026-12-02 every job started from no credit: a cluster of one node
// searched another tree than one node (Win At Chess 271 at depth 9: a score of 126 against 272,
// 1.38 times the simulated time).
TEST(ClusterSearch, JobsCarryTheCreditsOfTheirRoots) {
  const char* kWac9 = "3q1rk1/p4pp1/2pb3p/3p4/6Pr/1PNQ4/P1PB1PP1/4RRK1 b - - 0 1";  // Bh2+ and the checks after it
  const Outcome c = cluster_search(kWac9, 6, 2, kDefaults);
  ASSERT_FALSE(c.job_credits.empty());
  std::size_t with_credit = 0;
  for (const auto& [mine, his] : c.job_credits) {
    EXPECT_LE(mine, kMaxJobCredit);  // cashed in: a larger one would be an error on the worker
    EXPECT_LE(his, kMaxJobCredit);
    if (mine > 0 || his > 0) ++with_credit;
  }
  EXPECT_GT(with_credit, 0u);
  EXPECT_LT(with_credit, c.job_credits.size());
}

// A worker's malformed message ends the master's search with that error, named, on the caller's
// thread, whichever of the master's software workers took it: before 2026-12-02 one taken on a
// helper's thread ended the process (std::terminate; found by scripts/fuzz cluster).
TEST(ClusterSearch, AMalformedMessageEndsTheSearchWithItsError) {
  int ended = 0;
  for (int n : {1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144}) {
    ClusterSetup setup = kDefaults;
    setup.bad_message = n;
    try {
      cluster_search(kWac1, 5, 2, setup);
    } catch (const ClusterError& e) {
      EXPECT_NE(std::string(e.what()).find("from rank 1: cluster message magic"), std::string::npos) << e.what();
      ++ended;
    }
  }
  EXPECT_GE(ended, 8);  // the search takes more messages from worker 1 than most of these
}

TEST(ClusterSearch, MatesAtTheRightDistance) {
  for (const ClusterSetup& setup : {ClusterSetup{}, kDefaults}) {
    const char* mate_in_one = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    const Outcome c = cluster_search(mate_in_one, 4, 2, setup);
    ASSERT_TRUE(search::is_mate_score(c.result.score));
    EXPECT_EQ(search::mate_in_moves(c.result.score), 1);
    const char* mate_in_two = "7k/8/8/8/8/8/1R6/R5K1 w - - 0 1";  // Rb7 (or Ra7), then mate on the 8th rank
    const Outcome m = cluster_search(mate_in_two, 5, 3, setup);
    ASSERT_TRUE(search::is_mate_score(m.result.score));
    EXPECT_EQ(search::mate_in_moves(m.result.score), 2);
    EXPECT_EQ(m.result.score, node_search(mate_in_two, 5).score);
  }
}

// With master plies, an iteration's jobs are its depth less them (at least the chips' depth, at most
// the job depth), so the first cluster iterations are not one job each (the root's bisection).
TEST(ClusterSearch, JobsFollowTheIterationDepth) {
  const ClusterSetup setup{0, 2, false};
  for (int depth : {4, 5}) {
    const Outcome c = cluster_search(kWac1, depth, 3, setup);
    EXPECT_EQ(c.job_depth, std::clamp(depth - 2, kChipDepth, kChipDepth + 1)) << depth;
    EXPECT_EQ(c.result.best, node_search(kWac1, depth).best) << depth;
  }
  EXPECT_EQ(cluster_search(kWac1, 5, 3).job_depth, kChipDepth + 1);  // without master plies: fixed
}

// A job goes to its root move's home node while that has room: the subtree's table is there. Most of
// the jobs lie under the first root move, whose home fills up, so the share at home rises above
// chance (a third, with three nodes) but not to all. The master's own node is as far as the others
// here, so that only the affinity decides where a job goes (a nearer own node answers sooner and
// takes more of the jobs that go to the node with the fewest).
TEST(ClusterSearch, JobsGoToTheirRootMovesHomeNode) {
  ClusterSetup on_setup{0, 0, true}, off_setup{};
  on_setup.own_node = off_setup.own_node = on_setup.network;
  const Outcome on = cluster_search(kAij1, 5, 3, on_setup);
  const Outcome off = cluster_search(kAij1, 5, 3, off_setup);
  const double on_rate = double(on.stats.at_home) / double(on.stats.jobs);
  const double off_rate = double(off.stats.at_home) / double(off.stats.jobs);
  EXPECT_GT(on_rate, off_rate + 0.03) << on.stats.at_home << "/" << on.stats.jobs;
  EXPECT_LT(off_rate, 0.4);
  // At this depth, on two-ply chips, two moves of AIJ 4.2 #1 have the same score (Rxa8 and Qb6,
  // 72): which of them a search reports depends on the order its answers come in, so the score is
  // what the affinity must leave alone.
  EXPECT_EQ(on.result.score, node_search(kAij1, 5).score);
}

TEST(ClusterSearch, SameAnswersRunToRun) {
  const Outcome a = cluster_search(kWac1, 5, 3), b = cluster_search(kWac1, 5, 3);
  EXPECT_EQ(a.result.best, b.result.best);
  EXPECT_EQ(a.result.score, b.result.score);
  EXPECT_EQ(a.result.nodes, b.result.nodes);
  EXPECT_EQ(a.leaf.parallel_clocks, b.leaf.parallel_clocks);
  EXPECT_GT(a.leaf.parallel_clocks, 0u);
}

// Every figure of a cluster run, named: the best move, score and nodes, the simulated time and
// each counter (cancelled_nodes counted whenever the answer came: ClusterLeafSearch::drop).
std::vector<std::pair<std::string, std::int64_t>> run_figures(const Outcome& o) {
  std::vector<std::pair<std::string, std::int64_t>> f = {{"best", o.result.best.raw()},
                                                         {"score", o.result.score},
                                                         {"nodes", std::int64_t(o.result.nodes)},
                                                         {"parallel_clocks", std::int64_t(o.leaf.parallel_clocks)},
                                                         {"jobs", std::int64_t(o.stats.jobs)},
                                                         {"cancelled", std::int64_t(o.stats.cancelled)},
                                                         {"messages", std::int64_t(o.stats.messages)},
                                                         {"bytes", std::int64_t(o.stats.bytes)},
                                                         {"grants", std::int64_t(o.stats.grants)},
                                                         {"cancelled_nodes", std::int64_t(o.stats.cancelled_nodes)},
                                                         {"unused_nodes", std::int64_t(o.stats.unused_nodes)}};
  for (std::size_t w = 0; w < o.stats.busy.size(); ++w) f.emplace_back("busy " + std::to_string(w), o.stats.busy[w]);
  for (std::size_t w = 0; w < o.stats.jobs_per.size(); ++w)
    f.emplace_back("jobs of " + std::to_string(w), o.stats.jobs_per[w]);
  return f;
}

// The nodes on threads of their own (--sim-threads), as ranks under MPI: the replies come in
// whatever order the threads finish, and the run must be the same as with every node on the
// master's thread, to the clock and the counter.
TEST(ClusterSearch, NodesOnThreadsGiveTheSameRun) {
  for (const char* fen : {kWac1, kAij1}) {
    const Outcome one = cluster_search(fen, 5, 4, kDefaults);
    for (int threads : {2, 3}) {
      ClusterSetup setup = kDefaults;
      setup.threads = threads;
      const Outcome c = cluster_search(fen, 5, 4, setup);
      EXPECT_EQ(run_figures(c), run_figures(one)) << fen << " " << threads;
    }
  }
}

TEST(ClusterSearch, JobsTooBigForAWorkerGoBackToTheMaster) {
  const Outcome c = cluster_search(kWac1, 5, 3, ClusterSetup{3, 0, false});
  EXPECT_GT(c.leaf.overflows, 0u);
  EXPECT_EQ(c.result.best, node_search(kWac1, 5).best);
  // A limit of one software node sends back every job of two plies or more (its root is a software
  // node); the master searches each one ply deeper until its jobs are one ply, which never go back
  // (a limit on every depth handed the same line back ply after ply, until the path passed 120).
  const Outcome all = cluster_search(kWac1, 5, 3, ClusterSetup{1, 0, false});
  EXPECT_GT(all.leaf.overflows, c.leaf.overflows);
  EXPECT_EQ(all.result.best, c.result.best);
}

// A job that is one hardware search (master plies 3 at depth 5: jobs of the chips' two plies) and
// passes the chips' node limit goes back to the master, which searches it in software with its
// children spread over every node, as one node's search does with its own chips; searched on its
// node instead, its children had only that node's idle chips. Without the limit none goes back.
TEST(ClusterSearch, JobsPastTheChipsNodeLimitGoBackToTheMaster) {
  constexpr std::uint32_t kLimit = 300;
  const Outcome c = cluster_search(kWac1, 5, 3, ClusterSetup{0, 3, false, 0, kLimit});
  EXPECT_EQ(c.job_depth, kChipDepth);
  EXPECT_GT(c.leaf.overflows, 0u);
  EXPECT_EQ(c.result.best, node_search(kWac1, 5, kLimit).best);
  EXPECT_EQ(cluster_search(kWac1, 5, 3, ClusterSetup{0, 3, false, 0, 0}).leaf.overflows, 0u);
}

// The root's history reaches the workers (NEW_SEARCH): black, a rook down, has just checked with
// Qa5-e5+ Kh2-g1, so Qe1+ (Kh2 forced) Qe5+ repeats the position after that check, a draw, three
// plies down: on a worker, below a job of the last iteration (its jobs are the nodes at ply 2).
// From the FEN alone black is lost; the cluster must find the draw as one node does.
TEST(ClusterSearch, RepetitionsOfPositionsBeforeTheRootCountOnTheWorkers) {
  Position root = Position::from_fen("7k/6pp/8/q7/2R5/1Q5P/5PPK/8 b - - 0 40");
  for (const char* uci : {"a5e5", "h2g1"}) root.make_move(parse_uci(root, uci));
  const search::SearchResult one = node_search(root, 5);
  EXPECT_EQ(move_to_uci(one.best), "e5e1");
  EXPECT_EQ(one.score, 0);
  EXPECT_LT(node_search(Position::from_fen(root.fen()), 5).score, -500);  // without the history
  const Outcome c = cluster_search(root, 5, 3);
  EXPECT_EQ(c.result.best, one.best);
  EXPECT_EQ(c.result.score, one.score);
  EXPECT_EQ(c.result.tie, one.tie);
  EXPECT_GT(c.stats.jobs_per[1] + c.stats.jobs_per[2], 0u);  // the workers searched the last iteration's jobs
}

// The nodes report their chips' counters with every CLOCK: the master sees how busy each node's
// chips were and what the jobs' speculation cost, which the answers alone do not say. Every node
// that answered jobs ran its chips; no node's chips were busier than all of them all the time; the
// answers the search used were searched on the nodes' chips and software; and the work of the jobs
// the search never used (cancelled, or answered ahead and never asked for) is counted.
TEST(ClusterSearch, NodesReportTheirChipsWork) {
  const Outcome c = cluster_search(kAij1, 5, 3, kDefaults);
  ASSERT_EQ(c.stats.chips.size(), 3u);
  std::uint64_t node_nodes = 0;
  for (std::size_t w = 0; w < c.stats.chips.size(); ++w) {
    const NodeChips& n = c.stats.chips[w];
    if (c.stats.jobs_per[w] == 0) continue;
    EXPECT_GT(n.busy_clocks, 0u) << w;
    EXPECT_GT(n.searches, 0u) << w;
    EXPECT_LE(n.busy_clocks, std::uint64_t(kChips) * c.leaf.parallel_clocks) << w;
    EXPECT_LE(n.overflows, n.wasted_searches) << w;
    node_nodes += n.nodes + n.software_nodes;
  }
  EXPECT_GT(c.stats.jobs_per[1] + c.stats.jobs_per[2], 0u);
  EXPECT_GE(node_nodes, c.leaf.nodes);
  EXPECT_GT(c.stats.cancelled_nodes + c.stats.unused_nodes, 0u);
}

// The master's own node is on the master's host (AIJ 6.2: the master has 16 chips): its jobs and
// answers take its own latency, not the switch's.
TEST(ClusterSearch, TheMastersOwnNodeIsNotOnTheSwitch) {
  ClusterSetup setup = kDefaults;
  const Outcome base = cluster_search(kAij1, 5, 1, setup);
  setup.network = SwitchModel{400, 1};  // a slow switch: the own node's jobs do not cross it
  const Outcome slow_switch = cluster_search(kAij1, 5, 1, setup);
  EXPECT_EQ(slow_switch.leaf.parallel_clocks, base.leaf.parallel_clocks);
  EXPECT_EQ(slow_switch.result.nodes, base.result.nodes);
  setup.own_node = SwitchModel{40, 0};  // the own node as far away as the SP2 switch's nodes
  const Outcome far = cluster_search(kAij1, 5, 1, setup);
  EXPECT_GT(far.leaf.parallel_clocks, base.leaf.parallel_clocks);
}

// The own node's grants run it to its first answer: the same search in far fewer rounds of grants
// than its 2 us lookahead needs (only where the grants cut its time may differ).
TEST(ClusterSearch, TheOwnNodeRunsToItsFirstAnswer) {
  ClusterSetup setup = kDefaults;
  setup.own_node_to_answer = false;
  const Outcome stepped = cluster_search(kWac1, 5, 2, setup);
  setup.own_node_to_answer = true;
  const Outcome to_answer = cluster_search(kWac1, 5, 2, setup);
  EXPECT_EQ(to_answer.result.best, stepped.result.best);
  EXPECT_EQ(to_answer.result.score, stepped.result.score);
  EXPECT_LT(to_answer.stats.grants * 2, stepped.stats.grants);
  EXPECT_NEAR(double(to_answer.leaf.parallel_clocks), double(stepped.leaf.parallel_clocks),
              0.1 * double(stepped.leaf.parallel_clocks));
  // Nothing reached a node more than a chip quantum behind its clock: the grants stayed within what
  // the master could still send (a grant past it shows as tens of thousands of clocks).
  EXPECT_LE(stepped.most_late, search::ChipLeafSearch::kQuantum);
  EXPECT_LE(to_answer.most_late, search::ChipLeafSearch::kQuantum);
}

TEST(SwitchModel, LatencyAndBandwidthInChipClocks) {
  const SwitchModel sp2;                         // 40 us, 35 MB/s
  EXPECT_EQ(sp2.message_clocks(0), 960u);        // 40 us at 24 MHz
  EXPECT_EQ(sp2.message_clocks(35), 984u);       // and 1 us for 35 bytes
  EXPECT_EQ(sp2.message_clocks(35000), 24960u);  // 1 ms
}

struct Sent {
  std::vector<Message> messages;
  WorkerNode::Send send() {
    return [this](const Message& m) { messages.push_back(m); };
  }
  std::vector<Answer> answers() const {
    std::vector<Answer> out;
    for (const Message& m : messages) {
      if (const auto* a = std::get_if<Answer>(&m)) out.push_back(*a);
    }
    return out;
  }
};

const char* kMateInOne = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";

WorkerConfig node_config() {
  WorkerConfig config;
  config.search.workers = kChips;
  return config;
}

TEST(WorkerNode, AnIllegalPathIsAnError) {
  WorkerNode node(node_config(), model_chips());
  Sent out;
  node.receive(NewSearch{1, kMateInOne, {}, false}, out.send());
  try {
    node.receive(Job{1, 5, {Move(0, 7)}, 2, 0, 0, {}}, out.send());  // Ra1-h1: the king on g1 is in the way
    FAIL() << "an illegal path was accepted";
  } catch (const ClusterError& e) {
    EXPECT_NE(std::string(e.what()).find("path move 0 (a1h1) is not legal"), std::string::npos) << e.what();
  }
}

TEST(WorkerNode, AnIllegalHistoryIsAnError) {
  WorkerNode node(node_config(), model_chips());
  Sent out;
  try {
    node.receive(NewSearch{1, kMateInOne, {Move(0, 7)}, false}, out.send());  // Ra1-h1 through the king
    FAIL() << "an illegal history was accepted";
  } catch (const ClusterError& e) {
    EXPECT_NE(std::string(e.what()).find("history move 0 (a1h1) is not legal"), std::string::npos) << e.what();
  }
}

// The master numbers its jobs afresh: a second JOB with the number of one the node still holds (here
// in progress) is an error, not a job put in its place under the search using it.
TEST(WorkerNode, AJobNumberGivenTwiceIsAnError) {
  WorkerNode node(node_config(), model_chips());
  Sent out;
  node.receive(NewSearch{1, kMateInOne, {}, false}, out.send());
  node.receive(Job{1, 5, {}, 2, 0, 0, {}}, out.send());
  try {
    node.receive(Job{1, 5, {Move(0, 8)}, 2, 0, 0, {}}, out.send());
    FAIL() << "a second job 5 was accepted";
  } catch (const ClusterError& e) {
    EXPECT_NE(std::string(e.what()).find("JOB 5: a job of that number is already here"), std::string::npos) << e.what();
  }
}

// A node on a thread of its own (InProcessLink with threads) that fails: the master's receive()
// throws the node's error, on the master's thread; the link still ends (its destructor joins).
TEST(InProcessLink, ANodesErrorOnItsThreadReachesTheMaster) {
  std::vector<std::unique_ptr<WorkerNode>> nodes;
  for (int i = 0; i < 3; ++i) nodes.push_back(std::make_unique<WorkerNode>(node_config(), model_chips()));
  InProcessLink link(std::move(nodes), 2);
  for (int w : {1, 2}) link.send(w, NewSearch{1, kMateInOne, {}, false});
  link.send(2, Job{1, 5, {}, 2, 0, 0, {}});
  link.send(2, Job{1, 5, {Move(0, 8)}, 2, 0, 0, {}});  // the same number again: an error on node 2's thread
  try {
    for (int i = 0; i < 1000; ++i) {
      while (link.receive()) {}
      link.wait();
    }
    FAIL() << "node 2's error did not reach the master";
  } catch (const ClusterError& e) {
    EXPECT_NE(std::string(e.what()).find("JOB 5: a job of that number is already here"), std::string::npos) << e.what();
  }
}

// The nodes on threads take each node's messages in order and reply as the node on the master's
// thread does: a GRANT's answers and CLOCK, in that order.
TEST(InProcessLink, NodesOnThreadsReplyAsOnTheMastersThread) {
  auto replies = [](int threads) {
    std::vector<std::unique_ptr<WorkerNode>> nodes;
    for (int i = 0; i < 3; ++i) nodes.push_back(std::make_unique<WorkerNode>(node_config(), model_chips()));
    InProcessLink link(std::move(nodes), threads);
    for (int w : {1, 2}) {
      link.send(w, NewSearch{1, kMateInOne, {}, false});
      link.send(w, Job{1, std::uint32_t(w), {}, 2, 0, 0, {}});
      link.send(w, Grant{1, 200000});
    }
    std::vector<std::vector<std::vector<std::uint8_t>>> by_node(3);
    for (int clocks = 0, waits = 0; clocks < 2 && waits < 6000; ++waits) {  // at most a minute
      while (auto in = link.receive()) {
        clocks += std::holds_alternative<Clock>(in->second);
        by_node[std::size_t(in->first)].push_back(encode(in->second));
      }
      link.wait();
    }
    return by_node;
  };
  const auto one = replies(1), two = replies(2);
  EXPECT_EQ(two, one);
  EXPECT_GE(one[1].size(), 2u);  // an answer, then the CLOCK
}

const char* kItalian = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";

// A new search, and the node's end (QUIT), stop the jobs in progress rather than wait for them: a
// job 30 plies deep would take hours (found by scripts/fuzz cluster: the node hung in its end).
TEST(WorkerNode, ANewSearchAndTheNodesEndStopTheJobsInProgress) {
  Sent out;
  {
    WorkerNode node(node_config(), model_chips());
    node.receive(NewSearch{1, kItalian, {}, false}, out.send());
    node.receive(Job{1, 1, {}, 30, 0, 0, {}}, out.send());
    node.receive(Grant{1, 20000}, out.send());
    EXPECT_TRUE(out.answers().empty());  // still searching, far from its end
    node.receive(NewSearch{2, kMateInOne, {}, false}, out.send());
    out.messages.clear();
    node.receive(Job{2, 1, {}, 2, 0, node.clock(), {}}, out.send());
    node.receive(Grant{2, node.clock() + 2000000}, out.send());
    const std::vector<Answer> answers = out.answers();
    ASSERT_EQ(answers.size(), 1u);
    EXPECT_EQ(answers[0].search, 2u);
    EXPECT_EQ(answers[0].status, Answer::Status::ANSWERED);
    EXPECT_TRUE(answers[0].fail_high);
    node.receive(Job{2, 2, {}, 30, 0, node.clock(), {}}, out.send());
    node.receive(Grant{2, node.clock() + 20000}, out.send());
    node.receive(Quit{}, out.send());
    EXPECT_TRUE(node.quitting());
  }  // the node's end: its job 2 stopped, not searched to depth 30
}

// A job's credits extend its search as they would the master's: in check with two evasions
// (Bxf7+ in the Italian), the move that beats the test earns credit (few evasions, near the root)
// and is searched again with it; with the job's credit at the cash-in limit that pays a ply more,
// without it nothing.
TEST(WorkerNode, AJobsCreditsExtendItsSearch) {
  const char* kInCheck = "r1bqkb1r/pppp1Bpp/2n2n2/4p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 0 4";
  auto nodes_with = [&](std::uint8_t credit) {
    WorkerNode node(node_config(), model_chips());
    Sent out;
    node.receive(NewSearch{1, kInCheck, {}, false}, out.send());
    Job job{1, 1, {}, kChipDepth + 1, -search::S(30000), 0, {}};  // its first ply in software
    job.my_credit = job.his_credit = credit;
    node.receive(job, out.send());
    node.receive(Grant{1, 100000000}, out.send());
    const std::vector<Answer> answers = out.answers();
    EXPECT_EQ(answers.size(), 1u);
    EXPECT_TRUE(!answers.empty() && answers[0].fail_high);
    return answers.empty() ? 0 : answers[0].nodes;
  };
  const std::uint64_t plain = nodes_with(0), extended = nodes_with(std::uint8_t(kMaxJobCredit));
  EXPECT_GT(plain, 0u);
  EXPECT_GT(extended, plain);
}

// A node simulates up to its grant, answers what it finished and says where its clock is.
TEST(WorkerNode, AnswersInSimulatedTimeUpToItsGrant) {
  WorkerNode node(node_config(), model_chips());
  Sent out;
  node.receive(NewSearch{1, kMateInOne, {}, false}, out.send());
  node.receive(Job{1, 5, {}, 2, 0, 1000, {}}, out.send());
  node.receive(Job{1, 6, {}, 2, 0, 1000, {}}, out.send());
  node.receive(Cancel{1, 6, 500}, out.send());                 // cancelled before it arrives: never searched
  node.receive(Job{1, 7, {}, 2, 0, 5000000, {}}, out.send());  // arrives after the grant: not started
  node.receive(Grant{1, 2000000}, out.send());
  ASSERT_FALSE(out.messages.empty());
  const auto* clock = std::get_if<Clock>(&out.messages.back());
  ASSERT_NE(clock, nullptr);
  EXPECT_GE(clock->clock, 2000000u);
  EXPECT_LT(clock->clock, 5000000u);
  const std::vector<Answer> answers = out.answers();
  ASSERT_EQ(answers.size(), 2u);
  const Answer& cancelled = answers[0].id == 6 ? answers[0] : answers[1];
  const Answer& answered = answers[0].id == 5 ? answers[0] : answers[1];
  EXPECT_EQ(cancelled.status, Answer::Status::CANCELLED);
  EXPECT_EQ(answered.status, Answer::Status::ANSWERED);
  EXPECT_TRUE(answered.fail_high);  // the side to move mates: its value is above 0
  EXPECT_GE(answered.start, 1000u);
  EXPECT_GT(answered.finish, answered.start);
  EXPECT_LE(answered.finish, clock->clock);
  EXPECT_FALSE(answered.table.empty());
}

// A job's table entries from the master fill what the node's table lacks, when the job arrives in
// simulated time, and never replace the node's own entry of a search as deep or deeper.
TEST(WorkerNode, AJobsTableEntriesFillWhatTheNodesTableLacks) {
  search::TranspositionTable table(1);
  WorkerConfig config = node_config();
  config.shared_table = &table;
  WorkerNode node(config, model_chips());
  Sent out;
  node.receive(NewSearch{1, kMateInOne, {}, false}, out.send());
  const Key deep = 0x1234567890abcdefull, shallow = 0x0fedcba987654321ull, absent = 0x5555aaaa5555aaaaull;
  table.store(deep, Move(0, 1), 40, 32, search::Bound::EXACT);
  table.store(shallow, Move(0, 2), 41, 4, search::Bound::LOWER);
  Job job{1, 9, {}, 2, 0, 100000, {}};
  job.table = {{deep, Move(0, 8), -5, 8, std::uint8_t(search::Bound::EXACT), 0, 0},
               {shallow, Move(0, 16), -6, 8, std::uint8_t(search::Bound::UPPER), 0, 0},
               {absent, Move(6, 21), -7, 8, std::uint8_t(search::Bound::LOWER), 3, 1}};
  node.receive(job, out.send());
  EXPECT_EQ(table.probe(absent), nullptr);  // not before the job arrives
  node.receive(Grant{1, 100001}, out.send());
  const search::TTEntry* e = table.probe(deep);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->move, Move(0, 1));  // the node's deeper search stays
  EXPECT_EQ(e->depth_q, 32);
  e = table.probe(shallow);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->move, Move(0, 16));  // the master's deeper one replaces it
  EXPECT_EQ(e->score, -6);
  e = table.probe(absent);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->move, Move(6, 21));
  EXPECT_EQ(e->bound, search::Bound::LOWER);
  EXPECT_EQ(e->my_credit, 3);
}

// A grant that stops at the node's first answer (the master's own node's) ends there, well before
// its time; the next grant goes on from there, and the answers are those of one long grant.
TEST(WorkerNode, AGrantStopsAtTheFirstAnswerWhenToldTo) {
  auto start = [](WorkerNode& node, Sent& out) {
    node.receive(NewSearch{1, "r1r1q1k1/6p1/3b1p1p/1p1PpP2/1Pp5/2P4P/R1B2QP1/R5K1 w - - 0 37", {}, false}, out.send());
    node.receive(Job{1, 1, {}, 3, 0, 100, {}}, out.send());
    node.receive(Job{1, 2, {}, 3, 200, 100, {}}, out.send());
    node.receive(Job{1, 3, {}, 3, 0, 100, {}}, out.send());
    node.receive(Cancel{1, 3, 50}, out.send());  // never searched: its CANCELLED answer does not end the grant
  };
  WorkerNode whole(node_config(), model_chips());
  Sent all;
  start(whole, all);
  whole.receive(Grant{1, 50000000, false}, all.send());
  WorkerNode stopped(node_config(), model_chips());
  Sent first;
  start(stopped, first);
  stopped.receive(Grant{1, 50000000, true}, first.send());
  std::vector<Answer> answers = first.answers();
  ASSERT_EQ(answers.size(), 2u);
  EXPECT_EQ(answers[0].status, Answer::Status::CANCELLED);
  EXPECT_EQ(answers[1].status, Answer::Status::ANSWERED);
  const auto* clock = std::get_if<Clock>(&first.messages.back());
  ASSERT_NE(clock, nullptr);
  EXPECT_GE(clock->clock, answers[1].finish);
  EXPECT_LT(clock->clock, answers[1].finish + 100);  // stopped at it, not at the grant's end
  stopped.receive(Grant{1, 50000000, false}, first.send());
  answers = first.answers();
  std::vector<Answer> expected = all.answers();
  ASSERT_EQ(answers.size(), 3u);
  ASSERT_EQ(expected.size(), 3u);
  const auto by_id = [](const Answer& x, const Answer& y) { return x.id < y.id; };
  std::sort(answers.begin(), answers.end(), by_id);
  std::sort(expected.begin(), expected.end(), by_id);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(answers[i].status, expected[i].status);
    EXPECT_EQ(answers[i].nodes, expected[i].nodes);
    EXPECT_EQ(answers[i].finish, expected[i].finish);
  }
}

// The same messages give the same answers and times, however the grants cut the time up.
TEST(WorkerNode, GrantsDoNotChangeTheAnswers) {
  auto run = [](const std::vector<std::uint64_t>& grants) {
    WorkerNode node(node_config(), model_chips());
    Sent out;
    node.receive(NewSearch{1, "r1r1q1k1/6p1/3b1p1p/1p1PpP2/1Pp5/2P4P/R1B2QP1/R5K1 w - - 0 37", {}, false}, out.send());
    node.receive(Job{1, 1, {}, 3, 0, 100, {}}, out.send());
    node.receive(Job{1, 2, {}, 3, 200, 20000, {}}, out.send());
    for (std::uint64_t g : grants) node.receive(Grant{1, g}, out.send());
    std::vector<Answer> a = out.answers();
    std::sort(a.begin(), a.end(), [](const Answer& x, const Answer& y) { return x.id < y.id; });
    return a;
  };
  const auto whole = run({50000000});
  const auto pieces = run({3000, 9000, 20000, 40000, 100000, 50000000});
  ASSERT_EQ(whole.size(), 2u);
  ASSERT_EQ(pieces.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(whole[i].fail_high, pieces[i].fail_high);
    EXPECT_EQ(whole[i].nodes, pieces[i].nodes);
    EXPECT_EQ(whole[i].start, pieces[i].start);
    EXPECT_EQ(whole[i].finish, pieces[i].finish);
  }
}

}  // namespace
}  // namespace db::cluster
