#include "search/chip_leaf_search.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <functional>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "chip/chip_model.h"
#include "chip/eval_generator.h"
#include "search/score.h"

namespace db::search {

namespace {

// The chip counts mates from its own root: -(MATE_SCORE - plies from there). The software counts
// them from its root, `ply` plies higher up, so a mate-range test value moves by ply.
int chip_test_value(int test, int ply) {
  const int t = test >= kMateBound ? test + ply : test <= -kMateBound ? test - ply : test;
  return std::clamp(t, -32767, 32767);
}

}  // namespace

namespace {

std::vector<std::unique_ptr<chip::SearchChip>> in_process(std::vector<std::unique_ptr<chip::ChipClient>> clients) {
  std::vector<std::unique_ptr<chip::SearchChip>> chips;
  for (auto& c : clients) chips.push_back(std::make_unique<chip::LocalSearchChip>(std::move(c)));
  return chips;
}

}  // namespace

ChipLeafSearch::ChipLeafSearch(std::vector<std::unique_ptr<chip::ChipClient>> chips, int depth,
                               chip::SearchParams params, std::shared_ptr<ChipTimeline> timeline)
    : ChipLeafSearch(in_process(std::move(chips)), depth, params, std::move(timeline)) {}

ChipLeafSearch::ChipLeafSearch(std::vector<std::unique_ptr<chip::SearchChip>> chips, int depth,
                               chip::SearchParams params, std::shared_ptr<ChipTimeline> timeline)
    : chips_(std::move(chips)),
      running_(chips_.size(), false),
      alive_(chips_.size(), true),
      in_run_(chips_.size(), false),
      fallback_([] {
        return std::make_unique<chip::LocalSearchChip>(
            std::make_unique<chip::ChipClient>(std::make_unique<chip::ChipModel>()));
      }),
      depth_(depth),
      params_(params),
      timeline_(std::move(timeline)) {
  if (chips_.empty()) throw std::invalid_argument("a chip leaf search needs at least one chip");
  if (depth < 1 || depth > 8) throw std::invalid_argument(fmt::format("chip depth {} out of range 1-8", depth));
  if (timeline_) {
    for (auto& c : chips_) {
      if (!c->client()) throw std::invalid_argument("a chip timeline needs chips in this process");
    }
    // Its status masks (ChipTimeline::idle_chips) have a bit per chip; the chips of a timeline are
    // never lost, so none is added later (add_fallback_chip).
    if (chips_.size() > ChipTimeline::kMaxChips) {
      throw std::invalid_argument(
          fmt::format("a chip timeline drives at most {} chips (a bit each in its status word), not {}",
                      ChipTimeline::kMaxChips, chips_.size()));
    }
  }
}

void ChipLeafSearch::new_search(const Position& root, bool strive_for_draw) {
  strive_for_draw_ = strive_for_draw;
  // Questions the last search asked ahead and never asked for may still run: they are of no use now.
  for (Job& j : jobs_) {
    if (j.chip >= 0) abort_job(j);
  }
  for (std::size_t i = 0; i < chips_.size(); ++i) {
    if (running_[i]) throw std::logic_error("new_search while a chip is searching");
  }
  jobs_.clear();
  stats_ = {};
  host_owed_ = 0;
  weights_ = chip::weight_writes(
      chip::generate_weights(root, generator_params_ ? *generator_params_ : chip::GeneratorParams::defaults()));
  generation_ = chip::weights_generation(weights_);
  if (timeline_) timeline_->download_started();
  bool loaded = true;
  for (std::size_t i = 0; i < chips_.size(); ++i)
    loaded &= !alive_[i] || chips_[i]->weights_generation() == generation_;
  if (!loaded && timeline_ && timeline_->can_broadcast()) {
    // The cards broadcast them (a timeline's chips are all in this process, none lost).
    for (const chip::WriteBlock& b : weights_) timeline_->broadcast(b.addr, b.data.data(), b.data.size());
    for (auto& c : chips_) c->weights_broadcast(generation_);
  }
  for (std::size_t i = 0; i < chips_.size(); ++i) {
    if (alive_[i]) on_chip(i, [&](chip::SearchChip& c) { c.load_weights(weights_, generation_); });
  }
  if (timeline_) {
    timeline_->search_started();
    search_start_ = timeline_->now_clocks();
  }
}

LeafStats ChipLeafSearch::stats() const {
  LeafStats s = stats_;
  if (timeline_) s.parallel_clocks = timeline_->now_clocks() - search_start_;
  return s;
}

int ChipLeafSearch::chips() const { return int(std::count(alive_.begin(), alive_.end(), true)); }

int ChipLeafSearch::idle_chips() const {
  int idle = 0;
  for (std::size_t i = 0; i < chips_.size(); ++i) idle += alive_[i] && !running_[i];
  return idle;
}

ChipLeafSearch::Job* ChipLeafSearch::find(const Question& q) {
  for (Job& j : jobs_) {
    if (!j.dropped && j.question == q) return &j;
  }
  return nullptr;
}

const ChipLeafSearch::Job* ChipLeafSearch::find(const Question& q) const {
  for (const Job& j : jobs_) {
    if (!j.dropped && j.question == q) return &j;
  }
  return nullptr;
}

ChipLeafSearch::Job* ChipLeafSearch::job_on(std::size_t chip) {
  for (Job& j : jobs_) {
    if (!j.dropped && j.chip == int(chip)) return &j;
  }
  return nullptr;
}

void ChipLeafSearch::purge() {
  jobs_.erase(std::remove_if(jobs_.begin(), jobs_.end(), [](const Job& j) { return j.dropped; }), jobs_.end());
}

template <class Op>
bool ChipLeafSearch::on_chip(std::size_t chip, Op&& op) {
  try {
    op(*chips_[chip]);
    return true;
  } catch (const chip::ChipLost& e) {
    drop_chip(chip, e.what());
    return false;
  }
}

void ChipLeafSearch::drop_chip(std::size_t chip, const std::string& why) {
  alive_[chip] = false;
  running_[chip] = false;
  in_run_[chip] = false;
  ++stats_.chips_lost;
  Job* job = job_on(chip);
  spdlog::warn("chip leaf search: chip {} dropped ({} left): {}{}", chip, chips(), why,
               job ? (job->asked ? "; its search is run again" : "; its search asked ahead is dropped") : "");
  if (!job) return;
  job->chip = -1;
  if (job->asked) {
    ++stats_.reruns;
    place(*job);
  } else {
    job->dropped = true;
    ++stats_.wasted_searches;
  }
}

std::size_t ChipLeafSearch::add_fallback_chip() {
  // A timeline's chips are in this process and never lost; a fallback would not be on its cards.
  if (timeline_) throw std::logic_error("a chip leaf search on a timeline lost a chip");
  chips_.push_back(fallback_());
  running_.push_back(false);
  alive_.push_back(true);
  in_run_.push_back(false);
  const std::size_t chip = chips_.size() - 1;
  spdlog::warn("chip leaf search: no chip free for a question a worker waits for: chip {} in this process takes over",
               chip);
  chips_[chip]->load_weights(weights_, generation_);
  return chip;
}

ChipLeafSearch::Job& ChipLeafSearch::add_job(Position& pos, const Move* path, const Question& q, int owner) {
  // History: the moves since the last irreversible one (and since any null move, which a chip
  // cannot make), as far as the stack leaves room for the search.
  const int room = 31 - q.depth;
  const int limit = std::min({kMaxHistory, room, pos.halfmove_clock(), q.ply});
  int history = 0;
  while (history < limit && !path[q.ply - 1 - history].is_none()) ++history;
  for (int k = 0; k < history; ++k) pos.unmake_move(path[q.ply - 1 - k]);
  jobs_.emplace_back();
  Job& entry = jobs_.back();
  entry.question = q;
  entry.owner = owner;
  chip::SearchJob& job = entry.work;
  job.start = chip::ChipPosition::of(pos);
  for (int k = history - 1; k >= 0; --k) {
    const Move m = path[q.ply - 1 - k];
    pos.make_move(m);
    job.history.push_back(chip::to_chip_move(m));
  }
  chip::SearchParams& params = job.params;
  params = params_;
  params.depth = q.depth;
  // A one-ply search split in software would ask one-ply questions again: no limit there.
  params.node_limit = q.depth >= 2 ? node_limit_ : 0;
  // Offset searches at the chip's root (when asked for) one ply shallower than the question.
  if (params.offset_tests()) params.offset_depth = std::max(1, q.depth - 1);
  // The question is a two-part score (score.h); a tie-breaker at the bottom of the software's
  // range stands for the chip's whole range (the software clamps the chip's tie-breakers).
  params.test_value = chip_test_value(value_of(q.test), q.ply);
  params.test_tie = tie_of(q.test) <= -kMaxTie ? -32767 : tie_of(q.test);
  // Repetitions on the software's scale (AIJ 4.3; Searcher::repetition_tie): the software counts
  // the moves until a repetition from its root, kMaxTie + 1 - ply, the chip from its own root
  // q.ply plies down, base - p; so the base is the software's count at the chip's root, and the
  // attitude is the software root side's seen by the side to move at the chip's root. (Beyond
  // ply 96 the chip's count stops at 32 where the software's goes on down to 1; a question at the
  // root, ply 0, would count 128, which the software clamps to kMaxTie anyway.)
  if (params.repetition) {
    params.repetition_tie = true;
    params.strive_for_draw = strive_for_draw_ != (q.ply % 2 == 1);
    params.repetition_tie_base = std::clamp(kMaxTie + 1 - q.ply, 32, kMaxTie);
  }
  return entry;
}

bool ChipLeafSearch::try_start(std::size_t chip, Job& job) {
  if (!on_chip(chip, [&](chip::SearchChip& c) { c.start(job.work); })) return false;
  running_[chip] = true;
  job.chip = int(chip);
  job.sequence = ++started_;
  return true;
}

void ChipLeafSearch::place(Job& job) {
  while (!try_start(chip_for_question(), job)) {}
}

void ChipLeafSearch::collect(Job& job, const chip::SearchResult& r) {
  if (!r.finished && r.node_limit && !r.aborted) {
    running_[std::size_t(job.chip)] = false;
    job.chip = -1;
    job.overflow = true;
    job.nodes = r.nodes;
    stats_.busy_clocks += r.cycles;
    return;
  }
  if (!r.finished) {
    throw std::runtime_error(
        fmt::format("chip {} stopped without a bound (node limit {}, aborted {})", job.chip, r.node_limit, r.aborted));
  }
  running_[std::size_t(job.chip)] = false;
  job.chip = -1;
  job.fail_high = r.fail_high;
  job.nodes = r.nodes;
  stats_.busy_clocks += r.cycles;
}

bool ChipLeafSearch::advance() {
  if (std::find(running_.begin(), running_.end(), true) == running_.end()) return false;
  if (timeline_) {
    // On a timeline the chips run while the host polls them (chips in this process: none is lost).
    timeline_->between_polls();
    std::uint64_t running = 0, idle = 0;
    // At most ChipTimeline::kMaxChips chips (the constructor): every chip has its bit.
    for (std::size_t c = 0; c < chips_.size(); ++c) running |= std::uint64_t(running_[c]) << c;
    const bool from_cards = timeline_->idle_chips(running, idle);
    for (Job& j : jobs_) {
      if (j.chip < 0 || j.dropped) continue;
      // A chip its card shows idle is confirmed by its STATUS (busy also covers a slow evaluation).
      if (from_cards && !(idle >> j.chip & 1)) continue;
      chip::ChipClient& client = *chips_[std::size_t(j.chip)]->client();
      if (!client.busy()) collect(j, client.search_result());
    }
    return true;
  }
  run_others(1);
  stats_.parallel_clocks += kQuantum + 1;  // and the clock of the status poll
  return true;
}

void ChipLeafSearch::run_others(std::uint64_t quanta) {
  // Runs begin on every chip, then end: chips behind links run at the same time. A job moved to
  // another chip by a loss meanwhile waits for the next round.
  std::vector<std::size_t> begun;
  for (std::size_t c = 0; c < chips_.size(); ++c) {
    if (!running_[c]) continue;
    if (on_chip(c, [&](chip::SearchChip& chip) { chip.begin_run(quanta); })) {
      in_run_[c] = true;
      begun.push_back(c);
    }
  }
  for (std::size_t c : begun) {
    if (!in_run_[c]) continue;  // lost meanwhile
    chip::RunOutcome out;
    if (!on_chip(c, [&](chip::SearchChip& chip) { out = chip.end_run(); })) continue;
    in_run_[c] = false;
    if (out.done) collect(*job_on(c), out.result);
  }
}

void ChipLeafSearch::software_nodes(std::uint64_t nodes) {
  stats_.software_nodes += nodes;  // counted with or without a cost model
  if (host_node_ns_ == 0 || nodes == 0) return;
  // A chip clock is 125/3 ns (24 MHz): the time is kept in thirds of a nanosecond, so that no
  // fraction of a clock is lost between calls.
  constexpr std::uint64_t kThirdsPerClock = 125;
  host_owed_ += nodes * host_node_ns_ * 3;
  if (timeline_) {
    const std::uint64_t clocks = host_owed_ / kThirdsPerClock;
    host_owed_ %= kThirdsPerClock;
    stats_.host_clocks += clocks;
    timeline_->host_computes(clocks);
    return;
  }
  // Without a timeline the host's time passes in the quanta of its polls: every running chip runs
  // as many quanta (or until its search ends) while the host computes.
  const std::uint64_t quanta = host_owed_ / (kThirdsPerClock * (kQuantum + 1));
  host_owed_ %= kThirdsPerClock * (kQuantum + 1);
  if (quanta == 0) return;
  stats_.host_clocks += quanta * (kQuantum + 1);
  stats_.parallel_clocks += quanta * (kQuantum + 1);
  if (std::find(running_.begin(), running_.end(), true) != running_.end()) run_others(quanta);
}

void ChipLeafSearch::idle_until(std::uint64_t clocks) {
  if (std::find(running_.begin(), running_.end(), true) != running_.end())
    throw std::logic_error("idle_until() while a chip is searching");
  const std::uint64_t now = stats().parallel_clocks;
  if (clocks <= now) return;
  if (timeline_) {
    timeline_->host_computes(clocks - now);  // no chip runs: only the host's clock moves
  } else {
    stats_.parallel_clocks = clocks;
  }
}

void ChipLeafSearch::set_threads(int threads) {
  if (threads < 1) throw std::invalid_argument(fmt::format("chip threads {}: at least 1", threads));
  threads_ = threads > 1 ? std::make_unique<ChipThreads>(threads) : nullptr;
}

bool ChipLeafSearch::can_run_concurrently() const {
  if (!threads_ || timeline_) return false;
  int running = 0;
  for (std::size_t c = 0; c < chips_.size(); ++c) {
    if (!running_[c]) continue;
    if (!chips_[c]->client()) return false;  // behind a link: its server clocks it
    ++running;
  }
  return running > 1;
}

void ChipLeafSearch::run_until_answered(Job& job) {
  if (timeline_) {
    while (job.chip >= 0) advance();
    return;
  }
  if (can_run_concurrently()) {
    run_concurrently(job);
    return;
  }
  // A lost chip moves the job to another chip (drop_chip): run it there.
  chip::RunOutcome out;
  for (;;) {
    const std::size_t c = std::size_t(job.chip);
    if (!on_chip(c, [](chip::SearchChip& chip) { chip.begin_run(0); })) continue;
    if (on_chip(c, [&](chip::SearchChip& chip) { out = chip.end_run(); })) break;
  }
  if (!out.done) throw std::logic_error("a chip run without a budget came back unfinished");
  collect(job, out.result);
  // The other chips ran while the host waited: each as many quanta, or until its search ended.
  run_others(out.quanta);
  stats_.parallel_clocks += out.quanta * (kQuantum + 1);
}

void ChipLeafSearch::run_concurrently(Job& job) {
  // The waited chip runs on this thread quantum by quantum and publishes how many it has run. Every
  // other running chip is run by whichever thread claims it, never past the waited chip's count, and
  // stops at its final count (or when its own search ends). So each chip runs exactly the quanta it
  // runs in the sequential order (run_until_answered), and the answers, counts and clocks are the
  // same, only sooner. A thread that finds every chip it could run caught up with the waited one
  // yields and looks again; this thread joins them once the waited chip is done.
  const std::size_t waited = std::size_t(job.chip);
  struct Other {
    std::size_t chip = 0;
    std::uint64_t quanta = 0;
    chip::RunOutcome out;
    std::exception_ptr error;
    std::atomic<bool> claimed{false};
    std::atomic<bool> finished{false};
  };
  std::vector<std::size_t> other_chips;
  for (std::size_t c = 0; c < chips_.size(); ++c) {
    if (running_[c] && c != waited) other_chips.push_back(c);
  }
  std::vector<Other> others(other_chips.size());
  for (std::size_t i = 0; i < others.size(); ++i) others[i].chip = other_chips[i];
  std::atomic<std::uint64_t> waited_quanta{0};
  std::atomic<bool> waited_ended{false};  // waited_quanta is final
  chip::RunOutcome out;
  std::exception_ptr waited_error;

  // Runs o while it is behind the waited chip; true when it ran a quantum.
  auto run_other = [&](Other& o) {
    bool ran = false;
    try {
      chip::SearchChip& chip = *chips_[o.chip];
      for (;;) {
        const bool final = waited_ended.load(std::memory_order_acquire);
        if (o.quanta >= waited_quanta.load(std::memory_order_acquire)) {
          if (final) o.finished.store(true, std::memory_order_release);
          break;
        }
        chip.begin_run(1);
        const chip::RunOutcome one = chip.end_run();
        ++o.quanta;
        ran = true;
        if (one.done) {
          o.out = one;
          o.finished.store(true, std::memory_order_release);
          break;
        }
      }
    } catch (...) {
      o.error = std::current_exception();
      o.finished.store(true, std::memory_order_release);
    }
    o.out.quanta = o.quanta;
    return ran;
  };
  auto run_others_loop = [&] {
    for (;;) {
      bool all_finished = true, ran = false;
      for (Other& o : others) {
        if (o.finished.load(std::memory_order_acquire)) continue;
        all_finished = false;
        bool expected = false;
        if (!o.claimed.compare_exchange_strong(expected, true, std::memory_order_acq_rel)) continue;
        ran |= run_other(o);
        o.claimed.store(false, std::memory_order_release);
      }
      if (all_finished) return;
      if (!ran) std::this_thread::yield();
    }
  };
  auto run_waited = [&] {
    try {
      chip::SearchChip& chip = *chips_[waited];
      for (bool done = false; !done;) {
        chip.begin_run(1);
        const chip::RunOutcome one = chip.end_run();
        if (one.done) out = one;
        done = one.done;
        waited_quanta.fetch_add(1, std::memory_order_release);
      }
      out.quanta = waited_quanta.load(std::memory_order_relaxed);
    } catch (...) {
      waited_error = std::current_exception();
    }
    waited_ended.store(true, std::memory_order_release);
    run_others_loop();
  };
  const std::vector<std::function<void()>> helpers(std::size_t(threads_->threads() - 1), run_others_loop);
  threads_->run(run_waited, helpers);
  if (waited_error) std::rethrow_exception(waited_error);
  for (const Other& o : others) {
    if (o.error) std::rethrow_exception(o.error);
  }
  collect(job, out.result);
  for (const Other& o : others) {
    if (o.out.done) collect(*job_on(o.chip), o.out.result);
  }
  stats_.parallel_clocks += out.quanta * (kQuantum + 1);
}

std::size_t ChipLeafSearch::chip_for_question() {
  for (;;) {
    for (std::size_t i = 0; i < chips_.size(); ++i) {
      if (alive_[i] && !running_[i]) return i;
    }
    // Every chip runs a question: the latest one asked ahead is the likeliest to be useless, and
    // the question the search waits for must not queue behind it. (Not one whose run is under
    // way: that happens only while chips are being lost.)
    Job* latest = nullptr;
    for (Job& j : jobs_) {
      if (j.chip >= 0 && !j.dropped && !j.asked && !in_run_[std::size_t(j.chip)] &&
          (!latest || j.sequence > latest->sequence))
        latest = &j;
    }
    if (!latest) {
      if (stats_.chips_lost > 0) return add_fallback_chip();
      throw std::logic_error("every chip runs a question a worker waits for: more workers than chips");
    }
    const std::size_t chip = std::size_t(latest->chip);
    abort_job(*latest);
    latest->dropped = true;
    if (alive_[chip]) return chip;
  }
}

void ChipLeafSearch::abort_job(Job& job) {
  if (job.chip >= 0) {
    const std::size_t c = std::size_t(job.chip);
    chip::SearchResult r;
    if (on_chip(c, [&](chip::SearchChip& chip) { r = chip.abort(); })) {
      job.nodes = r.nodes;
      stats_.busy_clocks += r.cycles;
      running_[c] = false;
      job.chip = -1;
    } else {
      return;  // drop_chip counted it
    }
  }
  ++stats_.wasted_searches;
  stats_.wasted_nodes += job.nodes;
}

bool ChipLeafSearch::test(Position& pos, const Move* path, int ply, int depth, int test) {
  ask(pos, path, ply, depth, test);
  Job* job = find(Question{pos.key(), ply, depth, test, worker_});
  if (job->chip >= 0) run_until_answered(*job);
  const Answer a = answer(pos.key(), ply, depth, test);
  overflowed_ = a.overflow;
  last_nodes_ = a.nodes;
  return a.fail_high;
}

void ChipLeafSearch::ask(Position& pos, const Move* path, int ply, int depth, int test) {
  purge();
  const Question q{pos.key(), ply, depth, test, worker_};
  if (Job* job = find(q)) {
    job->asked = true;
    return;
  }
  Job& job = add_job(pos, path, q, -1);
  job.asked = true;
  place(job);
}

bool ChipLeafSearch::ready(Key key, int ply, int depth, int test) const {
  const Job* job = find(Question{key, ply, depth, test, worker_});
  if (!job) throw std::logic_error("ready() for a question not asked");
  return job->chip < 0;
}

LeafSearch::Answer ChipLeafSearch::answer(Key key, int ply, int depth, int test) {
  const Job* found = find(Question{key, ply, depth, test, worker_});
  if (!found || found->chip >= 0) throw std::logic_error("answer() before the question was answered");
  const std::size_t index = std::size_t(found - jobs_.data());
  const Job job = jobs_[index];
  jobs_.erase(jobs_.begin() + std::ptrdiff_t(index));
  if (job.overflow) {  // its nodes bought nothing: the software searches the node instead
    ++stats_.overflows;
    ++stats_.wasted_searches;
    stats_.wasted_nodes += job.nodes;
    return {false, 0, true};
  }
  ++stats_.searches;
  stats_.nodes += job.nodes;
  return {job.fail_high, job.nodes};
}

void ChipLeafSearch::prefetch(Position& pos, const Move* path, int ply, int depth, int test, int owner) {
  purge();
  const Question q{pos.key(), ply, depth, test, worker_};
  if (find(q) || idle_chips() == 0) return;
  Job& job = add_job(pos, path, q, owner);
  if (!try_start(chip_for_question(), job)) job.dropped = true;
}

void ChipLeafSearch::cancel(int owner) {
  const int worker = worker_;
  auto mine = [owner, worker](const Job& j) { return j.owner == owner && j.question.worker == worker && !j.asked; };
  for (Job& j : jobs_) {
    if (mine(j) && !j.dropped) {
      abort_job(j);
      j.dropped = true;
    }
  }
  purge();
}

}  // namespace db::search
