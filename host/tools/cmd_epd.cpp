// deepblue epd: run a test suite (bm / am opcodes) with a time per position; print each result and
// the number solved.
#include <iostream>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "chess/epd.h"
#include "chess/notation.h"
#include "chip_options.h"
#include "cli_common.h"
#include "cluster_options.h"
#include "commands.h"
#include "search/search.h"

namespace db::cli {

namespace {

struct EpdOptions {
  std::string file;
  std::int64_t movetime_ms = 1000;
  std::int64_t chip_movetime_ms = 0;
  int depth = 0;
  std::uint64_t nodes = 0;
  std::size_t hash_mib = 64;
  int first = 0;
  int count = 0;  // 0: all
  bool no_dual_credit = false;
  int qchecks = search::SearchOptions{}.quiescence_checks;
  bool no_static_exchange = false;
  bool json = false;
  LeafOptions leaf;
  ClusterOptions cluster;
};

// "bm Qg6 Qh5;" may list several moves; each is parsed as SAN in the record's position.
bool matches_any(const Position& pos, const std::string& list, Move m) {
  std::istringstream in(list);
  for (std::string san; in >> san;) {
    try {
      if (parse_san(pos, san) == m) return true;
    } catch (const NotationError&) {
      // a move the suite gives that is illegal here never matches
    }
  }
  return false;
}

void run_epd(const EpdOptions& opt) {
  if (opt.chip_movetime_ms > 0 && opt.leaf.chip_depth == 0)
    throw std::invalid_argument("--chip-movetime needs the chips as the leaf search (--chip-depth 1-8)");
  const auto records = read_epd_file(opt.file, FenMode::Lenient);
  const int end = opt.count > 0 ? std::min<int>(int(records.size()), opt.first + opt.count) : int(records.size());
  search::TranspositionTable tt(opt.hash_mib);
  search::SearchOptions so;
  so.dual_credit = !opt.no_dual_credit;
  so.quiescence_checks = opt.qchecks;
  so.static_exchange = !opt.no_static_exchange;
  apply_leaf_options(opt.leaf, so);
  int solved = 0, total = 0;
  nlohmann::json results = nlohmann::json::array();
  const bool progress = stderr_is_terminal();
  std::unique_ptr<search::ChipLeafSearch> chips;
  std::unique_ptr<ClusterRun> cluster;
  if (opt.cluster.enabled()) {
    cluster = ClusterRun::start(opt.cluster, opt.leaf, so, tt);
    if (!cluster) return;  // a worker rank: its life is over
  } else {
    chips = make_leaf_search(opt.leaf);
  }
  for (int i = opt.first; i < end; ++i) {
    const EpdRecord& rec = records[std::size_t(i)];
    const std::string* bm = rec.find("bm");
    const std::string* am = rec.find("am");
    if (!bm && !am) continue;
    tt.clear();
    search::Searcher searcher(tt, so);
    searcher.set_leaf_search(chips.get());
    search::Limits limits;
    // Deterministic runs have no wall clock: a fixed depth, nodes or simulated chip time.
    const bool fixed = opt.depth > 0 || opt.nodes > 0 || opt.chip_movetime_ms > 0;
    limits.movetime_ms = fixed ? 0 : opt.movetime_ms;
    limits.chip_movetime_ms = opt.chip_movetime_ms;
    limits.depth = opt.depth;
    limits.nodes = opt.nodes;
    const search::SearchResult r =
        cluster ? cluster->search(searcher, rec.position, limits) : searcher.run(rec.position, limits);
    const bool ok = (!bm || matches_any(rec.position, *bm, r.best)) && (!am || !matches_any(rec.position, *am, r.best));
    solved += ok;
    ++total;
    const std::string* id = rec.find("id");
    const std::string san = r.best.is_none() ? "-" : move_to_san(rec.position, r.best);
    results.push_back({{"id", id ? *id : std::to_string(i + 1)},
                       {"move", san},
                       {"solved", ok},
                       {"depth", r.depth},
                       {"score", r.score},
                       {"nodes", r.nodes}});
    if (!opt.json)
      std::cout << fmt::format("{:<12} {:<8} {:<7} {}{}\n", id ? *id : std::to_string(i + 1), san,
                               ok ? "solved" : "missed", bm ? "bm " + *bm : "", am ? " am " + *am : "");
    else if (progress)
      std::cerr << fmt::format("\r{}/{} positions, {} solved", i - opt.first + 1, end - opt.first, solved)
                << std::flush;
  }
  if (progress && opt.json) std::cerr << "\n";
  if (opt.json) {
    print_json({{"file", opt.file},
                {"solved", solved},
                {"total", total},
                {"movetime_ms", opt.movetime_ms},
                {"chip_movetime_ms", opt.chip_movetime_ms},
                {"dual_credit", so.dual_credit},
                {"chip_depth", opt.leaf.chip_depth},
                {"chips", chips || cluster ? opt.leaf.chips : 0},
                {"results", results}});
    return;
  }
  std::cout << fmt::format("solved {} of {}\n", solved, total);
}

}  // namespace

void add_epd_command(CLI::App& app) {
  auto opt = std::make_shared<EpdOptions>();
  CLI::App* cmd = app.add_subcommand("epd", "Run an EPD test suite (bm/am) and count the solved positions");
  cmd->add_option("file", opt->file, "EPD file")->required()->check(CLI::ExistingFile);
  cmd->add_option("--movetime", opt->movetime_ms, "Milliseconds per position")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--chip-movetime", opt->chip_movetime_ms,
                  "Simulated chip milliseconds per position instead (24 MHz; needs --chip-depth): repeatable")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--depth", opt->depth, "Fixed depth instead of a time")->check(CLI::Range(1, 60));
  cmd->add_option("--nodes", opt->nodes, "Fixed node budget instead of a time (repeatable results)");
  cmd->add_option("--hash", opt->hash_mib, "Transposition table MiB")
      ->check(CLI::Range(1, 65536))
      ->capture_default_str();
  cmd->add_option("--first", opt->first, "Index of the first record (0-based)")->check(CLI::NonNegativeNumber);
  cmd->add_option("--count", opt->count, "Number of records (0: all)")->check(CLI::NonNegativeNumber);
  cmd->add_flag("--no-dual-credit", opt->no_dual_credit, "Plain search with check extension (for comparison)");
  cmd->add_option("--quiescence-checks", opt->qchecks,
                  "First plies of the software quiescence search that also search quiet checks (0: captures only)")
      ->check(CLI::Range(0, 8))
      ->capture_default_str();
  cmd->add_flag("--no-static-exchange", opt->no_static_exchange,
                "Without static exchange: the quiescence search also searches captures and quiet checks that lose "
                "material, and losing captures are ordered with the others");
  add_leaf_options(cmd, opt->leaf, 0);
  add_cluster_options(cmd, opt->cluster);
  cmd->add_flag("--json", opt->json, "Print one JSON object");
  cmd->callback([opt] { run_epd(*opt); });
}

}  // namespace db::cli
