// See chip_eval.h. Each step names the register or block of the model it reproduces.
#include "chip/chip_eval.h"

#include "chip/chip_client.h"
#include "chip/model/ctrl_pkg.h"
#include "chip/model/eval_blocks.h"
#include "chip/slow_eval.h"

namespace db::chip {

namespace {

// The trace without the slow features (t.slow left empty).
EvalTrace trace_fast_of(const ChipPosition& cp) {
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
  return t;
}

// FAST_EVAL before the draw knowledge, white's view, 16-bit wrap-around (CtrlEval::fast_eval_o).
std::uint16_t fast_white(const EvalTrace& t, const EvalWeights& w, std::uint16_t phase) {
  std::uint16_t pst = 0;
  for (int i = 0; i < t.men; ++i) {
    const int entry = t.placement[std::size_t(i)];
    pst = entry < 0 ? std::uint16_t(pst - std::uint16_t(w.placement[std::size_t(-1 - entry)]))
                    : std::uint16_t(pst + std::uint16_t(w.placement[std::size_t(entry)]));
  }
  std::uint16_t race = t.white_race ? w.runner_bonus : t.black_race ? std::uint16_t(0 - w.runner_bonus) : 0;
  if (t.separated[0]) race = std::uint16_t(race + w.sep_bonus);
  if (t.separated[1]) race = std::uint16_t(race - w.sep_bonus);
  return std::uint16_t(pst + std::uint16_t(std::int16_t(std::int8_t(phase & 0xFF))) + race);
}

bool drawn(const EvalTrace& t, const EvalWeights& w) {
  return (t.kpk_draw && (w.eval_ctrl >> 1 & 1)) || (t.rule_draw && (w.eval_ctrl & 1));
}

}  // namespace

EvalTrace ChipEvaluator::trace(const Position& pos) {
  const ChipPosition cp = ChipPosition::of(pos);
  EvalTrace t = trace_fast_of(cp);
  t.slow = slow_features(cp.board, cp.black_to_move, cp.castling);
  return t;
}

LazyControl LazyControl::of(const EvalWeights& w) {
  const std::uint32_t reg = w.slow.regs[ER_EVAL_CONTROL + 1];
  LazyControl c;
  c.on = reg >> 20 & 1;
  c.margin = int(reg & 0xFFFF);
  c.shift = int(reg >> 16 & 15);
  c.min_pieces = int(reg >> 24 & 15);
  return c;
}

ChipEvaluation ChipEvaluator::replay(const EvalTrace& t, const EvalWeights& w) {
  const bool stm = t.black_to_move;
  const std::uint16_t phase = w.phase[t.phase_index];
  const std::uint16_t white = fast_white(t, w, phase);
  const bool draw = drawn(t, w);
  // SLOW_EVAL, side to move's view.
  const SlowEvalResult se = slow_sum(t.slow, phase, w.phase[t.phase_swap_index], w.slow);
  const std::uint16_t fast_stm = stm ? std::uint16_t(0 - white) : white;
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

// The fast evaluation straight from the position's bitboards: the placement sum and the phase
// registers are order-free (16-bit sums, XORs and counts). The pawn race, separated passers and
// the KPK ROM need a side without pieces; such positions take the trace's path.
FastEvaluation ChipEvaluator::fast(const Position& pos) const {
  FastEvaluation f;
  PhaseRegs ph;
  std::uint16_t pst = 0;  // white's view
  for (int c = 0; c < 2; ++c) {
    for (int t = PAWN; t <= KING; ++t) {
      const int type = t + 1;  // the chip's piece codes are the position's types plus one
      for (Bitboard bb = pos.pieces(Color(c), PieceType(t)); bb; bb &= bb - 1) {
        const int sq = __builtin_ctzll(bb);
        const std::uint16_t v = std::uint16_t(w_.placement[std::size_t(type << 6 | (sq ^ (c ? 56 : 0)))]);
        pst = c ? std::uint16_t(pst - v) : std::uint16_t(pst + v);
        ph.locs[std::size_t(c * 6 + type - 1)] ^= std::uint8_t(sq);
        if (type != CHIP_KING) ++ph.counts[std::size_t(c * 5 + type - 1)];
      }
    }
  }
  int side_pieces[2] = {0, 0};
  for (int c = 0; c < 2; ++c) {
    for (int type = CHIP_KNIGHT; type <= CHIP_QUEEN; ++type) side_pieces[c] += ph.counts[std::size_t(c * 5 + type - 1)];
  }
  f.pieces = side_pieces[0] + side_pieces[1];
  const bool black = pos.side_to_move() == BLACK;
  std::uint16_t white;
  if (side_pieces[0] == 0 || side_pieces[1] == 0) {
    const EvalTrace t = trace_fast_of(ChipPosition::of(pos));
    white = fast_white(t, w_, w_.phase[t.phase_index]);
    f.draw = drawn(t, w_);
  } else {
    const std::uint16_t phase = w_.phase[std::size_t(material_signature(ph, 0) << 5 | material_signature(ph, 1))];
    white = std::uint16_t(pst + std::uint16_t(std::int16_t(std::int8_t(phase & 0xFF))));
    f.draw = (w_.eval_ctrl & 1) && rule_draws(ph, true) != 0;
  }
  f.fast = f.draw ? 0 : std::int16_t(black ? std::uint16_t(0 - white) : white);
  return f;
}

}  // namespace db::chip
