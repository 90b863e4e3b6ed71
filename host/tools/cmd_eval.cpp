// deepblue eval: the chip's evaluation of a position, total and per feature group: the fast
// evaluation (placement, game phase, endgame logic, pawn race) and the slow evaluation's groups
// (docs/evaluation.md).
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "chip/chip_regs.h"
#include "chip/eval_generator.h"
#include "chip/placement.h"
#include "chip/slow_weights.h"
#include "chip_options.h"
#include "cli_common.h"
#include "commands.h"

namespace db::cli {

namespace {

struct EvalOptions {
  std::string fen = "startpos";
  std::string weights;       // placement table JSON to load
  std::string save_weights;  // write the table used to this file
  bool json = false;
  bool no_endgame_roms = false;
  bool no_endgame_rules = false;
  ChipOptions chip;
};

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("cannot read weights file '" + path + "'");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void run_eval(const EvalOptions& opt) {
  const Position pos = parse_position_arg(opt.fen);
  // The generator's weights for this root, or a weights file (its "slow" section is optional:
  // the generator's values otherwise).
  chip::EvalWeights w = chip::generate_weights(pos, generator_params_or_defaults(opt.chip.generator_params));
  if (!opt.weights.empty()) {
    const std::string text = read_file(opt.weights);
    w.placement = chip::placement_from_json(text);
    w.phase = chip::phase_from_json(text);
    const nlohmann::json parsed = nlohmann::json::parse(text);
    if (parsed.contains("slow")) w.slow = chip::slow_weights_from_json(parsed["slow"]);
  }
  if (!opt.save_weights.empty()) {
    std::ofstream out(opt.save_weights);
    if (!out) throw std::invalid_argument("cannot write weights file '" + opt.save_weights + "'");
    nlohmann::json j = nlohmann::json::parse(chip::weights_to_json(w.placement, w.phase));
    j["slow"] = chip::slow_weights_to_json(w.slow);
    out << j.dump(1) << "\n";
  }
  // EVAL_CTRL bit 0: endgame rules, bit 1: endgame ROMs.
  w.eval_ctrl = std::uint8_t((opt.no_endgame_rules ? 0 : 1) | (opt.no_endgame_roms ? 0 : 2));
  chip::ChipClient chip = make_chip_client(opt.chip);
  chip::download(chip, w);
  chip.load(pos);
  chip::CommandStats stats;
  chip.eval_init(&stats);
  const int total = chip.fast_eval();
  const int placement = chip.placement_sum();
  const std::uint32_t phase_word = chip.phase();
  const int combination = std::int8_t(phase_word & 0xFF);
  const std::uint32_t endgame = chip.read(chip::reg::ENDGAME);
  const std::uint32_t kpa = chip.read(chip::reg::KPA);
  chip::CommandStats slow_stats;
  const chip::ChipClient::SlowEval se = chip.slow_eval(&slow_stats);
  nlohmann::json slow_groups = nlohmann::json::object();
  for (int g = 0; g < chip::SLOW_GROUPS; ++g) slow_groups[chip::slow_group_name(g)] = se.group[g];
  auto runner = [](std::uint32_t moves) { return moves == 7 ? nlohmann::json(nullptr) : nlohmann::json(moves); };
  if (opt.json) {
    print_json(
        {{"fen", pos.fen()},
         {"backend", opt.chip.backend},
         {"eval", se.total},
         {"fast_eval", total},
         {"slow_eval", se.value},
         {"slow_groups", slow_groups},
         {"draw_score", std::int16_t(chip.read(chip::reg::DRAW_SCORE) & 0xFFFF)},
         {"groups", {{"piece_placement", placement}, {"material_combination", combination}}},
         {"phase",
          {{"king_safety_relevance", (phase_word >> 8) & 15}, {"pawn_structure_scale", (phase_word >> 12) & 15}}},
         {"endgame",
          {{"kpk", (endgame & 1) != 0},
           {"pawn_side_wins", (endgame & 2) != 0},
           {"kqkp_draw", (endgame & 4) != 0},
           {"krkp_draw", (endgame & 8) != 0},
           {"krpkr_draw", (endgame & 16) != 0}}},
         {"pawn_race",
          {{"white_runner_moves", runner(kpa & 7)},
           {"black_runner_moves", runner((kpa >> 4) & 7)},
           {"white_separated_passers", (kpa & 0x400) != 0},
           {"black_separated_passers", (kpa & 0x800) != 0},
           {"winner", (kpa & 0x100)   ? "white"
                      : (kpa & 0x200) ? "black"
                                      : "none"}}},
         {"view", "eval, fast_eval, slow_eval: side to move; groups, slow_groups: white"},
         {"eval_init_cycles", stats.cycles},
         {"slow_eval_cycles", slow_stats.cycles}});
    return;
  }
  std::cout << fmt::format("Evaluation (side to move): {} = fast {} + slow {}\n", se.total, total, se.value);
  std::cout << "Slow evaluation groups (white's view):";
  for (int g = 0; g < chip::SLOW_GROUPS; ++g) std::cout << fmt::format(" {} {}", chip::slow_group_name(g), se.group[g]);
  std::cout << fmt::format(" ({} clocks)\n", slow_stats.cycles);
  std::cout << fmt::format(
      "Fast evaluation (side to move): {}\n  piece placement (white's view): {}\n"
      "  material combination (white's view): {}\n  king-safety relevance {}, pawn-structure scale {}\n"
      "  king and pawn against king: {}\n"
      "EVAL_INIT took {} clocks on the {} backend\n",
      total, placement, combination, (phase_word >> 8) & 15, (phase_word >> 12) & 15,
      (endgame & 1) ? ((endgame & 2) ? "the ROM says the pawn side wins" : "the ROM says draw") : "no", stats.cycles,
      opt.chip.backend);
}

}  // namespace

void add_eval_command(CLI::App& app) {
  auto opt = std::make_shared<EvalOptions>();
  CLI::App* cmd =
      app.add_subcommand("eval", "The chip's evaluation of a position: fast and slow evaluation, per feature group");
  cmd->add_option("--fen", opt->fen, "Position as FEN, or 'startpos'")->capture_default_str();
  cmd->add_option("--weights", opt->weights,
                  "Evaluation weights to load (JSON, as written by --save-weights; without a \"slow\" section the "
                  "generator's slow-evaluation values)");
  cmd->add_option("--save-weights", opt->save_weights, "Write the weights used to this JSON file");
  cmd->add_flag("--no-endgame-roms", opt->no_endgame_roms, "Switch the endgame ROMs off (EVAL_CTRL bit 1)");
  cmd->add_flag("--no-endgame-rules", opt->no_endgame_rules, "Switch the endgame draw rules off (EVAL_CTRL bit 0)");
  add_chip_options(cmd, opt->chip, "model");
  add_eval_params_option(cmd, opt->chip.eval_params, opt->chip.generator_params);
  cmd->add_option("--backend", opt->chip.backend,
                  "model, rtl, cosim, remote:HOST:PORT (a chip behind deepblue chipd) or serial:PATH[@BAUD] (a board)")
      ->check(backend_validator({"model", "rtl", "cosim"}))
      ->capture_default_str();
  cmd->add_flag("--json", opt->json, "Print one JSON object");
  cmd->callback([opt] { run_eval(*opt); });
}

}  // namespace db::cli
