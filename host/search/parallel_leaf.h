// One software worker's view of the chips it shares with the other workers (AIJ 6): the shared
// leaf searcher, with this worker's questions and prefetch owners tagged as its own, and a wait for
// an answer that gives the baton to another worker (parallel_scheduler.h) instead of clocking the
// chips itself. Its stats() count the answers this worker used (so that a worker's node count does
// not include the other workers' chip nodes); the simulated time is the chips' own.
#pragma once

#include "search/leaf_search.h"
#include "search/parallel_scheduler.h"

namespace db::search {

class WorkerLeaf final : public LeafSearch {
 public:
  WorkerLeaf(LeafSearch& chips, Scheduler& scheduler, int worker)
      : chips_(chips), scheduler_(scheduler), worker_(worker) {}

  int depth() const override { return chips_.depth(); }
  int pv_depth() const override { return chips_.pv_depth(); }
  int chips() const override { return chips_.chips(); }
  void new_iteration(int depth) override { chips_.new_iteration(depth); }
  bool iterations_may_overlap() const override { return chips_.iterations_may_overlap(); }
  void new_search(const Position&, bool) override {}  // the master's run() did it on the shared chips
  bool test(Position& pos, const Move* path, int ply, int depth, int test) override;
  bool overflowed() const override { return overflowed_; }
  std::uint64_t last_nodes() const override { return last_nodes_; }
  std::uint64_t node_limit() const override { return chips_.node_limit(); }
  void prefetch(Position& pos, const Move* path, int ply, int depth, int test, int owner) override {
    chips_.set_worker(worker_);
    chips_.prefetch(pos, path, ply, depth, test, owner);
  }
  void set_credits(int my_credit, int his_credit) override {
    chips_.set_worker(worker_);
    chips_.set_credits(my_credit, his_credit);
  }
  int idle_chips() const override { return chips_.idle_chips(); }
  void cancel(int owner) override {
    chips_.set_worker(worker_);
    chips_.cancel(owner);
  }
  LeafStats stats() const override;
  // The worker holds the baton: its software time passes on the shared host.
  void software_nodes(std::uint64_t nodes) override {
    chips_.set_worker(worker_);
    chips_.software_nodes(nodes);
  }

 private:
  LeafSearch& chips_;
  Scheduler& scheduler_;
  int worker_;
  std::uint64_t searches_ = 0;  // answers this worker used
  std::uint64_t nodes_ = 0;
  bool overflowed_ = false;
  std::uint64_t last_nodes_ = 0;
};

}  // namespace db::search
