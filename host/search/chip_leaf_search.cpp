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

ChipLeafSearch::ChipLeafSearch(std::vector<std::unique_ptr<chip::ChipClient>> chips, int depth,
                               chip::SearchParams params, std::shared_ptr<ChipTimeline> timeline)
    : chips_(std::move(chips)),
      running_(chips_.size(), false),
      depth_(depth),
      params_(params),
      timeline_(std::move(timeline)) {
  if (chips_.empty()) throw std::invalid_argument("a chip leaf search needs at least one chip");
  if (depth < 1 || depth > 8) throw std::invalid_argument(fmt::format("chip depth {} out of range 1-8", depth));
}

void ChipLeafSearch::new_search(const Position& root, bool strive_for_draw) {
  strive_for_draw_ = strive_for_draw;
  for (std::size_t i = 0; i < chips_.size(); ++i) {
    if (running_[i]) throw std::logic_error("new_search while a chip is searching");
  }
  jobs_.clear();
  stats_ = {};
  const chip::EvalWeights weights = chip::generate_weights(root);
  if (timeline_) timeline_->download_started();
  for (auto& c : chips_) chip::download(*c, weights);
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
  chip::ChipClient& chip = *chips_[chip_index];
  // History: the moves since the last irreversible one (and since any null move, which a chip
  // cannot make), as far as the stack leaves room for the search.
  const int room = 31 - q.depth;
  const int limit = std::min({kMaxHistory, room, pos.halfmove_clock(), q.ply});
  int history = 0;
  while (history < limit && !path[q.ply - 1 - history].is_none()) ++history;
  for (int k = 0; k < history; ++k) pos.unmake_move(path[q.ply - 1 - k]);
  chip.load(pos);
  chip.eval_init();
  for (int k = history - 1; k >= 0; --k) {
    const Move m = path[q.ply - 1 - k];
    pos.make_move(m);
    chip.make(chip::to_chip_move(m));
  }
  chip::SearchParams params = params_;
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
  chip.start_search(params);
  running_[chip_index] = true;
  Job job;
  job.question = q;
  job.owner = owner;
  job.chip = int(chip_index);
  job.sequence = ++started_;
  jobs_.push_back(job);
}

void ChipLeafSearch::collect(Job& job) {
  const chip::SearchResult r = chips_[std::size_t(job.chip)]->search_result();
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
  bool any = false;
  for (std::size_t i = 0; i < chips_.size(); ++i) {
    if (!running_[i]) continue;
    // On a timeline the chips run while the host polls; otherwise the host clocks them.
    if (!timeline_) chips_[i]->backend().tick(kQuantum);
    any = true;
  }
  if (!any) return false;
  if (timeline_) {
    timeline_->between_polls();
  } else {
    stats_.parallel_clocks += kQuantum + 1;  // and the clock of the status poll
  }
  for (Job& j : jobs_) {
    if (j.chip >= 0 && !chips_[std::size_t(j.chip)]->busy()) collect(j);
  }
  return true;
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
    chip::ChipClient& chip = *chips_[std::size_t(job.chip)];
    chip.abort();
    while (chip.busy()) chip.backend().tick(1);
    const chip::SearchResult r = chip.search_result();
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
  while (!ready(pos.key(), ply, depth, test)) advance();
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
