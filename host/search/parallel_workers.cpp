// The parallel software search's workers (AIJ 6; parallel_split.cpp says how they share the work):
// starting and ending the helper threads, a helper's loop (the open split it joins next), and a
// cluster node's workers taking its jobs (run_node, search_node_job).
#include <algorithm>
#include <exception>
#include <memory>
#include <thread>
#include <vector>

#include "search/parallel_workers.h"

namespace db::search {

bool node_split_cut_off(const NodeSplit& split) {
  for (const NodeSplit* s = &split; s; s = s->parent) {
    if (s->cutoff || (s->job && s->job->cancel) || (s->root_move_stopped && *s->root_move_stopped)) return true;
  }
  return false;
}

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
