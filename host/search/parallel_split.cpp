// The parallel software search (AIJ 6), as built: K software workers share the chips of one host
// and split the root and the master's PV nodes. Worker 0 (the master, the thread that called run())
// searches each iteration's first root move alone, as young brothers wait prescribes; the other
// root moves are then handed out one at a time, in order, to whichever worker is free, each searched
// with a null window against the root's alpha at the time and re-searched with the full window when
// it fails high, exactly as the sequential loop does. The master's PV nodes below the root (while
// it searches a first move alone, the others are idle) share their moves after the first the same
// way (AIJ 6.1, type 1 nodes), one split at a time; a move failing high there makes the
// helpers abandon theirs. The workers share the transposition table and the master's killers,
// history (Searcher::shared), too-big positions and chips' answers; each has its own path and
// move lists (a Searcher each). They run one at a time
// (parallel_scheduler.h), so no lock guards the search's state and a run is reproducible.
#include <algorithm>
#include <exception>
#include <memory>
#include <thread>
#include <vector>

#include "search/no_progress.h"
#include "search/parallel_leaf.h"
#include "search/parallel_scheduler.h"
#include "search/search.h"

namespace db::search {

namespace {
constexpr int kSkipped = -(1 << 30);  // a move pruned as no progress (below any score)
}  // namespace

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

bool root_split_resolving(const RootSplit& split) { return split.resolving > 0; }

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

bool early_first_move_dropped(const EarlyFirstMove& early) { return early.dropped; }

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

bool node_split_cut_off(const NodeSplit& split) {
  for (const NodeSplit* s = &split; s; s = s->parent) {
    if (s->cutoff || (s->job && s->job->cancel) || (s->root_move_stopped && *s->root_move_stopped)) return true;
  }
  return false;
}

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

namespace {
// The split a free helper joins: the current iteration's before the next one's early first move's,
// then the shallowest one with a move left (its moves are the largest jobs), the oldest among equals.
NodeSplit* open_split(const ParallelWorkers& p) {
  NodeSplit* best = nullptr;
  for (NodeSplit* s : p.splits) {
    if (s->next >= s->moves->size() || node_split_cut_off(*s)) continue;
    if (!best || s->early < best->early ||
        (s->early == best->early && (s->ply < best->ply || (s->ply == best->ply && s->serial < best->serial))))
      best = s;
  }
  return best;
}
}  // namespace

void Searcher::start_workers(const Position& root, int extra) {
  // A worker waiting for an answer holds a chip, so more workers than chips could all wait with
  // no chip free for the next question.
  const int k = std::min(options_.workers, leaf_->chips()) + extra;
  auto* p = new ParallelWorkers(*leaf_, k);
  for (int w = 0; w < k; ++w) p->leaves.push_back(std::make_unique<WorkerLeaf>(*leaf_, p->scheduler, w));
  p->exited.assign(std::size_t(k), false);
  for (int w = 1; w < k; ++w) {
    auto h = std::make_unique<Searcher>(tt_, options_);
    h->master_ = this;
    h->leaf_ = p->leaves[std::size_t(w)].get();
    h->strive_for_draw_ = strive_for_draw_;
    h->evaluator_ = evaluator_;
    h->lazy_ = lazy_;
    h->slow_estimate_ = 0;
    h->root_bonus_ = root_bonus_;
    h->parallel_ = p;
    h->worker_ = w;
    p->helpers.push_back(std::move(h));
    p->roots.push_back(root);
  }
  parallel_ = p;
  leaf_ = p->leaves[0].get();
  for (int w = 1; w < k; ++w)
    p->threads.emplace_back([this, w] { parallel_->helpers[std::size_t(w - 1)]->helper_main(w); });
}

void Searcher::finish_workers() {
  ParallelWorkers* p = parallel_;
  p->quit = true;
  p->scheduler.block(0, [p] {
    for (std::size_t w = 1; w < p->exited.size(); ++w) {
      if (!p->exited[w]) return false;
    }
    return true;
  });
  for (std::thread& t : p->threads) t.join();
  wait_clocks_ = p->scheduler.wait_clocks();
  splits_ = p->splits_made;
  helper_splits_ = p->helper_splits;
  root_moves_given_back_ = p->root_moves_given_back;
  offset_splits_ = p->offset_splits;
  early_first_moves_ = p->early_used;
  early_first_moves_dropped_ = p->early_dropped;
  leaf_ = &p->chips;
  leaf_->set_worker(0);
  parallel_ = nullptr;
  delete p;
}

void Searcher::abandon_workers() noexcept {
  if (!parallel_) return;
  parallel_->scheduler.abandon();
  try {
    finish_workers();
  } catch (...) {  // the error already on its way out is the one to report
  }
}

void Searcher::helper_main(int me) {
  ParallelWorkers* p = master_->parallel_;
  Scheduler& scheduler = p->scheduler;
  scheduler.wait_for_baton(me);
  try {
    helper_loop(me);
  } catch (const Scheduler::Aborted&) {
    // The search failed on another worker: this one's work is abandoned.
  } catch (...) {
    scheduler.fail(std::current_exception());  // thrown on worker 0 once the helpers have unwound
  }
  p->exited[std::size_t(me)] = true;
  scheduler.exit(me);
}

void Searcher::helper_loop(int me) {
  ParallelWorkers* p = master_->parallel_;
  Scheduler& scheduler = p->scheduler;
  Position& root = p->roots[std::size_t(me - 1)];
  for (;;) {
    auto root_work = [this] {
      const RootSplit* s = master_->split_;
      return s && s->has_move() && !master_->stop_;
    };
    auto node_work = [this, p] { return !master_->stop_ && open_split(*p) != nullptr; };
    auto job_work = [this] { return master_->jobs_ && !master_->stop_ && master_->jobs_->ready(); };
    auto early_work = [this, p] { return p->early.offered && !p->early.taken && !master_->stop_; };
    ++p->idle;
    scheduler.block(
        me, [&] { return p->quit || job_work() || root_work() || node_work() || early_work(); }, Scheduler::kWork);
    --p->idle;
    if (p->quit) break;
    // A cluster node's next job (it came in order), unless the node helps its splits first.
    if (job_work() && !(master_->options_.splits_before_jobs && node_work())) {
      NodeJob* job = master_->jobs_->take();
      search_node_job(*job);
      master_->jobs_->finished(*job);
    } else if (root_work()) {
      work_on_split(root, *master_->split_);
    } else if (!node_work()) {
      search_early_first_move(root);
    } else {
      NodeSplit& s = *open_split(*p);
      Position pos = root;
      for (std::size_t k = 0; k < s.path.size(); ++k) {
        if (s.path[k].is_none()) {
          pos.make_null();  // a null move's threat search (a cluster job's path may hold one)
        } else {
          pos.make_move(s.path[k]);
        }
        path_[k] = s.path[k];
        lists_[k] = s.lists[k];
      }
      node_task_ = &s;
      work_on_node_split(pos, s);
      node_task_ = nullptr;
    }
  }
}

void Searcher::search_root_split(Position& pos, MoveList& moves, std::size_t first, std::size_t next, int depth,
                                 int& alpha, int beta, int& best, std::size_t& best_index) {
  RootSplit split{&moves, first == 0, depth, alpha, beta, best, best_index, next, 0, 0, {}};
  split_ = &split;
  for (;;) {
    work_on_split(pos, split);
    offer_early_first_move(split);
    // The master has taken the last move; wait for the helpers still searching theirs, or for a
    // move a helper gave back (a fail high elsewhere stopped it) once the fail high is resolved.
    parallel_->scheduler.block(
        0, [&split, this] { return split.busy == 0 || (split.has_move() && !stop_); }, Scheduler::kHelpers);
    if (stop_ || !split.has_move()) break;
  }
  split_ = nullptr;
  alpha = split.alpha;
  best = split.best;
  best_index = split.best_index;
}

void Searcher::offer_early_first_move(const RootSplit& split) {
  // Only the ordinary search's iterations (one line, each first move with the full window) whose
  // next iteration will run; and one early search at a time.
  EarlyFirstMove& e = parallel_->early;
  // Not while a root move that failed high is searched again: the best move is about to change.
  const bool handed_out = split.resolving == 0 && split.next >= split.moves->size() && split.again.empty();
  if (!options_.overlap_iterations || !split.main_line || options_.multipv != 1 || !handed_out || stop_ ||
      split.depth >= max_depth_ || !leaf_->iterations_may_overlap() || e.offered || e.taken)
    return;
  // The best move so far: a move still being searched may yet fail high and replace it (its
  // re-search drops this search).
  e = EarlyFirstMove{};
  e.offered = true;
  e.move = (*split.moves)[split.best_index];
  e.depth = split.depth + 1;
  e.root_moves = split.moves;
}

void Searcher::search_early_first_move(Position& root) {
  EarlyFirstMove& e = parallel_->early;
  e.taken = true;
  early_task_ = &e;
  const Move m = e.move;
  const int score = search_for_split([&] {
    lists_[0] = e.root_moves;
    path_[0] = m;
    root.make_move(m);
    const int s = root_child(root, m, -kInf, kInf, e.depth, 0, true);
    root.unmake_move(m);
    return s;
  });
  early_task_ = nullptr;
  e.stopped = stop_ || shared().stop_;
  stopped_for_root_ = stop_ = false;
  e.score = score;
  e.finished = true;
  if (e.dropped) e.taken = false;  // nobody waits for it: the next one may be offered
}

bool Searcher::take_early_first_move(Move m, int depth, int& score) {
  if (!parallel_) return false;
  EarlyFirstMove& e = parallel_->early;
  if (!e.offered && (!e.taken || e.dropped)) return false;
  e.offered = false;  // no helper starts it now
  if (!e.taken) return false;
  if (e.move != m || e.depth != depth) {
    drop_early_first_move();
    return false;
  }
  parallel_->scheduler.block(
      0, [&e] { return e.finished; }, Scheduler::kHelpers);
  e.taken = false;
  if (e.stopped) return false;
  ++parallel_->early_used;
  score = e.score;
  return true;
}

void Searcher::drop_early_first_move() {
  if (!parallel_) return;
  EarlyFirstMove& e = parallel_->early;
  e.offered = false;
  if (!e.taken || e.dropped) return;
  e.dropped = true;  // a search under way stops at its next node, and the splits under it with it
  ++parallel_->early_dropped;
  if (e.finished) e.taken = false;  // else its helper frees it when it stops
}

int Searcher::search_for_split(const std::function<int()>& search_move) {
  if (!master_) return search_move();
  // A helper starts each move afresh and hands its counts to the master's after it.
  const std::uint64_t nodes = nodes_, extensions = extensions_;
  stop_ = false;
  seldepth_ = max_software_ply_ = 0;
  const int score = search_move();
  Searcher& master = *master_;
  master.nodes_ += nodes_ - nodes;
  master.extensions_ += extensions_ - extensions;
  master.seldepth_ = std::max(master.seldepth_, seldepth_);
  master.max_software_ply_ = std::max(master.max_software_ply_, max_software_ply_);
  return score;
}

void Searcher::wait_for_root_alpha(const RootSplit& split) {
  const Searcher& master = shared();
  parallel_->scheduler.block(
      worker_, [&split, &master] { return split.resolving == 0 || master.stop_; }, Scheduler::kHelpers);
}

void Searcher::work_on_split(Position& pos, RootSplit& split) {
  Searcher& master = shared();
  while (!master.stop_ && (split.next < split.moves->size() || !split.again.empty())) {
    if (split.resolving > 0) {
      // A move is failing high: the next one waits for the alpha it will set. A helper goes back to
      // join the splits (the re-search's among them); the split's owner waits here.
      if (worker_ != 0) break;
      wait_for_root_alpha(split);
      continue;
    }
    std::size_t i;
    if (!split.again.empty()) {
      i = split.again.front();
      split.again.erase(split.again.begin());
    } else {
      i = split.next++;
    }
    ++split.busy;
    const int score = search_for_split([&] { return search_root_move(pos, split, i); });
    --split.busy;
    if (stopped_for_root_) {  // a helper's move, given back until the fail high elsewhere is resolved
      stopped_for_root_ = stop_ = false;
      split.again.push_back(i);
      ++parallel_->root_moves_given_back;
      break;
    }
    if (stop_ || master.stop_) break;  // an interrupted search has no score
    if (score > split.best) {
      split.best = score;
      split.best_index = i;
      split.alpha = std::max(split.alpha, score);
    }
  }
}

// One root move after the first, as the sequential loop of search_root() searches it, except that
// alpha is read from the split when each search starts (other workers may have raised it).
int Searcher::search_root_move(Position& pos, RootSplit& split, std::size_t i) {
  Searcher& master = shared();
  const MoveList& moves = *split.moves;
  const Move m = moves[i];
  const int depth = split.depth, beta = split.beta;
  lists_[0] = &moves;
  path_[0] = m;
  pos.make_move(m);
  int alpha = split.alpha;
  // A helper's null window stops if another move starts its re-search meanwhile (root_task_).
  if (master_) root_task_ = &split;
  int score = root_child(pos, m, alpha, alpha + 1, depth, 0, false);
  root_task_ = nullptr;
  // A fail high against an alpha that has risen past it, or is about to (another move's re-search),
  // says nothing about the alpha the sequential loop would have tested it against: a helper gives
  // the move back to be searched again at that alpha; the owner tests the null window again.
  if (!stop_ && score > alpha && score < beta && (split.resolving > 0 || split.alpha >= score)) {
    if (master_) {
      stopped_for_root_ = stop_ = true;
      pos.unmake_move(m);
      return score;
    }
    wait_for_root_alpha(split);
    alpha = split.alpha;
    if (!stop_) score = root_child(pos, m, alpha, alpha + 1, depth, 0, false);
  }
  const bool resolving = !stop_ && score > alpha && score < beta;
  if (resolving) {
    ++split.resolving;
    shared().drop_early_first_move();  // the next iteration's first move may be this one
    // A fail high is a lower bound: re-search against the alpha of now, which may have risen.
    alpha = split.alpha;
    const bool was_in_trouble = master.root_in_trouble_;
    if (split.main_line) master.root_in_trouble_ = true;  // a new move is failing high
    score = root_child(pos, m, alpha, beta, depth, 0, true);
    if (split.main_line) master.root_in_trouble_ = was_in_trouble && score <= master.previous_score_ - 15 * kTieScale;
  }
  alpha = split.alpha;
  if (options_.dual_credit && !stop_ && score > alpha && score > split.best) {
    pos.unmake_move(m);
    const int credit = generate_credit(pos, moves, i, score, depth, 0, 0);
    path_[0] = m;
    pos.make_move(m);
    alpha = split.alpha;
    if (credit > 0 && !stop_) score = root_child(pos, m, alpha, beta, depth, credit, true);
  }
  // work_on_split raises the split's alpha from this score before any other worker runs.
  if (resolving) --split.resolving;
  pos.unmake_move(m);
  return score;
}

bool Searcher::splits_here(bool pv_node, int searched, int depth) const {
  // Young brothers wait: a node splits once its first move has not cut off, and only where the
  // children are software nodes (a chip leaf's siblings are already asked ahead on idle chips by
  // the prefetch). The master's PV nodes split whenever they can (the other workers have nothing
  // else to do while the master searches a first move); every other node splits only when a
  // worker is free to join it.
  (void)pv_node;
  return searched > 0 && depth - 1 > leaf_->depth() && parallel_->idle > 0;
}

bool Searcher::splits_for_software_child(Position& pos, Move next, int searched, int depth, int my_credit,
                                         int his_credit) {
  // A node whose children go to the chips asks them ahead on idle chips instead of splitting, but a
  // child that its credit extends past the chips' depth, or whose hardware search passed the node
  // limit, is a software search of its own: on the master's PV the others would wait for it (AIJ
  // 6.1's abort and re-split exists to spread exactly these). Once one comes up, the node splits.
  return searched > 0 && depth - 1 <= leaf_->depth() && parallel_->idle > 0 &&
         child_in_software(pos, next, depth, my_credit, his_credit);
}

bool Searcher::offset_splits_here(Position& pos, Move next, int offset_depth) {
  // The offset searches that go to the chips are asked ahead on idle chips; one that goes to the
  // software (past the chips' depth, or past the node limit before) would keep the others waiting.
  return parallel_->idle > 0 && (offset_depth > leaf_->depth() || child_in_software(pos, next, offset_depth + 1, 0, 0));
}

NodeSplit Searcher::open_node_split(const MoveList& moves, std::size_t i, int depth, int my_credit, int his_credit,
                                    int ply, int threat, int alpha, int beta, int best, Move best_move, int searched) {
  return NodeSplit{{path_, path_ + ply},
                   {lists_, lists_ + ply},
                   &moves,
                   depth,
                   my_credit,
                   his_credit,
                   ply,
                   threat,
                   alpha,
                   beta,
                   best,
                   best_move,
                   searched,
                   i,
                   current_split_,
                   current_split_ ? current_split_->job : job_,
                   parallel_->splits_made++,
                   // a split nested in another reaches the outer one's through its parent
                   root_task_    ? &stopped_for_root_
                   : early_task_ ? &early_task_->dropped
                                 : nullptr,
                   early_task_ != nullptr || (current_split_ && current_split_->early)};
}

void Searcher::share_out(Position& pos, NodeSplit& split) {
  ParallelWorkers& p = *parallel_;
  if (worker_ != 0) ++p.helper_splits;
  p.splits.push_back(&split);
  work_on_node_split(pos, split);
  // The owner has taken the last move (or the split ended): wait for the helpers still searching.
  p.scheduler.block(
      worker_, [&split] { return split.busy == 0; }, Scheduler::kHelpers);
  p.splits.erase(std::find(p.splits.begin(), p.splits.end(), &split));
}

void Searcher::search_node_split(Position& pos, const MoveList& moves, std::size_t i, int depth, int my_credit,
                                 int his_credit, int ply, int threat, int& alpha, int beta, int& best, Move& best_move,
                                 int& searched) {
  NodeSplit split =
      open_node_split(moves, i, depth, my_credit, his_credit, ply, threat, alpha, beta, best, best_move, searched);
  share_out(pos, split);
  alpha = split.alpha;
  best = split.best;
  best_move = split.best_move;
  searched = split.searched;
  path_[ply] = Move::none();
  const Move m = best_move;
  if (!stop_ && best >= beta) record_cutoff(pos, m, depth, ply);
}

void Searcher::work_on_node_split(Position& pos, NodeSplit& split) {
  Searcher& master = shared();
  while (split.next < split.moves->size() && !split.cutoff && !master.stop_) {
    const std::size_t i = split.next++;
    if (split.offset && i == split.skip) continue;
    ++split.busy;
    const NodeSplit* outer = current_split_;
    current_split_ = &split;
    const int score = search_for_split(
        [&] { return split.offset ? search_offset_child(pos, split, i) : search_split_child(pos, split, i); });
    current_split_ = outer;
    --split.busy;
    // An interrupted search has no score, and after a cutoff the node's result is settled.
    if (stop_ || master.stop_ || split.cutoff) break;
    if (split.offset) {
      if (score >= split.threshold && ++split.good >= split.limit) split.cutoff = true;
      continue;
    }
    if (score == kSkipped) continue;
    ++split.searched;
    if (score > split.best) {
      split.best = score;
      split.best_move = (*split.moves)[i];
      if (score > split.alpha) {
        split.alpha = score;
        if (score >= split.beta) split.cutoff = true;
      }
    }
  }
}

int Searcher::search_offset_split(Position& pos, const MoveList& moves, std::size_t i, std::size_t skip, int threshold,
                                  int depth, int ply, int limit, int good) {
  NodeSplit split = open_node_split(moves, i, depth, 0, 0, ply, 0, threshold - 1, threshold, -kInf, Move::none(), 0);
  ++parallel_->offset_splits;
  split.offset = true;
  split.skip = skip;
  split.threshold = threshold;
  split.limit = limit;
  split.good = good;
  share_out(pos, split);
  path_[ply] = Move::none();
  return std::min(split.good, limit);
}

// One offset search of an offset split, as count_good_alternatives() searches it.
int Searcher::search_offset_child(Position& pos, NodeSplit& split, std::size_t i) {
  const Move m = (*split.moves)[i];
  lists_[split.ply] = split.moves;
  path_[split.ply] = m;
  pos.make_move(m);
  const int v = -dual_credit(pos, -split.threshold, -split.threshold + 1, split.depth, 0, 0, split.ply + 1, false);
  pos.unmake_move(m);
  return v;
}

// One move of a split PV node, as the sequential loop of dual_credit() searches it after the
// first, with alpha read from the split when each search starts. kSkipped: pruned as no progress.
int Searcher::search_split_child(Position& pos, NodeSplit& split, std::size_t i) {
  const MoveList& moves = *split.moves;
  const Move m = moves[i];
  const int ply = split.ply, depth = split.depth, beta = split.beta;
  if (options_.no_progress && ply >= 2 && !pos.in_check() && lists_[ply - 2] && !path_[ply - 1].is_none() &&
      is_no_progress(path_[ply - 2], path_[ply - 1], m, *lists_[ply - 2]) &&
      reachable_directly(pos, path_[ply - 2], path_[ply - 1], m))
    return kSkipped;
  lists_[ply] = &moves;
  path_[ply] = m;
  pos.make_move(m);
  const int new_depth = depth - 1 + (!options_.dual_credit && pos.in_check() ? 1 : 0);
  int alpha = split.alpha;
  int score = -dual_credit(pos, -alpha - 1, -alpha, new_depth, split.his_credit, split.my_credit, ply + 1, false);
  if (!stop_ && score > alpha && score < beta && !split.cutoff) {
    alpha = split.alpha;  // a fail high is a lower bound: re-search against the alpha of now
    score = -dual_credit(pos, -beta, -alpha, new_depth, split.his_credit, split.my_credit, ply + 1, true);
  }
  alpha = split.alpha;
  if (options_.dual_credit && !stop_ && !split.cutoff && score > alpha && score > split.best) {
    pos.unmake_move(m);
    const int credit = generate_credit(pos, moves, i, score, depth, ply, split.threat);
    path_[ply] = m;
    pos.make_move(m);
    alpha = split.alpha;
    if (credit > 0 && !stop_ && !split.cutoff)
      score = -dual_credit(pos, -beta, -alpha, new_depth, split.his_credit, split.my_credit + credit, ply + 1, true);
  }
  pos.unmake_move(m);
  return score;
}

bool Searcher::run_node(const std::function<bool()>& until) {
  if (!parallel_) throw std::logic_error("run_node() without begin_node() on chips that take workers");
  ParallelWorkers& p = *parallel_;
  const int helpers = p.scheduler.workers() - 1;
  auto idle = [&] { return p.idle == helpers && !jobs_->ready() && p.chips.idle_chips() == p.chips.chips(); };
  p.scheduler.block(
      0, [&] { return until() || idle(); }, Scheduler::kWork);
  return idle();
}

void Searcher::search_node_job(NodeJob& job) {
  job_ = &job;
  job.outcome = search_job(job);
  job_ = nullptr;
}

}  // namespace db::search
