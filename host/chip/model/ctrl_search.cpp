// See ctrl_search.h. The functions follow rtl/ctrl_search.sv's sections in order.
#include "chip/model/ctrl_search.h"

#include "chip/model/chip_ctrl.h"

namespace db::chip {

using ctrl_pkg::search_step_t;
using ctrl_pkg::succeeds;

// ---------------------------------------------------------------- input ports
// chip_ctrl's registers (before the clock) and signals.
std::uint32_t CtrlSearch::search_ctrl_i() const { return ctrl_.q_.regs.search_ctrl_q; }
std::uint32_t CtrlSearch::offset_ctrl_i() const { return ctrl_.q_.regs.offset_ctrl_q; }
std::uint16_t CtrlSearch::test_value_i() const { return ctrl_.q_.regs.test_value_q; }
std::uint16_t CtrlSearch::test_tie_i() const { return ctrl_.q_.regs.test_tie_q; }
std::uint32_t CtrlSearch::node_limit_i() const { return ctrl_.q_.regs.node_limit_q; }
std::uint8_t CtrlSearch::state_i() const { return ctrl_.q_.ctrl.state_q; }
bool CtrlSearch::searching_i() const { return ctrl_.searching(); }
int CtrlSearch::ply_i() const { return ctrl_.q_.ctrl.ply_q; }
int CtrlSearch::base_i() const { return ctrl_.q_.ctrl.base_q; }
int CtrlSearch::host_ply_i() const { return ctrl_.q_.ctrl.host_ply_q; }
int CtrlSearch::depth_i() const { return ctrl_.depth_q(); }
std::uint64_t CtrlSearch::count_i() const { return ctrl_.q_.ctrl.count_q; }
std::uint16_t CtrlSearch::mv_i() const { return ctrl_.q_.ctrl.mv_q; }
std::uint16_t CtrlSearch::last_i() const { return ctrl_.last(); }
const ctrl_pkg::stk_entry_t& CtrlSearch::entry_i() const { return ctrl_.stack().entry_o(ctrl_.pi()); }
const ctrl_pkg::pos_t& CtrlSearch::pos_i() const { return ctrl_.q_.pos; }
const std::array<std::uint8_t, 64>& CtrlSearch::board_i() const { return ctrl_.board_i(); }
std::uint64_t CtrlSearch::board_hash_i() const { return ctrl_.board_hash_i(); }
const ArrayModel& CtrlSearch::array_i() const { return ctrl_.array_i(); }
const CtrlEval& CtrlSearch::eval_i() const { return ctrl_.eval_; }
const RepDetect& CtrlSearch::rep_i() const { return ctrl_.rep(); }

// Mate (in check, no legal move) or stalemate; a stalemate one ply above quiescence fails with the
// flag set.
bool CtrlSearch::none_success() const {
  const bool in_check = array_i().in_check();
  const int mate_value = in_check ? -(int(MATE_SCORE) - rel_p()) : 0;
  const bool stale_ignored = ign_stale() && !in_check && rel_p() + 1 == sdepth();
  return !stale_ignored && succeeds(mate_value, 0, tv_s(), tv_tb(), odd_p());
}

// ---------------------------------------------------------------- quiescence checks
// AIJ 5, parameters 5 and 6, on the child's board (ArrayModel::check_class): the checking
// non-capture just made is a "mating" check, a "singular" one, or neither. In the child the mover
// is the side not to move (stm = 1: white moved).
bool CtrlSearch::check_allowed() const {
  const int mover_shift = pos_i().stm ? 0 : 2;
  switch (array_i().check_class(ctrl_pkg::mv_to(mv_i()))) {
    case ArrayModel::CheckClass::kMating:
      return qs_checks() > (q_.qc_q >> mover_shift & 3);
    case ArrayModel::CheckClass::kSingular:
      return qs_singular() > (q_.qc_q >> (4 + mover_shift) & 3);
    default:
      return false;
  }
}

// The counters after the move at p: a searched checking non-capture counts in its class.
std::uint8_t CtrlSearch::qc_after() const {
  const bool quiet_filtered = q_.qfilter_q && entry_i().cap == 0;
  if (!quiet_filtered) return q_.qc_q;
  const int mover_shift = pos_i().stm ? 0 : 2;
  const int shift = check_mating() ? mover_shift : 4 + mover_shift;
  return std::uint8_t(q_.qc_q + (1 << shift));
}

// ---------------------------------------------------------------- quiescence extensions
// On the child's board in TEST: its side to move's hung pieces (two or more, or one that is pinned
// to its king), a pawn the move just put on the 7th rank (or flag 9's passed pawn on the 6th whose
// square ahead is empty), the other side's hung piece; at most one extension per path (plies
// base+1 .. c-1).
bool CtrlSearch::extend() const {
  const ArrayModel& array = array_i();
  const auto& board = board_i();
  const bool stm = pos_i().stm;
  const Bitboard hung = array.hung();
  const bool one_hung = hung != 0 && (hung & (hung - 1)) == 0;
  const int to = ctrl_pkg::mv_to(mv_i());
  const bool pawn7 = (board[to] & 7) == CHIP_PAWN && (to >> 3) == (stm ? 6 : 1);
  const int p6_front = stm ? to + 8 : to - 8;
  const std::uint8_t p6_enemy = std::uint8_t((stm ? CHIP_BLACK : 0) | CHIP_PAWN);
  const bool pawn6 = (board[to] & 7) == CHIP_PAWN && (to >> 3) == (stm ? 5 : 2) && (board[p6_front & 63] & 7) == 0 &&
                     ((to & 7) == 0 || board[(p6_front - 1) & 63] != p6_enemy) &&
                     ((to & 7) == 7 || board[(p6_front + 1) & 63] != p6_enemy);
  std::uint32_t path_mask = 0;
  for (int k = base_i() + 1; k <= ply_i(); ++k) path_mask |= 1u << (k & 31);
  return ply_i() < 31 && (q_.extended_q & path_mask) == 0 &&
         ((ext_pawn7() && pawn7) || (ext_pawn6() && pawn6) ||
          (ext_hung2() && hung != 0 && (!one_hung || (hung & array.pinned()) != 0)) ||
          (ext_hung1() && one_hung && rel_c() >= 3 && (q_.hung1_q >> ((ci() - 2) & 31) & 1)) ||
          (ext_opp_hung() && array.opp_hung() != 0));
}

// ---------------------------------------------------------------- the clock's decision
search_step_t CtrlSearch::step(Regs& d, const StepIn& s) const {
  search_step_t step;
  Actions a;
  switch (state_i()) {
    case S_GEN:
      gen(d, s, step, a);
      break;
    case S_REPCHK:
      if (s.repchk_ok_i) d.rtry_q = true;
      break;
    case S_TEST:
      if (searching_i()) test(d, step, a);
      break;
    case S_UNMAKE:
      unmake(d, step, a);
      break;
    case S_SEVAL:
      // The stand pat waits for the slow evaluation; its last clock decides.
      if (s.se_finish_i) {
        const std::uint16_t se_total = eval_i().se_total_o(s.se_white_i);
        step.go = true;
        step.undo = true;
        d.leaf_q = se_total;
        a.leaf_go = true;
        a.leaf_success = succeeds(std::int16_t(se_total), 0, tv_s(), tv_tb(), odd_c());
      }
      break;
    default:
      break;
  }
  if (a.leaf_go) leaf(d, step, a);
  if (a.do_descend) descend(d, step, a);
  if (a.root_done) root(d, step, a);
  // Unmaking a move brings back the checks played before it (UNMAKE always unmakes).
  if (step.undo || state_i() == S_UNMAKE) d.qc_q = entry_i().qc;
  // SEARCH is written (the state machine is idle): the search starts afresh.
  if (s.start_i) start(d);
  return step;
}

void CtrlSearch::gen(Regs& d, const StepIn& s, search_step_t& step, Actions& a) const {
  const bool qnode = qnode_o();
  d.qfilter_q = qnode && checks_ok_o();
  if (s.rm_try_i) {
    d.rtried_q = q_.rtried_q | 1u << pi();  // the state machine makes the repeating move first
  } else if (s.exhausted_i) {
    // Every move failed, unless there was none (mate or stalemate) at a full-width or evasion
    // node. Only the search proper scores a mate or stalemate at the root.
    step.go = true;
    const bool none = !qnode && !(q_.legal_q >> pi() & 1);
    if (ply_i() == base_i()) {
      a.root_done = true;
      a.root_none = q_.phase_q == ctrl_pkg::PH_MAIN && none;
      a.root_success = a.root_none && none_success();
    } else {
      step.ply_down = true;
      step.next = ctrl_pkg::NEXT_UNMAKE;
      d.child_fail_q = !(none && none_success());
    }
  }
}

// What TEST finds about the move just made (the child at p + 1).
void CtrlSearch::test(Regs& d, search_step_t& step, Actions& a) const {
  const ArrayModel& array = array_i();
  step.go = true;
  step.undo = true;
  step.next = ctrl_pkg::NEXT_GEN;
  d.rtry_q = false;
  if (q_.rtry_q) {
    step.move_we = true;  // the node's generation starts from its first move
    step.move_waddr = std::uint8_t(pi());
  }
  // Not scored: illegal, filtered out, skipped; a repeating move that does not repeat the position
  // (castling rights or en passant differ) is not scored either. The offset searches skip the
  // fail-high move at the root; the extended search the others.
  const bool root_skip = ply_i() == base_i() && ((q_.phase_q == ctrl_pkg::PH_OFFSET && mv_i() == q_.main_best_q) ||
                                                 (q_.phase_q == ctrl_pkg::PH_EXTEND && mv_i() != q_.main_best_q));
  if (array.king_capture() || root_skip) return;
  // The detector (asked only where its answer is used: the model's time).
  const bool rep_hit = (q_.rtry_q || rep_on()) &&
                       rep_i().repetition(board_i(), board_hash_i(), pos_i().castling, ep_word(), ply_i() + 1);
  const bool quiet_filtered = q_.qfilter_q && entry_i().cap == 0;
  const bool skip = q_.rtry_q ? !rep_hit : quiet_filtered && !(array.in_check() && check_allowed());
  if (skip) return;
  step.count = true;
  d.legal_q = q_.legal_q | 1u << pi();
  const Bitboard hung = array.hung();
  const bool one_hung = hung != 0 && (hung & (hung - 1)) == 0;
  d.hung1_q = (q_.hung1_q & ~(1u << ci())) | (one_hung ? 1u << ci() : 0u);
  const bool node_limit_hit = node_limit_i() != 0 && count_i() + 1 >= node_limit_i();
  if (node_limit_hit) {
    d.stop_q = true;
    d.result_q = 4;
    if (ply_i() == base_i()) {
      step.next = ctrl_pkg::NEXT_IDLE;
      step.done = true;
    } else {
      step.ply_down = true;
      step.next = ctrl_pkg::NEXT_UNMAKE;
    }
  } else if (rep_on() && rep_hit) {
    // The tie-breaker of a repetition draw, "moves until repetition" (AIJ 4.3): REP_BASE less the
    // child's plies from the root, positive from the root side's view when it strives for the
    // draw, negative when it avoids it; negated at odd plies like every value.
    const int rep_tie_mag = int(field::search_ctrl::REP_BASE.get(search_ctrl_i())) - rel_c();
    const int rep_tie = !rep_tie_on() ? 0 : (rep_strive() != odd_c()) ? rep_tie_mag : -rep_tie_mag;
    d.leaf_q = 0;
    a.leaf_go = a.leaf_terminal = true;
    a.leaf_success = succeeds(0, rep_tie, tv_s(), tv_tb(), odd_c());
  } else if (np_on() && rep_i().no_progress(board_i(), pos_i().stm, base_i(), ply_i() + 1)) {
    // No progress: the move fails low for its mover, so the child succeeds.
    a.leaf_go = a.leaf_terminal = a.leaf_success = true;
  } else if (rel_c() < sdepth() || (ev_on() && array.in_check() && ply_i() < 31)) {
    a.do_descend = true;
  } else if (extend()) {
    a.do_descend = true;
    a.ext_mark = true;  // searched full width, no stand pat
  } else {
    stand_pat(d, step, a);
  }
}

// A stand pat: a drawn ending (score 0, its static value the tie-breaker), the lazy evaluation's
// decision, or the slow evaluation.
void CtrlSearch::stand_pat(Regs& d, search_step_t& step, Actions& a) const {
  const CtrlEval& eval = eval_i();
  if (eval.eg_draw_o()) {
    const std::uint16_t fast_static = eval.fast_static_o();
    const int tb = std::int16_t(pos_i().stm ? std::uint16_t(0 - fast_static) : fast_static);
    d.leaf_q = 0;
    a.leaf_go = true;
    a.leaf_success = succeeds(0, tb, tv_s(), tv_tb(), odd_c());
    return;
  }
  bool lazy_high = false, lazy_low = false;
  if (eval.lz_active_o()) {
    const int lz_sum = eval.lz_sum_o(), lz_margin = eval.lz_margin_o();
    lazy_high = lz_sum - lz_margin > tv_c();
    lazy_low = lz_sum + lz_margin < tv_c();
  }
  if (lazy_high || lazy_low) {
    d.leaf_q = eval.fast_eval_o();
    a.leaf_go = true;
    a.leaf_success = lazy_high;
  } else {
    step.undo = false;
    step.se_start = true;
    step.next = ctrl_pkg::NEXT_SEVAL;
  }
}

// Stopping unwinds to the root; a failed child means this node succeeded.
void CtrlSearch::unmake(Regs& d, search_step_t& step, Actions& a) const {
  if (!(searching_i() && (q_.stop_q || q_.child_fail_q))) return;
  step.go = true;
  step.undo = true;
  if (ply_i() == base_i()) {
    if (q_.stop_q) {
      step.next = ctrl_pkg::NEXT_IDLE;
      step.done = true;
    } else {
      a.root_done = true;
      a.root_success = true;
      a.root_best = last_i();
    }
  } else {
    step.ply_down = true;
    d.child_fail_q = false;
  }
}

// A leaf: if the child succeeds, the node goes on with its next move. If a stand pat failed, the
// quiescence search goes on below it when it may; otherwise the node at p succeeds.
void CtrlSearch::leaf(Regs& d, search_step_t& step, Actions& a) const {
  if (a.leaf_success) {
    step.next = ctrl_pkg::NEXT_GEN;
  } else if (can_quiesce() && !a.leaf_terminal) {
    a.do_descend = true;
  } else if (ply_i() == base_i()) {
    a.root_done = true;
    a.root_success = true;
    a.root_best = mv_i();
  } else {
    step.ply_down = true;
    step.next = ctrl_pkg::NEXT_UNMAKE;
    d.child_fail_q = false;
  }
}

void CtrlSearch::descend(Regs& d, search_step_t& step, const Actions& a) const {
  step.undo = false;
  step.ply_up = true;
  step.move_we = true;
  step.move_waddr = std::uint8_t(ci());
  step.next = ctrl_pkg::NEXT_GEN;
  d.legal_q = d.legal_q & ~(1u << ci());
  d.rtried_q = q_.rtried_q & ~(1u << ci());
  d.extended_q = (q_.extended_q & ~(1u << ci())) | (a.ext_mark ? 1u << ci() : 0u);
  d.qc_q = qc_after();
}

// The root decided; in the offset phase a success is one alternative that reached the offset test
// value. RESULT [5:4] alternatives, [6] the offset searches ran, [7] the extended search decided.
void CtrlSearch::root(Regs& d, search_step_t& step, const Actions& a) const {
  // The alternatives counted stop at the limit: no condition is left beyond it.
  const int alt_limit = off_trinary() ? 3 : off_binary() ? 2 : 1;
  const bool off_condition =
      (q_.alt_q == 0 && off_single()) || (q_.alt_q == 1 && off_binary()) || (q_.alt_q == 2 && off_trinary());
  bool final_go = true, final_success = a.root_success, restart_root = false;
  std::uint16_t final_best = a.root_best;
  int final_flags = 0;
  switch (q_.phase_q) {
    case ctrl_pkg::PH_MAIN:
      if (a.root_success && off_on() && a.root_best != 0) {
        final_go = false;
        restart_root = true;
        d.phase_q = ctrl_pkg::PH_OFFSET;
        d.main_best_q = a.root_best;
        d.alt_q = 0;
      }
      break;
    case ctrl_pkg::PH_OFFSET:
      final_success = true;
      final_best = q_.main_best_q;
      final_flags = 0x4 | q_.alt_q;
      if (a.root_success && q_.alt_q + 1 == alt_limit) {
        final_flags = 0x4 | alt_limit;
      } else if (a.root_success) {
        final_go = false;  // go on with the next root move
        d.alt_q = std::uint8_t((q_.alt_q + 1) & 3);
        d.child_fail_q = false;
        step.next = ctrl_pkg::NEXT_GEN;
      } else if (off_condition) {
        final_go = false;
        restart_root = true;
        d.phase_q = ctrl_pkg::PH_EXTEND;
      }
      break;
    default:
      final_flags = 0xC | q_.alt_q;
      break;
  }
  if (restart_root) {
    step.move_we = true;
    step.move_waddr = std::uint8_t(base_i() & 31);
    step.next = ctrl_pkg::NEXT_GEN;
    d.legal_q = d.legal_q & ~(1u << (base_i() & 31));
    d.child_fail_q = false;
  }
  if (final_go) {
    d.result_q = std::uint8_t(final_flags << 4 | (a.root_none ? 8 : 0) | (final_success ? 2 : 0) | 1);
    d.best_q = final_success ? final_best : 0;
    step.next = ctrl_pkg::NEXT_IDLE;
    step.done = true;
  }
}

void CtrlSearch::start(Regs& d) {
  d.result_q = 0;
  d.best_q = 0;
  d.legal_q = 0;
  d.extended_q = 0;
  d.hung1_q = 0;
  d.qc_q = 0;
  d.stop_q = false;
  d.child_fail_q = false;
  d.phase_q = ctrl_pkg::PH_MAIN;
  d.alt_q = 0;
  d.main_best_q = 0;
  d.rtry_q = false;
}

}  // namespace db::chip
