// deepblue search: one search of a position, for scripts (JSON) and people (a line per iteration).
#include <filesystem>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "book/extended_book.h"
#include "chess/notation.h"
#include "chip_options.h"
#include "cli_common.h"
#include "cluster_options.h"
#include "commands.h"
#include "egtb/tablebases.h"
#include "search/score.h"
#include "search/search.h"

namespace db::cli {

namespace {

struct SearchOptions {
  std::string fen = "startpos";
  std::string moves;          // game moves from fen to the root (UCI): their positions count for repetitions
  std::string extended_book;  // AIJ 8.2: root bonuses (and the move it would play at once)
  int depth = 0;
  std::int64_t movetime_ms = 0;
  std::int64_t chip_movetime_ms = 0;
  std::uint64_t nodes = 0;
  std::size_t hash_mib = 64;
  int multipv = 1;
  LeafOptions leaf;
  ClusterOptions cluster;
  bool no_dual_credit = false;
  int qchecks = search::SearchOptions{}.quiescence_checks;
  bool no_static_exchange = false;
  bool no_progress = false;
  int contempt = 0;
  std::string egtb = DB_DEFAULT_EGTB;  // endgame databases (none: off)
  bool egtb_given = false;
  bool json = false;
};

std::string pv_text(const std::vector<Move>& pv) {
  std::string s;
  for (Move m : pv) s += (s.empty() ? "" : " ") + move_to_uci(m);
  return s;
}

// The MultiPV lines (--multipv > 1): best first, each with its exact score and principal variation.
nlohmann::json lines_json(const std::vector<search::PvLine>& lines) {
  nlohmann::json out = nlohmann::json::array();
  for (const search::PvLine& l : lines)
    out.push_back({{"move", move_to_uci(l.move)},
                   {"score", l.score},
                   {"tie_breaker", l.tie},
                   {"mate", search::is_mate_score(l.score) ? search::mate_in_moves(l.score) : 0},
                   {"pv", pv_text(l.pv)}});
  return out;
}

// The endgame databases of --egtb: the default directory only when it exists (deepblue egtb build
// makes it); a directory given on the command line must exist.
std::unique_ptr<egtb::Tablebases> open_tablebases(const std::string& dir, bool given) {
  if (dir.empty() || dir == "none") return nullptr;
  if (!std::filesystem::is_directory(dir)) {
    if (given) throw std::invalid_argument("--egtb: '" + dir + "' is not a directory (deepblue egtb build makes it)");
    return nullptr;
  }
  return std::make_unique<egtb::Tablebases>(dir);
}

void run_search(const SearchOptions& opt) {
  if (opt.depth == 0 && opt.movetime_ms == 0 && opt.nodes == 0 && opt.chip_movetime_ms == 0)
    throw std::invalid_argument("give a limit: --depth, --movetime, --chip-movetime or --nodes");
  if (opt.chip_movetime_ms > 0 && opt.leaf.chip_depth == 0)
    throw std::invalid_argument("--chip-movetime needs the chips as the leaf search (--chip-depth 1-8)");
  const Position pos = parse_position_arg(opt.fen, opt.moves);
  search::TranspositionTable tt(opt.hash_mib);
  search::SearchOptions so;
  so.dual_credit = !opt.no_dual_credit;
  so.quiescence_checks = opt.qchecks;
  so.static_exchange = !opt.no_static_exchange;
  so.no_progress = opt.no_progress;
  so.contempt = opt.contempt;
  so.multipv = opt.multipv;
  apply_leaf_options(opt.leaf, so);
  const std::unique_ptr<egtb::Tablebases> tablebases = open_tablebases(opt.egtb, opt.egtb_given);
  so.tablebases = tablebases.get();
  search::Searcher searcher(tt, so);
  std::unique_ptr<ClusterRun> cluster;
  std::unique_ptr<search::ChipLeafSearch> chips;
  if (opt.cluster.enabled()) {
    cluster = ClusterRun::start(opt.cluster, opt.leaf, so, tt);
    if (!cluster) return;  // a worker rank: its life is over
  } else {
    chips = make_leaf_search(opt.leaf);
    searcher.set_leaf_search(chips.get());
  }
  search::Limits limits;
  limits.depth = opt.depth;
  nlohmann::json xbook;  // what the extended book said, for --json
  if (!opt.extended_book.empty()) {
    const book::ExtendedBook book = book::ExtendedBook::read(opt.extended_book);
    nlohmann::json bonuses = nlohmann::json::object();
    for (const book::RootBonus& b : book.bonuses(pos)) {
      limits.root_bonus.push_back({b.move, b.bonus});
      bonuses[move_to_uci(b.move)] = b.bonus;
    }
    const std::optional<Move> now = book.immediate(pos);
    // The search runs all the same (this is an analysis command); an engine would play it at once.
    xbook = {{"file", opt.extended_book},
             {"bonuses", bonuses},
             {"immediate", now ? nlohmann::json(move_to_uci(*now)) : nlohmann::json()}};
  }
  limits.movetime_ms = opt.movetime_ms;
  limits.chip_movetime_ms = opt.chip_movetime_ms;
  limits.nodes = opt.nodes;
  nlohmann::json iterations = nlohmann::json::array();
  // A line per iteration: always without --json; with it, on a terminal only (stderr), never in logs.
  const bool progress = !opt.json || stderr_is_terminal();
  auto chip_stats = [&] { return cluster ? leaf_stats_json(cluster->stats()) : leaf_stats_json(chips.get()); };

  auto on_iteration = [&](const search::IterationInfo& info) {
    iterations.push_back({{"depth", info.depth},
                          {"seldepth", info.seldepth},
                          {"score", info.score},
                          {"nodes", info.nodes},
                          {"seconds", info.seconds},
                          {"max_software_ply", info.max_software_ply},
                          {"extensions", info.extensions},
                          {"pv", pv_text(info.pv)},
                          {"chip", chip_stats()}});
    if (opt.multipv > 1) iterations.back()["lines"] = lines_json(info.lines);
    if (progress) {
      const nlohmann::json figures = chip_stats();
      const std::string chip_part =
          chips || cluster ? fmt::format(" chip searches {:8} chips busy {:4.2f}",
                                         figures["searches"].get<std::uint64_t>(), figures["chips_busy"].get<double>())
                           : "";
      std::cerr << fmt::format(
          "depth {:2} software {:2} seldepth {:2} ext {:6} score {:6} nodes {:10} time {:7.2f}s{} pv {}\n", info.depth,
          info.max_software_ply, info.seldepth, info.extensions, info.score, info.nodes, info.seconds, chip_part,
          pv_text(info.pv));
      for (std::size_t i = 1; i < info.lines.size(); ++i)
        std::cerr << fmt::format("  line {:2} score {:6} pv {}\n", i + 1, info.lines[i].score,
                                 pv_text(info.lines[i].pv));
    }
  };
  const search::SearchResult result =
      cluster ? cluster->search(searcher, pos, limits, on_iteration) : searcher.run(pos, limits, on_iteration);
  if (opt.json) {
    // Workers waiting on average over the search's simulated time, by what they wait for.
    const double clocks = double(result.leaf.parallel_clocks);
    auto waiting = [clocks](std::uint64_t c) { return clocks > 0 ? double(c) / clocks : 0.0; };
    nlohmann::json out = {{"fen", pos.fen()},
                          {"bestmove", move_to_uci(result.best)},
                          {"score", result.score},
                          {"tie_breaker", result.tie},
                          {"mate", search::is_mate_score(result.score) ? search::mate_in_moves(result.score) : 0},
                          {"depth", result.depth},
                          {"nodes", result.nodes},
                          {"seconds", result.seconds},
                          {"nps", result.seconds > 0 ? double(result.nodes) / result.seconds : 0.0},
                          {"pv", pv_text(result.pv)},
                          {"backend", chips || cluster ? opt.leaf.backend : "software"},
                          {"chips", chips || cluster ? opt.leaf.chips : 0},
                          {"chip_depth", opt.leaf.chip_depth},
                          {"evaluation", opt.leaf.evaluation},
                          {"lazy_margin", opt.leaf.evaluation == "chip" ? opt.leaf.lazy_margin : 0},
                          {"lazy_stand_pats", result.lazy_stand_pats},
                          {"workers", opt.leaf.workers},
                          {"splits", result.splits},
                          {"helper_splits", result.helper_splits},
                          {"offset_splits", result.offset_splits},
                          {"root_moves_given_back", result.root_moves_given_back},
                          {"early_first_moves", result.early_first_moves},
                          {"early_first_moves_dropped", result.early_first_moves_dropped},
                          {"workers_waiting",
                           {{"answer", waiting(result.wait_answer_clocks)},
                            {"work", waiting(result.wait_work_clocks)},
                            {"helpers", waiting(result.wait_helpers_clocks)}}},
                          {"chip_node_limit", opt.leaf.chip_node_limit},
                          {"too_big_for_chips", result.too_big_for_chips},
                          {"egtb", tablebases ? nlohmann::json(tablebases->dir()) : nlohmann::json()},
                          {"egtb_hits", result.tb_hits},
                          {"egtb_root", result.tb_root},
                          {"chip", chip_stats()},
                          {"iterations", iterations}};
    if (cluster) out["cluster"] = cluster->stats_json();
    if (!xbook.is_null()) out["extended_book"] = xbook;
    if (opt.multipv > 1) {
      out["multipv"] = opt.multipv;
      out["lines"] = lines_json(result.lines);
    }
    print_json(out);
    return;
  }
  std::cout << "bestmove " << move_to_uci(result.best) << " score " << result.score << " depth " << result.depth
            << " nodes " << result.nodes << "\n";
  for (std::size_t i = 1; i < result.lines.size(); ++i)
    std::cout << "line " << i + 1 << " " << move_to_uci(result.lines[i].move) << " score " << result.lines[i].score
              << " pv " << pv_text(result.lines[i].pv) << "\n";
}

}  // namespace

void add_search_command(CLI::App& app) {
  auto opt = std::make_shared<SearchOptions>();
  CLI::App* cmd = app.add_subcommand("search", "Search one position and print the best move");
  cmd->add_option("--fen", opt->fen, "Position as FEN, or 'startpos'")->capture_default_str();
  cmd->add_option("--moves", opt->moves,
                  "Game moves played from --fen to the position searched (UCI, space separated): repetitions of the "
                  "positions they pass through are draws in the search, on one node and on the cluster");
  cmd->add_option("--depth", opt->depth, "Depth limit in plies")->check(CLI::Range(0, 100));
  cmd->add_option("--movetime", opt->movetime_ms, "Time limit in milliseconds")->check(CLI::NonNegativeNumber);
  cmd->add_option(
         "--chip-movetime", opt->chip_movetime_ms,
         "Limit in simulated chip time (ms at 24 MHz; with --chip-depth): the 1997 machine's clock, not this one's")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--nodes", opt->nodes, "Node limit");
  cmd->add_option("--hash", opt->hash_mib, "Transposition table size in MiB")
      ->check(CLI::Range(1, 65536))
      ->capture_default_str();
  cmd->add_option("--extended-book", opt->extended_book,
                  "Extended book (AIJ 8.2; deepblue book extend): its bonuses offset the root moves' windows")
      ->check(CLI::ExistingFile);
  cmd->add_option("--multipv", opt->multipv, "Lines to search, best first, each with an exact score and its PV")
      ->check(CLI::Range(1, search::kMaxMultiPv))
      ->capture_default_str();
  add_leaf_options(cmd, opt->leaf, 4);
  add_cluster_options(cmd, opt->cluster);
  cmd->add_flag("--no-dual-credit", opt->no_dual_credit, "Plain NegaScout with a check extension (for comparison)");
  cmd->add_option("--quiescence-checks", opt->qchecks,
                  "First plies of the software quiescence search that also search quiet checks (0: captures only)")
      ->check(CLI::Range(0, 8))
      ->capture_default_str();
  cmd->add_flag("--no-static-exchange", opt->no_static_exchange,
                "Without static exchange: the quiescence search also searches captures and quiet checks that lose "
                "material, and losing captures are ordered with the others");
  cmd->add_flag("--no-progress", opt->no_progress, "Switch on \"no progress\" pruning (AIJ 4.3; off by default)");
  cmd->add_option(
         "--contempt", opt->contempt,
         "Centipawns a draw counts below zero for the side to move at the root (negative: the machine wants draws)")
      ->check(CLI::Range(-200, 200))
      ->capture_default_str();
  cmd->add_option("--egtb", opt->egtb,
                  "Directory of endgame databases (deepblue egtb build; 'none': off; used when it exists)")
      ->capture_default_str()
      ->each([opt](const std::string&) { opt->egtb_given = true; });
  cmd->add_flag("--json", opt->json, "Print one JSON object");
  cmd->callback([opt] { run_search(*opt); });
}

}  // namespace db::cli
