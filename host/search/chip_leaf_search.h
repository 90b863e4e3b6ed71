// The leaf searcher on chips (AIJ section 5 and 6): each question of the software search becomes one
// hardware search (SEARCH command) on a chip of this host. The host loads the position with the
// moves since the last irreversible one (so that the smart move stack sees repetitions across the
// boundary), writes the test value and starts the chip; several chips run at once, and the host
// clocks every running chip in turn, as a host polling its cards on the Micro Channel would (on a
// ChipTimeline, such as sim/'s Micro Channel model, the chips run in simulated time instead and the
// host's accesses take bus time).
// Answers do not depend on the number of chips: a question is always answered by a search of the
// same position, history and parameters, so the tree the software sees is the same. That is also
// what makes chips behind a link safe to lose: a chip whose link fails (chip::ChipLost) is dropped,
// a question a worker waits for that ran on it is asked again of another chip (an in-process model
// chip when none is left), and the search goes on with the same answers.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "chip/chip_client.h"
#include "chip/generator_params.h"
#include "chip/search_chip.h"
#include "search/chip_threads.h"
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
  int chips() const override;  // the chips not lost
  void new_search(const Position& root, bool strive_for_draw) override;
  bool test(Position& pos, const Move* path, int ply, int depth, int test) override;
  bool overflowed() const override { return overflowed_; }
  std::uint64_t last_nodes() const override { return last_nodes_; }
  // AIJ 6.1's abort and re-split: a hardware search of at least two plies stops after this many
  // nodes (0: no limit, the default) and its question is answered "overflow" (overflowed()), so
  // that the software searches that node one ply deeper, its children on the chips in parallel.
  // Deep Blue's limit was 8000 nodes.
  void set_node_limit(std::uint32_t nodes) { node_limit_ = nodes; }
  // The evaluation generator's parameters of the weights new_search generates for its root
  // (chip/generator_params.h); nullptr: GeneratorParams::defaults().
  void set_generator_params(std::shared_ptr<const chip::GeneratorParams> params) {
    generator_params_ = std::move(params);
  }
  std::uint64_t node_limit() const override { return node_limit_; }
  void prefetch(Position& pos, const Move* path, int ply, int depth, int test, int owner) override;
  int idle_chips() const override;
  void cancel(int owner) override;
  LeafStats stats() const override;
  ChipTimeline* timeline() const { return timeline_.get(); }
  // Every chip this search has had (lost ones and fallbacks included), for reports.
  std::vector<const chip::SearchChip*> all_chips() const {
    std::vector<const chip::SearchChip*> out;
    for (const auto& c : chips_) out.push_back(c.get());
    return out;
  }
  // Makes the chip that takes over when every chip is lost (default: an in-process model chip).
  using Fallback = std::function<std::unique_ptr<chip::SearchChip>()>;
  void set_fallback(Fallback fallback) { fallback_ = std::move(fallback); }
  // OS threads that clock the chips in this process while the search waits for one (1: all on the
  // search's thread). The answers, counts and simulated clocks are the same for any number.
  void set_threads(int threads) override;
  int threads() const override { return threads_ ? threads_->threads() : 1; }
  // The host's cost model: nanoseconds of the host's time per software node (0: free, the
  // default). Deep Blue's hosts were 120 MHz P2SC processors running the software search between
  // their chips' polls (AIJ 6); the cost is a parameter, docs/search.md.
  void set_host_node_ns(std::uint32_t ns) { host_node_ns_ = ns; }
  std::uint32_t host_node_ns() const { return host_node_ns_; }
  void software_nodes(std::uint64_t nodes) override;
  void idle_until(std::uint64_t clocks) override;

  bool supports_workers() const override { return true; }
  void set_worker(int worker) override { worker_ = worker; }
  void ask(Position& pos, const Move* path, int ply, int depth, int test) override;
  bool ready(Key key, int ply, int depth, int test) const override;
  Answer answer(Key key, int ply, int depth, int test) override;
  bool step() override {
    purge();
    return advance();
  }

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
    bool overflow = false;  // stopped at the node limit
    bool dropped = false;   // aborted or lost, and not to be asked again: removed by purge()
    std::uint64_t nodes = 0;
    std::uint64_t sequence = 0;  // order of starting
    chip::SearchJob work;        // what the chip is asked (kept to ask another chip)
  };

  // A new job for the question (not yet on a chip).
  Job& add_job(Position& pos, const Move* path, const Question& q, int owner);
  // Starts the job on the chip; false when the chip was lost meanwhile (then dropped).
  bool try_start(std::size_t chip, Job& job);
  // Starts a job a worker waits for on some chip, however many are lost on the way.
  void place(Job& job);
  // Calls op on the chip; a lost chip is dropped (drop_chip) and false returned.
  template <class Op>
  bool on_chip(std::size_t chip, Op&& op);
  // The chip is gone: its job is asked of another chip if a worker waits for it, else dropped.
  void drop_chip(std::size_t chip, const std::string& why);
  // An in-process chip (fallback_) with this search's weights, for when no chip is left.
  std::size_t add_fallback_chip();
  void purge();  // removes dropped jobs
  Job* job_on(std::size_t chip);
  // Clocks every running chip one quantum and collects the answers of those that finished; false
  // when no chip runs.
  bool advance();
  // Runs the chips until job's answer is in: its chip until its search ends, every other running
  // chip as many quanta (two rounds of runs, whatever the number of quanta).
  void run_until_answered(Job& job);
  // Lets every running chip run up to quanta more quanta and collects the answers.
  void run_others(std::uint64_t quanta);
  // run_until_answered with the chips on threads_ (in-process chips only).
  bool can_run_concurrently() const;
  void run_concurrently(Job& job);
  void collect(Job& job, const chip::SearchResult& r);
  // A chip for a question the search waits for: an idle one, else the one running the latest
  // question asked ahead (aborted). Questions other workers wait for are never aborted (there are
  // at least as many chips as workers, so one of the others is a question asked ahead).
  std::size_t chip_for_question();
  void abort_job(Job& job);  // counts it as wasted; the caller removes it from jobs_
  Job* find(const Question& q);
  const Job* find(const Question& q) const;

  std::vector<std::unique_ptr<chip::SearchChip>> chips_;
  std::vector<bool> running_;  // per chip
  std::vector<bool> alive_;    // per chip: false once lost
  std::vector<bool> in_run_;   // per chip: a run begun and not yet ended
  Fallback fallback_;
  std::unique_ptr<ChipThreads> threads_;   // none: one thread
  std::vector<chip::WriteBlock> weights_;  // this search's weights (for a fallback chip)
  std::uint64_t generation_ = 0;
  int depth_;
  chip::SearchParams params_;
  std::shared_ptr<const chip::GeneratorParams> generator_params_;  // nullptr: the defaults
  bool strive_for_draw_ = false;  // the software root side's attitude to draws (new_search)
  std::vector<Job> jobs_;         // running, or answered and not yet asked for
  LeafStats stats_;
  std::uint64_t started_ = 0;
  int worker_ = 0;  // the software worker whose calls these are (set_worker)
  std::shared_ptr<ChipTimeline> timeline_;
  std::uint64_t search_start_ = 0;  // the timeline's clock when the search started (new_search)
  std::uint32_t host_node_ns_ = 0;
  std::uint32_t node_limit_ = 0;
  bool overflowed_ = false;       // the last test()'s answer
  std::uint64_t last_nodes_ = 0;  // and its nodes
  std::uint64_t host_owed_ = 0;   // host time not yet passed, in thirds of a nanosecond (a clock is 125)
};

}  // namespace db::search
