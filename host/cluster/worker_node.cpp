#include "cluster/worker_node.h"

#include <algorithm>

#include <fmt/format.h>

#include "chess/movegen.h"
#include "chess/notation.h"

namespace db::cluster {

WorkerNode::WorkerNode(WorkerConfig config, std::unique_ptr<search::LeafSearch> chips)
    : config_(std::move(config)),
      own_table_(config_.shared_table ? 1 : config_.hash_mib),
      tt_(config_.shared_table ? *config_.shared_table : own_table_),
      chips_(std::move(chips)),
      searcher_(tt_, config_.search) {
  if (!chips_ || !chips_->supports_workers())
    throw std::invalid_argument("a cluster node needs chips that software workers can share");
  search::SearchOptions options = config_.search;
  options.multipv = 1;
  options.workers = std::max(1, options.workers);
  searcher_.set_options(options);
  searcher_.set_leaf_search(chips_.get());
}

WorkerNode::~WorkerNode() {
  stop_jobs();
  searcher_.end_node();
}

void WorkerNode::stop_jobs() {
  for (auto& [id, e] : jobs_) e.job.cancel = true;
}

std::uint64_t WorkerNode::clock() const { return chips_->stats().parallel_clocks; }

void WorkerNode::receive(const Message& m, const Send& send) {
  if (std::holds_alternative<Quit>(m)) {
    quit_ = true;
    return;
  }
  if (const auto* n = std::get_if<NewSearch>(&m)) {
    start_search(*n);
    return;
  }
  if (!search_) throw ClusterError(fmt::format("a {} before any NEW_SEARCH", type_name(type_of(m))));
  if (const auto* j = std::get_if<Job>(&m)) {
    if (j->search == search_->search) add_job(*j);
    return;
  }
  if (const auto* c = std::get_if<Cancel>(&m)) {
    if (c->search != search_->search) return;
    if (auto it = jobs_.find(c->id); it != jobs_.end()) it->second.cancel_at = std::max(c->at, it->second.arrive);
    if (c->at < clock()) most_late_ = std::max(most_late_, clock() - c->at);
    return;
  }
  if (const auto* g = std::get_if<Grant>(&m)) {
    if (g->search != search_->search) return;
    run_until(g->until, g->stop_at_answer);
    for (const Answer& a : outbox_) send(a);
    outbox_.clear();
    const search::LeafStats st = chips_->stats();
    send(Clock{search_->search, clock(),
               NodeChips{st.busy_clocks, st.searches, st.nodes, st.wasted_searches, st.wasted_nodes, st.overflows,
                         st.software_nodes}});
    return;
  }
  throw ClusterError(fmt::format("a worker got {}: only the master takes it", type_name(type_of(m))));
}

void WorkerNode::start_search(const NewSearch& m) {
  // The master's root with its history: repetitions of positions before the root count below a
  // job as they do in the master's own search.
  Position root = root_of(m);
  stop_jobs();
  searcher_.end_node();
  jobs_.clear();
  outbox_.clear();
  root_ = root;
  search_ = m;
  searcher_.begin_node(root_, m.strive_for_draw, *this);
}

void WorkerNode::add_job(const Job& m) {
  // The master numbers its jobs afresh: a second JOB with the number of one still here (perhaps in
  // progress) is the master's error, not a job to put in its place.
  if (jobs_.count(m.id)) throw ClusterError(fmt::format("JOB {}: a job of that number is already here", m.id));
  // The path is checked here, so that a bad one is the master's error, not a crash in a search.
  Position pos = root_;
  for (std::size_t i = 0; i < m.path.size(); ++i) {
    const Move mv = m.path[i];
    if (mv.is_none()) {
      if (pos.in_check())
        throw ClusterError(fmt::format("JOB {}: a null move at ply {} with the side to move in check", m.id, i));
      pos.make_null();
    } else if (pos.is_legal(mv)) {
      pos.make_move(mv);
    } else {
      throw ClusterError(
          fmt::format("JOB {}: path move {} ({}) is not legal in {}", m.id, i, move_to_uci(mv), pos.fen()));
    }
  }
  Entry& e = jobs_[m.id];
  e.job.id = m.id;
  e.job.path = m.path;
  e.job.depth = m.depth;
  e.job.test = m.test;
  e.job.my_credit = m.my_credit;
  e.job.his_credit = m.his_credit;
  e.job.software_node_limit = config_.software_node_limit;
  e.job.position = pos;
  e.table = m.table;
  // A node stops a little past a grant (at the end of a chip quantum or of a host computation), so
  // a job may come in at a time the node has passed: it starts at the node's next step.
  e.arrive = std::max(m.arrive, clock());
  most_late_ = std::max(most_late_, e.arrive - m.arrive);
}

std::uint64_t WorkerNode::next_event() const {
  std::uint64_t next = ~std::uint64_t(0);
  const std::uint64_t now = clock();
  for (const auto& [id, e] : jobs_) {
    if (!e.started && e.arrive > now) next = std::min(next, e.arrive);
    if (!e.job.cancel && e.cancel_at > now) next = std::min(next, e.cancel_at);
  }
  return next;
}

void WorkerNode::apply_arrivals() {
  // The master's entries reach the table when their job arrives, in simulated time (not when its
  // message was taken, possibly earlier), whether it starts then or waits on deck. They fill what
  // this node's table lacks and never replace a search of its own as deep or deeper (the node's
  // may be the more recent).
  const std::uint64_t now = clock();
  for (auto& [id, e] : jobs_) {
    if (e.table.empty() || e.arrive > now) continue;
    for (const TableEntry& t : e.table) {
      const search::TTEntry* own = tt_.probe(t.key);
      if (own && own->bound != search::Bound::NONE && own->depth_q >= t.depth_q) continue;
      tt_.store(t.key, t.move, t.score, t.depth_q, search::Bound(t.bound), t.my_credit, t.his_credit);
    }
    e.table.clear();
  }
}

void WorkerNode::apply_cancels() {
  const std::uint64_t now = clock();
  for (auto it = jobs_.begin(); it != jobs_.end();) {
    Entry& e = it->second;
    if (e.cancel_at <= now && !e.job.cancel) {
      e.job.cancel = true;
      if (!e.started) {  // never begun: answered at once, unsearched
        Answer a;
        a.search = search_->search;
        a.id = e.job.id;
        a.status = Answer::Status::CANCELLED;
        a.start = a.finish = now;
        outbox_.push_back(a);
        it = jobs_.erase(it);
        continue;
      }
    }
    ++it;
  }
}

void WorkerNode::run_until(std::uint64_t until, bool stop_at_answer) {
  answered_ = false;
  const auto answered = [&] { return stop_at_answer && answered_; };
  for (;;) {
    apply_arrivals();
    apply_cancels();
    const std::uint64_t now = clock();
    if (now >= until || answered()) return;
    const std::uint64_t stop = std::min(until, next_event());
    const bool idle = searcher_.run_node([&] { return clock() >= stop || answered(); });
    if (answered()) return;
    if (idle && clock() < stop) chips_->idle_until(stop);  // nothing to do before the next event
  }
}

bool WorkerNode::ready() const {
  const std::uint64_t now = clock();
  for (const auto& [id, e] : jobs_) {
    if (!e.started && !e.job.cancel && e.arrive <= now) return true;
  }
  return false;
}

search::NodeJob* WorkerNode::take() {
  const std::uint64_t now = clock();
  Entry* first = nullptr;
  for (auto& [id, e] : jobs_) {
    if (!e.started && !e.job.cancel && e.arrive <= now && (!first || e.arrive < first->arrive)) first = &e;
  }
  if (!first) return nullptr;
  first->started = true;
  first->start = now;
  return &first->job;
}

void WorkerNode::finished(search::NodeJob& job) {
  auto it = jobs_.find(job.id);
  const Entry& e = it->second;
  const search::JobOutcome& out = job.outcome;
  Answer a;
  a.search = search_->search;
  a.id = job.id;
  a.status = out.overflow                ? Answer::Status::TOO_BIG
             : out.stopped || job.cancel ? Answer::Status::CANCELLED
                                         : Answer::Status::ANSWERED;
  a.fail_high = out.fail_high;
  a.nodes = out.nodes;
  a.software_nodes = out.software_nodes;
  a.start = e.start;
  a.finish = std::max(e.start, clock());
  if (a.status == Answer::Status::ANSWERED) a.table = table_entries(tt_, job.position, config_.table_results);
  answered_ = answered_ || a.status != Answer::Status::CANCELLED;  // a cancelled job's answer changes nothing
  outbox_.push_back(std::move(a));
  jobs_.erase(it);
}

}  // namespace db::cluster
