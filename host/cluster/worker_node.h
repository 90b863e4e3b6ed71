// One worker node of the cluster (AIJ 6.2): a software search with its own chips that answers the
// master's jobs in the order they came, one at a time, keeping the next on deck. Used by a worker
// rank under MPI and, in process, for the master's own chips and the simulated cluster.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>

#include "chess/position.h"
#include "cluster/messages.h"
#include "search/leaf_search.h"
#include "search/search.h"
#include "search/tt.h"

namespace db::cluster {

struct WorkerConfig {
  search::SearchOptions search;           // the master's options (every rank parses the same command line)
  std::size_t hash_mib = 16;              // the worker's own transposition table
  std::uint64_t software_node_limit = 0;  // a job past this many software nodes goes back (0: none)
  // Jobs are searched strictly in the order they came and never cut short by a cancel, so that a
  // worker's answers and table depend only on the messages it got, not on when they arrived.
  bool deterministic = false;
  std::size_t table_results = 64;  // table entries passed up with an answer (the job root and its children)
  // The master's own node shares the master's table (one host, one memory); nullptr: its own.
  search::TranspositionTable* shared_table = nullptr;
};

class WorkerNode {
 public:
  using Send = std::function<void(const Message&)>;
  // chips: the node's leaf searcher (nullptr: software leaves).
  WorkerNode(WorkerConfig config, std::unique_ptr<search::LeafSearch> chips);
  ~WorkerNode();
  WorkerNode(const WorkerNode&) = delete;
  WorkerNode& operator=(const WorkerNode&) = delete;

  // A message from the master. During a job (from the search's poll), a CANCEL of the running job
  // stops it (unless deterministic) and QUIT stops it; answers go out through send.
  void receive(const Message& m, const Send& send);
  // Works off what is queued: the next job (or NEW_SEARCH); false when nothing was queued.
  bool run_next(const Send& send);
  bool has_work() const { return !queue_.empty(); }
  bool quitting() const { return quit_; }
  // Called during a job so that messages can arrive (an MPI worker polls its receives here).
  void set_poll(std::function<void()> poll) { searcher_.set_poll(std::move(poll)); }
  search::LeafSearch* chips() const { return chips_.get(); }
  std::uint64_t jobs_done() const { return jobs_done_; }

 private:
  void start_search(const NewSearch& m);
  Answer run_job(const Job& job);
  Position position_of(const Job& job) const;  // the root after the job's path, checked
  std::vector<TableEntry> table_results(Position& pos) const;

  WorkerConfig config_;
  search::TranspositionTable own_table_;
  search::TranspositionTable& tt_;  // own_table_ or the shared one
  std::unique_ptr<search::LeafSearch> chips_;
  search::Searcher searcher_;
  std::deque<Message> queue_;  // NEW_SEARCH and JOB messages not yet worked off
  std::optional<NewSearch> search_;
  Position root_;
  std::optional<std::uint32_t> running_;  // the id of the job under way
  bool cancel_running_ = false;
  bool quit_ = false;
  std::uint64_t jobs_done_ = 0;
};

}  // namespace db::cluster
