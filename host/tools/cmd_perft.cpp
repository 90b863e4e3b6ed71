// deepblue perft: leaf counts of the legal move tree, with divide, on the chess core.
#include <chrono>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "chess/notation.h"
#include "chess/perft.h"
#include "cli_common.h"
#include "commands.h"

namespace db::cli {

namespace {

struct PerftOptions {
  std::string fen = "startpos";
  int depth = 5;
  bool divide = false;
  bool json = false;
};

void run_perft(const PerftOptions& opt) {
  Position pos = parse_position_arg(opt.fen);
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t nodes = 0;
  std::vector<DivideEntry> divide;
  if (opt.divide) {
    divide = perft_divide(pos, opt.depth);
    for (const auto& e : divide) nodes += e.nodes;
  } else {
    nodes = perft(pos, opt.depth);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double nps = seconds > 0 ? double(nodes) / seconds : 0.0;

  if (opt.json) {
    nlohmann::json j = {{"fen", pos.fen()}, {"depth", opt.depth}, {"nodes", nodes}, {"seconds", seconds}, {"nps", nps}};
    if (opt.divide) {
      nlohmann::json list = nlohmann::json::array();
      for (const auto& e : divide) list.push_back({{"move", move_to_uci(e.move)}, {"nodes", e.nodes}});
      j["divide"] = list;
    }
    print_json(j);
    return;
  }
  for (const auto& e : divide) std::cout << move_to_uci(e.move) << ": " << e.nodes << "\n";
  if (opt.divide) std::cout << "\n";
  std::cout << fmt::format("Nodes searched: {}\nDepth: {}\nTime: {:.3f} s\nNPS: {:.0f}\n", nodes, opt.depth, seconds, nps);
}

}  // namespace

void add_perft_command(CLI::App& app) {
  auto opt = std::make_shared<PerftOptions>();
  CLI::App* cmd = app.add_subcommand("perft", "Count the leaves of the legal move tree to a depth");
  cmd->add_option("--fen", opt->fen, "Position as FEN, or 'startpos'")->capture_default_str();
  cmd->add_option("-d,--depth", opt->depth, "Depth in plies")->check(CLI::Range(0, 20))->capture_default_str();
  cmd->add_flag("--divide", opt->divide, "Print the count below each root move");
  cmd->add_flag("--json", opt->json, "Print one JSON object");
  cmd->callback([opt] { run_perft(*opt); });
}

}  // namespace db::cli
