// One worker node of the cluster (AIJ 6.2): a software search with its own chips that answers the
// master's jobs, several at once (its software workers take them as they take splits). The node
// keeps its own simulated clock, its chips' clock, on the master's time axis: it simulates on only
// as far as the master's GRANT allows (no job or cancel can arrive before that), starts each job
// when it arrives, stops a cancelled one when the cancel arrives, and reports its clock (CLOCK)
// after its answers. So what it computes depends only on the messages, never on when they came in
// wall time. Used by a worker rank under MPI and, in process, for the master's own node and the
// simulated cluster.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

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
  std::size_t table_results = 64;         // table entries passed up with an answer (the job root and its children)
  // The master's own node shares the master's table (one host, one memory); nullptr: its own.
  search::TranspositionTable* shared_table = nullptr;
};

class WorkerNode final : private search::JobQueue {
 public:
  using Send = std::function<void(const Message&)>;
  // chips: the node's leaf searcher; its software workers (config.search.workers, at most one a
  // chip) search the jobs.
  WorkerNode(WorkerConfig config, std::unique_ptr<search::LeafSearch> chips);
  ~WorkerNode() override;
  WorkerNode(const WorkerNode&) = delete;
  WorkerNode& operator=(const WorkerNode&) = delete;

  // A message from the master; a GRANT runs the node up to its time and sends the answers
  // finished meanwhile and a CLOCK through send.
  void receive(const Message& m, const Send& send);
  bool quitting() const { return quit_; }
  search::LeafSearch* chips() const { return chips_.get(); }
  std::uint64_t clock() const;  // the node's simulated time (its chips' clock)
  // The most a JOB or CANCEL came in behind the node's clock (it then takes effect at the node's
  // next step): the overshoot of a grant, a chip quantum or a host computation; more would mean
  // the master granted past a time it could still send at.
  std::uint64_t most_late() const { return most_late_; }

 private:
  struct Entry {
    search::NodeJob job;
    std::uint64_t arrive = 0;
    std::uint64_t cancel_at = ~std::uint64_t(0);
    std::uint64_t start = 0;
    bool started = false;
    std::vector<TableEntry> table;  // the master's entries, stored when the job arrives
  };
  void start_search(const NewSearch& m);
  void add_job(const Job& m);
  // Up to until, or (stop_at_answer) to the first answer the master can use, whichever is first.
  void run_until(std::uint64_t until, bool stop_at_answer);
  std::uint64_t next_event() const;  // the next arrival or cancel still to come
  void apply_arrivals();             // the arrived jobs' table entries into the table
  void apply_cancels();
  // Every job of the search stopped where it is, before the node's workers are ended (a new search
  // or the node's end): ending them waits for the jobs in progress, and a job of many plies would
  // otherwise run to its end first.
  void stop_jobs();
  // JobQueue: the node's software workers take the jobs that have arrived, in order.
  bool ready() const override;
  search::NodeJob* take() override;
  void finished(search::NodeJob& job) override;

  WorkerConfig config_;
  search::TranspositionTable own_table_;
  search::TranspositionTable& tt_;  // own_table_ or the shared one
  std::unique_ptr<search::LeafSearch> chips_;
  search::Searcher searcher_;
  std::optional<NewSearch> search_;
  Position root_;
  std::map<std::uint32_t, Entry> jobs_;  // by id: not yet answered
  std::vector<Answer> outbox_;
  bool answered_ = false;  // an ANSWERED or TOO_BIG answer since the grant began
  std::uint64_t most_late_ = 0;
  bool quit_ = false;
};

}  // namespace db::cluster
