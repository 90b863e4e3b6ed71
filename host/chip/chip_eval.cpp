// See chip_eval.h. Each step names the register or block of the model it reproduces.
#include "chip/chip_eval.h"

#include "chip/chip_client.h"
#include "chip/model/ctrl_pkg.h"
#include "chip/model/eval_blocks.h"
#include "chip/slow_eval.h"

namespace db::chip {

EvalTrace ChipEvaluator::trace(const Position& pos) {
  const ChipPosition cp = ChipPosition::of(pos);
  const bool stm = cp.black_to_move;
  EvalTrace t;
  t.black_to_move = stm;
  // EVAL_INIT: the placement indices and the phase registers. A black man's index is stored as
  // -1 - index (its value is subtracted).
  PhaseRegs ph;
  for (int sq = 0; sq < 64; ++sq) {
    const std::uint8_t pc = cp.board[std::size_t(sq)];
    const int type = pc & 7;
    if (type == 0 || type == 7) continue;
    const int index = ctrl_pkg::pst_index(pc, sq);
    if (t.men < t.placement.size()) t.placement[t.men++] = std::int16_t((pc & CHIP_BLACK) ? -1 - index : index);
    const int colour = (pc & CHIP_BLACK) ? 1 : 0;
    ph.locs[std::size_t(colour * 6 + type - 1)] ^= std::uint8_t(sq);
    if (type != CHIP_KING) ++ph.counts[std::size_t(colour * 5 + type - 1)];
  }
  t.phase_index = std::uint16_t(material_signature(ph, 0) << 5 | material_signature(ph, 1));
  t.phase_swap_index = std::uint16_t(material_signature(ph, 1) << 5 | material_signature(ph, 0));
  // CtrlEval::fast_static: the pawn race and separated passed pawns.
  const int runner_w = fastest_runner(ph, cp.board, stm, 0), runner_b = fastest_runner(ph, cp.board, stm, 1);
  t.white_race = runner_w != 7 && (runner_b == 7 || (stm ? runner_w < runner_b : runner_w <= runner_b));
  t.black_race = runner_b != 7 && (runner_w == 7 || (stm ? runner_b <= runner_w : runner_b < runner_w));
  t.separated[0] = separated_passers(ph, cp.board, 0);
  t.separated[1] = separated_passers(ph, cp.board, 1);
  // eval_kpk and eval_rules with both enabled; replay applies EVAL_CTRL.
  const KpkState kpk = kpk_state(ph, stm, true);
  t.kpk_draw = kpk.active && !kpk.win;
  t.rule_draw = rule_draws(ph, true) != 0;
  t.slow = slow_features(cp.board, stm, cp.castling);
  return t;
}

ChipEvaluation ChipEvaluator::replay(const EvalTrace& t, const EvalWeights& w) {
  const bool stm = t.black_to_move;
  std::uint16_t pst = 0;  // white's view, 16-bit wrap-around
  for (int i = 0; i < t.men; ++i) {
    const int entry = t.placement[std::size_t(i)];
    pst = entry < 0 ? std::uint16_t(pst - std::uint16_t(w.placement[std::size_t(-1 - entry)]))
                    : std::uint16_t(pst + std::uint16_t(w.placement[std::size_t(entry)]));
  }
  const std::uint16_t phase = w.phase[t.phase_index];
  std::uint16_t race = t.white_race ? w.runner_bonus : t.black_race ? std::uint16_t(0 - w.runner_bonus) : 0;
  if (t.separated[0]) race = std::uint16_t(race + w.sep_bonus);
  if (t.separated[1]) race = std::uint16_t(race - w.sep_bonus);
  const std::uint16_t fast_white = std::uint16_t(pst + std::uint16_t(std::int16_t(std::int8_t(phase & 0xFF))) + race);
  const bool draw = (t.kpk_draw && (w.eval_ctrl >> 1 & 1)) || (t.rule_draw && (w.eval_ctrl & 1));
  // SLOW_EVAL, side to move's view.
  const SlowEvalResult se = slow_sum(t.slow, phase, w.phase[t.phase_swap_index], w.slow);
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

ChipEvaluation ChipEvaluator::evaluate(const Position& pos) const { return replay(trace(pos), w_); }

}  // namespace db::chip
