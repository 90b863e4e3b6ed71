// deepblue lazystats: how often the chip needs its slow evaluation. A fixed-depth minimum-window
// search (Micro, "Search control") from a position, with moves made and unmade on the chip (so its
// fast evaluation stays incremental) and every leaf decided by the chip's LAZY_EVAL command against
// the test value. Counts the leaves the fast evaluation and the low-pass filter's estimate decided
// and those that ran the slow evaluation, with the chip's clocks. Used by scripts/bench-eval.
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "chess/movegen.h"
#include "chip/chip_regs.h"
#include "chip/eval_generator.h"
#include "chip_options.h"
#include "cli_common.h"
#include "commands.h"

namespace db::cli {

namespace {

struct LazyStatsOptions {
  std::string fen = "startpos";
  int depth = 3;
  int margin = -1;  // -1: the generator's value
  bool json = false;
  ChipOptions chip;
};

struct Counts {
  std::uint64_t nodes = 0, leaves = 0, decided = 0, slow = 0, eval_cycles = 0;
};

class LazySearch {
 public:
  LazySearch(chip::ChipClient& chip, Position pos) : chip_(chip), pos_(std::move(pos)) {}

  // Minimum-window search: is the side to move's value >= test?
  bool at_least(int depth, int test) {
    ++counts_.nodes;
    if (depth == 0) {
      chip_.write(chip::reg::TEST_VALUE, std::uint16_t(test));
      chip::CommandStats stats;
      chip_.run(chip::op::LAZY_EVAL, &stats);
      const std::uint32_t lazy = chip_.read(chip::reg::LAZY);
      ++counts_.leaves;
      counts_.decided += lazy & 1;
      counts_.slow += lazy >> 2 & 1;
      counts_.eval_cycles += stats.cycles;
      return lazy & 2;
    }
    MoveList moves;
    generate_legal(pos_, moves);
    if (moves.size() == 0) return (pos_.in_check() ? -30000 : 0) >= test;
    for (const Move m : moves) {
      chip_.make(chip::to_chip_move(m));
      pos_.make_move(m);
      const bool refuted = at_least(depth - 1, 1 - test);
      pos_.unmake_move(m);
      chip_.unmake();
      if (!refuted) return true;
    }
    return false;
  }
  const Counts& counts() const { return counts_; }

 private:
  chip::ChipClient& chip_;
  Position pos_;
  Counts counts_;
};

void run_lazystats(const LazyStatsOptions& opt) {
  if (opt.depth < 1 || opt.depth > 8) throw std::invalid_argument("--depth must be 1..8");
  const Position pos = parse_position_arg(opt.fen);
  chip::ChipClient chip = make_chip_client(opt.chip);
  chip::EvalWeights weights = chip::generate_weights(pos, generator_params_or_defaults(opt.chip.generator_params));
  std::uint32_t& lazy_control = weights.slow.regs[chip::ER_EVAL_CONTROL + 1];
  if (opt.margin >= 0) {
    if (opt.margin > 0xFFFF) throw std::invalid_argument("--margin must be 0..65535");
    lazy_control = (lazy_control & ~0xFFFFu) | std::uint32_t(opt.margin);
  }
  chip::download(chip, weights);
  chip.load(pos);
  chip.eval_init();
  // The test value: the root's full evaluation, so the leaves sit around it as in a real search.
  const chip::ChipClient::SlowEval root = chip.slow_eval();
  LazySearch search(chip, pos);
  const bool at_least = search.at_least(opt.depth, root.total);
  const Counts& c = search.counts();
  const double slow_fraction = c.leaves ? double(c.slow) / double(c.leaves) : 0.0;
  if (opt.json) {
    print_json({{"fen", pos.fen()},
                {"depth", opt.depth},
                {"backend", opt.chip.backend},
                {"test_value", root.total},
                {"result_at_least", at_least},
                {"nodes", c.nodes},
                {"leaves", c.leaves},
                {"decided_by_fast", c.decided},
                {"slow_evaluations", c.slow},
                {"slow_fraction", slow_fraction},
                {"eval_cycles", c.eval_cycles},
                {"margin", lazy_control & 0xFFFF}});
    return;
  }
  std::cout << fmt::format(
      "depth {}: {} nodes, {} leaves: {} decided by the fast evaluation, {} slow evaluations "
      "({:.1f} %), {} evaluation clocks\n",
      opt.depth, c.nodes, c.leaves, c.decided, c.slow, 100.0 * slow_fraction, c.eval_cycles);
}

}  // namespace

void add_lazystats_command(CLI::App& app) {
  auto opt = std::make_shared<LazyStatsOptions>();
  CLI::App* cmd =
      app.add_subcommand("lazystats", "How often a chip search needs the slow evaluation (lazy evaluation statistics)");
  cmd->add_option("--fen", opt->fen, "Position as FEN, or 'startpos'")->capture_default_str();
  cmd->add_option("--depth", opt->depth, "Search depth in plies (1-8)")->capture_default_str();
  cmd->add_option("--margin", opt->margin, "Lazy evaluation margin (default: the generator's)");
  add_chip_options(cmd, opt->chip, "model");
  add_eval_params_option(cmd, opt->chip.eval_params, opt->chip.generator_params);
  cmd->add_option("--backend", opt->chip.backend,
                  "model, rtl, cosim, remote:HOST:PORT (a chip behind deepblue chipd) or serial:PATH[@BAUD] (a board)")
      ->check(backend_validator({"model", "rtl", "cosim"}))
      ->capture_default_str();
  cmd->add_flag("--json", opt->json, "Print one JSON object");
  cmd->callback([opt] { run_lazystats(*opt); });
}

}  // namespace db::cli
