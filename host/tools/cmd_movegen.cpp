// deepblue movegen: the chip's moves for a position in one generator mode, in the order the chip
// produces them (captures by victim and attacker value, then quiet moves by centrality), with the
// clocks it took.
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "chess/notation.h"
#include "chip_options.h"
#include "cli_common.h"
#include "commands.h"

namespace db::cli {

namespace {

struct MovegenOptions {
  std::string fen = "startpos";
  std::string mode = "all";
  bool json = false;
  ChipOptions chip;
};

void run_movegen(const MovegenOptions& opt) {
  const Position pos = parse_position_arg(opt.fen);
  const chip::GenMode mode = chip::parse_gen_mode(opt.mode);
  chip::ChipClient chip = make_chip_client(opt.chip);
  chip.load(pos);
  chip::CommandStats stats;
  const std::vector<std::uint16_t> words = chip.generate(mode, &stats);
  const bool in_check = chip.in_check();
  const std::uint64_t hung = chip.hung();
  const std::uint64_t pinned = chip.pinned();

  std::vector<std::string> uci, san;
  for (std::uint16_t w : words) {
    const Move m = chip::from_chip_move(pos, w);
    if (m.is_none())
      throw std::runtime_error("chip produced a move that is not legal here: " + chip::chip_move_to_string(w));
    uci.push_back(move_to_uci(m));
    san.push_back(move_to_san(pos, m));
  }
  std::vector<std::string> hung_squares, pinned_squares;
  for (int s = 0; s < 64; ++s) {
    if (hung >> s & 1) hung_squares.push_back(std::string{char('a' + (s & 7)), char('1' + (s >> 3))});
    if (pinned >> s & 1) pinned_squares.push_back(std::string{char('a' + (s & 7)), char('1' + (s >> 3))});
  }
  if (opt.json) {
    print_json({{"fen", pos.fen()},
                {"mode", opt.mode},
                {"backend", opt.chip.backend},
                {"moves", uci},
                {"san", san},
                {"count", uci.size()},
                {"cycles", stats.cycles},
                {"generated", stats.generated},
                {"in_check", in_check},
                {"hung", hung_squares},
                {"pinned", pinned_squares}});
    return;
  }
  for (std::size_t i = 0; i < uci.size(); ++i) std::cout << fmt::format("{:3} {:6} {}\n", i + 1, uci[i], san[i]);
  std::cout << fmt::format(
      "{} moves ({} mode, {} backend), {} clocks, {} generated before legality, "
      "in check: {}\n",
      uci.size(), opt.mode, opt.chip.backend, stats.cycles, stats.generated, in_check ? "yes" : "no");
  auto squares = [](const std::vector<std::string>& v) {
    std::string out;
    for (const std::string& sq : v) out += (out.empty() ? "" : " ") + sq;
    return out.empty() ? std::string("-") : out;
  };
  std::cout << "hung: " << squares(hung_squares) << ", pinned: " << squares(pinned_squares) << "\n";
}

}  // namespace

void add_movegen_command(CLI::App& app) {
  auto opt = std::make_shared<MovegenOptions>();
  CLI::App* cmd = app.add_subcommand("movegen", "List the chip's moves for a position, in the chip's order");
  cmd->add_option("--fen", opt->fen, "Position as FEN, or 'startpos'")->capture_default_str();
  cmd->add_option("--mode", opt->mode, "all, captures, checks, evasions or attacks")
      ->check(CLI::IsMember({"all", "captures", "checks", "evasions", "attacks"}))
      ->capture_default_str();
  add_chip_options(cmd, opt->chip, "model");
  cmd->add_option("--backend", opt->chip.backend,
                  "model, rtl, cosim, remote:HOST:PORT (a chip behind deepblue chipd) or serial:PATH[@BAUD] (a board)")
      ->check(backend_validator({"model", "rtl", "cosim"}))
      ->capture_default_str();
  cmd->add_flag("--json", opt->json, "Print one JSON object");
  cmd->callback([opt] { run_movegen(*opt); });
}

}  // namespace db::cli
