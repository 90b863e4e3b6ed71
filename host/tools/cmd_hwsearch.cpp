// deepblue hwsearch: one hardware search on a chip (AIJ section 5): a fixed-depth null-window
// search with quiescence, from a position and optionally the game moves that led to it (so the
// repetition detector sees them). Prints the bound, the best move on a fail high, nodes and clocks.
// With --exact, the host finds the exact value by bisection with null-window searches, as the Deep
// Blue host did at the hardware/software boundary.
#include <chrono>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "chip/chip_model.h"
#include "chip/chip_regs.h"
#include "chip/eval_generator.h"
#include "chip/rtl_backend.h"
#include "chip_options.h"
#include "cli_common.h"
#include "commands.h"

namespace db::cli {

namespace {

struct HwSearchOptions {
  std::string fen = "startpos";
  std::string moves;  // game moves from --fen, UCI notation, space separated
  chip::SearchParams params;
  bool no_quiescence = false, no_evasions = false, no_repetition = false;
  std::string rep_tie = "off";  // off, avoid or strive: the repetition draw's tie-breaker
  bool exact = false;
  bool json = false;
  std::string mismatch_trace;  // cosim: FST window around the first mismatch
  ChipOptions chip;
};

struct Run {
  chip::SearchResult result;
  double seconds = 0;
};

Run run_one(chip::ChipClient& chip, const chip::SearchParams& params) {
  const auto t0 = std::chrono::steady_clock::now();
  Run r;
  r.result = chip.search(params);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

void run_hwsearch(HwSearchOptions opt) {
  const Position start = parse_position_arg(opt.fen);
  Position pos = start;
  const std::vector<Move> moves = parse_moves_arg(start, opt.moves);
  for (Move m : moves) pos.make_move(m);
  opt.params.quiescence = !opt.no_quiescence;
  opt.params.evasions = !opt.no_evasions;
  opt.params.repetition = !opt.no_repetition;
  opt.params.repetition_tie = opt.rep_tie != "off";
  opt.params.strive_for_draw = opt.rep_tie == "strive";
  if (opt.params.repetition_bound && !opt.params.repetition) {
    throw std::invalid_argument("hwsearch: --rep-bound needs the repetition detector (not --no-repetition)");
  }
  chip::ChipClient chip = make_chip_client(opt.chip);
  chip::download(chip, chip::generate_weights(pos, generator_params_or_defaults(opt.chip.generator_params)));
  chip.load_game(start, moves);
  chip.fast_eval();  // the first evaluation builds the model's KPK ROM: not part of the timing

  // Clocks per controller state over the searches (model backend), from the counters' start.
  const auto* model = dynamic_cast<const chip::ChipModel*>(&chip.backend());
  const auto clocks_before = model ? model->state_clocks() : std::array<std::uint64_t, chip::CTRL_STATES>{};
  std::vector<Run> runs;
  int value = opt.params.test_value;
  if (opt.exact) {
    // Bisection: the largest v with "value >= v" (scores only; tie-breakers 0).
    int lo = -int(chip::MATE_SCORE), hi = int(chip::MATE_SCORE);  // value in [lo, hi]
    while (lo < hi) {
      chip::SearchParams p = opt.params;
      p.test_value = lo + (hi - lo + 1) / 2;
      p.test_tie = 0;
      runs.push_back(run_one(chip, p));
      if (!runs.back().result.finished)
        throw std::runtime_error("hwsearch: search stopped before a bound (node limit)");
      if (runs.back().result.fail_high)
        lo = p.test_value;
      else
        hi = p.test_value - 1;
    }
    value = lo;
  } else {
    runs.push_back(run_one(chip, opt.params));
  }
  const chip::SearchResult& last = runs.back().result;
  std::uint64_t nodes = 0, cycles = 0;
  double seconds = 0;
  std::uint16_t best = 0;
  for (const Run& r : runs) {
    nodes += r.result.nodes;
    cycles += r.result.cycles;
    seconds += r.seconds;
    if (r.result.fail_high) best = r.result.best_move;
  }
  const std::string best_str = best ? chip::chip_move_to_string(best) : "none";
  const double cpn = nodes ? double(cycles) / double(nodes) : 0.0;
  const double nps = seconds > 0 ? double(nodes) / seconds : 0.0;
  if (opt.json) {
    nlohmann::json j{{"fen", pos.fen()},
                     {"backend", opt.chip.backend},
                     {"depth", opt.params.depth},
                     {"searches", runs.size()},
                     {"nodes", nodes},
                     {"cycles", cycles},
                     {"cycles_per_node", cpn},
                     {"seconds", seconds},
                     {"nodes_per_second", nps},
                     {"best_move", best ? nlohmann::json(best_str) : nlohmann::json(nullptr)}};
    if (model) {
      nlohmann::json states;
      for (std::uint8_t st = 1; st < chip::CTRL_STATES; ++st) {
        states[chip::ctrl_state_name(st)] = model->state_clocks()[st] - clocks_before[st];
      }
      j["state_clocks"] = states;
    }
    if (opt.exact) {
      j["value"] = value;
    } else {
      j["test_value"] = opt.params.test_value;
      j["test_tie"] = opt.params.test_tie;
      j["finished"] = last.finished;
      j["fail_high"] = last.fail_high;
      j["node_limit"] = last.node_limit;
      j["no_legal_move"] = last.no_legal_move;
      if (last.offset_ran) {
        j["offset"] = {{"alternatives", last.alternatives}, {"extended", last.extended}};
      }
    }
    print_json(j);
    return;
  }
  if (opt.exact) {
    std::cout << fmt::format("value {} (best move {}) from {} null-window searches\n", value, best_str, runs.size());
  } else if (!last.finished) {
    std::cout << fmt::format("stopped by the node limit after {} nodes: no bound\n", last.nodes);
  } else {
    std::cout << fmt::format("fail {}: value {} ({}, {}){}{}\n", last.fail_high ? "high" : "low",
                             last.fail_high ? ">=" : "<", opt.params.test_value, opt.params.test_tie,
                             last.fail_high ? ", best move " + best_str : "",
                             last.no_legal_move ? " (no legal move: mate or stalemate)" : "");
    if (last.offset_ran) {
      std::cout << fmt::format(
          "offset searches: {}{} other root moves reached the offset test value; {}\n", last.alternatives,
          last.alternatives == 3 ? " or more" : "",
          last.extended ? "the fail-high move was searched one ply deeper and decided" : "no extension");
    }
  }
  std::cout << fmt::format("{} nodes, {} clocks ({:.2f} clocks/node), {:.3f} s on the {} backend ({:.0f} nodes/s)\n",
                           nodes, cycles, cpn, seconds, opt.chip.backend, nps);
}

// On a co-simulation mismatch, the same run again with the waveform window around its clock.
void run_hwsearch_traced(const HwSearchOptions& opt) {
  try {
    run_hwsearch(opt);
  } catch (const chip::CosimMismatch& e) {
    if (opt.mismatch_trace.empty()) throw;
    if (!chip::RtlBackend::trace_supported()) {
      throw std::runtime_error(std::string(e.what()) +
                               "\n(no waveform: this build has no FST tracing; configure with -DDB_RTL_TRACE=ON)");
    }
    HwSearchOptions again = opt;
    again.chip.trace = opt.mismatch_trace;
    again.chip.trace_from = e.clock() > 200 ? e.clock() - 200 : 0;
    again.chip.trace_to = e.clock() + 2;
    try {
      run_hwsearch(again);
    } catch (const chip::CosimMismatch&) {}
    throw std::runtime_error(std::string(e.what()) + "\nwaveform of clocks " + std::to_string(again.chip.trace_from) +
                             "-" + std::to_string(again.chip.trace_to) + " written to " + opt.mismatch_trace);
  }
}

}  // namespace

void add_hwsearch_command(CLI::App& app) {
  auto opt = std::make_shared<HwSearchOptions>();
  CLI::App* cmd =
      app.add_subcommand("hwsearch", "One hardware search on a chip: null-window alpha-beta with quiescence");
  cmd->add_option("--fen", opt->fen, "Position as FEN, or 'startpos'")->capture_default_str();
  cmd->add_option("--moves", opt->moves,
                  "Game moves played from --fen (UCI, space separated): the repetition detector sees them");
  cmd->add_option("--depth", opt->params.depth, "Full-width depth in plies")
      ->check(CLI::Range(1, 31))
      ->capture_default_str();
  cmd->add_option("--test-value", opt->params.test_value, "Test value: is the position's value >= it?")
      ->check(CLI::Range(-32767, 32767))
      ->capture_default_str();
  cmd->add_option("--test-tie", opt->params.test_tie, "Tie-breaker of the test value (AIJ 4.3)")
      ->check(CLI::Range(-32767, 32767))
      ->capture_default_str();
  cmd->add_option("--qdepth", opt->params.quiescence_depth, "Quiescence plies beyond the depth")
      ->check(CLI::Range(0, 31))
      ->capture_default_str();
  cmd->add_option(
         "--mating-checks", opt->params.mating_checks,
         "Mating checks (no escape square, or a queen contact check) each side may play in the quiescence search")
      ->check(CLI::Range(0, 3))
      ->capture_default_str();
  cmd->add_option("--singular-checks", opt->params.singular_checks,
                  "Singular checks (one escape square, a rook contact check, or a hung piece) each side may play in "
                  "the quiescence search")
      ->check(CLI::Range(0, 3))
      ->capture_default_str();
  cmd->add_option("--node-limit", opt->params.node_limit, "Stop after this many nodes (0 = none)")
      ->capture_default_str();
  cmd->add_flag("--no-quiescence", opt->no_quiescence, "No quiescence search (stand pat at the depth)");
  cmd->add_flag("--no-evasions", opt->no_evasions, "No check evasions in the quiescence search");
  cmd->add_flag("--no-repetition", opt->no_repetition, "Repetition detector off");
  cmd->add_option("--rep-tie", opt->rep_tie,
                  "Tie-breaker of a repetition draw, \"moves until repetition\" (AIJ 4.3): off (0), avoid (the root "
                  "side avoids the draw: a later repetition is less bad) or strive (it strives for it: an earlier one "
                  "is better)")
      ->check(CLI::IsMember({"off", "avoid", "strive"}))
      ->capture_default_str();
  cmd->add_option("--rep-tie-base", opt->params.repetition_tie_base,
                  "The repetition tie-breaker's count at the root: a repetition p plies below it has tie-breaker "
                  "base - p (a host searching above the chip passes its own count there)")
      ->check(CLI::Range(0, 127))
      ->capture_default_str();
  cmd->add_flag("--rep-bound", opt->params.repetition_bound,
                "A node with one piece of the side to move displaced from an earlier position first tries the move "
                "back, scored as the repetition draw when legal (the Micro paper's smart move stack)");
  cmd->add_flag("--no-progress", opt->params.no_progress, "\"No progress\" pruning on (AIJ 4.3)");
  cmd->add_flag("--ignore-stalemate", opt->params.ignore_stalemate, "Do not score stalemate one ply above quiescence");
  cmd->add_flag("--extend-pawn7", opt->params.extend_pawn_on_7th,
                "Quiescence extension after a pawn reaches the 7th rank");
  cmd->add_flag("--extend-pawn6", opt->params.extend_pawn_on_6th,
                "Quiescence extension after a passed pawn reaches the 6th rank with the square ahead empty");
  cmd->add_flag(
      "--extend-hung", opt->params.extend_hung_pieces,
      "Quiescence extension when the side to move has two or more hung pieces, or a hung piece that is pinned");
  cmd->add_flag("--extend-hung-twice", opt->params.extend_hung_twice,
                "Quiescence extension when one piece stays hung on consecutive turns");
  cmd->add_option("--offset-depth", opt->params.offset_depth, "Depth of the offset searches at the root (1 to --depth)")
      ->check(CLI::Range(0, 31))
      ->capture_default_str();
  cmd->add_option("--offset-margin", opt->params.offset_margin, "Offset margin below the test value")
      ->check(CLI::Range(0, 65535))
      ->capture_default_str();
  cmd->add_flag("--singular", opt->params.offset_singular,
                "Extend a fail-high root move no other move comes within the margin of");
  cmd->add_flag("--binary", opt->params.offset_binary, "... when exactly one other move does");
  cmd->add_flag("--trinary", opt->params.offset_trinary, "... when exactly two other moves do");
  cmd->add_flag("--extend-opp-hung", opt->params.extend_opp_hung,
                "Quiescence extension when the other side has a hung piece");
  cmd->add_flag("--exact", opt->exact, "Find the exact value by bisection with null-window searches");
  add_chip_options(cmd, opt->chip, "model");
  add_eval_params_option(cmd, opt->chip.eval_params, opt->chip.generator_params);
  cmd->add_option("--backend", opt->chip.backend,
                  "model, rtl, cosim, remote:HOST:PORT (a chip behind deepblue chipd) or serial:PATH[@BAUD] (a board)")
      ->check(backend_validator({"model", "rtl", "cosim"}))
      ->capture_default_str();
  cmd->add_flag("--json", opt->json, "Print one JSON object");
  cmd->add_option(
      "--mismatch-trace", opt->mismatch_trace,
      "cosim: on a mismatch, rerun with an FST waveform of the 200 clocks before it (needs -DDB_RTL_TRACE=ON)");
  cmd->callback([opt] { run_hwsearch_traced(*opt); });
}

}  // namespace db::cli
