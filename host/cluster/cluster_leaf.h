// The cluster's master (AIJ 6): its software search hands every node with at most depth() plies
// left to a worker node as a null-window job, as a node hands its leaves to its chips, so the job
// engine (the master's software workers, their splits, the questions asked ahead, the re-split of a
// job too big for a worker) works unchanged with worker nodes in the chips' place.
//
// Time is simulated, one clock for all nodes (chip clocks since the search began). The master's
// clock runs with its own software (the host cost model) and jumps to the next answer when every
// software worker waits. A message takes the switch's latency plus its size over the bandwidth. The
// nodes simulate themselves (worker_node.h), each only as far as the master grants: the earliest
// time any job or cancel could still reach it, which is the earliest answer still possible plus
// a latency (the latency is the lookahead of this conservative simulation). Answers are taken in
// simulated-time order, once no node could still send an earlier one; grants go out in rounds, each
// round's replies all in before the next, so the run is the same whatever the wall-time order of
// the messages: an MPI run equals the simulated cluster in one process.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "cluster/master_link.h"
#include "search/leaf_search.h"
#include "search/tt.h"

namespace db::cluster {

struct SwitchModel {  // defaults: the SP2 switch through MPI (AIJ 6; about 40 us, 35 MB/s)
  double latency_us = 40;
  double bandwidth_mb_s = 35;
  std::uint64_t message_clocks(std::size_t bytes) const;
};

struct ClusterConfig {
  int depth = 6;           // plies left at which a node goes to a worker (its software plies and the chips')
  int jobs_per_node = 16;  // jobs a node holds at once (searching, or waiting to start)
  int pv_depth = 0;        // PV nodes go to a worker with at most this many plies left (0: depth)
  int min_depth = 1;       // the workers' chip depth: no job is shallower
  SwitchModel network;
  // The master's own node (worker 0) is on the master's host, its chips on the master's own Micro
  // Channel (AIJ 6.2: the master "has 16 chess chips"): its jobs and answers do not cross the switch
  // but pass within the process (a queue hand-off on the host; no bandwidth term). Its latency is
  // that node's lookahead in the simulation, so it must stay above zero.
  SwitchModel own_node{2, 0};
  // The own node's grants run it to its first answer (GRANT's stop_at_answer) as far as the other
  // nodes allow, instead of one 2 us lookahead at a time: its CLOCK no longer bounds its own grant.
  // The same run in simulated time up to where the grants cut the node's time, in far fewer rounds
  // (AIJ 4.2 #2 on 4 nodes: 155,209 grants against 365,111; wall time 345 s against 440 s). The
  // other nodes answer too often for it to pay: each answer would end their grant (all nodes so:
  // AIJ #1 38,815 grants against 32,668, wall time 69 s alone against 57 s beside another run).
  bool own_node_to_answer = true;
  std::uint32_t host_node_ns = 0;  // the master's software time per node (0: free)
  double worker_timeout_s = 60;    // wall time a worker may take to answer a grant before it is given up
  // Plies the master keeps above the jobs in every iteration: an iteration of depth d hands out jobs
  // of d - master_plies plies, at least min_depth and at most depth (0: always depth). With a fixed
  // job depth the early cluster iterations are a single job, the root's bisection on one node.
  int master_plies = 0;
  // A job goes to its home node (a hash of the root move it lies under) while that node has room,
  // else to the node with the fewest jobs: the home's table holds the subtree from the earlier
  // iterations and bisection rounds. Off: always the node with the fewest jobs.
  bool affinity = false;
  // Table entries (the job's root and its children, from the master's table) sent down with a job
  // (0: none): the node orders the job's first plies as the subtree's earlier searches found,
  // wherever they ran (a job away from its home node, or one whose entries its home's table lost).
  // The master's own node shares the master's table and gets none.
  std::size_t job_table = 0;
  // The nodes' chip node limit (0: none). While the jobs are single hardware searches (the job depth
  // is the chips'), a job past it comes back (TOO_BIG) and the master predicts the next ones from
  // the answers' node counts, as one node does with its chips (node_limit()).
  std::uint64_t chip_node_limit = 0;
};

struct ClusterStats {
  std::uint64_t jobs = 0, cancelled = 0, reassigned = 0, table_entries = 0, messages = 0, bytes = 0, grants = 0;
  std::vector<int> lost;                 // workers given up (hung or too slow)
  std::vector<std::uint64_t> busy;       // per worker: simulated job-clocks (jobs overlap on a node)
  std::vector<NodeChips> chips;          // per worker: its chips' counters at its last CLOCK
  std::uint64_t cancelled_nodes = 0;     // nodes the workers searched in jobs cancelled before their answer was used
  std::uint64_t unused_nodes = 0;        // nodes of jobs answered (asked ahead) whose answer the search never took
  std::vector<std::uint64_t> jobs_per;   // per worker: jobs answered
  std::uint64_t at_home = 0;             // jobs sent to their home node (ClusterConfig::affinity), by intent or not
  std::uint64_t table_entries_down = 0;  // table entries sent with jobs (ClusterConfig::job_table)
};

class ClusterLeafSearch final : public search::LeafSearch {
 public:
  // table: the master's transposition table (the workers' results go into it).
  ClusterLeafSearch(MasterLink& link, ClusterConfig config, search::TranspositionTable& table);

  int depth() const override { return job_depth_; }
  int pv_depth() const override {
    return std::min(job_depth_, config_.pv_depth > 0 ? config_.pv_depth : config_.depth);
  }
  void new_iteration(int depth) override;
  bool iterations_may_overlap() const override { return false; }  // the job depth is the iteration's
  int chips() const override;
  void new_search(const Position& root, bool strive_for_draw) override;
  bool test(Position& pos, const Move* path, int ply, int depth, int test) override;
  bool overflowed() const override { return overflowed_; }
  std::uint64_t last_nodes() const override { return last_nodes_; }
  std::uint64_t node_limit() const override { return job_depth_ <= config_.min_depth ? config_.chip_node_limit : 0; }
  void prefetch(Position& pos, const Move* path, int ply, int depth, int test, int owner) override;
  int idle_chips() const override;
  void cancel(int owner) override;
  search::LeafStats stats() const override;
  void software_nodes(std::uint64_t nodes) override;
  bool supports_workers() const override { return true; }
  void set_worker(int worker) override { sw_worker_ = worker; }
  // The next question's node's credits go with its job (a question already out keeps its own).
  void set_credits(int my_credit, int his_credit) override { next_credits_ = {my_credit, his_credit}; }
  void ask(Position& pos, const Move* path, int ply, int depth, int test) override;
  bool ready(Key key, int ply, int depth, int test) const override;
  Answer answer(Key key, int ply, int depth, int test) override;
  bool step() override;

  const ClusterStats& cluster_stats() const { return cstats_; }
  const ClusterConfig& config() const { return config_; }
  // Cancels what is still out (the search is over); the workers' answers to it are ignored.
  void finish();

 private:
  struct Question {
    Key key;
    int ply, depth, test, worker;
    bool operator==(const Question& o) const {
      return key == o.key && ply == o.ply && depth == o.depth && test == o.test && worker == o.worker;
    }
  };
  struct QuestionHash {
    std::size_t operator()(const Question& q) const {
      return std::size_t(q.key ^ (std::uint64_t(std::uint32_t(q.test)) << 32 ^ std::uint64_t(q.ply) << 16 ^
                                  std::uint64_t(q.depth) << 8 ^ std::uint64_t(q.worker)) *
                                     0x9E3779B97F4A7C15ull);
    }
  };
  static constexpr std::uint64_t kNever = ~std::uint64_t(0);
  // The longest grant (one simulated second): a node told to stop at its first answer with nothing
  // else in the cluster to bound it.
  static constexpr std::uint64_t kMaxGrantStep = std::uint64_t(search::kChipClockHz);
  struct Credits {  // the dual-credit state of a job's root (cluster::Job)
    int mine = 0, his = 0;
  };
  struct Job {
    std::uint32_t id = 0;
    Question q{};
    Credits credits;
    int owner = -1;
    bool asked = false, dropped = false;
    int worker = -1;
    std::vector<Move> path;
    bool received = false, delivered = false;
    cluster::Answer reply;
    std::uint64_t answer_at = 0;
  };
  struct Worker {
    bool alive = true;
    std::uint64_t clock = 0;    // its last CLOCK: no answer finished before it is still to come
    std::uint64_t granted = 0;  // its last GRANT
    bool awaiting = false;      // a GRANT's CLOCK not yet in
    std::chrono::steady_clock::time_point granted_wall;
  };

  const SwitchModel& link_to(int w) const { return w == 0 ? config_.own_node : config_.network; }
  Job* find(const Question& q);
  const Job* find(const Question& q) const;
  int pending(int w) const { return pending_[std::size_t(w)]; }  // jobs of w not dropped and not yet delivered
  int worker_for(const Question& q, const Move* path, bool asked);
  int home_of(const Question& q, const Move* path) const;
  Job& new_job(const Question& q, int owner, bool asked, const Move* path, Credits credits);
  void send_job(Job& job);
  std::uint64_t send_to(int w, const Message& m);  // returns its arrival time
  void drop(Job& job);
  void unlist(const Job& job);                 // out of live_ (dropped, or erased from jobs_)
  void uncancellable(const Job& job);          // out of cancellable_ (asked, dropped, delivered, erased)
  void undeliver(Job& job);                    // out of undelivered_ and the indexes kept with it
  void pump();                                 // takes every message that has arrived
  bool round_out() const;                      // a GRANT's CLOCK not yet in from a live node
  void check_deadlines(bool reassign = true);  // reassign: a lost node's jobs go to the others
  void lose_worker(int w, bool reassign);

  MasterLink& link_;
  ClusterConfig config_;
  search::TranspositionTable& table_;
  Position root_;  // the search's root, where every job's path starts
  std::vector<Worker> workers_;
  std::map<std::uint32_t, Job> jobs_;
  // Kept with jobs_, so that the job engine's many calls (a question's job, a node's room) need not
  // walk every job: with 30 nodes the walks took 90 % of the simulated cluster's wall time.
  std::unordered_map<Question, std::uint32_t, QuestionHash> live_;  // the job not dropped for a question
  // The jobs not yet delivered (out on a node, or in and waiting for their time), in id order as in
  // jobs_. The walks of each step need only these; jobs_ also holds every answer delivered and not
  // taken (asked ahead, never used), thousands by the end of a deep search, and walking those took
  // a fifth of a 4-node run's wall time.
  std::map<std::uint32_t, Job*> undelivered_;  // into jobs_, whose nodes do not move
  std::vector<int> pending_;                   // per worker: pending()
  // Kept with undelivered_, so that each step and cancel need not walk it (with 30 nodes and a
  // depth-9 search those walks took over a third of the wall time): the answers in and not
  // delivered, not dropped, earliest first (ties in id order, as the walk took them); per node, its
  // jobs still unanswered (dropped or not: a node with a dropped job still needs time to reach its
  // answer) and those of them not dropped; the questions asked ahead that cancel() may drop, by
  // software worker and owner, in id order.
  std::set<std::pair<std::uint64_t, std::uint32_t>> answers_in_;
  std::vector<int> unanswered_, unanswered_live_;
  std::map<std::pair<int, int>, std::set<std::uint32_t>> cancellable_;
  std::uint32_t search_ = 0, next_id_ = 1;
  std::uint64_t now_ = 0;
  int job_depth_;                // this iteration's: config_.depth, or less to keep config_.master_plies above the jobs
  std::uint64_t host_owed_ = 0;  // thirds of a nanosecond
  int sw_worker_ = 0;
  Credits next_credits_;  // set_credits(): the next new job's
  bool overflowed_ = false;
  std::uint64_t last_nodes_ = 0;
  search::LeafStats stats_;
  ClusterStats cstats_;
};

}  // namespace db::cluster
