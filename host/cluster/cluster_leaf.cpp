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
    : link_(link), config_(config), table_(table), workers_(std::size_t(link.workers())), job_depth_(config.depth) {
  if (workers_.empty()) throw std::invalid_argument("a cluster needs at least the master's own node");
  if (config_.depth < 1 || config_.depth > 60)
    throw std::invalid_argument(fmt::format("cluster job depth {} out of range 1-60", config_.depth));
  if (config_.jobs_per_node < 1 || config_.jobs_per_node > 256)
    throw std::invalid_argument(fmt::format("jobs per node {} out of range 1-256", config_.jobs_per_node));
  if (config_.network.message_clocks(0) == 0 || config_.own_node.message_clocks(0) == 0)
    throw std::invalid_argument(
        "the switch and the master's own node need a latency above zero: it is the simulation's lookahead");
  cstats_.busy.assign(workers_.size(), 0);
  cstats_.jobs_per.assign(workers_.size(), 0);
  cstats_.chips.assign(workers_.size(), NodeChips{});
  pending_.assign(workers_.size(), 0);
  unanswered_.assign(workers_.size(), 0);
  unanswered_live_.assign(workers_.size(), 0);
}

int ClusterLeafSearch::chips() const {
  // What the job engine may keep busy at once: every node's jobs. Questions queue on a node rather
  // than wait for a free one, so more software workers than this never deadlock.
  int alive = 0;
  for (const Worker& w : workers_) alive += w.alive;
  return alive * config_.jobs_per_node;
}

int ClusterLeafSearch::idle_chips() const {
  int idle = 0;
  for (int w = 0; w < int(workers_.size()); ++w) {
    if (workers_[std::size_t(w)].alive) idle += std::max(0, config_.jobs_per_node - pending(w));
  }
  return idle;
}

void ClusterLeafSearch::new_search(const Position& root, bool strive_for_draw) {
  finish();
  ++search_;
  jobs_.clear();
  undelivered_.clear();
  live_.clear();
  answers_in_.clear();
  cancellable_.clear();
  std::fill(pending_.begin(), pending_.end(), 0);
  std::fill(unanswered_.begin(), unanswered_.end(), 0);
  std::fill(unanswered_live_.begin(), unanswered_live_.end(), 0);
  for (Worker& w : workers_) {
    w.clock = w.granted = 0;
    w.awaiting = false;
  }
  now_ = 0;
  host_owed_ = 0;
  stats_ = {};
  root_ = root;
  const NewSearch message = new_search_of(search_, root, strive_for_draw);
  for (int w = 0; w < int(workers_.size()); ++w) {
    if (workers_[std::size_t(w)].alive) send_to(w, message);
  }
}

void ClusterLeafSearch::new_iteration(int depth) {
  job_depth_ = config_.master_plies > 0
                   ? std::clamp(depth - config_.master_plies, std::min(config_.min_depth, config_.depth), config_.depth)
                   : config_.depth;
}

void ClusterLeafSearch::finish() {
  // The round of grants still out first: under MPI the master may have taken its last answer before
  // every node's CLOCK was in (the own node's, in process, comes in at once), and the nodes' chip
  // counters must be those of the same last CLOCK in any run.
  for (;;) {
    pump();
    if (!round_out()) break;
    link_.wait();
    check_deadlines(false);  // the search is over: a hung node's jobs are not asked again
  }
  for (auto it = jobs_.begin(); it != jobs_.end();) {
    Job& job = it->second;
    if (job.delivered) {  // answered, asked ahead, never taken: counted once, then gone
      cstats_.unused_nodes += job.reply.nodes;
      unlist(job);
      it = jobs_.erase(it);
      continue;
    }
    if (!job.dropped && workers_[std::size_t(job.worker)].alive) drop(job);
    ++it;
  }
}

std::uint64_t ClusterLeafSearch::send_to(int w, const Message& m) {
  const std::vector<std::uint8_t> bytes = encode(m);
  ++cstats_.messages;
  cstats_.bytes += bytes.size();
  link_.send(w, m);
  return now_ + link_to(w).message_clocks(bytes.size());
}

int ClusterLeafSearch::home_of(const Question& q, const Move* path) const {
  // The root move's subtree, whatever the iteration: the same node sees a subtree's jobs as the
  // iterations deepen (a job's root moves a ply down each time) and every round of a bisection. The
  // root itself (an early iteration, shallower than the job depth) is the master's own node's (AIJ
  // 6.2: the master searches the early iterations on its own chips).
  if (q.ply == 0) return 0;
  return int((std::uint64_t(path[0].raw()) * 0x9E3779B97F4A7C15ull >> 20) % workers_.size());
}

int ClusterLeafSearch::worker_for(const Question& q, const Move* path, bool asked) {
  int best = -1;
  for (int w = 0; w < int(workers_.size()); ++w) {
    if (workers_[std::size_t(w)].alive && (best < 0 || pending(w) < pending(best))) best = w;
  }
  if (best < 0) throw std::logic_error("no worker left, not even the master's own node");
  const int home = home_of(q, path);
  if (config_.affinity && workers_[std::size_t(home)].alive && pending(home) < config_.jobs_per_node) best = home;
  if (asked && pending(best) >= config_.jobs_per_node) {
    // Every node is full: the latest question asked ahead is the likeliest to be useless, and the
    // one a software worker waits for must not queue behind it.
    Job* latest = nullptr;
    for (auto it = undelivered_.rbegin(); it != undelivered_.rend() && !latest; ++it) {
      Job* j = it->second;
      if (!j->dropped && !j->asked && workers_[std::size_t(j->worker)].alive) latest = j;
    }
    if (latest) {
      best = latest->worker;
      drop(*latest);
    }
  }
  if (best == home) ++cstats_.at_home;
  return best;
}

ClusterLeafSearch::Job& ClusterLeafSearch::new_job(const Question& q, int owner, bool asked, const Move* path,
                                                   Credits credits) {
  Job& job = jobs_[next_id_];
  job.id = next_id_++;
  job.q = q;
  job.credits = credits;
  job.owner = owner;
  job.asked = asked;
  job.path.assign(path, path + q.ply);
  job.worker = worker_for(q, path, asked);
  ++pending_[std::size_t(job.worker)];
  ++unanswered_[std::size_t(job.worker)];
  ++unanswered_live_[std::size_t(job.worker)];
  live_[q] = job.id;
  undelivered_[job.id] = &job;
  if (!asked) cancellable_[{q.worker, owner}].insert(job.id);
  return job;
}

void ClusterLeafSearch::send_job(Job& job) {
  cluster::Job m{search_, job.id, job.path, std::uint8_t(job.q.depth), job.q.test, 0, {}};
  if (job.credits.mine < 0 || job.credits.his < 0 || job.credits.mine > kMaxJobCredit ||
      job.credits.his > kMaxJobCredit)
    throw std::logic_error(
        fmt::format("a job's root credits {} and {} are not cashed in", job.credits.mine, job.credits.his));
  m.my_credit = std::uint8_t(job.credits.mine);
  m.his_credit = std::uint8_t(job.credits.his);
  if (config_.job_table > 0 && job.worker != 0) {
    Position pos = root_;
    for (Move mv : job.path) {
      if (mv.is_none())
        pos.make_null();
      else
        pos.make_move(mv);
    }
    if (pos.key() != job.q.key) throw std::logic_error("a job's path does not lead to its question's position");
    m.table = table_entries(table_, pos, std::min(config_.job_table, kMaxTableEntries));
    cstats_.table_entries_down += m.table.size();
  }
  m.arrive = now_ + link_to(job.worker).message_clocks(encode(m).size());
  ++cstats_.jobs;
  send_to(job.worker, m);
}

void ClusterLeafSearch::drop(Job& job) {
  unlist(job);
  uncancellable(job);
  if (!job.delivered) {
    --pending_[std::size_t(job.worker)];
    if (job.received)
      undeliver(job);  // nothing more to wait for: its answer is in and will not be taken
    else
      --unanswered_live_[std::size_t(job.worker)];  // still unanswered_: its node owes an answer
  }
  // An answer already in counts now; one still on its way when it comes (pump). Counted either
  // way, the figure does not depend on when the answer arrived in wall time (nodes on threads, MPI).
  if (job.received) cstats_.cancelled_nodes += job.reply.nodes;
  job.dropped = true;
  ++stats_.wasted_searches;
  ++cstats_.cancelled;
  Cancel c{search_, job.id, 0};
  c.at = now_ + link_to(job.worker).message_clocks(encode(c).size());
  send_to(job.worker, c);
}

void ClusterLeafSearch::unlist(const Job& job) {
  if (auto it = live_.find(job.q); it != live_.end() && it->second == job.id) live_.erase(it);
}

void ClusterLeafSearch::uncancellable(const Job& job) {
  const auto it = cancellable_.find({job.q.worker, job.owner});
  if (it == cancellable_.end()) return;
  it->second.erase(job.id);
  if (it->second.empty()) cancellable_.erase(it);
}

void ClusterLeafSearch::undeliver(Job& job) {
  if (undelivered_.erase(job.id) == 0) return;
  const std::size_t w = std::size_t(job.worker);
  if (!job.received) {
    --unanswered_[w];
    if (!job.dropped) --unanswered_live_[w];
  } else if (!job.dropped) {
    answers_in_.erase({job.answer_at, job.id});
  }
  uncancellable(job);
}

ClusterLeafSearch::Job* ClusterLeafSearch::find(const Question& q) {
  const auto it = live_.find(q);
  return it == live_.end() ? nullptr : &jobs_.at(it->second);
}

const ClusterLeafSearch::Job* ClusterLeafSearch::find(const Question& q) const {
  const auto it = live_.find(q);
  return it == live_.end() ? nullptr : &jobs_.at(it->second);
}

void ClusterLeafSearch::ask(Position& pos, const Move* path, int ply, int depth, int test) {
  const Question q{pos.key(), ply, depth, test, sw_worker_};
  if (Job* j = find(q)) {
    j->asked = true;
    uncancellable(*j);
    return;
  }
  send_job(new_job(q, -1, true, path, next_credits_));
}

void ClusterLeafSearch::prefetch(Position& pos, const Move* path, int ply, int depth, int test, int owner) {
  const Question q{pos.key(), ply, depth, test, sw_worker_};
  if (find(q) || idle_chips() == 0) return;
  send_job(new_job(q, owner, false, path, next_credits_));
}

void ClusterLeafSearch::cancel(int owner) {
  const auto it = cancellable_.find({sw_worker_, owner});
  if (it == cancellable_.end()) return;
  const std::vector<std::uint32_t> ids(it->second.begin(), it->second.end());  // drop() changes the set
  for (std::uint32_t id : ids) drop(jobs_.at(id));
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
  const std::uint32_t id = j->id;
  unlist(*j);
  jobs_.erase(id);
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
    Worker& worker = workers_[std::size_t(w)];
    if (const auto* c = std::get_if<Clock>(&in->second)) {
      if (c->search != search_ || !worker.alive) continue;
      worker.clock = std::max(worker.clock, c->clock);
      worker.granted = std::min(worker.granted, worker.clock);  // stopped early, at an answer
      worker.awaiting = false;
      cstats_.chips[std::size_t(w)] = c->chips;
      continue;
    }
    const auto* reply = std::get_if<cluster::Answer>(&in->second);
    if (!reply)
      throw ClusterError(fmt::format("worker {} sent a {} message: workers send only ANSWER and CLOCK", w,
                                     type_name(type_of(in->second))));
    if (reply->search != search_ || !worker.alive) continue;  // an earlier search's, or lost
    auto it = jobs_.find(reply->id);
    if (it == jobs_.end() || it->second.worker != w) continue;  // re-assigned
    Job& j = it->second;
    if (j.received) throw ClusterError(fmt::format("worker {} answered job {} twice", w, j.id));
    cstats_.busy[std::size_t(w)] += reply->finish - reply->start;
    stats_.busy_clocks += reply->finish - reply->start;
    if (j.dropped) {
      cstats_.cancelled_nodes += reply->nodes;
      undeliver(j);
      jobs_.erase(it);
      continue;
    }
    j.received = true;
    j.reply = *reply;
    j.answer_at = reply->finish + link_to(w).message_clocks(encode(*reply).size());
    --unanswered_[std::size_t(w)];
    --unanswered_live_[std::size_t(w)];
    answers_in_.insert({j.answer_at, j.id});
  }
}

bool ClusterLeafSearch::step() {
  const int n = int(workers_.size());
  for (;;) {
    pump();
    // The earliest answer in, and the earliest each node could still send one (its reach).
    Job* next = answers_in_.empty() ? nullptr : &jobs_.at(answers_in_.begin()->second);
    bool out = next != nullptr;
    std::vector<std::uint64_t> reach(workers_.size(), kNever);
    for (int w = 0; w < n; ++w) {
      if (unanswered_live_[std::size_t(w)] == 0) continue;
      out = true;
      reach[std::size_t(w)] = workers_[std::size_t(w)].clock + link_to(w).message_clocks(0);
    }
    if (!out) return false;
    // The bound, and the bound without its own node (the second lowest reach), for the grants that
    // stop at their node's first answer.
    int first = -1;
    std::uint64_t bound = kNever, second = kNever;
    for (int w = 0; w < n; ++w) {
      const std::uint64_t r = reach[std::size_t(w)];
      if (r < bound) {
        second = bound;
        bound = r;
        first = w;
      } else if (r < second) {
        second = r;
      }
    }
    if (next && next->answer_at < bound) {
      Job& j = *next;
      now_ = std::max(now_, j.answer_at);
      undeliver(j);
      j.delivered = true;
      --pending_[std::size_t(j.worker)];
      ++cstats_.jobs_per[std::size_t(j.worker)];
      return true;
    }
    if (round_out()) {  // a round of grants is out: all its replies first (the same rounds in any run)
      link_.wait();
      check_deadlines();
      continue;
    }
    // A new round: nothing can reach a node before the next answer can reach the master, plus the
    // node's latency (the master's own node is nearer than the others). A node told to stop at its
    // first answer need not count its own answers: the master acts on one only after it has arrived,
    // and the node has stopped by then.
    const std::uint64_t answer_in = next ? next->answer_at : kNever;
    bool granted = false;
    // The master's own node last: a grant to it runs it in this process before send_to returns, so
    // the other ranks' grants go out first and they run meanwhile (the order changes no figure: each
    // round's grants are computed before any of them runs).
    for (int k = 1; k <= n; ++k) {
      const int w = k % n;
      Worker& worker = workers_[std::size_t(w)];
      if (!worker.alive || unanswered_[std::size_t(w)] == 0) continue;
      const bool stop_at_answer = w == 0 && config_.own_node_to_answer;
      const std::uint64_t latency = link_to(w).message_clocks(0);
      std::uint64_t sent = std::min(answer_in, stop_at_answer && w == first ? second : bound);
      sent = std::min(sent, worker.clock + kMaxGrantStep);
      const std::uint64_t until = sent + latency;
      if (until <= worker.granted) continue;
      // A node whose time does not hold the master back (its clock plus its latency is past the
      // bound) moves on in steps of half its latency, not at each short step of the master's own
      // node (2 us): every grant is a message and a wait for its CLOCK. Where the grants cut a
      // node's time changes only when a job arriving between two of its chip quanta starts; the
      // rounds, and so the run, are the same every time.
      if (worker.clock + latency > bound && until < worker.granted + latency / 2) continue;
      worker.granted = until;
      worker.awaiting = true;
      worker.granted_wall = std::chrono::steady_clock::now();
      ++cstats_.grants;
      granted = true;
      send_to(w, Grant{search_, until, stop_at_answer});
    }
    if (!granted) throw std::logic_error("cluster: a job is out but no node can be given more time");
  }
}

bool ClusterLeafSearch::round_out() const {
  return std::any_of(workers_.begin(), workers_.end(), [](const Worker& w) { return w.alive && w.awaiting; });
}

void ClusterLeafSearch::check_deadlines(bool reassign) {
  const auto wall = std::chrono::steady_clock::now();
  for (int w = 0; w < int(workers_.size()); ++w) {
    const Worker& worker = workers_[std::size_t(w)];
    if (w == 0 || !worker.alive || !worker.awaiting) continue;  // worker 0 is in this process
    if (std::chrono::duration<double>(wall - worker.granted_wall).count() > config_.worker_timeout_s)
      lose_worker(w, reassign);
  }
}

void ClusterLeafSearch::lose_worker(int w, bool reassign) {
  // On stderr: stdout carries the search's result (JSON).
  fmt::print(stderr, "deepblue cluster: worker {} has not answered in {} s; {}\n", w, config_.worker_timeout_s,
             reassign ? "its jobs go to the others" : "the search is over without it");
  workers_[std::size_t(w)].alive = false;
  workers_[std::size_t(w)].awaiting = false;
  cstats_.lost.push_back(w);
  // Its answers already delivered stay for the software workers to take; the rest is asked again.
  std::vector<std::uint32_t> ids;
  for (const auto& [id, j] : undelivered_) {
    if (j->worker == w) ids.push_back(id);
  }
  for (std::uint32_t id : ids) {
    Job& gone = jobs_.at(id);
    unlist(gone);
    undeliver(gone);
    const Job old = std::move(gone);
    jobs_.erase(id);
    if (old.dropped) continue;
    --pending_[std::size_t(w)];
    if (!reassign) continue;
    // Asked again of another worker, from now.
    Job& job = new_job(old.q, old.owner, old.asked, old.path.data(), old.credits);
    ++cstats_.reassigned;
    send_job(job);
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
