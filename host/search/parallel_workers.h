// The parallel software search's shared state (parallel_split.cpp, parallel_workers.cpp): the
// root and node splits the workers share moves through, the next iteration's early first move, and
// the workers themselves with their scheduler. Internal to the search library.
#pragma once

#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "search/parallel_leaf.h"
#include "search/parallel_scheduler.h"
#include "search/search.h"

namespace db::search {

// The root moves being shared out in one iteration (or MultiPV line).
struct RootSplit {
  const MoveList* moves;
  bool main_line;  // MultiPV line 1: sets the AIJ 8.4 trouble states
  int depth;
  int alpha;
  int beta;
  int best;
  std::size_t best_index;
  std::size_t next;  // the next move to hand out
  int busy = 0;      // workers searching a move of this split
  // Root moves searched again after failing high (their full window, their credit): the root's
  // alpha is about to rise, so no other move is searched against the old one meanwhile. The
  // helpers' null-window searches stop and their moves wait in `again` (search_root_move).
  int resolving = 0;
  std::vector<std::size_t> again;
  bool has_move() const { return resolving == 0 && (next < moves->size() || !again.empty()); }
};

// Overlapped iterations (SearchOptions::overlap_iterations): the next iteration's first root move,
// searched early by a helper with nothing else to do while the last moves of this iteration finish.
// One at a time: a new one is offered only once the last one's helper is done with it.
struct EarlyFirstMove {
  bool offered = false;   // by the master: its root split has no move left to hand out
  bool taken = false;     // a helper is searching it (until it has finished or stopped)
  bool finished = false;  // the helper is done: score holds, unless it was stopped
  bool stopped = false;   // interrupted (dropped, or the search's limits): no score
  bool dropped = false;   // the next iteration's first move is another: stop
  Move move = Move::none();
  int depth = 0;
  int score = 0;
  const MoveList* root_moves = nullptr;  // the root's moves (a helper's lists_[0])
};

// A node whose moves after the first are being shared out (AIJ 6.1: a PV node after its first move,
// a bad type-2 or a type-3 node once its first move has not cut off).
struct NodeSplit {
  std::vector<Move> path;              // from the root to the node
  std::vector<const MoveList*> lists;  // the owner's move lists of those plies (influence credit)
  const MoveList* moves;
  int depth, my_credit, his_credit, ply, threat;
  int alpha, beta, best;
  Move best_move;
  int searched;
  std::size_t next;
  // The split whose move the owner was searching when it split this node (nullptr: a root move or
  // the master's first move): its cutoff makes this node's work useless too.
  const NodeSplit* parent = nullptr;
  const NodeJob* job = nullptr;  // the cluster job it belongs to: its cancel stops it too
  std::uint64_t serial = 0;      // creation order (ties between equally shallow splits)
  // Made in a helper's null-window search of a root move: that search's stop for another root
  // move's fail high (Searcher::stopped_for_root_) stops the split's helpers too; made in an early
  // search of the next iteration's first move, that move's drop (EarlyFirstMove::dropped).
  const bool* root_move_stopped = nullptr;
  // Made in an early search of the next iteration's first move, or nested in such a split: free
  // helpers join the current iteration's splits first.
  bool early = false;
  int busy = 0;
  bool cutoff = false;
  // An offset split (count_good_alternatives, AIJ 6.1's offset searches in parallel): every move
  // but moves[skip] searched depth deep with the null window (threshold - 1, threshold); done
  // ("cutoff") once limit of them reach the threshold. The count does not depend on the order.
  bool offset = false;
  std::size_t skip = 0;
  int threshold = 0, limit = 0, good = 0;
};

// Whether the split, or one it is nested in, no longer wants its moves searched.
bool node_split_cut_off(const NodeSplit& split);

struct ParallelWorkers {
  ParallelWorkers(LeafSearch& c, int workers) : chips(c), scheduler(workers, c) {}
  LeafSearch& chips;
  Scheduler scheduler;
  std::vector<std::unique_ptr<WorkerLeaf>> leaves;  // per worker
  std::vector<std::unique_ptr<Searcher>> helpers;   // workers 1..K-1
  std::vector<Position> roots;                      // the helpers' copies of the root
  std::vector<std::thread> threads;
  std::vector<bool> exited;
  // The node splits open now, any worker's (the job engine's queue); helpers waiting for work.
  std::vector<NodeSplit*> splits;
  std::uint64_t splits_made = 0;
  std::uint64_t helper_splits = 0;
  std::uint64_t root_moves_given_back = 0;
  std::uint64_t offset_splits = 0;
  EarlyFirstMove early;
  std::uint64_t early_used = 0, early_dropped = 0;
  int idle = 0;
  bool quit = false;
};

}  // namespace db::search
