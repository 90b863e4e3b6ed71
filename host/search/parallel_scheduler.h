// Deterministic cooperative scheduling of the parallel software search's workers in simulated time
// (AIJ 6; docs/search.md "Parallel search"). The workers are OS threads, but only the one holding
// the baton runs, so the search needs no locks and is reproducible run to run. A worker that must
// wait (for a chip's answer, for work, for the other workers to finish) blocks on a condition and
// passes the baton to the first runnable worker in a fixed order (0, 1, ...); when no worker can
// run, the chips are clocked a quantum at a time until some condition holds. The host's software
// time passes only under the leaf searcher's cost model (LeafSearch::software_nodes), spent by the
// worker holding the baton: the workers share one host processor.
//
// An exception from the chips while they are clocked (a cluster's malformed or impossible message,
// a broken invariant) is thrown on whichever worker's thread clocked them, often a helper's, where
// nothing could catch it (std::terminate). The scheduler keeps it, unwinds every helper instead
// (each one's block() throws Aborted, which Searcher::helper_main catches before it exits) and then
// throws it on worker 0, the caller's thread, which ends the search with that error.
#pragma once

#include <array>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <vector>

#include "search/leaf_search.h"

namespace db::search {

class Scheduler {
 public:
  // What a blocked worker waits for (the search's diagnostics: where the workers' time goes).
  enum Wait { kAnswer, kWork, kHelpers, kWaits };
  // Worker 0 is the calling thread and holds the baton; the others are started by the caller and
  // first call wait_for_baton().
  Scheduler(int workers, LeafSearch& chips);

  int workers() const { return int(state_.size()); }
  // A new thread's first call: returns when the baton is handed to worker me.
  void wait_for_baton(int me);
  // Worker me (holding the baton) waits until ready() holds (evaluated only by the baton holder,
  // so it may read any shared search state). Returns holding the baton.
  void block(int me, std::function<bool()> ready, Wait why = kAnswer);
  // Worker-clocks spent waiting for each reason while every worker waited and the chips ran.
  const std::array<std::uint64_t, kWaits>& wait_clocks() const { return wait_clocks_; }
  // Worker me ends its thread: the baton goes on, and me never runs again.
  void exit(int me);
  // Thrown by block() on a helper's thread once the search has failed: the helper unwinds and exits.
  struct Aborted {};
  // The search is being abandoned with no error of the scheduler's own to throw (worker 0 is already
  // unwinding from one of its own): every helper's next block() throws Aborted.
  void abandon();
  // A helper's own exception (not the chips'): kept like theirs, thrown on worker 0.
  void fail(std::exception_ptr error);

 private:
  enum class State { kRunning, kBlocked, kDone };
  // The worker to run next (me included), clocking the chips while none can run.
  int choose();
  // After a failure: the lowest-numbered waiting helper, so that every helper unwinds, then worker 0.
  int next_to_unwind();
  void hand_over(int me, int next, bool wait);

  LeafSearch& chips_;
  std::vector<State> state_;
  std::vector<std::function<bool()>> ready_;
  std::vector<Wait> why_;
  std::array<std::uint64_t, kWaits> wait_clocks_{};
  std::mutex mutex_;
  // One a worker: a hand-over wakes only the worker that takes the baton (one shared condition woke
  // every waiting thread of every node, most of a simulated cluster's system time).
  std::vector<std::condition_variable> baton_changed_;
  int baton_ = 0;
  bool failed_ = false;
  std::exception_ptr error_;  // the first failure's, to throw on worker 0
  bool thrown_ = false;       // it has been: later ones (during the unwinding) are dropped
};

}  // namespace db::search
