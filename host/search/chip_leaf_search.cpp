#include "search/chip_leaf_search.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

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
      depth_(depth),
      params_(params),
      timeline_(std::move(timeline)) {
  if (chips_.empty()) throw std::invalid_argument("a chip leaf search needs at least one chip");
  if (depth < 1 || depth > 8) throw std::invalid_argument(fmt::format("chip depth {} out of range 1-8", depth));
  if (timeline_) {
    for (auto& c : chips_) {
      if (!c->client()) throw std::invalid_argument("a chip timeline needs chips in this process");
    }
  }
}

void ChipLeafSearch::new_search(const Position& root, bool strive_for_draw) {
  strive_for_draw_ = strive_for_draw;
  for (std::size_t i = 0; i < chips_.size(); ++i) {
    if (running_[i]) throw std::logic_error("new_search while a chip is searching");
  }
  jobs_.clear();
  stats_ = {};
  const std::vector<chip::WriteBlock> weights = chip::weight_writes(chip::generate_weights(root));
  const std::uint64_t generation = chip::weights_generation(weights);
  if (timeline_) timeline_->download_started();
  for (auto& c : chips_) c->load_weights(weights, generation);
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

int ChipLeafSearch::idle_chips() const { return int(std::count(running_.begin(), running_.end(), false)); }

ChipLeafSearch::Job* ChipLeafSearch::find(const Question& q) {
  for (Job& j : jobs_) {
    if (j.question == q) return &j;
  }
  return nullptr;
}

const ChipLeafSearch::Job* ChipLeafSearch::find(const Question& q) const {
  for (const Job& j : jobs_) {
    if (j.question == q) return &j;
  }
  return nullptr;
}

void ChipLeafSearch::start(std::size_t chip_index, Position& pos, const Move* path, const Question& q, int owner) {
  // History: the moves since the last irreversible one (and since any null move, which a chip
  // cannot make), as far as the stack leaves room for the search.
  const int room = 31 - q.depth;
  const int limit = std::min({kMaxHistory, room, pos.halfmove_clock(), q.ply});
  int history = 0;
  while (history < limit && !path[q.ply - 1 - history].is_none()) ++history;
  for (int k = 0; k < history; ++k) pos.unmake_move(path[q.ply - 1 - k]);
  chip::SearchJob job;
  job.start = chip::ChipPosition::of(pos);
  for (int k = history - 1; k >= 0; --k) {
    const Move m = path[q.ply - 1 - k];
    pos.make_move(m);
    job.history.push_back(chip::to_chip_move(m));
  }
  chip::SearchParams& params = job.params;
  params = params_;
  params.depth = q.depth;
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
  chips_[chip_index]->start(job);
  running_[chip_index] = true;
  Job entry;
  entry.question = q;
  entry.owner = owner;
  entry.chip = int(chip_index);
  entry.sequence = ++started_;
  jobs_.push_back(entry);
}

void ChipLeafSearch::collect(Job& job, const chip::SearchResult& r) {
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
    // On a timeline the chips run while the host polls them.
    timeline_->between_polls();
    for (Job& j : jobs_) {
      if (j.chip < 0) continue;
      chip::ChipClient& client = *chip_of(j)->client();
      if (!client.busy()) collect(j, client.search_result());
    }
    return true;
  }
  for (Job& j : jobs_) {
    if (j.chip >= 0) chip_of(j)->begin_run(1);
  }
  for (Job& j : jobs_) {
    if (j.chip < 0) continue;
    const chip::RunOutcome out = chip_of(j)->end_run();
    if (out.done) collect(j, out.result);
  }
  stats_.parallel_clocks += kQuantum + 1;  // and the clock of the status poll
  return true;
}

void ChipLeafSearch::run_until_answered(Job& job) {
  if (timeline_) {
    while (job.chip >= 0) advance();
    return;
  }
  chip::SearchChip& waited = *chip_of(job);
  waited.begin_run(0);
  const chip::RunOutcome out = waited.end_run();
  if (!out.done) throw std::logic_error("a chip run without a budget came back unfinished");
  collect(job, out.result);
  // The other chips ran while the host waited: each as many quanta, or until its search ended.
  for (Job& j : jobs_) {
    if (j.chip >= 0) chip_of(j)->begin_run(out.quanta);
  }
  for (Job& j : jobs_) {
    if (j.chip < 0) continue;
    const chip::RunOutcome other = chip_of(j)->end_run();
    if (other.done) collect(j, other.result);
  }
  stats_.parallel_clocks += out.quanta * (kQuantum + 1);
}

std::size_t ChipLeafSearch::chip_for_question() {
  for (std::size_t i = 0; i < chips_.size(); ++i) {
    if (!running_[i]) return i;
  }
  // Every chip runs a question asked ahead: the latest one is the likeliest to be useless, and the
  // question the search waits for must not queue behind it.
  const auto latest = std::max_element(jobs_.begin(), jobs_.end(), [](const Job& a, const Job& b) {
    return (a.chip >= 0 && !a.asked ? a.sequence : 0) < (b.chip >= 0 && !b.asked ? b.sequence : 0);
  });
  if (latest == jobs_.end() || latest->chip < 0 || latest->asked)
    throw std::logic_error("every chip runs a question a worker waits for: more workers than chips");
  const std::size_t chip = std::size_t(latest->chip);
  abort_job(*latest);
  jobs_.erase(latest);
  return chip;
}

void ChipLeafSearch::abort_job(Job& job) {
  if (job.chip >= 0) {
    const chip::SearchResult r = chip_of(job)->abort();
    job.nodes = r.nodes;
    stats_.busy_clocks += r.cycles;
    running_[std::size_t(job.chip)] = false;
    job.chip = -1;
  }
  ++stats_.wasted_searches;
  stats_.wasted_nodes += job.nodes;
}

bool ChipLeafSearch::test(Position& pos, const Move* path, int ply, int depth, int test) {
  ask(pos, path, ply, depth, test);
  Job* job = find(Question{pos.key(), ply, depth, test, worker_});
  if (job->chip >= 0) run_until_answered(*job);
  return answer(pos.key(), ply, depth, test).fail_high;
}

void ChipLeafSearch::ask(Position& pos, const Move* path, int ply, int depth, int test) {
  const Question q{pos.key(), ply, depth, test, worker_};
  if (!find(q)) start(chip_for_question(), pos, path, q, -1);
  find(q)->asked = true;
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
  ++stats_.searches;
  stats_.nodes += job.nodes;
  return {job.fail_high, job.nodes};
}

void ChipLeafSearch::prefetch(Position& pos, const Move* path, int ply, int depth, int test, int owner) {
  const Question q{pos.key(), ply, depth, test, worker_};
  if (find(q) || idle_chips() == 0) return;
  start(chip_for_question(), pos, path, q, owner);
}

void ChipLeafSearch::cancel(int owner) {
  const int worker = worker_;
  auto mine = [owner, worker](const Job& j) { return j.owner == owner && j.question.worker == worker && !j.asked; };
  for (Job& j : jobs_) {
    if (mine(j)) abort_job(j);
  }
  jobs_.erase(std::remove_if(jobs_.begin(), jobs_.end(), mine), jobs_.end());
}

}  // namespace db::search
