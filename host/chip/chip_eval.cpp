// See chip_eval.h. Each step names the register or block of the model it reproduces.
#include "chip/chip_eval.h"

#include "chip/chip_client.h"
#include "chip/model/ctrl_pkg.h"
#include "chip/model/eval_blocks.h"
#include "chip/slow_eval.h"

namespace db::chip {

ChipEvaluation ChipEvaluator::evaluate(const Position& pos) const {
  const ChipPosition cp = ChipPosition::of(pos);
  const bool stm = cp.black_to_move;
  // EVAL_INIT: the placement sum (white's view, 16-bit wrap-around) and the phase registers.
  PhaseRegs ph;
  std::uint16_t pst = 0;
  for (int sq = 0; sq < 64; ++sq) {
    const std::uint8_t pc = cp.board[std::size_t(sq)];
    const int type = pc & 7;
    if (type == 0 || type == 7) continue;
    const std::uint16_t v = std::uint16_t(w_.placement[std::size_t(ctrl_pkg::pst_index(pc, sq))]);
    pst = std::uint16_t((pc & CHIP_BLACK) ? pst - v : pst + v);
    const int colour = (pc & CHIP_BLACK) ? 1 : 0;
    ph.locs[std::size_t(colour * 6 + type - 1)] ^= std::uint8_t(sq);
    if (type != CHIP_KING) ++ph.counts[std::size_t(colour * 5 + type - 1)];
  }
  const std::uint16_t phase = phase_word(ph, w_.phase);
  // CtrlEval::fast_static: placement, material combination, pawn race, separated passed pawns.
  const int runner_w = fastest_runner(ph, cp.board, stm, 0), runner_b = fastest_runner(ph, cp.board, stm, 1);
  const bool white_race = runner_w != 7 && (runner_b == 7 || (stm ? runner_w < runner_b : runner_w <= runner_b));
  const bool black_race = runner_b != 7 && (runner_w == 7 || (stm ? runner_b <= runner_w : runner_b < runner_w));
  std::uint16_t race = white_race ? w_.runner_bonus : black_race ? std::uint16_t(0 - w_.runner_bonus) : 0;
  if (separated_passers(ph, cp.board, 0)) race = std::uint16_t(race + w_.sep_bonus);
  if (separated_passers(ph, cp.board, 1)) race = std::uint16_t(race - w_.sep_bonus);
  const std::uint16_t fast_white = std::uint16_t(pst + std::uint16_t(std::int16_t(std::int8_t(phase & 0xFF))) + race);
  // eval_kpk and eval_rules (EVAL_CTRL bit 1: the ROM, bit 0: the rules).
  const KpkState kpk = kpk_state(ph, stm, (w_.eval_ctrl >> 1) & 1);
  const bool draw = (kpk.active && !kpk.win) || rule_draws(ph, w_.eval_ctrl & 1) != 0;
  // SLOW_EVAL, side to move's view.
  const SlowEvalResult se = slow_evaluate(cp.board, stm, cp.castling, phase, phase_word_swapped(ph, w_.phase), w_.slow);
  const std::uint16_t fast_stm = stm ? std::uint16_t(0 - fast_white) : fast_white;
  const std::uint16_t slow_stm = stm ? std::uint16_t(0 - se.white) : se.white;
  ChipEvaluation e;
  e.draw = draw;
  e.fast = draw ? 0 : std::int16_t(fast_stm);
  e.slow = std::int16_t(slow_stm);
  e.undrawn = std::int16_t(std::uint16_t(fast_stm + slow_stm));
  e.total = draw ? 0 : e.undrawn;
  return e;
}

}  // namespace db::chip
