// Twin of rtl/ctrl_search.sv: the hardware search (AIJ 5, Micro "Search control"), a
// minimum-window alpha-beta search with no value stack. Each node only learns whether it reaches
// its side's test value ("succeeds"): a node succeeds as soon as one child fails, and fails when
// all its children succeed. So a child's failure pops two plies and its success one; all the state
// a ply needs is the move on the stack, a bit for "a legal move was searched here", and the
// quiescence check counters.
//
// This block holds the search's state (per-ply bits, the unwinding flags, the root's offset
// phases, the results) and its datapath: the parameters decoded, the test values, what a TEST
// clock decides about the move just made, the quiescence check classes, the repetition detector
// (rep_detect) with the repeating move, and the root's offset searches. Its decision for the clock
// (ctrl_pkg::search_step_t) tells the state machine where to go.
//
// One CtrlSearch is the block during one clock: its input ports (read from the controller through
// one reference to chip_ctrl, not copied every clock), the outputs computed where they
// are asked for (the array's and the evaluation's inputs too: the model's time), and step(), the
// RTL's always_comb, giving the registers after the clock and the decision.
#pragma once

#include <cstdint>

#include "chip/array_model.h"
#include "chip/chip_regs.h"
#include "chip/model/ctrl_eval.h"
#include "chip/model/ctrl_pkg.h"
#include "chip/model/rep_detect.h"

namespace db::chip {

class ChipCtrl;

class CtrlSearch {
 public:
  // The block's registers. Per ply: a legal move was searched, searched full width by an
  // extension, its side to move had exactly one hung piece, its repeating move was tried. The
  // quiescence checks played (mating: [1:0] white, [3:2] black; singular: [5:4], [7:6]), the node's
  // quiescence check filter (set in GEN), the move in MAKE/TEST is the repeating move, the
  // unwinding flags (the child failed; stopping at the node limit). Offset searches at the root:
  // the phase, the alternatives that reached the offset test value, the search's fail-high move.
  struct Regs {
    std::uint32_t legal_q = 0, extended_q = 0, hung1_q = 0, rtried_q = 0;
    std::uint8_t qc_q = 0, result_q = 0;
    bool qfilter_q = false, rtry_q = false, child_fail_q = false, stop_q = false;
    std::uint16_t best_q = 0, leaf_q = 0, main_best_q = 0;
    ctrl_pkg::phase_e phase_q = ctrl_pkg::PH_MAIN;
    std::uint8_t alt_q = 0;
  };
  // The input ports, read from the controller where they are used (ctrl_search.cpp wires them to
  // chip_ctrl's registers and signals): one view of the controller, not a copy of its signals made
  // every clock (the model's time).
  // Parameters (host registers).
  std::uint32_t search_ctrl_i() const;
  std::uint32_t offset_ctrl_i() const;
  std::uint16_t test_value_i() const;
  std::uint16_t test_tie_i() const;
  std::uint32_t node_limit_i() const;
  // The controller.
  std::uint8_t state_i() const;
  bool searching_i() const;  // the command is SEARCH
  int ply_i() const;         // the node being expanded is at ply p
  int base_i() const;        // the search's root ply
  int host_ply_i() const;    // moves made by the host (REP_STATUS's position)
  int depth_i() const;       // the command's depth
  std::uint64_t count_i() const;
  std::uint16_t mv_i() const;    // the move being made
  std::uint16_t last_i() const;  // the stack's move at p
  const ctrl_pkg::stk_entry_t& entry_i() const;
  const ctrl_pkg::pos_t& pos_i() const;
  const std::array<std::uint8_t, 64>& board_i() const;
  std::uint64_t board_hash_i() const;  // the model's hash of board_i (the detector's shortcut)
  // The array on the current board, the evaluation, the detector.
  const ArrayModel& array_i() const;
  const CtrlEval& eval_i() const;
  const RepDetect& rep_i() const;
  // The input ports of step() (the controller's, for this clock).
  struct StepIn {
    bool start_i = false;      // SEARCH is written: the search's state starts afresh
    bool exhausted_i = false;  // GEN of a search found no move left at p
    bool repchk_ok_i = false;  // REPCHK: the repeating move is made
    bool rm_try_i = false;     // this clock's rm_try_o (rm_move_o() != 0), as chip_ctrl read it
    bool se_finish_i = false;  // the slow evaluation's last clock
    std::uint16_t se_white_i = 0;
  };

  CtrlSearch(const Regs& q, const ChipCtrl& ctrl) : q_(q), ctrl_(ctrl) {}

  // ---------------------------------------------------------------- outputs
  // The node at p is a quiescence node (captures, or captures and checks) and its side may still
  // play quiescence checks.
  bool qnode_o() const {
    return searching_i() && rel_p() >= sdepth() && !(array_i().in_check() && ev_on()) && !(q_.extended_q >> pi() & 1);
  }
  bool checks_ok_o() const {
    const int own_shift = pos_i().stm ? 2 : 0;
    return qs_checks() > (q_.qc_q >> own_shift & 3) || qs_singular() > (q_.qc_q >> (4 + own_shift) & 3);
  }
  // p's repeating move, tried first (rm_try_o: rm_move_o != 0): once per node, at its first GEN,
  // below the root, in a search with the detector on.
  std::uint16_t rm_move_o() const {
    const bool rm_try = searching_i() && rep_on() && rep_bound() && !ctrl_pkg::mv_valid(last_i()) &&
                        !(q_.rtried_q >> pi() & 1) && ply_i() != base_i();
    return rm_try ? rep_i().repeating_move(board_i(), pos_i().stm, ply_i()) : 0;
  }
  // REP_STATUS at the host's position (TEST: at the child).
  std::uint8_t rep_status_o() const {
    const int rep_idx = state_i() == S_TEST ? ply_i() + 1 : host_ply_i();
    return rep_i().rep_status(board_i(), pos_i().castling, ep_word(), rep_idx);
  }
  // The command's checks of the offset parameters.
  bool off_on_o() const { return off_on(); }
  int off_depth_o() const { return off_depth(); }

  // ---------------------------------------------------------------- the clock's decision
  ctrl_pkg::search_step_t step(Regs& d, const StepIn& s) const;

 private:
  // What the clock found, carried out after the state's case (the RTL's leaf_go ... restart_root).
  struct Actions {
    bool leaf_go = false, leaf_success = false, leaf_terminal = false, do_descend = false, ext_mark = false;
    bool root_done = false, root_success = false, root_none = false;
    std::uint16_t root_best = 0;
  };
  std::uint8_t ep_word() const { return std::uint8_t((pos_i().ep_valid ? 0x40 : 0) | pos_i().ep_sq); }
  // Mate or stalemate at p (none_success).
  bool none_success() const;
  // The quiescence check class of the move just made, and the counters after it.
  bool check_mating() const {
    return array_i().check_class(ctrl_pkg::mv_to(mv_i())) == ArrayModel::CheckClass::kMating;
  }
  bool check_allowed() const;
  std::uint8_t qc_after() const;
  bool extend() const;  // a quiescence extension of the child
  bool can_quiesce() const { return qs_on() && rel_c() < sdepth() + qs_depth() && ply_i() < 31; }
  void gen(Regs& d, const StepIn& s, ctrl_pkg::search_step_t& step, Actions& a) const;
  void test(Regs& d, ctrl_pkg::search_step_t& step, Actions& a) const;
  void stand_pat(Regs& d, ctrl_pkg::search_step_t& step, Actions& a) const;
  void unmake(Regs& d, ctrl_pkg::search_step_t& step, Actions& a) const;
  void leaf(Regs& d, ctrl_pkg::search_step_t& step, Actions& a) const;
  void descend(Regs& d, ctrl_pkg::search_step_t& step, const Actions& a) const;
  void root(Regs& d, ctrl_pkg::search_step_t& step, const Actions& a) const;
  static void start(Regs& d);

  const Regs& q_;
  const ChipCtrl& ctrl_;  // the controller: the input ports

  // ---------------------------------------------------------------- parameters
  // (Decoded where used: the model's time.)
  bool sc(field::Field f) const { return f.get(search_ctrl_i()) != 0; }
  bool qs_on() const { return sc(field::search_ctrl::QUIESCENCE); }
  bool ev_on() const { return sc(field::search_ctrl::EVASIONS); }
  bool rep_on() const { return sc(field::search_ctrl::REPETITION); }
  bool np_on() const { return sc(field::search_ctrl::NO_PROGRESS); }
  int qs_checks() const { return int(field::search_ctrl::MATING_CHECKS.get(search_ctrl_i())); }  // mating checks
  int qs_singular() const { return int(field::search_ctrl::SINGULAR_CHECKS.get(search_ctrl_i())); }
  int qs_depth() const { return int(field::search_ctrl::QS_DEPTH.get(search_ctrl_i())); }
  bool ign_stale() const { return sc(field::search_ctrl::IGNORE_STALEMATE); }
  bool ext_pawn7() const { return sc(field::search_ctrl::EXT_PAWN7); }
  bool ext_hung2() const { return sc(field::search_ctrl::EXT_HUNG2); }
  bool ext_hung1() const { return sc(field::search_ctrl::EXT_HUNG1); }
  bool ext_opp_hung() const { return sc(field::search_ctrl::EXT_OPP_HUNG); }
  bool rep_tie_on() const { return sc(field::search_ctrl::REP_TIE); }
  bool rep_strive() const { return sc(field::search_ctrl::REP_STRIVE); }
  bool rep_bound() const { return sc(field::search_ctrl::REP_BOUND); }
  bool ext_pawn6() const { return sc(field::search_ctrl::EXT_PAWN6); }
  int off_depth() const { return int(field::offset_ctrl::DEPTH.get(offset_ctrl_i())); }
  bool off_single() const { return field::offset_ctrl::SINGULAR.get(offset_ctrl_i()); }
  bool off_binary() const { return field::offset_ctrl::BINARY.get(offset_ctrl_i()); }
  bool off_trinary() const { return field::offset_ctrl::TRINARY.get(offset_ctrl_i()); }
  int off_margin() const { return int(field::offset_ctrl::MARGIN.get(offset_ctrl_i())); }
  bool off_on() const { return off_single() || off_binary() || off_trinary(); }

  // ---------------------------------------------------------------- test values
  // The node being expanded is at ply p = ply_i, rel_p plies below the root; its child at p + 1.
  int pi() const { return ply_i() & 31; }
  int ci() const { return (pi() + 1) & 31; }
  int rel_p() const { return ply_i() - base_i(); }
  int rel_c() const { return rel_p() + 1; }
  bool odd_p() const { return rel_p() & 1; }
  bool odd_c() const { return !odd_p(); }
  // The search's depth and test value in the current phase: the offset searches run to the offset
  // depth against the test value less the margin; the extended search one ply deeper.
  int sdepth() const {
    return q_.phase_q == ctrl_pkg::PH_OFFSET   ? off_depth()
           : q_.phase_q == ctrl_pkg::PH_EXTEND ? depth_i() + 1
                                               : depth_i();
  }
  int tv_s() const { return std::int16_t(test_value_i()) - (q_.phase_q == ctrl_pkg::PH_OFFSET ? off_margin() : 0); }
  int tv_tb() const { return std::int16_t(test_tie_i()); }
  int tv_c() const { return odd_c() ? -tv_s() : tv_s(); }  // the child's test value, its side's view
};

}  // namespace db::chip
