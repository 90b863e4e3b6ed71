// The parallel software search (AIJ 6), as built: K software workers share the chips of one host
// and split the root. Worker 0 (the master, the thread that called run()) searches each
// iteration's first root move alone, as young brothers wait prescribes; the other root moves are
// then handed out one at a time, in order, to whichever worker is free, each searched with a null
// window against the root's alpha at the time and re-searched with the full window when it fails
// high, exactly as the sequential loop does. The workers share the transposition table; each has
// its own killers, history, path and move lists (a Searcher each). They run one at a time
// (parallel_scheduler.h), so no lock guards the search's state and a run is reproducible.
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
  bool main_line;         // MultiPV line 1: sets the AIJ 8.4 trouble states
  int depth;
  int alpha;
  int beta;
  int best;
  std::size_t best_index;
  std::size_t next;       // the next move to hand out
  int busy = 0;           // workers searching a move of this split
};

struct ParallelWorkers {
  ParallelWorkers(LeafSearch& c, int workers) : chips(c), scheduler(workers, c) {}
  LeafSearch& chips;
  Scheduler scheduler;
  std::vector<std::unique_ptr<WorkerLeaf>> leaves;  // per worker
  std::vector<std::unique_ptr<Searcher>> helpers;   // workers 1..K-1
  std::vector<Position> roots;                      // the helpers' copies of the root
  std::vector<std::thread> threads;
  std::vector<bool> exited;
  bool quit = false;
};

void Searcher::start_workers(const Position& root) {
  // A worker waiting for an answer holds a chip, so more workers than chips could all wait with
  // no chip free for the next question.
  const int k = std::min(options_.workers, leaf_->chips());
  auto* p = new ParallelWorkers(*leaf_, k);
  for (int w = 0; w < k; ++w) p->leaves.push_back(std::make_unique<WorkerLeaf>(*leaf_, p->scheduler, w));
  p->exited.assign(std::size_t(k), false);
  for (int w = 1; w < k; ++w) {
    auto h = std::make_unique<Searcher>(tt_, options_);
    h->master_ = this;
    h->leaf_ = p->leaves[std::size_t(w)].get();
    h->strive_for_draw_ = strive_for_draw_;
    h->clear_history();
    p->helpers.push_back(std::move(h));
    p->roots.push_back(root);
  }
  parallel_ = p;
  leaf_ = p->leaves[0].get();
  for (int w = 1; w < k; ++w) p->threads.emplace_back([this, w] { parallel_->helpers[std::size_t(w - 1)]->helper_main(w); });
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
  leaf_ = &p->chips;
  leaf_->set_worker(0);
  parallel_ = nullptr;
  delete p;
}

void Searcher::helper_main(int me) {
  ParallelWorkers* p = master_->parallel_;
  Scheduler& scheduler = p->scheduler;
  scheduler.wait_for_baton(me);
  Position& root = p->roots[std::size_t(me - 1)];
  for (;;) {
    scheduler.block(me, [this, p] {
      const RootSplit* s = master_->split_;
      return p->quit || (s && s->next < s->moves->size() && !master_->stop_);
    });
    if (p->quit) break;
    work_on_split(root, *master_->split_);
  }
  p->exited[std::size_t(me)] = true;
  scheduler.exit(me);
}

void Searcher::search_root_split(Position& pos, MoveList& moves, std::size_t first, std::size_t next, int depth,
                                 int& alpha, int beta, int& best, std::size_t& best_index) {
  RootSplit split{&moves, first == 0, depth, alpha, beta, best, best_index, next};
  split_ = &split;
  work_on_split(pos, split);
  // The master has taken the last move; wait for the helpers still searching theirs.
  parallel_->scheduler.block(0, [&split] { return split.busy == 0; });
  split_ = nullptr;
  alpha = split.alpha;
  best = split.best;
  best_index = split.best_index;
}

void Searcher::work_on_split(Position& pos, RootSplit& split) {
  Searcher& master = master_ ? *master_ : *this;
  while (split.next < split.moves->size() && !master.stop_) {
    const std::size_t i = split.next++;
    ++split.busy;
    // A helper's counts go to the master's after each move.
    const std::uint64_t nodes = nodes_, extensions = extensions_;
    if (master_) {
      stop_ = false;
      seldepth_ = max_software_ply_ = 0;
    }
    const int score = search_root_move(pos, split, i);
    --split.busy;
    if (master_) {
      master.nodes_ += nodes_ - nodes;
      master.extensions_ += extensions_ - extensions;
      master.seldepth_ = std::max(master.seldepth_, seldepth_);
      master.max_software_ply_ = std::max(master.max_software_ply_, max_software_ply_);
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
  Searcher& master = master_ ? *master_ : *this;
  const MoveList& moves = *split.moves;
  const Move m = moves[i];
  const int depth = split.depth, beta = split.beta;
  lists_[0] = &moves;
  path_[0] = m;
  pos.make_move(m);
  int alpha = split.alpha;
  int score = -dual_credit(pos, -alpha - 1, -alpha, depth - 1, 0, 0, 1, false);
  if (!stop_ && score > alpha && score < beta) {
    // A fail high is a lower bound: re-search against the alpha of now, which may have risen.
    alpha = split.alpha;
    const bool was_in_trouble = master.root_in_trouble_;
    if (split.main_line) master.root_in_trouble_ = true;  // a new move is failing high
    score = -dual_credit(pos, -beta, -alpha, depth - 1, 0, 0, 1, true);
    if (split.main_line) master.root_in_trouble_ = was_in_trouble && score <= master.previous_score_ - 15 * kTieScale;
  }
  alpha = split.alpha;
  if (options_.dual_credit && !stop_ && score > alpha && score > split.best) {
    pos.unmake_move(m);
    const int credit = generate_credit(pos, moves, i, score, depth, 0, 0);
    path_[0] = m;
    pos.make_move(m);
    alpha = split.alpha;
    if (credit > 0 && !stop_) score = -dual_credit(pos, -beta, -alpha, depth - 1, 0, credit, 1, true);
  }
  pos.unmake_move(m);
  return score;
}

}  // namespace db::search
