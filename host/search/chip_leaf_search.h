// The leaf searcher on chips (AIJ section 5 and 6): each question of the software search becomes one
// hardware search (SEARCH command) on a chip of this host. The host loads the position with the
// moves since the last irreversible one (so that the smart move stack sees repetitions across the
// boundary), writes the test value and starts the chip; several chips run at once, and the host
// clocks every running chip in turn, as a host polling its cards on the Micro Channel would (on a
// ChipTimeline, such as sim/'s Micro Channel model, the chips run in simulated time instead and the
// host's accesses take bus time).
// Answers do not depend on the number of chips: a question is always answered by a search of the
// same position, history and parameters, so the tree the software sees is the same.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "chip/chip_client.h"
#include "chip/search_chip.h"
#include "search/chip_timeline.h"
#include "search/leaf_search.h"

namespace db::search {

class ChipLeafSearch final : public LeafSearch {
 public:
  // depth: plies left at which the software hands a node to the chips (AIJ: 4 on the real machine).
  // params: the hardware search parameters (depth and test value are set per question).
  // timeline: none for the default (clocked quanta, free bus accesses); see ChipTimeline.
  ChipLeafSearch(std::vector<std::unique_ptr<chip::ChipClient>> chips, int depth, chip::SearchParams params = {},
                 std::shared_ptr<ChipTimeline> timeline = nullptr);
  // Chips at the transaction level (in process or behind a link: chip/search_chip.h). A timeline
  // needs chips with a clock-level client.
  ChipLeafSearch(std::vector<std::unique_ptr<chip::SearchChip>> chips, int depth, chip::SearchParams params = {},
                 std::shared_ptr<ChipTimeline> timeline = nullptr);

  int depth() const override { return depth_; }
  int chips() const override { return int(chips_.size()); }
  void new_search(const Position& root, bool strive_for_draw) override;
  bool test(Position& pos, const Move* path, int ply, int depth, int test) override;
  void prefetch(Position& pos, const Move* path, int ply, int depth, int test, int owner) override;
  int idle_chips() const override;
  void cancel(int owner) override;
  LeafStats stats() const override;
  ChipTimeline* timeline() const { return timeline_.get(); }

  bool supports_workers() const override { return true; }
  void set_worker(int worker) override { worker_ = worker; }
  void ask(Position& pos, const Move* path, int ply, int depth, int test) override;
  bool ready(Key key, int ply, int depth, int test) const override;
  Answer answer(Key key, int ply, int depth, int test) override;
  bool step() override { return advance(); }

  // Clocks a chip runs between polls while the host waits (the granularity of the simulated time).
  static constexpr std::uint64_t kQuantum = chip::SearchChip::kQuantum;
  // Moves of history loaded before the position (the 32-ply stack also holds the search and its
  // quiescence plies).
  static constexpr int kMaxHistory = 12;

 private:
  struct Question {
    Key key;
    int ply;
    int depth;
    int test;
    int worker;
    bool operator==(const Question& o) const {
      return key == o.key && ply == o.ply && depth == o.depth && test == o.test && worker == o.worker;
    }
  };
  struct Job {
    Question question;
    int owner = -1;      // -1: asked by test() itself
    bool asked = false;  // a worker waits for it: never aborted to free a chip
    int chip = -1;       // running on this chip; -1 once answered
    bool fail_high = false;
    std::uint64_t nodes = 0;
    std::uint64_t sequence = 0;  // order of starting
  };

  void start(std::size_t chip, Position& pos, const Move* path, const Question& q, int owner);
  // Clocks every running chip one quantum and collects the answers of those that finished; false
  // when no chip runs.
  bool advance();
  // Runs the chips until job's answer is in: its chip until its search ends, every other running
  // chip as many quanta (two rounds of runs, whatever the number of quanta).
  void run_until_answered(Job& job);
  void collect(Job& job, const chip::SearchResult& r);
  chip::SearchChip* chip_of(const Job& job) { return chips_[std::size_t(job.chip)].get(); }
  // A chip for a question the search waits for: an idle one, else the one running the latest
  // question asked ahead (aborted). Questions other workers wait for are never aborted (there are
  // at least as many chips as workers, so one of the others is a question asked ahead).
  std::size_t chip_for_question();
  void abort_job(Job& job);  // counts it as wasted; the caller removes it from jobs_
  Job* find(const Question& q);
  const Job* find(const Question& q) const;

  std::vector<std::unique_ptr<chip::SearchChip>> chips_;
  std::vector<bool> running_;  // per chip
  int depth_;
  chip::SearchParams params_;
  bool strive_for_draw_ = false;  // the software root side's attitude to draws (new_search)
  std::vector<Job> jobs_;         // running, or answered and not yet asked for
  LeafStats stats_;
  std::uint64_t started_ = 0;
  int worker_ = 0;  // the software worker whose calls these are (set_worker)
  std::shared_ptr<ChipTimeline> timeline_;
  std::uint64_t search_start_ = 0;  // the timeline's clock when the search started (new_search)
};

}  // namespace db::search
