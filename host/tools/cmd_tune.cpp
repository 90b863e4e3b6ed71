// deepblue tune: tuning the chip's evaluation. "tune data" writes positions labelled by Stockfish for
// a Texel-style fit (tune_data.h); a fitter can be added as another subcommand of "tune".
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>

#include <fmt/format.h>

#include "cli_common.h"
#include "commands.h"
#include "tune_data.h"

namespace db::cli {

namespace {

// The command line as given, for the data file's header.
std::string command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  const std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string text;
  for (char c : raw) text += c == '\0' ? ' ' : c;
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

void run_tune_data(tune::DataOptions opt, bool json) {
  opt.command_line = command_line();
  opt.progress = stderr_is_terminal();
  tune::DataSummary s;
  try {
    s = tune::generate_data(opt);
  } catch (const std::invalid_argument& e) {  // bad options, openings or engine path: exit code 2
    std::cerr << "error: " << e.what() << "\n";
    throw CLI::RuntimeError(2);
  }
  const double rate = s.seconds > 0 ? double(s.positions) / s.seconds : 0;
  if (json) {
    print_json({{"out", opt.out},
                {"engine", s.engine_name},
                {"nodes", opt.nodes},
                {"seed", opt.seed},
                {"jobs", opt.jobs},
                {"positions", s.positions},
                {"games", s.games},
                {"white_wins", s.white_wins},
                {"draws", s.draws},
                {"black_wins", s.black_wins},
                {"searches", s.searches},
                {"seconds", s.seconds},
                {"positions_per_second", rate}});
    return;
  }
  std::cout << fmt::format(
      "{} positions from {} games (+{} ={} -{} for white) written to {} in {:.0f} s ({:.1f} "
      "positions/s, {} at {} nodes)\n",
      s.positions, s.games, s.white_wins, s.draws, s.black_wins, opt.out, s.seconds, rate, s.engine_name, opt.nodes);
}

void add_tune_data_command(CLI::App* tune) {
  auto opt = std::make_shared<tune::DataOptions>();
  opt->openings = DB_DEFAULT_OPENINGS;
  auto json = std::make_shared<bool>(false);
  CLI::App* cmd = tune->add_subcommand(
      "data", "Positions labelled by Stockfish for the evaluation fit: fen;score_cp_stm;result_white;game_id");
  cmd->add_option("--engine", opt->engine, "UCI engine that plays and labels (Stockfish 15.1)")->capture_default_str();
  cmd->add_option("--openings", opt->openings, "EPD file of opening positions (game i starts from opening i mod count)")
      ->capture_default_str();
  cmd->add_option("--nodes", opt->nodes, "Nodes per move (\"go nodes\"), both sides")
      ->check(CLI::Range(std::uint64_t(1), std::uint64_t(1000000000)))
      ->capture_default_str();
  cmd->add_option("--positions", opt->positions, "Stop when this many positions are written (0: no limit)")
      ->check(CLI::Range(std::int64_t(0), std::int64_t(1000000000)))
      ->capture_default_str();
  cmd->add_option("--games", opt->games, "Stop after this many games (0: no limit)")
      ->check(CLI::Range(std::int64_t(0), std::int64_t(100000000)))
      ->capture_default_str();
  cmd->add_option("--random", opt->random, "Probability of a random near-best move at each ply")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  cmd->add_option("--random-plies", opt->random_plies, "The first plies after the opening are always random")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  cmd->add_option("--random-margin", opt->random_margin,
                  "A random move is one of the MultiPV lines within this many cp of the best")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  cmd->add_option("--multipv", opt->multipv, "MultiPV of the searches at random plies")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  cmd->add_option("--skip-plies", opt->skip_plies, "No position of the first plies after the opening is recorded")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  cmd->add_option("--max-plies", opt->max_plies, "A game reaching this many plies is a draw")
      ->check(CLI::Range(1, 10000))
      ->capture_default_str();
  cmd->add_option("--adjudicate-cp", opt->adjudicate_cp, "Adjudication: the side this far ahead ...")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  cmd->add_option("--adjudicate-plies", opt->adjudicate_plies, "... on this many consecutive plies wins")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  cmd->add_option("--seed", opt->seed, "Seed of the random moves (same seed and engine: same file)")
      ->capture_default_str();
  cmd->add_option("--jobs", opt->jobs, "Games in parallel, one engine process each")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd->add_option("--threads", opt->threads, "The engine's Threads")->check(CLI::Range(1, 256))->capture_default_str();
  cmd->add_option("--hash", opt->hash_mib, "The engine's Hash in MiB")
      ->check(CLI::Range(1, 65536))
      ->capture_default_str();
  cmd->add_option("--out", opt->out, "Output file (its directory is created)")->capture_default_str();
  cmd->add_flag("--json", *json, "Print one JSON object");
  cmd->callback([opt, json] { run_tune_data(*opt, *json); });
}

}  // namespace

void add_tune_command(CLI::App& app) {
  CLI::App* tune = app.add_subcommand("tune", "Tuning the chip's evaluation: training data, fits");
  tune->require_subcommand(1);
  add_tune_data_command(tune);
  add_tune_fit_command(tune);
}

}  // namespace db::cli
