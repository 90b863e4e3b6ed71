// Twin of rtl/ctrl_eval.sv: fast and lazy evaluation. The fast evaluation is the piece-placement
// sum (kept incrementally by MAKE and unmake, summed over the board by EVAL_INIT), the game phase
// RAM's material-combination bonus and the pawn race, zero when the endgame logic calls the
// position a draw. Lazy evaluation decides "evaluation >= TEST_VALUE" from the fast value plus a
// low-pass filter's estimate of the slow one when they clear the margin, and runs the slow
// evaluation otherwise (off when pieces are few: an unusual position, Micro "Search control").
//
// One CtrlEval is the block during one clock: it reads its input ports from the controller (one
// reference to chip_ctrl, not a copy of them every clock), computes an output when it is first asked
// for (the model's time: the RTL computes every output every clock) and next()
// gives the registers after the clock.
#pragma once

#include <array>
#include <cstdint>

#include "chip/model/ctrl_pkg.h"
#include "chip/model/eval_blocks.h"

namespace db::chip {

class ChipCtrl;

class CtrlEval {
 public:
  // The block's registers.
  struct Regs {
    std::uint16_t pst_q = 0, castle_k_q = 0, castle_q_q = 0, est_q = 0;
    std::uint8_t scan_q = 0;  // EVAL_INIT square counter
    std::uint8_t lazy_q = 0;
    bool lazy_pend_q = false;  // a LAZY_EVAL waits for its slow evaluation
  };
  // The input ports that change the registers (next()).
  struct Step {
    bool einit_i = false;  // the controller is in EVAL_INIT's scan
    bool make_i = false;
    const ctrl_pkg::mk_view_t* mk_i = nullptr;  // with make_i
    bool undo_i = false;
    std::uint16_t undo_pst_i = 0;  // the placement sum before the move unmade
    bool einit_start_i = false;    // EVAL_INIT starts
    bool lazy_start_i = false;     // LAZY_EVAL is written
    bool abort_i = false;          // ABORT of a running command
    bool est_we_i = false;         // SLOW_EST
    std::uint16_t wdata_i = 0;
    bool se_finish_i = false;
    std::uint16_t se_white_i = 0;  // the finishing slow evaluation, white's view
  };
  // The output ports next() sets.
  struct StepOut {
    bool einit_done_o = false;  // EVAL_INIT's last clock
    bool lazy_done_o = false;   // LAZY_EVAL decided at once
    bool lazy_slow_o = false;   // LAZY_EVAL needs the slow evaluation: start it
    ph_events_t ph_ev_o;        // EVAL_INIT's game phase events (one square a clock)
  };

  CtrlEval(const Regs& q, const ChipCtrl& ctrl) : q_(q), ctrl_(ctrl) {}

  // ---------------------------------------------------------------- outputs
  std::uint16_t pst_o() const { return q_.pst_q; }
  std::uint16_t castle_k_o() const { return q_.castle_k_q; }
  std::uint16_t castle_q_o() const { return q_.castle_q_q; }
  std::uint16_t est_o() const { return q_.est_q; }
  std::uint8_t lazy_o() const { return q_.lazy_q; }
  // The endgame logic's inputs (eval_kpk, eval_rules, eval_kpa), read where needed.
  std::uint16_t phase_i() const { return phase_word(ph_i(), phase_ram_i()); }
  KpkState kpk_i() const { return kpk_state(ph_i(), stm_i(), kpk_en_i()); }
  std::uint32_t rule_draw_i() const { return rule_draws(ph_i(), rules_en_i()); }
  int runner_i(int c) const { return fastest_runner(ph_i(), board_i(), stm_i(), c); }
  bool separated_i(int c) const { return separated_passers(ph_i(), board_i(), c); }
  // The pawn race's winner: the side whose runner promotes first (the side to move first on a tie).
  bool white_race_o() const;
  bool black_race_o() const;
  // A king-and-pawn ending the ROM calls a draw, or one an endgame rule calls a draw.
  bool eg_draw_o() const {
    if (eg_draw_ < 0) {
      const KpkState k = kpk_i();
      eg_draw_ = ((k.active && !k.win) || rule_draw_i() != 0) ? 1 : 0;
    }
    return eg_draw_ != 0;
  }
  // White's view before the endgame logic: placement, material combination, pawn race.
  std::uint16_t fast_static_o() const {
    if (!fast_static_ready_) fast_static_ = fast_static(), fast_static_ready_ = true;
    return fast_static_;
  }
  // Side to move's view: 0 when the endgame logic calls the position a draw.
  std::uint16_t fast_eval_o() const {
    const std::uint16_t fast_white = eg_draw_o() ? 0 : fast_static_o();
    return stm_i() ? std::uint16_t(0 - fast_white) : fast_white;
  }
  // Lazy evaluation: its parameters (EVAL_CONTROL word 1), whether it may decide here, and the
  // fast value plus the filter's estimate, side to move's view.
  int lz_margin_o() const { return int(se_lazy_ctrl_i() & 0xFFFF); }
  bool lz_active_o() const {
    const bool lz_on = se_lazy_ctrl_i() >> 20 & 1;
    const int lz_min = int(se_lazy_ctrl_i() >> 24 & 15);
    int lz_pieces = 0;
    for (int side = 0; side < 2; ++side) {
      for (int type = 1; type < 5; ++type) lz_pieces += ph_i().counts[side * 5 + type];
    }
    return lz_on && lz_pieces >= lz_min;
  }
  int lz_sum_o() const {
    const int est = stm_i() ? -int(std::int16_t(q_.est_q)) : int(std::int16_t(q_.est_q));
    return int(std::int16_t(fast_eval_o())) + est;
  }
  // Fast plus slow, side to move's view, for the finishing slow evaluation.
  std::uint16_t se_total_o(std::uint16_t se_white_i) const {
    const std::uint16_t se_stm = stm_i() ? std::uint16_t(0 - se_white_i) : se_white_i;
    return std::uint16_t(fast_eval_o() + se_stm);
  }
  // EVAL_INIT's last clock (the O-O-O rook's delta).
  bool einit_done_o(bool einit_i) const { return einit_i && (q_.scan_q & 64) && (q_.scan_q & 1); }

  // ---------------------------------------------------------------- next state
  void next(Regs& d, const Step& s, StepOut& out) const {
    if (s.se_finish_i) se_finish(d, s.se_white_i);
    if (s.make_i) {
      const ctrl_pkg::mk_view_t& mk = *s.mk_i;
      const std::uint16_t pst_va = pst_ram_i()[ctrl_pkg::pst_index(mk.pc, mk.from)];
      const std::uint16_t pst_vb = pst_ram_i()[ctrl_pkg::pst_index(mk.new_pc, mk.to)];
      const std::uint16_t pst_vc = (mk.cap & 7) ? pst_ram_i()[ctrl_pkg::pst_index(mk.cap, mk.capsq)] : 0;
      const std::uint16_t mk_cdelta = !mk.castle ? 0 : mk.kside ? q_.castle_k_q : q_.castle_q_q;
      // White's view: the mover's pieces count positive for white, negative for black.
      const std::uint16_t mk_delta = std::uint16_t(pst_vb - pst_va + pst_vc + mk_cdelta);
      d.pst_q = std::uint16_t(stm_i() ? q_.pst_q - mk_delta : q_.pst_q + mk_delta);
    }
    if (s.einit_i) einit(d, out);
    if (s.undo_i) d.pst_q = s.undo_pst_i;
    if (s.abort_i) d.lazy_pend_q = false;
    if (s.est_we_i) d.est_q = s.wdata_i;
    if (s.einit_start_i) {
      d.pst_q = 0;
      d.scan_q = 0;
    }
    if (s.lazy_start_i) lazy_start(d, out);
  }

 private:
  std::uint16_t fast_static() const;
  void se_finish(Regs& d, std::uint16_t se_white_i) const;  // the filter's step, a waiting LAZY_EVAL's result
  void einit(Regs& d, StepOut& out) const;                  // one clock of EVAL_INIT's scan
  void lazy_start(Regs& d, StepOut& out) const;             // LAZY_EVAL: decide now or start the slow evaluation

  const Regs& q_;
  const ChipCtrl& ctrl_;  // the controller: the input ports
  // The input ports, read from the controller where they are used (ctrl_eval.cpp wires them to
  // chip_ctrl's registers and signals): the tables the block reads (the piece placement table
  // eval_pst and the phase RAM of eval_phase), the board, the side to move, the game phase
  // registers, the parameters (host registers).
  const std::array<std::uint16_t, 512>& pst_ram_i() const;
  const std::array<std::uint16_t, 1024>& phase_ram_i() const;
  const std::array<std::uint8_t, 64>& board_i() const;
  bool stm_i() const;
  const PhaseRegs& ph_i() const;
  bool kpk_en_i() const;
  bool rules_en_i() const;
  std::uint16_t runner_bonus_i() const;
  std::uint16_t sep_bonus_i() const;
  std::uint16_t test_value_i() const;
  std::uint32_t se_lazy_ctrl_i() const;
  mutable std::int8_t eg_draw_ = -1;
  mutable bool fast_static_ready_ = false;
  mutable std::uint16_t fast_static_ = 0;
};

}  // namespace db::chip
