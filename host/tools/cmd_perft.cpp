// deepblue perft: leaf counts of the legal move tree, with divide, on the chess core or on the chip
// (reference model, RTL, or both in lock-step): the chip counts with its own move generator,
// make/unmake and legality test, and reports the clocks it used.
#include <chrono>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "chess/notation.h"
#include "chess/perft.h"
#include "chip/chip_model.h"
#include "chip_options.h"
#include "cli_common.h"
#include "commands.h"

namespace db::cli {

namespace {

struct PerftOptions {
  std::string fen = "startpos";
  int depth = 5;
  bool divide = false;
  bool json = false;
  ChipOptions chip;
};

struct ChipPerftResult {
  std::uint64_t nodes = 0;
  std::uint64_t cycles = 0;
  std::uint64_t generated = 0;
  nlohmann::json state_clocks;  // model backend: clocks per controller state
};

void record_state_clocks(chip::ChipClient& chip, ChipPerftResult& r) {
  const auto* model = dynamic_cast<const chip::ChipModel*>(&chip.backend());
  if (!model) return;
  for (std::uint8_t s = 0; s < 7; ++s) r.state_clocks[chip::ctrl_state_name(s)] = model->state_clocks()[s];
}

// Perft on the chip; with divide, one chip perft below each root move the chip generates.
ChipPerftResult chip_perft(const PerftOptions& opt, const Position& pos, std::vector<DivideEntry>* divide) {
  chip::ChipClient chip = make_chip_client(opt.chip);
  chip.load(pos);
  ChipPerftResult r;
  auto add = [&r](const chip::CommandStats& s) {
    r.cycles += s.cycles;
    r.generated += s.generated;
  };
  if (opt.depth == 0) {
    r.nodes = 1;
    return r;
  }
  if (!divide) {
    chip::CommandStats s;
    r.nodes = chip.perft(opt.depth, &s);
    add(s);
    record_state_clocks(chip, r);
    return r;
  }
  chip::CommandStats gen;
  const std::vector<std::uint16_t> roots = chip.generate(chip::GenMode::ALL, &gen);
  add(gen);
  for (std::uint16_t m : roots) {
    std::uint64_t n = 1;
    chip.make(m);
    if (opt.depth > 1) {
      chip::CommandStats s;
      n = chip.perft(opt.depth - 1, &s);
      add(s);
    }
    chip.unmake();
    divide->push_back({chip::from_chip_move(pos, m), n});
    r.nodes += n;
  }
  record_state_clocks(chip, r);
  return r;
}

void run_perft(const PerftOptions& opt) {
  Position pos = parse_position_arg(opt.fen);
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t nodes = 0;
  std::vector<DivideEntry> divide;
  const bool on_chip = opt.chip.backend != "core";
  ChipPerftResult chip_result;
  if (on_chip) {
    chip_result = chip_perft(opt, pos, opt.divide ? &divide : nullptr);
    nodes = chip_result.nodes;
  } else if (opt.divide) {
    divide = perft_divide(pos, opt.depth);
    for (const auto& e : divide) nodes += e.nodes;
  } else {
    nodes = perft(pos, opt.depth);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double nps = seconds > 0 ? double(nodes) / seconds : 0.0;

  if (opt.json) {
    nlohmann::json j = {{"fen", pos.fen()},   {"depth", opt.depth}, {"nodes", nodes},
                        {"seconds", seconds}, {"nps", nps},         {"backend", opt.chip.backend}};
    if (on_chip) {
      j["cycles"] = chip_result.cycles;
      j["generated"] = chip_result.generated;
      j["cycles_per_node"] = nodes ? double(chip_result.cycles) / double(nodes) : 0.0;
      if (!chip_result.state_clocks.is_null()) j["state_clocks"] = chip_result.state_clocks;
    }
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
  std::cout << fmt::format("Nodes searched: {}\nDepth: {}\nTime: {:.3f} s\nNPS: {:.0f}\n", nodes, opt.depth, seconds,
                           nps);
  if (on_chip) {
    std::cout << fmt::format("Backend: {}\nChip clocks: {}\nClocks per node: {:.2f}\nMoves generated: {}\n",
                             opt.chip.backend, chip_result.cycles,
                             nodes ? double(chip_result.cycles) / double(nodes) : 0.0, chip_result.generated);
  }
}

}  // namespace

void add_perft_command(CLI::App& app) {
  auto opt = std::make_shared<PerftOptions>();
  CLI::App* cmd = app.add_subcommand("perft", "Count the leaves of the legal move tree to a depth");
  cmd->add_option("--fen", opt->fen, "Position as FEN, or 'startpos'")->capture_default_str();
  cmd->add_option("-d,--depth", opt->depth, "Depth in plies")->check(CLI::Range(0, 20))->capture_default_str();
  cmd->add_flag("--divide", opt->divide, "Print the count below each root move");
  cmd->add_flag("--json", opt->json, "Print one JSON object");
  add_chip_options(cmd, opt->chip, "core");
  cmd->add_option("--backend", opt->chip.backend,
                  "core (the chess core), or the chip: model (reference model), rtl (verilated RTL), "
                  "cosim (both in lock-step)")
      ->check(backend_validator({"core", "model", "rtl", "cosim"}))
      ->capture_default_str();
  cmd->callback([opt] { run_perft(*opt); });
}

}  // namespace db::cli
