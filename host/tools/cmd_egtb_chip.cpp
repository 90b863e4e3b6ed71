// deepblue egtb chip: the off-line use of the databases in AIJ 8.3, checking the chip's endgame
// knowledge against them. The KPK ROM (host/eval/kpk.h, the RTL's rtl/kpk_rom.hex) on every
// placement it holds; the KQKP and KRKP draw rules (docs/evaluation.md) wherever the chip's
// reference model fires them: how many of those positions the databases call drawn. (The KRPKR
// rule needs the 5-piece KRPvKR table, which is not built.)
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "chip/chip_client.h"
#include "chip/chip_model.h"
#include "chip/chip_regs.h"
#include "chip/placement.h"
#include "cli_common.h"
#include "commands.h"
#include "egtb/tablebases.h"
#include "egtb/verify.h"
#include "eval/kpk.h"

namespace db::cli {

namespace {

struct EgtbChipOptions {
  std::string dir = DB_DEFAULT_EGTB;
  bool json = false;
};

int chebyshev(Square a, Square b) {
  return std::max(std::abs(file_of(a) - file_of(b)), std::abs(rank_of(a) - rank_of(b)));
}

nlohmann::json check_kpk(const egtb::Tablebases& tbs) {
  const eval::KpkRom& rom = eval::kpk_rom();
  std::uint64_t placements = 0, differ = 0;
  std::string first;
  for (int stm = 0; stm < 2; ++stm)
    for (Square wk = 0; wk < 64; ++wk)
      for (Square bk = 0; bk < 64; ++bk)
        for (int file = 0; file < 4; ++file)
          for (int rank = 1; rank <= 6; ++rank) {
            egtb::Board b;
            b.add(W_KING, wk);
            b.add(B_KING, bk);
            b.add(W_PAWN, make_square(file, rank));
            b.stm = Color(stm);
            if (wk == bk || wk == b.sq[2] || bk == b.sq[2] || b.in_check(~b.stm)) continue;
            const std::optional<egtb::Value> v = tbs.probe(b);
            if (!v) throw egtb::EgtbError("egtb chip: no database KPvK.dbtb in " + tbs.dir());
            ++placements;
            const bool white_wins = v->wdl == (b.stm == WHITE ? egtb::Wdl::Win : egtb::Wdl::Loss);
            if (rom.white_wins(b.stm, wk, b.sq[2], bk) != white_wins && ++differ == 1) first = egtb::board_fen(b);
          }
  return {{"placements", placements}, {"differ", differ}, {"first_difference", first}};
}

// Every position of the table (the pawn side black, as the database holds it) whose pawn's king
// stands next to its pawn on the pawn's sixth or seventh rank (where both rules can fire), on the
// chip model with the rules on: where a rule fires, the databases' value.
nlohmann::json check_rule(const egtb::Tablebases& tbs, const char* material, int rule_bit, chip::ChipClient& chip) {
  const egtb::Material m = egtb::Material::parse(material).canonical();
  const egtb::Table* t = tbs.find(m);
  if (!t) throw egtb::EgtbError(std::string("egtb chip: no database ") + egtb::table_file_name(m) + " in " + tbs.dir());
  std::uint64_t fired = 0, draws = 0, strong_wins = 0, pawn_wins = 0;
  std::uint64_t pawn_to_move = 0, pawn_to_move_draws = 0;  // the rule does not look at the side to move
  std::string first_wrong;
  egtb::Board b;
  for (std::uint64_t i = 0; i < t->layout.size(); ++i) {
    if (!t->layout.decode(i, b)) continue;
    Square pawn = SQ_NONE, weak_king = SQ_NONE;
    for (int k = 0; k < b.n; ++k) {
      if (b.pc[k] == B_PAWN) pawn = b.sq[k];
      if (b.pc[k] == B_KING) weak_king = b.sq[k];
    }
    if (relative_rank(BLACK, rank_of(pawn)) < 5 || chebyshev(weak_king, pawn) != 1) continue;
    const Position pos = Position::from_fen(egtb::board_fen(b));
    chip.load(pos);
    chip.eval_init();
    if (!((chip.read(chip::reg::ENDGAME) >> 2) & (1u << rule_bit))) continue;
    ++fired;
    const egtb::Value v = egtb::Value::from_code(t->entries[i]);
    pawn_to_move += b.stm == BLACK;
    if (v.wdl == egtb::Wdl::Draw) {
      ++draws;
      pawn_to_move_draws += b.stm == BLACK;
      continue;
    }
    const bool white_wins = (v.wdl == egtb::Wdl::Win) == (b.stm == WHITE);
    ++(white_wins ? strong_wins : pawn_wins);
    if (first_wrong.empty()) first_wrong = egtb::board_fen(b);
  }
  return {{"material", m.name()},
          {"fired", fired},
          {"draws", draws},
          {"strong_side_wins", strong_wins},
          {"pawn_side_wins", pawn_wins},
          {"draw_share", fired ? double(draws) / double(fired) : 0.0},
          {"pawn_side_to_move", {{"fired", pawn_to_move}, {"draws", pawn_to_move_draws}}},
          {"first_not_drawn", first_wrong}};
}

void run_chip(const EgtbChipOptions& opt) {
  const egtb::Tablebases tbs(opt.dir);
  chip::ChipClient chip(std::make_unique<chip::ChipModel>());
  chip.load_placement(chip::default_placement());
  chip.load_phase(chip::default_phase());
  chip.write(chip::reg::EVAL_CTRL, 1);  // the rules on, the ROMs off
  const nlohmann::json kpk = check_kpk(tbs);
  const nlohmann::json kqkp = check_rule(tbs, "KQvKP", 0, chip);
  const nlohmann::json krkp = check_rule(tbs, "KRvKP", 1, chip);
  if (opt.json) {
    print_json({{"dir", opt.dir}, {"kpk_rom", kpk}, {"rules", {{"KQKP", kqkp}, {"KRKP", krkp}}}});
    return;
  }
  std::cout << fmt::format("KPK ROM: {} placements, {} differ from KPvK\n", kpk["placements"].get<std::uint64_t>(),
                           kpk["differ"].get<std::uint64_t>());
  for (const auto* r : {&kqkp, &krkp})
    std::cout << fmt::format(
        "{} rule: fires in {} positions: {} drawn ({:.1f} %), {} won by the stronger side, {} by "
        "the pawn; first not drawn: {}\n",
        (*r)["material"].get<std::string>(), (*r)["fired"].get<std::uint64_t>(), (*r)["draws"].get<std::uint64_t>(),
        100 * (*r)["draw_share"].get<double>(), (*r)["strong_side_wins"].get<std::uint64_t>(),
        (*r)["pawn_side_wins"].get<std::uint64_t>(), (*r)["first_not_drawn"].get<std::string>());
}

}  // namespace

void add_egtb_chip_command(CLI::App& egtb) {
  auto opt = std::make_shared<EgtbChipOptions>();
  CLI::App* c = egtb.add_subcommand("chip", "Check the chip's KPK ROM and KQKP/KRKP draw rules against the databases");
  c->add_option("--dir", opt->dir, "Directory of the database files (4 pieces)")->capture_default_str();
  c->add_flag("--json", opt->json, "Print one JSON object");
  c->callback([opt] { run_chip(*opt); });
}

}  // namespace db::cli
