#include "cluster/cluster_leaf.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include <fmt/format.h>

namespace db::cluster {

std::uint64_t SwitchModel::message_clocks(std::size_t bytes) const {
  // 24 chip clocks a microsecond; bytes / (MB/s) is microseconds.
  const double us = latency_us + (bandwidth_mb_s > 0 ? double(bytes) / bandwidth_mb_s : 0.0);
  return std::uint64_t(us * search::kChipClockHz / 1e6 + 0.5);
}

ClusterLeafSearch::ClusterLeafSearch(MasterLink& link, ClusterConfig config, search::TranspositionTable& table)
    : link_(link), config_(config), table_(table), workers_(std::size_t(link.workers())) {
  if (workers_.empty()) throw std::invalid_argument("a cluster needs at least the master's own node");
  if (config_.depth < 1 || config_.depth > 60)
    throw std::invalid_argument(fmt::format("cluster job depth {} out of range 1-60", config_.depth));
  if (config_.deck < 0 || config_.deck > 8)
    throw std::invalid_argument(fmt::format("jobs on deck {} out of range 0-8", config_.deck));
  cstats_.busy.assign(workers_.size(), 0);
  cstats_.jobs_per.assign(workers_.size(), 0);
}

int ClusterLeafSearch::chips() const {
  // What the job engine may keep busy at once: every remote worker's job and the one on its deck
  // (the master's own node alone when it has no workers). Questions queue on a worker rather than
  // wait for a free one, so more software workers than this never deadlock.
  int alive = 0;
  for (const Worker& w : workers_) alive += w.alive;
  return alive * (1 + config_.deck);
}

bool ClusterLeafSearch::eligible(int w) const { return workers_[std::size_t(w)].alive; }

int ClusterLeafSearch::pending(int w) const {
  int n = 0;
  for (std::uint32_t id : workers_[std::size_t(w)].fifo) {
    const Job& j = jobs_.at(id);
    n += !j.dropped && !j.delivered;
  }
  return n;
}

int ClusterLeafSearch::idle_chips() const {
  int idle = 0;
  for (int w = 0; w < int(workers_.size()); ++w) {
    if (eligible(w)) idle += std::max(0, 1 + config_.deck - pending(w));
  }
  return idle;
}

void ClusterLeafSearch::new_search(const Position& root, bool strive_for_draw) {
  finish();
  ++search_;
  jobs_.clear();
  for (Worker& w : workers_) {
    w.fifo.clear();
    w.free_at = 0;
  }
  now_ = 0;
  host_owed_ = 0;
  stats_ = {};
  root_fen_ = root.fen();
  strive_for_draw_ = strive_for_draw;
  for (int w = 0; w < int(workers_.size()); ++w) {
    if (workers_[std::size_t(w)].alive) send_to(w, NewSearch{search_, root_fen_, strive_for_draw}, nullptr);
  }
}

void ClusterLeafSearch::finish() {
  // drop() may take finished jobs off the books: pick first, then drop.
  std::vector<std::uint32_t> out;
  for (const auto& [id, job] : jobs_) {
    if (!job.dropped && !job.delivered && workers_[std::size_t(job.worker)].alive) out.push_back(id);
  }
  for (std::uint32_t id : out) {
    if (auto it = jobs_.find(id); it != jobs_.end()) drop(it->second);
  }
}

void ClusterLeafSearch::send_to(int w, const Message& m, std::uint64_t* arrival) {
  const std::vector<std::uint8_t> bytes = encode(m);
  ++cstats_.messages;
  cstats_.bytes += bytes.size();
  if (arrival) *arrival = now_ + (w == 0 ? 0 : config_.network.message_clocks(bytes.size()));
  link_.send(w, m);
}

int ClusterLeafSearch::worker_for(bool asked) {
  int best = -1;
  for (int w = 0; w < int(workers_.size()); ++w) {
    if (eligible(w) && (best < 0 || pending(w) < pending(best))) best = w;
  }
  if (best < 0) throw std::logic_error("no worker left, not even the master's own node");
  if (asked && pending(best) >= 1 + config_.deck) {
    // Every worker is full: the latest question asked ahead is the likeliest to be useless, and the
    // one a software worker waits for must not queue behind it.
    Job* latest = nullptr;
    for (auto& [id, j] : jobs_) {
      if (!j.dropped && !j.asked && !j.delivered && eligible(j.worker)) latest = &j;
    }
    if (latest) {
      best = latest->worker;
      drop(*latest);
    }
  }
  return best;
}

void ClusterLeafSearch::send_job(Job& job, Position& pos, const Move* path) {
  (void)pos;
  job.path.assign(path, path + job.q.ply);
  const cluster::Job m{search_, job.id, job.path, std::uint8_t(job.q.depth), job.q.test};
  workers_[std::size_t(job.worker)].fifo.push_back(job.id);
  job.wall_sent = std::chrono::steady_clock::now();
  ++cstats_.jobs;
  send_to(job.worker, m, &job.arrive);
}

void ClusterLeafSearch::drop(Job& job) {
  job.dropped = true;
  ++stats_.wasted_searches;
  ++cstats_.cancelled;
  send_to(job.worker, Cancel{search_, job.id}, &job.cancel_at);
  // Its answer may already be in, timed as if it ran to its end: the cancel cuts it short, and the
  // jobs behind it on its worker start earlier. (None of them is delivered yet: they end after it.)
  if (!job.timed || job.end <= job.cancel_at) return;
  bool behind = false;
  for (std::uint32_t id : workers_[std::size_t(job.worker)].fifo) {
    Job& j = jobs_.at(id);
    behind |= id == job.id;
    if (!behind || !j.timed) continue;
    cstats_.busy[std::size_t(j.worker)] -= j.end - j.start;
    stats_.busy_clocks -= j.end - j.start;
    j.timed = false;
  }
  settle(job.worker);
}

ClusterLeafSearch::Job* ClusterLeafSearch::find(const Question& q) {
  for (auto& [id, j] : jobs_) {
    if (!j.dropped && !j.consumed && j.q == q) return &j;
  }
  return nullptr;
}

const ClusterLeafSearch::Job* ClusterLeafSearch::find(const Question& q) const {
  for (const auto& [id, j] : jobs_) {
    if (!j.dropped && !j.consumed && j.q == q) return &j;
  }
  return nullptr;
}

void ClusterLeafSearch::ask(Position& pos, const Move* path, int ply, int depth, int test) {
  const Question q{pos.key(), ply, depth, test, sw_worker_};
  if (Job* j = find(q)) {
    j->asked = true;
    return;
  }
  Job& job = jobs_[next_id_];
  job.id = next_id_++;
  job.q = q;
  job.asked = true;
  job.worker = worker_for(true);
  send_job(job, pos, path);
}

void ClusterLeafSearch::prefetch(Position& pos, const Move* path, int ply, int depth, int test, int owner) {
  const Question q{pos.key(), ply, depth, test, sw_worker_};
  if (find(q) || idle_chips() == 0) return;
  Job& job = jobs_[next_id_];
  job.id = next_id_++;
  job.q = q;
  job.owner = owner;
  job.worker = worker_for(false);
  send_job(job, pos, path);
}

void ClusterLeafSearch::cancel(int owner) {
  std::vector<std::uint32_t> mine;
  for (const auto& [id, j] : jobs_) {
    if (j.owner == owner && j.q.worker == sw_worker_ && !j.asked && !j.dropped && !j.delivered) mine.push_back(id);
  }
  for (std::uint32_t id : mine) {
    if (auto it = jobs_.find(id); it != jobs_.end()) drop(it->second);
  }
  // Dropped jobs that are over leave the books.
  for (auto it = jobs_.begin(); it != jobs_.end();) {
    const Job& j = it->second;
    const bool on_fifo =
        std::find(workers_[std::size_t(j.worker)].fifo.begin(), workers_[std::size_t(j.worker)].fifo.end(), j.id) !=
        workers_[std::size_t(j.worker)].fifo.end();
    it = j.dropped && !on_fifo ? jobs_.erase(it) : std::next(it);
  }
}

bool ClusterLeafSearch::ready(Key key, int ply, int depth, int test) const {
  const Job* j = find(Question{key, ply, depth, test, sw_worker_});
  if (!j) throw std::logic_error("ready() for a question not asked");
  return j->delivered;
}

search::LeafSearch::Answer ClusterLeafSearch::answer(Key key, int ply, int depth, int test) {
  Job* j = find(Question{key, ply, depth, test, sw_worker_});
  if (!j || !j->delivered) throw std::logic_error("answer() before the question was answered");
  const cluster::Answer reply = j->reply;
  // Off the books now, or (still behind an earlier job of its worker's, whose end the timeline
  // needs) once settle() takes it off the worker's queue.
  const auto& fifo = workers_[std::size_t(j->worker)].fifo;
  if (std::find(fifo.begin(), fifo.end(), j->id) == fifo.end()) {
    const std::uint32_t id = j->id;
    jobs_.erase(id);
  } else {
    j->consumed = true;
  }
  if (reply.status != cluster::Answer::Status::ANSWERED) {  // too big for a worker: the master splits it
    ++stats_.overflows;
    ++stats_.wasted_searches;
    stats_.wasted_nodes += reply.nodes;
    return {false, 0, true};
  }
  // The worker's expensive results go into the master's table (AIJ 6: workers pass them up), in
  // the order the answers are used, so that the master's tree does not depend on arrival order.
  for (const TableEntry& e : reply.table) {
    table_.store(e.key, e.move, e.score, e.depth_q, search::Bound(e.bound), e.my_credit, e.his_credit);
    ++cstats_.table_entries;
  }
  ++stats_.searches;
  stats_.nodes += reply.nodes;
  return {reply.fail_high, reply.nodes, false};
}

bool ClusterLeafSearch::test(Position& pos, const Move* path, int ply, int depth, int test) {
  ask(pos, path, ply, depth, test);
  while (!ready(pos.key(), ply, depth, test)) {
    if (!step()) throw std::logic_error("a cluster question is out but no worker has a job");
  }
  const Answer a = answer(pos.key(), ply, depth, test);
  overflowed_ = a.overflow;
  last_nodes_ = a.nodes;
  return a.fail_high;
}

void ClusterLeafSearch::pump() {
  while (auto in = link_.receive()) {
    const int w = in->first;
    const auto* reply = std::get_if<cluster::Answer>(&in->second);
    if (!reply)
      throw ClusterError(
          fmt::format("worker {} sent a {} message: workers send only ANSWER", w, type_name(type_of(in->second))));
    if (reply->search != search_ || !workers_[std::size_t(w)].alive) continue;  // an earlier search's, or lost
    auto it = jobs_.find(reply->id);
    if (it == jobs_.end() || it->second.worker != w) continue;  // dropped and gone, or re-assigned
    Job& j = it->second;
    if (j.received) throw ClusterError(fmt::format("worker {} answered job {} twice", w, j.id));
    j.received = true;
    workers_[std::size_t(w)].last_answer = std::chrono::steady_clock::now();
    j.reply = *reply;
    settle(w);
  }
}

void ClusterLeafSearch::settle(int w) {
  Worker& worker = workers_[std::size_t(w)];
  std::uint64_t prev_end = worker.free_at;
  for (std::uint32_t id : worker.fifo) {
    Job& j = jobs_.at(id);
    if (!j.timed) {
      if (!j.received) break;
      j.start = std::max(j.arrive, prev_end);
      j.end = j.cancel_at <= j.start ? j.start : std::min(j.start + j.reply.clocks, j.cancel_at);
      j.answer_at = j.end + (w == 0 ? 0 : config_.network.message_clocks(encode(j.reply).size()));
      j.timed = true;
      cstats_.busy[std::size_t(w)] += j.end - j.start;
      stats_.busy_clocks += j.end - j.start;
    }
    prev_end = j.end;
  }
  // Jobs over and done with leave the worker's queue (a dropped one also the books).
  while (!worker.fifo.empty()) {
    Job& j = jobs_.at(worker.fifo.front());
    if (!j.timed || !(j.dropped || j.delivered)) break;
    worker.free_at = j.end;
    const std::uint32_t id = j.id;  // not a reference into the node erase() frees
    worker.fifo.pop_front();
    if (j.dropped || j.consumed) jobs_.erase(id);
  }
}

bool ClusterLeafSearch::step() {
  for (;;) {
    pump();
    // The earliest answer known, and the earliest any job still out could come back.
    const Job* next = nullptr;
    std::uint64_t bound = kNever;
    bool out = false;
    for (int w = 0; w < int(workers_.size()); ++w) {
      const Worker& worker = workers_[std::size_t(w)];
      if (!worker.alive) continue;
      std::uint64_t prev_end = worker.free_at;
      for (std::uint32_t id : worker.fifo) {
        const Job& j = jobs_.at(id);
        if (!j.timed) {
          const std::uint64_t earliest = std::max(j.arrive, prev_end) + latency(w);
          bound = std::min(bound, earliest);
          // Everything behind it is unknown too, and no earlier.
          for (std::uint32_t later : worker.fifo) out |= !jobs_.at(later).dropped && !jobs_.at(later).delivered;
          break;
        }
        prev_end = j.end;
        if (j.dropped || j.delivered) continue;
        out = true;
        if (!next || j.answer_at < next->answer_at || (j.answer_at == next->answer_at && j.id < next->id)) next = &j;
      }
    }
    if (!out) return false;
    // Strictly earlier: a job still out that ties with it could win the tie on its id.
    if (next && next->answer_at < bound) {
      Job& j = jobs_.at(next->id);
      now_ = std::max(now_, j.answer_at);
      j.delivered = true;
      ++cstats_.jobs_per[std::size_t(j.worker)];
      settle(j.worker);
      return true;
    }
    link_.wait();
    check_deadlines();
  }
}

void ClusterLeafSearch::check_deadlines() {
  const auto wall = std::chrono::steady_clock::now();
  for (int w = 1; w < int(workers_.size()); ++w) {
    if (!workers_[std::size_t(w)].alive) continue;
    for (std::uint32_t id : workers_[std::size_t(w)].fifo) {
      const Job& j = jobs_.at(id);
      if (j.received) continue;
      // The job started when it was sent or when the one before it was answered.
      const auto started = std::max(j.wall_sent, workers_[std::size_t(w)].last_answer);
      if (std::chrono::duration<double>(wall - started).count() > config_.worker_timeout_s) {
        lose_worker(w);
        break;
      }
      break;  // only the oldest job out counts: the ones behind it wait for it
    }
  }
}

void ClusterLeafSearch::lose_worker(int w) {
  Worker& worker = workers_[std::size_t(w)];
  // On stderr: stdout carries the search's result (JSON).
  fmt::print(stderr, "deepblue cluster: worker {} has not answered a job in {} s; its jobs go to the others\n", w,
             config_.worker_timeout_s);
  worker.alive = false;
  cstats_.lost.push_back(w);
  std::vector<std::uint32_t> ids(worker.fifo.begin(), worker.fifo.end());
  worker.fifo.clear();
  for (std::uint32_t id : ids) {
    Job old = jobs_.at(id);
    jobs_.erase(id);
    if (old.dropped || old.delivered) continue;
    // Asked again of another worker, from now.
    Job& job = jobs_[next_id_];
    job = old;
    job.id = next_id_++;
    job.received = job.timed = job.delivered = false;
    job.cancel_at = kNever;
    job.worker = worker_for(job.asked);
    workers_[std::size_t(job.worker)].fifo.push_back(job.id);
    job.wall_sent = std::chrono::steady_clock::now();
    ++cstats_.reassigned;
    send_to(job.worker, cluster::Job{search_, job.id, job.path, std::uint8_t(job.q.depth), job.q.test}, &job.arrive);
  }
}

search::LeafStats ClusterLeafSearch::stats() const {
  search::LeafStats s = stats_;
  s.parallel_clocks = now_;
  return s;
}

void ClusterLeafSearch::software_nodes(std::uint64_t nodes) {
  stats_.software_nodes += nodes;
  if (config_.host_node_ns == 0 || nodes == 0) return;
  constexpr std::uint64_t kThirdsPerClock = 125;  // a chip clock is 125/3 ns
  host_owed_ += nodes * config_.host_node_ns * 3;
  const std::uint64_t clocks = host_owed_ / kThirdsPerClock;
  host_owed_ %= kThirdsPerClock;
  stats_.host_clocks += clocks;
  now_ += clocks;
}

}  // namespace db::cluster
