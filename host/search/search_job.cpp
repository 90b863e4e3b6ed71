// A cluster worker's searches (AIJ 6.2): the master hands a worker a node near the tree's bottom as
// a null-window question; the worker searches its first plies in software (with the dual-credit
// extensions, as the master would) and hands the last plies to its own chips.
#include <algorithm>

#include "search/search.h"

namespace db::search {

void Searcher::begin_node(const Position& root, bool strive_for_draw, JobQueue& queue) {
  end_node();
  limits_ = {};
  limits_.infinite = true;  // a job ends with its search, a stop() or its node limit, never on a clock
  normal_ms_ = panic_ms_ = 0;
  pondering_ = false;
  root_in_trouble_ = false;
  clear_history();
  tt_.new_search();
  too_big_.clear();
  clear_chip_answers();
  too_big_skips_ = 0;
  strive_for_draw_ = strive_for_draw;
  set_evaluator(root);
  if (leaf_) leaf_->new_search(root, strive_for_draw);
  jobs_ = &queue;
  // Worker 0 only waits (run_node); one worker per chip takes jobs and joins the others' splits.
  if (leaf_ && leaf_->supports_workers()) start_workers(root, 1);
}

void Searcher::end_node() {
  if (parallel_) finish_workers();
}

JobOutcome Searcher::search_job(const NodeJob& job) {
  start_ = std::chrono::steady_clock::now();
  nodes_ = 0;
  software_nodes_ = software_nodes_told_ = 0;
  const int depth = job.depth;
  // As a chip aborts only hardware searches of two plies or more, only a job of two plies or more
  // goes back: the master searches a job that went back one ply deeper, its children as jobs, so a
  // limit on every depth would hand the same line back ply after ply without end.
  job_node_limit_ = depth >= 2 ? job.software_node_limit : 0;
  job_overflow_ = false;
  seldepth_ = max_software_ply_ = 0;
  const int root_ply = std::clamp(int(job.path.size()), 0, kMaxPly - 2);
  job_root_ply_ = root_ply;
  for (auto& l : lists_) l = nullptr;
  for (Move& m : path_) m = Move::none();
  std::copy(job.path.begin(), job.path.begin() + root_ply, path_);
  // The master's search had the moves of the plies above in lists_: its credit for a capture the
  // last move enabled (the influence credit) and "no progress" read them at the job's first two
  // plies. A null move's position has its moves too.
  Position above = job.position;
  for (int k = root_ply - 1; k >= std::max(root_ply - 2, 0); --k) {
    if (path_[k].is_none())
      above.unmake_null();
    else
      above.unmake_move(path_[k]);
    MoveList& list = job_lists_[root_ply - 1 - k];
    list.clear();
    generate_legal(above, list);
    lists_[k] = &list;
  }

  Position pos = job.position;
  const int score = dual_credit(pos, job.test - 1, job.test, depth, job.my_credit, job.his_credit, root_ply, false);
  if (leaf_) tell_software_nodes();
  JobOutcome out;
  out.overflow = job_overflow_;
  out.stopped = stop_ && !job_overflow_;
  out.fail_high = !stop_ && score >= job.test;
  out.nodes = nodes_;
  out.software_nodes = software_nodes_;
  job_node_limit_ = 0;
  job_overflow_ = false;
  job_root_ply_ = -1;
  stop_ = false;
  return out;
}

}  // namespace db::search
