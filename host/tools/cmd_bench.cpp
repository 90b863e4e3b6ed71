// deepblue bench: fixed positions searched to a fixed depth. The total node count is a signature
// that changes exactly when the search's behaviour changes; nps is reported beside it.
#include <chrono>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "cli_common.h"
#include "commands.h"
#include "search/search.h"

namespace db::cli {

namespace {

// A mix of openings, middlegames and endgames (the first ones from Stockfish's bench list).
const char* const kBenchFens[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    "rq3rk1/ppp2ppp/1bnpb3/3N2B1/3NP3/7P/PPPQ1PP1/2KR3R w - - 7 14",
    "r1bq1r1k/1pp1n1pp/1p1p4/4p2Q/4Pp2/1BNP4/PPP2PPP/3R1RK1 w - - 2 14",
    "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
    "6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/3N4 b - - 0 1",
    "3b4/5kp1/1p1p1p1p/pP1PpP1P/P1P1P3/3KN3/8/8 w - - 0 1",
    "2K5/p7/7P/5pR1/8/5k2/r7/8 w - - 0 1",
    "8/8/3P3k/8/1p6/8/1P6/1K3n2 b - - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
};

struct BenchOptions {
  int depth = 7;
  bool json = false;
};

void run_bench(const BenchOptions& opt) {
  std::uint64_t total = 0;
  double seconds = 0;
  for (const char* fen : kBenchFens) {
    search::TranspositionTable tt(16);
    search::Searcher searcher(tt);
    search::Limits limits;
    limits.depth = opt.depth;
    const auto result = searcher.run(Position::from_fen(fen), limits);
    total += result.nodes;
    seconds += result.seconds;
    if (!opt.json) std::cerr << fmt::format("{:>10} nodes  {}\n", result.nodes, fen);
  }
  const double nps = seconds > 0 ? double(total) / seconds : 0;
  if (opt.json) {
    print_json({{"depth", opt.depth},
                {"positions", std::size(kBenchFens)},
                {"nodes", total},
                {"seconds", seconds},
                {"nps", nps}});
    return;
  }
  std::cout << fmt::format("Nodes searched  : {}\nTotal time (s)  : {:.3f}\nNodes/second    : {:.0f}\n", total, seconds,
                           nps);
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto opt = std::make_shared<BenchOptions>();
  CLI::App* cmd =
      app.add_subcommand("bench", "Search fixed positions to a fixed depth; print the node signature and nps");
  cmd->add_option("--depth", opt->depth, "Depth per position")->check(CLI::Range(1, 30))->capture_default_str();
  cmd->add_flag("--json", opt->json, "Print one JSON object");
  cmd->callback([opt] { run_bench(*opt); });
}

}  // namespace db::cli
