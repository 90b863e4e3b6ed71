// deepblue match: our engine (over UCI, in a child process) against an engine from Debian (Stockfish,
// Fairy-Max, GNU Chess, Phalanx, Sjeng, Toga II, Glaurung, Ethereal) or any UCI/xboard command, from
// balanced openings, colours alternating; prints the score and an Elo estimate.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "chess/epd.h"
#include "chip/remote_chip.h"
#include "chip_options.h"
#include "cli_common.h"
#include "commands.h"
#include "match/match.h"

namespace db::cli {

namespace {

struct MatchOptions {
  std::string opponent = "stockfish";
  int elo = 1500;
  int games = 10;
  int first_game = 1;        // games first_game..first_game+games-1 of the match's fixed sequence
  std::string opponent_cmd;  // any engine: its command line (split at spaces)
  std::string opponent_protocol = "uci";
  std::string opponent_name;
  bool opponent_pty = false;
  std::string tc = "10+0.1";
  std::uint64_t nodes = 0;  // > 0: fixed nodes per move, the clock aside
  std::int64_t time_margin_ms = 200;
  std::vector<std::string> opponent_options;  // --opponent self: NAME=VALUE UCI options over ours
  std::string openings = DB_DEFAULT_OPENINGS;
  std::string pgn;
  int hash_mib = 16;
  bool json = false;
  LeafOptions leaf;
};

std::string self_path() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) throw std::runtime_error("cannot find the deepblue executable (/proc/self/exe)");
  return std::string(buf, std::size_t(n));
}

// Sets or adds the NAME=VALUE UCI options of `texts` in spec; returns them as "A=1, B=2".
std::string apply_uci_options(match::PlayerSpec& spec, const std::vector<std::string>& texts) {
  std::string changed;
  for (const std::string& o : texts) {
    const std::size_t eq = o.find('=');
    if (eq == 0 || eq == std::string::npos || eq + 1 == o.size())
      throw std::invalid_argument("--opponent-option '" + o + "': expected NAME=VALUE, e.g. Evaluation=interim");
    const std::string name = o.substr(0, eq), value = o.substr(eq + 1);
    auto it = std::find_if(spec.uci_options.begin(), spec.uci_options.end(),
                           [&](const auto& kv) { return kv.first == name; });
    if (it != spec.uci_options.end()) {
      it->second = value;
    } else {
      spec.uci_options.push_back({name, value});
    }
    changed += (changed.empty() ? "" : ", ") + o;
  }
  return changed;
}

// The opponent: a Debian engine, any engine's command (--opponent-cmd), or (self) our own engine with
// some UCI options changed, e.g. Evaluation=interim against Evaluation=chip at fixed nodes: the
// evaluations' quality alone.
match::PlayerSpec opponent_spec(const MatchOptions& opt, const match::PlayerSpec& ours) {
  if (!opt.opponent_cmd.empty() || opt.opponent != "self") {
    match::PlayerSpec theirs;
    if (!opt.opponent_cmd.empty()) {
      std::istringstream words(opt.opponent_cmd);
      for (std::string w; words >> w;) theirs.command.push_back(w);
      if (theirs.command.empty()) throw std::invalid_argument("--opponent-cmd is empty");
      theirs.protocol = opt.opponent_protocol;
      theirs.use_pty = opt.opponent_pty;
      theirs.name =
          opt.opponent_name.empty() ? theirs.command[0].substr(theirs.command[0].rfind('/') + 1) : opt.opponent_name;
    } else {
      theirs = match::preset(opt.opponent, opt.opponent == "stockfish" ? opt.elo : 0);
      if (!opt.opponent_name.empty()) theirs.name = opt.opponent_name;
    }
    if (!opt.opponent_options.empty() && theirs.protocol != "uci")
      throw std::invalid_argument("--opponent-option needs --opponent self or a UCI opponent; " + theirs.name +
                                  " speaks " + theirs.protocol);
    apply_uci_options(theirs, opt.opponent_options);
    return theirs;
  }
  match::PlayerSpec theirs = ours;
  const std::string changed = apply_uci_options(theirs, opt.opponent_options);
  if (changed.empty()) throw std::invalid_argument("--opponent self needs at least one --opponent-option NAME=VALUE");
  theirs.name = opt.opponent_name.empty() ? "DeepBlue-rebuild (" + changed + ")" : opt.opponent_name;
  return theirs;
}

void run_match(const MatchOptions& opt) {
  match::TimeControl tc = match::parse_time_control(opt.tc);
  tc.nodes = opt.nodes;
  tc.margin_ms = opt.time_margin_ms;
  const auto openings = read_epd_file(opt.openings, FenMode::Lenient);
  if (openings.empty()) throw std::invalid_argument("no openings in '" + opt.openings + "'");
  // The opponent plays on one thread: ours leaves it a core (on a 2-core machine, one thread each).
  const int threads = opt.leaf.threads > 0 ? opt.leaf.threads : std::max(1, default_threads() - 1);
  const bool remote = chip::is_link_backend(opt.leaf.backend);
  const match::PlayerSpec ours{
      "DeepBlue-rebuild",
      {self_path(), "uci"},
      "uci",
      {{"Hash", std::to_string(opt.hash_mib)},
       remote ? std::pair<std::string, std::string>{"RemoteChips", chip::is_serial_backend(opt.leaf.backend)
                                                                       ? opt.leaf.backend
                                                                       : opt.leaf.backend.substr(7)}
              : std::pair<std::string, std::string>{"Backend", opt.leaf.backend},
       {"Chips", std::to_string(opt.leaf.chips)},
       {"ChipDepth", std::to_string(opt.leaf.chip_depth)},
       {"Workers", std::to_string(opt.leaf.workers)},
       {"Threads", std::to_string(threads)},
       {"Evaluation", opt.leaf.evaluation},
       {"LazyMargin", std::to_string(opt.leaf.lazy_margin)},
       // --eval-params (a file by its absolute path: the engine may run elsewhere).
       {"EvalParams",
        opt.leaf.eval_params == "default" || opt.leaf.eval_params == "hand" || opt.leaf.eval_params.empty()
            ? opt.leaf.eval_params
            : std::filesystem::absolute(opt.leaf.eval_params).string()},
       // Matches measure the search from their own openings, not the book.
       {"OwnBook", "false"}}};
  const match::PlayerSpec theirs = opponent_spec(opt, ours);
  if (opt.nodes > 0 && theirs.protocol != "uci")
    throw std::invalid_argument("--nodes: fixed nodes per move need a UCI engine; " + theirs.name + " speaks " +
                                theirs.protocol);
  auto us = match::make_player(ours);
  auto them = match::make_player(theirs);

  std::ofstream pgn;
  if (!opt.pgn.empty()) {
    pgn.open(opt.pgn);
    if (!pgn) throw std::runtime_error("cannot write PGN file '" + opt.pgn + "'");
  }
  match::MatchScore score;
  nlohmann::json games = nlohmann::json::array();
  const bool progress = stderr_is_terminal();
  const auto start = std::chrono::steady_clock::now();
  for (int n = 0; n < opt.games; ++n) {
    // Game i of the fixed sequence (0-based): each opening twice, colours swapped, so that neither
    // side profits from an unbalanced opening; --first-game starts the sequence further on.
    const int i = opt.first_game - 1 + n;
    const std::size_t opening_index = std::size_t(i / 2) % openings.size();
    const Position& opening = openings[opening_index].position;
    const bool we_are_white = i % 2 == 0;
    const match::GameRecord g =
        we_are_white ? match::play_game(*us, *them, opening, tc) : match::play_game(*them, *us, opening, tc);
    const bool draw = g.result == "1/2-1/2";
    const bool white_won = g.result == "1-0";
    if (draw)
      ++score.draws;
    else if (white_won == we_are_white)
      ++score.wins;
    else
      ++score.losses;
    if (pgn) pgn << match::to_pgn(g, i + 1);
    if (!g.failure_report.empty())
      std::cerr << fmt::format("game {}: {} ({}), {}", i + 1, g.reason, g.result, g.failure_report) << std::flush;
    games.push_back({{"game", i + 1},
                     {"opening_index", opening_index + 1},
                     {"we_are_white", we_are_white},
                     {"white", g.white},
                     {"black", g.black},
                     {"result", g.result},
                     {"reason", g.reason},
                     {"plies", g.moves.size()},
                     {"opening", opening.fen()}});
    if (progress) {
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      const double eta = secs / (n + 1) * (opt.games - n - 1);
      std::cerr << fmt::format("\rgame {}/{}  +{} ={} -{}  {:.0f}s elapsed, ETA {:.0f}s   ", n + 1, opt.games,
                               score.wins, score.draws, score.losses, secs, eta)
                << std::flush;
    }
  }
  if (progress) std::cerr << "\n";
  if (opt.json) {
    print_json({{"engine", ours.name},
                {"opponent", theirs.name},
                {"tc", opt.tc},
                {"time_margin_ms", opt.time_margin_ms},
                {"nodes", opt.nodes},
                {"games", opt.games},
                {"first_game", opt.first_game},
                {"own_book", false},
                {"wins", score.wins},
                {"draws", score.draws},
                {"losses", score.losses},
                {"score", score.score()},
                {"elo", score.elo()},
                {"elo_error95", score.elo_error95()},
                {"results", games}});
    return;
  }
  const std::string limit = opt.nodes > 0 ? fmt::format("{} nodes a move", opt.nodes) : opt.tc;
  std::cout << fmt::format("{} vs {} at {}: +{} ={} -{}  score {:.1f}%  Elo {:+.0f} +/- {:.0f}\n", ours.name,
                           theirs.name, limit, score.wins, score.draws, score.losses, 100 * score.score(), score.elo(),
                           score.elo_error95());
}

}  // namespace

void add_match_command(CLI::App& app) {
  auto opt = std::make_shared<MatchOptions>();
  CLI::App* cmd = app.add_subcommand("match", "Play our engine against a UCI or xboard engine from Debian (or any)");
  cmd->add_option("--opponent", opt->opponent,
                  "stockfish, fairymax, gnuchess, phalanx, sjeng, toga2, glaurung, ethereal (Debian's engines), or "
                  "self (our engine with --opponent-option changes)")
      ->check(CLI::IsMember(
          {"stockfish", "fairymax", "gnuchess", "phalanx", "sjeng", "toga2", "glaurung", "ethereal", "self"}))
      ->capture_default_str();
  cmd->add_option("--opponent-option", opt->opponent_options,
                  "A UCI option NAME=VALUE of the opponent (repeatable); with --opponent self: what differs from ours");
  cmd->add_option("--opponent-cmd", opt->opponent_cmd,
                  "Any engine as the opponent: its command line, words split at spaces (instead of --opponent)");
  cmd->add_option("--opponent-protocol", opt->opponent_protocol, "With --opponent-cmd: uci or xboard")
      ->check(CLI::IsMember({"uci", "xboard"}))
      ->capture_default_str();
  cmd->add_option("--opponent-name", opt->opponent_name, "The opponent's name in the PGN and the JSON");
  cmd->add_flag("--opponent-pty", opt->opponent_pty,
                "With --opponent-cmd: give the engine a pseudo-terminal (engines that buffer output on a pipe)");
  cmd->add_option("--first-game", opt->first_game,
                  "Start at this game of the match's fixed sequence (game G: opening (G+1)/2, our engine white "
                  "when G is odd), so a match can be resumed or split")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  cmd->add_option("--nodes", opt->nodes,
                  "Fixed nodes per move (\"go nodes\"; UCI opponents only), the clock aside: compares the engines' "
                  "knowledge at equal search effort")
      ->check(CLI::Range(std::uint64_t(1), std::uint64_t(1000000000)));
  cmd->add_option("--elo", opt->elo, "Stockfish strength limit (UCI_Elo, 1350-2850)")
      ->check(CLI::Range(1350, 2850))
      ->capture_default_str();
  cmd->add_option("--games", opt->games, "Number of games")->check(CLI::Range(1, 100000))->capture_default_str();
  cmd->add_option("--tc", opt->tc, "Time control: seconds[+increment]")->capture_default_str();
  cmd->add_option("--time-margin", opt->time_margin_ms,
                  "Milliseconds a clock may run below zero before the game is lost on time (a loaded machine)")
      ->check(CLI::Range(std::int64_t(0), std::int64_t(600000)))
      ->capture_default_str();
  cmd->add_option("--openings", opt->openings, "EPD file of opening positions")
      ->check(CLI::ExistingFile)
      ->capture_default_str();
  cmd->add_option("--pgn", opt->pgn, "Write the games to this PGN file");
  cmd->add_option("--hash", opt->hash_mib, "Our engine's hash in MiB")
      ->check(CLI::Range(1, 65536))
      ->capture_default_str();
  add_leaf_options(cmd, opt->leaf, 0);
  cmd->add_flag("--json", opt->json, "Print one JSON object");
  cmd->callback([opt] { run_match(*opt); });
}

}  // namespace db::cli
