// See ctrl_eval.h.
#include "chip/model/ctrl_eval.h"

#include "chip/model/chip_ctrl.h"

namespace db::chip {

// ---------------------------------------------------------------- input ports
// chip_ctrl's registers (before the clock) and the chip's signals it passes on.
const std::array<std::uint16_t, 512>& CtrlEval::pst_ram_i() const { return ctrl_.pst_ram(); }
const std::array<std::uint16_t, 1024>& CtrlEval::phase_ram_i() const { return ctrl_.ph_ram(); }
const std::array<std::uint8_t, 64>& CtrlEval::board_i() const { return ctrl_.board_i(); }
bool CtrlEval::stm_i() const { return ctrl_.q_.pos.stm; }
const PhaseRegs& CtrlEval::ph_i() const { return ctrl_.ph_i(); }
bool CtrlEval::kpk_en_i() const { return ctrl_.q_.regs.kpk_en_o(); }
bool CtrlEval::rules_en_i() const { return ctrl_.q_.regs.rules_en_o(); }
std::uint16_t CtrlEval::runner_bonus_i() const { return ctrl_.q_.regs.runner_bonus_q; }
std::uint16_t CtrlEval::sep_bonus_i() const { return ctrl_.q_.regs.sep_bonus_q; }
std::uint16_t CtrlEval::test_value_i() const { return ctrl_.q_.regs.test_value_q; }
std::uint32_t CtrlEval::se_lazy_ctrl_i() const { return ctrl_.se_weights().regs[ER_EVAL_CONTROL + 1]; }

bool CtrlEval::white_race_o() const {
  const int runner_w = runner_i(0), runner_b = runner_i(1);
  return runner_w != 7 && (runner_b == 7 || (stm_i() ? runner_w < runner_b : runner_w <= runner_b));
}

bool CtrlEval::black_race_o() const {
  const int runner_w = runner_i(0), runner_b = runner_i(1);
  return runner_b != 7 && (runner_w == 7 || (stm_i() ? runner_b <= runner_w : runner_b < runner_w));
}

std::uint16_t CtrlEval::fast_static() const {
  // The pawn race and widely separated passed pawns.
  const int runner_w = runner_i(0), runner_b = runner_i(1);
  const bool white_race = runner_w != 7 && (runner_b == 7 || (stm_i() ? runner_w < runner_b : runner_w <= runner_b));
  const bool black_race = runner_b != 7 && (runner_w == 7 || (stm_i() ? runner_b <= runner_w : runner_b < runner_w));
  std::uint16_t race = white_race ? runner_bonus_i() : black_race ? std::uint16_t(0 - runner_bonus_i()) : 0;
  if (separated_i(0)) race = std::uint16_t(race + sep_bonus_i());
  if (separated_i(1)) race = std::uint16_t(race - sep_bonus_i());
  return std::uint16_t(q_.pst_q + std::uint16_t(std::int16_t(std::int8_t(phase_i() & 0xFF))) + race);
}

void CtrlEval::se_finish(Regs& d, std::uint16_t se_white_i) const {
  // The low-pass filter follows every slow evaluation.
  const int lz_shift = int(se_lazy_ctrl_i() >> 16 & 15);
  const int est_step = (int(std::int16_t(se_white_i)) - int(std::int16_t(q_.est_q))) >> lz_shift;
  d.est_q = std::uint16_t(q_.est_q + est_step);
  if (q_.lazy_pend_q) {
    d.lazy_q = std::uint8_t(4 | (std::int16_t(se_total_o(se_white_i)) >= std::int16_t(test_value_i()) ? 2 : 0));
    d.lazy_pend_q = false;
  }
}

void CtrlEval::einit(Regs& d, StepOut& out) const {
  d.scan_q = std::uint8_t(q_.scan_q + 1);
  if (!(q_.scan_q & 64)) {
    const std::uint8_t scan_pc = board_i()[q_.scan_q & 63];
    // Empty squares are worth nothing, whatever the table's type-0 words hold.
    const std::uint16_t pst_va = (scan_pc & 7) ? pst_ram_i()[ctrl_pkg::pst_index(scan_pc, q_.scan_q & 63)] : 0;
    d.pst_q = std::uint16_t((scan_pc & CHIP_BLACK) ? q_.pst_q - pst_va : q_.pst_q + pst_va);
    out.ph_ev_o.set(0, scan_pc, q_.scan_q & 63, 1);
  } else {
    // Clock 64: the O-O rook (h1 to f1); clock 65: the O-O-O rook (a1 to d1); relative squares.
    const bool queen_side = q_.scan_q & 1;
    const std::uint16_t pst_va = pst_ram_i()[CHIP_ROOK << 6 | (queen_side ? 0 : 7)];
    const std::uint16_t pst_vb = pst_ram_i()[CHIP_ROOK << 6 | (queen_side ? 3 : 5)];
    if (!queen_side) {
      d.castle_k_q = std::uint16_t(pst_vb - pst_va);
    } else {
      d.castle_q_q = std::uint16_t(pst_vb - pst_va);
      out.einit_done_o = true;
    }
  }
}

void CtrlEval::lazy_start(Regs& d, StepOut& out) const {
  const int test = std::int16_t(test_value_i());
  if (eg_draw_o()) {
    d.lazy_q = std::uint8_t(1 | (0 >= test ? 2 : 0));  // a draw: 0 >= test value?
    out.lazy_done_o = true;
    return;
  }
  const bool lz_active = lz_active_o();
  const int lz_sum = lz_active ? lz_sum_o() : 0, lz_margin = lz_margin_o();
  const bool lz_high = lz_sum - lz_margin >= test, lz_low = lz_sum + lz_margin < test;
  if (lz_active && (lz_high || lz_low)) {
    d.lazy_q = std::uint8_t(lz_high ? 3 : 1);
    out.lazy_done_o = true;
  } else {
    out.lazy_slow_o = true;
    d.lazy_pend_q = true;
  }
}

}  // namespace db::chip
