// See chip_ctrl.h. The clock follows rtl/chip_ctrl.sv's always_comb: the host register block's
// strobes, the state machine by state, the search's decision, make/unmake and the evaluation, then
// the host's writes (whose assignments win), the read multiplexer and ERROR.
#include "chip/model/chip_ctrl.h"

#include "chip/chip_regs.h"

namespace db::chip {

using ctrl_pkg::is_promotion;
using ctrl_pkg::mv_from;
using ctrl_pkg::mv_promo;
using ctrl_pkg::mv_promo_idx;
using ctrl_pkg::mv_to;
using ctrl_pkg::mv_valid;

namespace {

std::uint16_t gen_move(int from, int to, bool promo) {
  return std::uint16_t(0x8000 | (promo ? 0x4000 : 0) | (to << 6) | from);
}

}  // namespace

ChipCtrl::ChipCtrl(const ChipModel& top, const State& q, State& d, const ArrayModel& array, bool req_i, bool we_i,
                   std::uint32_t addr_i, std::uint32_t wdata_i, Out& out)
    : top_(top),
      q_(q),
      d_(d),
      array_i_(array),
      req_i_(req_i),
      we_i_(we_i),
      addr_i_(addr_i),
      wdata_i_(wdata_i),
      out_(out),
      cq_(q.ctrl),
      cd_(d.ctrl),
      eval_(q.eval, *this),
      make_(q.pos, board_i()),
      search_(q.search, *this) {}

void ChipCtrl::clock() {
  // Host register block: decode and write strobes.
  if (req_i()) {
    dec_ = CtrlRegs::decode(addr_i());
    st_ = CtrlRegs::write(d_.regs, dec_, true, we_i(), addr_i(), wdata_i(), busy());
  }
  out_.se_we_o = st_.se_we_o;
  out_.pst_we_o = st_.pst_we_o;
  out_.ph_ram_we_o = st_.ph_ram_we_o;
  out_.job_board_we = st_.job_board_we;
  out_.job_hist_we = st_.job_hist_we;
  out_.job_pos_we = st_.job_pos_we;
  jw_ = CtrlJob::writes(q_.job, ctrl_idle(), st_.abort_we_o && busy(), job_i());

  // ---------------------------------------------------------------- next state
  if (busy()) cd_.cycles_q = cq_.cycles_q + 1;
  cd_.tgt_skip_q = false;
  if (se_finish_i() && cq_.state_q == S_IDLE) cd_.done_q = true;  // SLOW_EVAL or LAZY_EVAL
  switch (cq_.state_q) {
    case S_CHECK:
      check();
      break;
    case S_GEN:
      gen();
      break;
    case S_GENATT: {
      // Under the checks filter a target may have no attacker that checks from it: GEN goes on
      // below it.
      const int att = checks_attackers(cq_.tgt_q) ? array_i().arbitrate_checking_attacker(cq_.tgt_q, false, 0)
                                                  : array_i().arbitrate_attacker(cq_.tgt_q, false, 0);
      if (att < 0) {
        cd_.tgt_skip_q = true;
        cd_.state_q = S_GEN;
        break;
      }
      cd_.mv_q = gen_move(att, cq_.tgt_q, is_promotion(board_i()[att] & 7, cq_.tgt_q >> 3, q_.pos.stm));
      cd_.state_q = S_MAKE;
      cd_.generated_q = cq_.generated_q + 1;
      break;
    }
    case S_REPCHK: {
      // The repeating move is made only if the piece can move there (the checks of a host move);
      // otherwise the node generates its moves as usual.
      const int from = mv_from(cq_.mv_q), to = mv_to(cq_.mv_q);
      rc_ok_ = (array_i().attackers_of(to) >> from & 1) && array_i().target_candidate(to, false) &&
               !is_promotion(board_i()[from] & 7, to >> 3, q_.pos.stm);
      cd_.state_q = rc_ok_ ? S_MAKE : S_GEN;
      break;
    }
    case S_MAKE:
      out_.stk_we = true;
      out_.stk_move_we = true;
      out_.stk_move_waddr = std::uint8_t(pi());
      out_.stk_move_wdata = cq_.mv_q;
      cd_.state_q = S_TEST;
      break;
    case S_TEST:
      test();
      break;
    case S_UNMAKE:
      unmake();
      break;
    case S_EINIT:
      if (eval_.einit_done_o(true)) finish();
      break;
    default:  // S_IDLE; S_SEVAL waits for the search's decision
      break;
  }

  // The search's decision (none in the other states).
  CtrlSearch::StepIn s;
  s.start_i = cmd_go() && field::cmd::OP.get(cmd_wdata()) == op::SEARCH;
  const std::uint8_t state = cq_.state_q;
  if (s.start_i || state == S_GEN || state == S_REPCHK || state == S_TEST || state == S_UNMAKE || state == S_SEVAL) {
    s.exhausted_i = gen_exhausted_;
    s.repchk_ok_i = state == S_REPCHK && rc_ok_;
    s.se_finish_i = se_finish_i();
    s.se_white_i = se_white_i();
    s.rm_try_i = rm_try_;
    apply_step(search().step(d_.search, s));
  }

  make_and_eval();
  host_writes();
  // The JOB's registers, after this clock's command error (its steps' or the host's).
  const std::uint32_t op_w = field::cmd::OP.get(cmd_wdata()), depth_w = field::cmd::DEPTH.get(cmd_wdata());
  CtrlJob::next(q_.job, d_.job, st_.cmd_we_o && op_w == op::JOB && depth_w != 0, std::uint8_t(depth_w),
                std::uint8_t(field::cmd::HISTORY.get(cmd_wdata())), st_.abort_we_o && busy(), ctrl_idle(), cmd_err_);

  // The read multiplexer and ERROR (the bus's response).
  bool err = false;
  if (req_i() || cmd_err_) err = CtrlRegs::error(q_.regs, d_.regs, st_, cmd_err_, cmd_err_code_, addr_i());
  if (req_i()) {
    const CtrlRegs::ReadPorts rp{cq_.cmd_q,        busy(),       cq_.done_q,     cq_.move_valid_q, cq_.aborted_q,
                                 q_.pos,           cq_.move_q,   cq_.host_ply_q, cq_.count_q,      cq_.cycles_q,
                                 cq_.generated_q,  board_i(),    ph_i(),         pst_ram(),        ph_ram(),
                                 se_weights(),     se_group_i(), se_value_i(),   se_draw_i(),      q_.search.result_q,
                                 q_.search.best_q, array_i(),    eval_,          search(),         job_i()};
    out_.resp.data = CtrlRegs::read(q_.regs, dec_, we_i(), addr_i(), rp);
    out_.resp.error = err;
  }
}

// Is the host's move (MOVE) pseudo-legal here?
void ChipCtrl::check() {
  const std::uint16_t move = cq_.move_q;
  const int from = mv_from(move), to = mv_to(move);
  const bool chk_ok = mv_valid(move) && (array_i().attackers_of(to) >> from & 1) &&
                      array_i().target_candidate(to, false) &&
                      mv_promo(move) == is_promotion(board_i()[from] & 7, to >> 3, q_.pos.stm) &&
                      (mv_promo(move) || mv_promo_idx(move) == 0);
  if (!chk_ok) {
    finish();
    cmd_err_ = true;
    cmd_err_code_ = std::uint8_t(err::BAD_MOVE);
  } else if (op_q() == int(op::MAKE)) {
    cd_.mv_q = move;
    cd_.state_q = S_MAKE;
  } else {
    cd_.state_q = S_GEN;
  }
}

// What GEN bids for: the CAPTURES and CHECKS modes of the GEN command; a quiescence node's
// captures, or its captures and checks while its side may still check.
GenFilter ChipCtrl::gen_filter() const {
  if (op_q() == int(op::GEN)) {
    return mode_q() == int(mode::CAPTURES) ? GenFilter::kCaptures
           : mode_q() == int(mode::CHECKS) ? GenFilter::kChecks
                                           : GenFilter::kAll;
  }
  if (!searching() || !search().qnode_o()) return GenFilter::kAll;
  return search().checks_ok_o() ? GenFilter::kChecks : GenFilter::kCaptures;
}

// The checks filter alone (rtl/chip_ctrl.sv's chk_only_o), the cheap tests first: the attacker
// arbiter needs no more.
bool ChipCtrl::gen_checks() const {
  if (op_q() == int(op::GEN)) return mode_q() == int(mode::CHECKS);
  return searching() && search().checks_ok_o() && search().qnode_o();
}

// The find-attacker under the checks filter? It sorts only the attackers of an empty square
// (captures pass as they are), so the model asks only there, and a search without quiescence
// checks never filters: the model asks on every GEN clock after a quiet move, the cheap tests first.
bool ChipCtrl::checks_attackers(int tsel) const {
  const std::uint32_t sc = q_.regs.search_ctrl_q;
  const bool no_checks =
      field::search_ctrl::MATING_CHECKS.get(sc) == 0 && field::search_ctrl::SINGULAR_CHECKS.get(sc) == 0;
  if (no_checks && op_q() != int(op::GEN)) return false;
  return (board_i()[tsel] & 7) == 0 && gen_checks();
}

// GEN's choices in order: the repeating move, the next promotion piece of the last move, the last
// target's next attacker, the next target; none left ends the ply.
void ChipCtrl::gen() {
  const ArrayModel& array = array_i();
  const bool last_valid = mv_valid(last());
  const std::uint16_t rm_move = search().rm_move_o();
  rm_try_ = rm_move != 0;
  const bool gen_promo = last_valid && mv_promo(last()) && mv_promo_idx(last()) != 3;
  const int att =
      last_valid && !rm_try_ && !gen_promo
          ? (checks_attackers(mv_to(last())) ? array.arbitrate_checking_attacker(mv_to(last()), true, mv_from(last()))
                                             : array.arbitrate_attacker(mv_to(last()), true, mv_from(last())))
          : -1;
  if (rm_try_) {
    cd_.mv_q = rm_move;  // the node's repeating move first (not counted as generated)
    cd_.state_q = S_REPCHK;
  } else if (gen_promo) {
    cd_.mv_q = std::uint16_t((last() & 0xC000) | (((mv_promo_idx(last()) + 1) & 3) << 12) | (last() & 0x0FFF));
    cd_.state_q = S_MAKE;
    cd_.generated_q = cq_.generated_q + 1;
  } else if (last_valid && att >= 0) {
    const int to = mv_to(last());
    cd_.mv_q = gen_move(att, to, is_promotion(board_i()[att] & 7, to >> 3, q_.pos.stm));
    cd_.state_q = S_MAKE;
    cd_.generated_q = cq_.generated_q + 1;
  } else {
    // The next target below the last move's, or below the target GENATT skipped.
    const int tgt =
        array.arbitrate_target(gen_filter(), last_valid || cq_.tgt_skip_q, cq_.tgt_skip_q ? cq_.tgt_q : mv_to(last()));
    if (tgt >= 0) {
      cd_.tgt_q = std::uint8_t(tgt);
      cd_.state_q = S_GENATT;
    } else if (op_q() == int(op::PERFT) && cq_.ply_q != cq_.base_q) {
      cd_.ply_q = std::uint8_t(cq_.ply_q - 1);
      cd_.state_q = S_UNMAKE;
    } else if (!searching()) {
      // Exhausted: PERFT at its root ply is finished; GEN found nothing. (A search's exhausted
      // node: the search decides.)
      finish();
      cd_.move_valid_q = false;
    } else {
      gen_exhausted_ = true;
    }
  }
}

void ChipCtrl::test() {
  const ArrayModel& array = array_i();
  undo_ = true;
  if (op_q() == int(op::SEARCH)) return;  // the search decides
  if (op_q() == int(op::PERFT)) {
    if (array.king_capture()) {
      cd_.state_q = S_GEN;
    } else if (cq_.ply_q + 1 == cq_.base_q + depth_q()) {
      cd_.count_q = cq_.count_q + 1;
      cd_.state_q = S_GEN;
    } else {
      undo_ = false;
      cd_.ply_q = std::uint8_t(cq_.ply_q + 1);
      out_.stk_move_we = true;
      out_.stk_move_waddr = std::uint8_t((pi() + 1) & 31);
      out_.stk_move_wdata = 0;
      cd_.state_q = S_GEN;
    }
  } else if (op_q() == int(op::MAKE)) {
    if (array.king_capture()) {
      finish();
      cmd_err_ = true;
      cmd_err_code_ = std::uint8_t(err::BAD_MOVE);
    } else {
      undo_ = false;
      cd_.host_ply_q = std::uint8_t(cq_.host_ply_q + 1);
      finish();
    }
  } else {  // GEN, with its mode's filter on the move made
    const ctrl_pkg::stk_entry_t& entry = stack().entry_o(pi());
    bool test_accept = true;
    if (mode_q() == int(mode::CAPTURES))
      test_accept = entry.cap != 0;
    else if (mode_q() == int(mode::CHECKS))
      test_accept = array.in_check();
    else if (mode_q() == int(mode::ATTACKS))
      test_accept = entry.cap == 0 && array.tsel_attacks(mv_to(cq_.mv_q));
    if (!array.king_capture() && test_accept) {
      cd_.move_q = cq_.mv_q;
      cd_.move_valid_q = true;
      finish();
    } else {
      cd_.state_q = S_GEN;
    }
  }
}

// PERFT backing up a ply, the UNMAKE command, a search going on at the ply above (or unwinding:
// the search decides).
void ChipCtrl::unmake() {
  undo_ = true;
  if (op_q() == int(op::UNMAKE)) {
    cd_.host_ply_q = cq_.ply_q;
    finish();
  } else {
    cd_.state_q = S_GEN;
  }
}

void ChipCtrl::apply_step(const ctrl_pkg::search_step_t& step) {
  if (!step.go) return;
  switch (step.next) {
    case ctrl_pkg::NEXT_GEN:
      cd_.state_q = S_GEN;
      break;
    case ctrl_pkg::NEXT_UNMAKE:
      cd_.state_q = S_UNMAKE;
      break;
    case ctrl_pkg::NEXT_SEVAL:
      cd_.state_q = S_SEVAL;
      break;
    case ctrl_pkg::NEXT_IDLE:
      cd_.state_q = S_IDLE;
      break;
    default:
      cd_.state_q = cq_.state_q;  // NEXT_HOLD
      break;
  }
  undo_ = step.undo;
  if (step.ply_up) cd_.ply_q = std::uint8_t(cq_.ply_q + 1);
  if (step.ply_down) cd_.ply_q = std::uint8_t(cq_.ply_q - 1);
  if (step.move_we) {
    out_.stk_move_we = true;
    out_.stk_move_waddr = step.move_waddr;
    out_.stk_move_wdata = 0;
  }
  if (step.count) cd_.count_q = cq_.count_q + 1;
  if (step.done) cd_.done_q = true;
  if (step.se_start) out_.se_start_o = true;
}

// u_make and u_eval, and the stack entry MAKE pushes (the position registers, the placement sum and
// the quiescence check counters).
void ChipCtrl::make_and_eval() {
  const bool make = cq_.state_q == S_MAKE;
  const bool job = jw_.load_we || jw_.cmd_we;
  if (!make && !undo_ && !req_i() && !job && cq_.state_q != S_EINIT && !se_finish_i()) return;  // nothing changes
  const std::uint32_t op_w = field::cmd::OP.get(cmd_wdata());
  ctrl_pkg::mk_view_t mk;
  if (make) {
    mk = make_.mk_o(cq_.mv_q);
    out_.push_full = make_.push_o(mk);
    out_.push_full.pst = q_.eval.pst_q;
    out_.push_full.qc = q_.search.qc_q;
    out_.rep_we = true;
  }
  const ctrl_pkg::stk_entry_t& entry = stack().entry_o(pi());
  CtrlMake::HostWrites host;
  host.load_we_i = jw_.load_we;
  host.load_sq_i = std::uint8_t(jw_.load_sq);
  host.load_pc_i = std::uint16_t(job_i().board[std::size_t(jw_.load_sq >> 3)] >> (4 * (jw_.load_sq & 7)));
  host.job_pos_we_i = jw_.pos_we;
  host.job_pos_i = job_i().pos;
  if (req_i()) {
    host.clear_i = st_.cmd_we_o && op_w == op::CLEAR;
    host.stm_we_i = st_.stm_we_o;
    host.castling_we_i = st_.castling_we_o;
    host.ep_we_i = st_.ep_we_o;
    host.half_we_i = st_.half_we_o;
    host.full_we_i = st_.full_we_o;
    host.board_we_i = st_.board_we_o;
    host.board_sq_i = std::uint8_t(addr_i() & 63);
    host.wdata_i = std::uint16_t(wdata_i());
  }
  make_.next(d_.pos, make, cq_.mv_q, mk, undo_, last(), entry, host, out_.wr, out_.ph_ev);
  out_.clear_o = host.clear_i;
  out_.undo = undo_;

  CtrlEval::Step e;
  e.einit_i = cq_.state_q == S_EINIT;
  e.make_i = make;
  e.mk_i = &mk;
  e.undo_i = undo_;
  e.undo_pst_i = entry.pst;
  e.einit_start_i = cmd_go() && op_w == op::EVAL_INIT && cq_.host_ply_q == 0;
  e.lazy_start_i = cmd_go() && op_w == op::LAZY_EVAL;
  e.abort_i = st_.abort_we_o && busy();
  e.est_we_i = st_.est_we_o;
  e.wdata_i = std::uint16_t(wdata_i());
  e.se_finish_i = se_finish_i();
  e.se_white_i = se_white_i();
  eval_.next(d_.eval, e, eval_out_);
  if (eval_out_.ph_ev_o.valid) out_.ph_ev = eval_out_.ph_ev_o;  // MAKE/unmake and EVAL_INIT never share a clock
}

// Host writes (and a JOB's, in the host's place).
void ChipCtrl::host_writes() {
  if (!req_i() && !jw_.load_we && !jw_.cmd_we) return;
  if (st_.abort_we_o && busy()) {
    cd_.state_q = S_IDLE;
    out_.se_abort_o = true;
    cd_.aborted_q = true;
    cd_.done_q = true;
    cd_.host_ply_q = 0;  // moves made by the command stay on the board: reload the position
  }
  if (st_.stm_we_o || st_.castling_we_o || st_.ep_we_o || st_.half_we_o || st_.full_we_o || st_.board_we_o) {
    cd_.host_ply_q = 0;
  }
  if (jw_.load_we) cd_.host_ply_q = 0;
  if (st_.move_we_o || jw_.move_we) cd_.move_q = jw_.move_we ? jw_.move : std::uint16_t(wdata_i());
  if (cmd_go()) command();
}

void ChipCtrl::command() {
  const std::uint32_t cmd = cmd_wdata();
  const std::uint32_t op_w = field::cmd::OP.get(cmd), mode_w = field::cmd::MODE.get(cmd);
  const std::uint32_t depth_w = field::cmd::DEPTH.get(cmd);
  const std::uint32_t host_ply = cq_.host_ply_q;
  cd_.cmd_q = cmd;
  cd_.cycles_q = 0;
  cd_.generated_q = 0;
  cd_.done_q = false;
  cd_.aborted_q = false;
  cd_.ply_q = cq_.host_ply_q;
  cd_.base_q = cq_.host_ply_q;
  switch (op_w) {
    case op::CLEAR:
      cd_.host_ply_q = 0;
      cd_.done_q = true;
      break;
    case op::GEN:
      cd_.move_valid_q = false;
      if (mode_w > mode::ATTACKS) {
        cmd_error(std::uint8_t(err::BAD_ARGUMENT));
      } else if (host_ply >= STACK_DEPTH) {
        cmd_error(std::uint8_t(err::STACK));
      } else if (mode_w == mode::EVASIONS && !array_i().in_check()) {
        cd_.done_q = true;  // nothing to evade
      } else {
        out_.stk_move_we = true;
        out_.stk_move_waddr = std::uint8_t(host_ply & 31);
        out_.stk_move_wdata = cq_.move_q;
        cd_.state_q = mv_valid(cq_.move_q) ? S_CHECK : S_GEN;
      }
      break;
    case op::MAKE:
      if (host_ply >= STACK_DEPTH)
        cmd_error(std::uint8_t(err::STACK));
      else
        cd_.state_q = S_CHECK;
      break;
    case op::UNMAKE:
      if (host_ply == 0) {
        cmd_error(std::uint8_t(err::STACK));
      } else {
        cd_.ply_q = std::uint8_t(host_ply - 1);
        cd_.state_q = S_UNMAKE;
      }
      break;
    case op::PERFT:
    case op::SEARCH: {
      cd_.count_q = 0;
      // Offset searches need an offset depth of 1..depth and room for the extension.
      const std::uint32_t off_depth = std::uint32_t(search().off_depth_o());
      if (depth_w == 0 || host_ply + depth_w > STACK_DEPTH ||
          (op_w == op::SEARCH && search().off_on_o() &&
           (off_depth == 0 || off_depth > depth_w || host_ply + depth_w + 1 > STACK_DEPTH))) {
        cmd_error(std::uint8_t(err::BAD_ARGUMENT));
      } else {
        out_.stk_move_we = true;
        out_.stk_move_waddr = std::uint8_t(host_ply & 31);
        out_.stk_move_wdata = 0;
        cd_.state_q = S_GEN;
      }
      break;
    }
    case op::EVAL_INIT:
      if (host_ply != 0) {
        cmd_error(std::uint8_t(err::STACK));
      } else {
        out_.ph_clear_o = true;
        cd_.state_q = S_EINIT;
      }
      break;
    case op::SLOW_EVAL:
      out_.se_start_o = true;
      break;
    case op::JOB:
      // ctrl_job runs it; a search needs a depth (the other checks are its steps').
      if (depth_w == 0) cmd_error(std::uint8_t(err::BAD_ARGUMENT));
      break;
    case op::LAZY_EVAL:
      if (eval_out_.lazy_done_o) cd_.done_q = true;
      if (eval_out_.lazy_slow_o) out_.se_start_o = true;
      break;
    default:
      cmd_error(std::uint8_t(err::BAD_COMMAND));
      break;
  }
}

}  // namespace db::chip
