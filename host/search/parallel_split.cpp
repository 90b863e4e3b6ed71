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
#include <vector>

#include "search/no_progress.h"
#include "search/parallel_workers.h"

namespace db::search {

namespace {
constexpr int kSkipped = -(1 << 30);  // a move pruned as no progress (below any score)
}  // namespace

// Declared in search.h, where the splits' types are incomplete.
bool root_split_resolving(const RootSplit& split) { return split.resolving > 0; }
bool early_first_move_dropped(const EarlyFirstMove& early) { return early.dropped; }

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

}  // namespace db::search
