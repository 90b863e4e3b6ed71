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
  // A node's software workers (--workers) split each job's nodes among them, as on one node.
  search::SearchOptions options = config_.search;
  options.multipv = 1;
  searcher_.set_options(options);
  searcher_.set_leaf_search(chips_.get());
}

WorkerNode::~WorkerNode() { searcher_.end_jobs(); }

void WorkerNode::receive(const Message& m, const Send& send) {
  if (std::holds_alternative<Quit>(m)) {
    quit_ = true;
    if (running_) searcher_.stop();
    return;
  }
  if (const auto* c = std::get_if<Cancel>(&m)) {
    if (config_.deterministic) return;
    if (running_ && search_ && c->search == search_->search && *running_ == c->id) {
      cancel_running_ = true;
      searcher_.stop();
      return;
    }
    // A job still queued is answered at once, unsearched.
    for (auto it = queue_.begin(); it != queue_.end(); ++it) {
      const auto* j = std::get_if<Job>(&*it);
      if (j && j->search == c->search && j->id == c->id) {
        Answer a;
        a.search = j->search;
        a.id = j->id;
        a.status = Answer::Status::CANCELLED;
        queue_.erase(it);
        send(a);
        return;
      }
    }
    return;
  }
  if (const auto* n = std::get_if<NewSearch>(&m)) {
    if (!config_.deterministic) {
      // The jobs of earlier searches are not wanted any more: the master has forgotten them.
      queue_.erase(
          std::remove_if(queue_.begin(), queue_.end(), [](const Message& q) { return std::holds_alternative<Job>(q); }),
          queue_.end());
      if (running_) {
        cancel_running_ = true;
        searcher_.stop();
      }
    }
    queue_.push_back(*n);
    return;
  }
  if (std::holds_alternative<Job>(m)) {
    queue_.push_back(m);
    return;
  }
  throw ClusterError("a worker got an ANSWER: only the master takes answers");
}

bool WorkerNode::run_next(const Send& send) {
  if (queue_.empty()) return false;
  const Message m = std::move(queue_.front());
  queue_.pop_front();
  if (const auto* n = std::get_if<NewSearch>(&m)) {
    start_search(*n);
    return true;
  }
  const Job& job = std::get<Job>(m);
  if (!search_ || job.search != search_->search)
    throw ClusterError(fmt::format("JOB {} of search {} came before that search's NEW_SEARCH", job.id, job.search));
  send(run_job(job));
  return true;
}

void WorkerNode::start_search(const NewSearch& m) {
  try {
    root_ = Position::from_fen(m.root_fen);
  } catch (const std::exception& e) {
    throw ClusterError(fmt::format("NEW_SEARCH {}: root_fen '{}': {}", m.search, m.root_fen, e.what()));
  }
  search_ = m;
  searcher_.begin_jobs(root_, m.strive_for_draw);
}

Position WorkerNode::position_of(const Job& job) const {
  Position pos = root_;
  for (std::size_t i = 0; i < job.path.size(); ++i) {
    const Move m = job.path[i];
    if (m.is_none()) {
      if (pos.in_check())
        throw ClusterError(fmt::format("JOB {}: a null move at ply {} with the side to move in check", job.id, i));
      pos.make_null();
    } else if (pos.is_legal(m)) {
      pos.make_move(m);
    } else {
      throw ClusterError(
          fmt::format("JOB {}: path move {} ({}) is not legal in {}", job.id, i, move_to_uci(m), pos.fen()));
    }
  }
  return pos;
}

Answer WorkerNode::run_job(const Job& job) {
  Position pos = position_of(job);
  const std::uint64_t clocks_before = chips_ ? chips_->stats().parallel_clocks : 0;
  running_ = job.id;
  cancel_running_ = false;
  const search::JobOutcome out = searcher_.search_job(pos, job.path.data(), int(job.path.size()), job.depth, job.test,
                                                      config_.software_node_limit);
  running_.reset();
  ++jobs_done_;
  Answer a;
  a.search = job.search;
  a.id = job.id;
  a.status = out.overflow                       ? Answer::Status::TOO_BIG
             : (out.stopped || cancel_running_) ? Answer::Status::CANCELLED
                                                : Answer::Status::ANSWERED;
  a.fail_high = out.fail_high;
  a.nodes = out.nodes;
  a.software_nodes = out.software_nodes;
  a.clocks = chips_ ? chips_->stats().parallel_clocks - clocks_before : 0;
  if (a.status == Answer::Status::ANSWERED) a.table = table_results(pos);
  return a;
}

std::vector<TableEntry> WorkerNode::table_results(Position& pos) const {
  std::vector<TableEntry> out;
  auto add = [&](Key key) {
    if (out.size() >= config_.table_results) return;
    const search::TTEntry* e = tt_.probe(key);
    if (!e || e->bound == search::Bound::NONE) return;
    out.push_back({key, e->move, e->score, e->depth_q, std::uint8_t(e->bound), e->my_credit, e->his_credit});
  };
  add(pos.key());
  MoveList moves;
  generate_legal(pos, moves);
  for (Move m : moves) {
    pos.make_move(m);
    add(pos.key());
    pos.unmake_move(m);
  }
  return out;
}

}  // namespace db::cluster
