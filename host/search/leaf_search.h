// The hardware/software boundary (AIJ section 5): the software search hands every node with at most
// depth() plies left to a leaf searcher, which answers null-window questions "is this position's
// value >= t?" by a hardware search on a chip. The software keeps a chip busy per question and, with
// several chips, starts the questions it will ask next (prefetch) so that the chips run in parallel.
// The interface keeps the search library free of the chip library (chip/ implements it).
#pragma once

#include <cstdint>

#include "chess/position.h"

namespace db::search {

// The 1997 chip's clock (IEEE Micro): simulated time is chip clocks at this rate.
constexpr double kChipClockHz = 24e6;

struct LeafStats {
  std::uint64_t searches = 0;         // hardware searches whose answer the software used
  std::uint64_t nodes = 0;            // their nodes
  std::uint64_t wasted_searches = 0;  // prefetched searches aborted or never asked for
  std::uint64_t wasted_nodes = 0;
  std::uint64_t busy_clocks = 0;  // chip clocks spent searching, all chips
  // Simulated time, the host's clock since the search began: the clocks it waited while chips
  // searched, plus its own software time (host_clocks) under a cost model (set_host_node_ns).
  std::uint64_t parallel_clocks = 0;
  std::uint64_t host_clocks = 0;     // the host's software time (cost model), in chip clocks
  std::uint64_t software_nodes = 0;  // software nodes the search reported (charged under a cost model)
  std::uint64_t chips_lost = 0;      // chips dropped because their link failed
  std::uint64_t reruns = 0;          // searches started again because their chip was lost
  // Hardware searches stopped at the node limit (set_node_limit) and searched in software instead.
  std::uint64_t overflows = 0;
};

class LeafSearch {
 public:
  virtual ~LeafSearch() = default;
  // Nodes with at most this many plies left (extensions included) go to the chips.
  virtual int depth() const = 0;
  // A node of the principal variation (a wider window) goes to the leaf searcher only with at most
  // this many plies left (a cluster's master searches the PV itself down to the chips' depth, so
  // that its children, not one bisection, spread over the nodes); by default depth().
  virtual int pv_depth() const { return depth(); }
  // Before each iteration of the root's search, its depth (a cluster's master keeps a few plies of
  // its own above the jobs in every iteration: cluster_leaf.h).
  virtual void new_iteration(int /*depth*/) {}
  // Whether a search of the next iteration may start before new_iteration() for it (overlapped
  // iterations, SearchOptions::overlap_iterations): not where new_iteration changes what the leaf
  // searcher does (a cluster's master).
  virtual bool iterations_may_overlap() const { return true; }
  virtual int chips() const = 0;
  // Before each search: the evaluation weights for this root (AIJ 7.1) go to every chip, and the
  // software's attitude to draws (AIJ 4.3: whether the root side strives for a draw), so that the
  // chips give their repetitions the software's tie-breakers.
  virtual void new_search(const Position& root, bool strive_for_draw) = 0;
  // The position pos, reached from the root by path[0..ply-1] (Move::none() for a null move), at
  // software ply `ply`: is its value for the side to move >= test (a two-part software score,
  // score.h: the value with mates counted from the root, and the tie-breaker)? Waits for the answer. pos is unchanged
  // on return.
  virtual bool test(Position& pos, const Move* path, int ply, int depth, int test) = 0;
  // Whether the last test() (of this worker) got no answer because its hardware search passed the
  // node limit (AIJ 6.1: such a job is aborted and split in software); its result is then
  // meaningless and the search must search the node itself.
  virtual bool overflowed() const { return false; }
  // The hardware nodes of the last test()'s answer (of this worker), and the node limit past which
  // a hardware search overflows (0: none).
  virtual std::uint64_t last_nodes() const { return 0; }
  virtual std::uint64_t node_limit() const { return 0; }
  // The dual-credit state (AIJ 4: quarter plies, after the node's cash-in) of the node the next
  // test() or prefetch() of this worker asks about. The chips have no credit and ignore it; a
  // cluster's master sends it with the job, whose worker searches its first plies in software as
  // the master's own search would, extensions included.
  virtual void set_credits(int /*my_credit*/, int /*his_credit*/) {}
  // Starts the same question on a free chip, if there is one, to be answered by a later test()
  // with the same arguments; owner is the software ply whose move loop asked (see cancel()).
  virtual void prefetch(Position& pos, const Move* path, int ply, int depth, int test, int owner) = 0;
  // Free chips (prefetch would start a search now).
  virtual int idle_chips() const = 0;
  // Aborts the prefetched searches of owner that were not asked for (a cutoff made them useless).
  virtual void cancel(int owner) = 0;
  virtual LeafStats stats() const = 0;
  // OS threads the leaf searcher may use to clock its chips (the search itself stays on its thread).
  virtual void set_threads(int /*threads*/) {}
  virtual int threads() const { return 1; }
  // The host's own software time (AIJ 6: a node's host runs the software search while its chips
  // search): the search reports the software nodes it visited since its last call, before each
  // question and at its end; a leaf searcher with a cost per node lets that time pass, the running
  // chips searching on meanwhile. Without a cost (the default) the host's software is free.
  virtual void software_nodes(std::uint64_t /*nodes*/) {}
  // No chip runs and the host has nothing to do until simulated time `clocks` (since new_search):
  // the time passes idle (a cluster node waiting for its next job).
  virtual void idle_until(std::uint64_t /*clocks*/) {}

  // Several software workers sharing these chips (parallel_leaf.h). A worker's questions and
  // prefetch owners are its own: set_worker() tags the calls that follow, so that one worker's
  // cancel() never aborts another's question and two workers never wait on one job. The
  // asynchronous calls let a worker give way while its chip searches: ask() starts the question
  // (or finds it asked ahead), ready() tells whether its answer is in, answer() takes it as test()
  // does after waiting, step() clocks the running chips one quantum (false when none runs).
  // A leaf searcher without them (supports_workers() false) runs one software worker.
  struct Answer {
    bool fail_high = false;
    std::uint64_t nodes = 0;
    bool overflow = false;  // the search passed the node limit: no answer
  };
  virtual bool supports_workers() const { return false; }
  virtual void set_worker(int /*worker*/) {}
  virtual void ask(Position& /*pos*/, const Move* /*path*/, int /*ply*/, int /*depth*/, int /*test*/) {}
  virtual bool ready(Key /*key*/, int /*ply*/, int /*depth*/, int /*test*/) const { return true; }
  virtual Answer answer(Key /*key*/, int /*ply*/, int /*depth*/, int /*test*/) { return {}; }
  virtual bool step() { return false; }
};

}  // namespace db::search
