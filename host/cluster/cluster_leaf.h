// The cluster's master (AIJ 6): its software search hands every node with at most depth() plies
// left to a worker node as a null-window job, as a node hands its leaves to its chips, so the job
// engine (the master's software workers, their splits, the questions asked ahead, the node limit and
// re-split) works unchanged with worker nodes in the chips' place.
//
// Time is simulated: the master's clock runs with its own software (the host cost model) and jumps
// to the next answer when every software worker waits. A job reaches its worker after the switch's
// latency plus its size over the bandwidth (worker 0, the master's own node, has no switch), waits
// behind the worker's earlier jobs (the job on deck starts when the one before ends), takes the
// simulated time the worker reports, and its answer comes back the same way; a cancelled job ends
// when the cancel arrives. Answers are taken in simulated-time order, never in order of arrival: an
// answer is used only once no job still out could come back earlier (each is at least a latency
// away), so the search and its figures do not depend on how the operating system schedules ranks.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
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
  int depth = 6;  // plies left at which a node goes to a worker (its software plies and the chips')
  int deck = 1;   // jobs a worker holds beyond the one it runs
  SwitchModel network;
  std::uint32_t host_node_ns = 0;  // the master's software time per node (0: free)
  double worker_timeout_s = 60;    // wall time a job may take before its worker is given up
};

struct ClusterStats {
  std::uint64_t jobs = 0, cancelled = 0, reassigned = 0, table_entries = 0, messages = 0, bytes = 0;
  std::vector<int> lost;                // workers given up (hung or too slow)
  std::vector<std::uint64_t> busy;      // per worker: simulated clocks searching
  std::vector<std::uint64_t> jobs_per;  // per worker: jobs answered
};

class ClusterLeafSearch final : public search::LeafSearch {
 public:
  // table: the master's transposition table (the workers' results go into it).
  ClusterLeafSearch(MasterLink& link, ClusterConfig config, search::TranspositionTable& table);

  int depth() const override { return config_.depth; }
  int chips() const override;
  void new_search(const Position& root, bool strive_for_draw) override;
  bool test(Position& pos, const Move* path, int ply, int depth, int test) override;
  bool overflowed() const override { return overflowed_; }
  std::uint64_t last_nodes() const override { return last_nodes_; }
  std::uint64_t node_limit() const override { return 0; }
  void prefetch(Position& pos, const Move* path, int ply, int depth, int test, int owner) override;
  int idle_chips() const override;
  void cancel(int owner) override;
  search::LeafStats stats() const override;
  void software_nodes(std::uint64_t nodes) override;
  bool supports_workers() const override { return true; }
  void set_worker(int worker) override { sw_worker_ = worker; }
  void ask(Position& pos, const Move* path, int ply, int depth, int test) override;
  bool ready(Key key, int ply, int depth, int test) const override;
  Answer answer(Key key, int ply, int depth, int test) override;
  bool step() override;

  const ClusterStats& cluster_stats() const { return cstats_; }
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
  static constexpr std::uint64_t kNever = ~std::uint64_t(0);
  struct Job {
    std::uint32_t id = 0;
    Question q{};
    int owner = -1;
    bool asked = false, dropped = false;
    int worker = -1;
    std::vector<Move> path;
    std::uint64_t arrive = 0, cancel_at = kNever;
    std::chrono::steady_clock::time_point wall_sent;
    bool received = false, timed = false, delivered = false;
    bool consumed = false;  // answer() took it (it stays on its worker's queue until settled)
    cluster::Answer reply;
    std::uint64_t start = 0, end = 0, answer_at = 0;
  };
  struct Worker {
    bool alive = true;
    std::deque<std::uint32_t> fifo;                     // its jobs not yet ended, in the order sent
    std::uint64_t free_at = 0;                          // the end of its last job taken off fifo
    std::chrono::steady_clock::time_point last_answer;  // wall time
  };

  Job* find(const Question& q);
  const Job* find(const Question& q) const;
  bool eligible(int w) const;
  int pending(int w) const;  // jobs of w not dropped and not yet delivered
  int worker_for(bool asked);
  void send_job(Job& job, Position& pos, const Move* path);
  void send_to(int w, const Message& m, std::uint64_t* arrival);
  void drop(Job& job);
  void pump();             // takes every message that has arrived
  void settle(int w);      // times w's jobs whose answers (and predecessors) are in
  void check_deadlines();  // gives up a worker whose job is far past its deadline
  void lose_worker(int w);
  std::uint64_t latency(int w) const { return w == 0 ? 0 : config_.network.message_clocks(0); }

  MasterLink& link_;
  ClusterConfig config_;
  search::TranspositionTable& table_;
  std::vector<Worker> workers_;
  std::map<std::uint32_t, Job> jobs_;
  std::uint32_t search_ = 0, next_id_ = 1;
  std::string root_fen_;
  bool strive_for_draw_ = false;
  std::uint64_t now_ = 0;
  std::uint64_t host_owed_ = 0;  // thirds of a nanosecond
  int sw_worker_ = 0;
  bool overflowed_ = false;
  std::uint64_t last_nodes_ = 0;
  search::LeafStats stats_;
  ClusterStats cstats_;
};

}  // namespace db::cluster
