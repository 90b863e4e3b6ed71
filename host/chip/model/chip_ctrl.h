// Twin of rtl/chip_ctrl.sv: the chip's controller. The command state machine (GEN, MAKE, UNMAKE,
// PERFT, CLEAR, EVAL_INIT, SLOW_EVAL, LAZY_EVAL, SEARCH, JOB) and the wiring of its blocks:
//   ctrl_regs    host register block: decode, read multiplexer, ERROR, the host-only registers
//   ctrl_job     the JOB command: loads a staged search job and writes its commands in the
//                host's place (CMD and MOVE writes come from the host or from it)
//   ctrl_stack   the move stack
//   ctrl_make    make/unmake and the position registers
//   ctrl_eval    fast and lazy evaluation (placement sum, EVAL_INIT's scan, the slow-eval filter)
//   ctrl_search  the hardware search (AIJ 5): its state, datapath and decisions; in a search's
//                TEST, UNMAKE and SEVAL, and when a search's GEN finds no move, its decision
//                (search_step_t) sets the next state here
// Types shared by the blocks are in ctrl_pkg.h. Every state takes exactly one clock.
//
// The model's clock: ChipCtrl is the controller during one clock. It reads the registers before
// the clock (q) and the rest of the chip's outputs (its input ports, read from chip_top through
// one reference to it), writes the registers after it (d, a copy of q on entry) and returns what
// the rest of the chip does at the clock edge (Out): the array writes, the game phase events, the
// slow evaluation's start and abort, the table writes, the stack's and the repetition detector's
// writes. chip/chip_model.cpp (the chip_top of the model) wires the input ports and applies the
// outputs.
#pragma once

#include <array>
#include <cstdint>

#include "chip/array_model.h"
#include "chip/bus.h"
#include "chip/chip_regs.h"
#include "chip/model/ctrl_eval.h"
#include "chip/model/ctrl_job.h"
#include "chip/model/ctrl_make.h"
#include "chip/model/ctrl_pkg.h"
#include "chip/model/ctrl_regs.h"
#include "chip/model/ctrl_search.h"
#include "chip/model/ctrl_stack.h"
#include "chip/model/eval_blocks.h"
#include "chip/model/rep_detect.h"
#include "chip/slow_eval.h"

namespace db::chip {

class ChipModel;

class ChipCtrl {
 public:
  // chip_ctrl's own registers.
  struct Regs {
    std::uint8_t state_q = 0;  // S_IDLE ...
    std::uint32_t cmd_q = 0;
    std::uint16_t move_q = 0;  // MOVE register
    std::uint16_t mv_q = 0;    // move being made
    std::uint8_t tgt_q = 0;
    bool tgt_skip_q = false;      // GENATT found no attacker of tgt_q: GEN's next target is below it
    std::uint8_t ply_q = 0;       // working stack index
    std::uint8_t base_q = 0;      // stack index where the command started
    std::uint8_t host_ply_q = 0;  // moves made by MAKE
    std::uint64_t count_q = 0, cycles_q = 0;
    std::uint32_t generated_q = 0;
    bool done_q = false, aborted_q = false, move_valid_q = false;
  };
  // The registers of the controller and its blocks (u_regs, u_make, u_eval, u_search).
  struct State {
    Regs ctrl;
    CtrlRegs::Regs regs;
    ctrl_pkg::pos_t pos;  // ctrl_make's pos_q
    CtrlEval::Regs eval;
    CtrlSearch::Regs search;
    CtrlJob::Regs job;
  };
  // What the rest of the chip does at the clock edge.
  struct Out {
    BusResponse resp;
    bool clear_o = false;
    ArrayWrites wr;
    ph_events_t ph_ev;
    bool ph_clear_o = false;
    bool se_start_o = false, se_abort_o = false, se_we_o = false, pst_we_o = false, ph_ram_we_o = false;
    bool job_board_we = false, job_hist_we = false, job_pos_we = false;  // the job's staging (JobStage)
    // The stack's write ports.
    bool stk_we = false;
    ctrl_pkg::stk_entry_t push_full;
    bool stk_move_we = false;
    std::uint8_t stk_move_waddr = 0;
    std::uint16_t stk_move_wdata = 0;
    bool rep_we = false;  // MAKE: the detector stores the position
    bool undo = false;    // the move at the current ply is unmade
  };

  // One clock of the controller: chip_top (its registers before the clock are q, the controller's
  // part of them), the move-generator array on the current board, the host bus.
  ChipCtrl(const ChipModel& top, const State& q, State& d, const ArrayModel& array, bool req_i, bool we_i,
           std::uint32_t addr_i, std::uint32_t wdata_i, Out& out);
  // The clock (the RTL's always_comb blocks, in order).
  void clock();

 private:
  // ---------------------------------------------------------------- input ports
  // Read from chip_top where they are used (chip/chip_model.cpp wires them to its registers,
  // tables and signals): one view of the chip, not a copy of its signals made every clock (the
  // model's time).
  // Host bus.
  bool req_i() const { return req_i_; }
  bool we_i() const { return we_i_; }
  std::uint32_t addr_i() const { return addr_i_; }
  std::uint32_t wdata_i() const { return wdata_i_; }
  // Move-generator array (its combinational view of the board) and its board.
  const ArrayModel& array_i() const { return array_i_; }
  const std::array<std::uint8_t, 64>& board_i() const;
  std::uint64_t board_hash_i() const;  // the model's hash of board_i (the repetition detector's shortcut)
  // Piece placement table, game phase control (its registers and RAM).
  const std::array<std::uint16_t, 512>& pst_ram() const;
  const PhaseRegs& ph_i() const;
  const std::array<std::uint16_t, 1024>& ph_ram() const;
  // Slow evaluation: its registers and tables (EVAL_CONTROL word 1 is se_lazy_ctrl), its state
  // and results.
  const SlowEvalWeights& se_weights() const;
  bool se_busy_i() const;
  bool se_finish_i() const;
  std::uint16_t se_white_i() const;  // the finishing slow evaluation's value, white's view
  std::uint16_t se_value_i() const;
  std::uint16_t se_draw_i() const;
  const std::array<std::uint16_t, SLOW_GROUPS>& se_group_i() const;
  // The move stack and the repetition detector (their storage: written at the clock's end).
  const CtrlStack& stack() const;
  const RepDetect& rep() const;
  // The staged search job (ctrl_regs' job_board_q, job_hist_q, job_pos_q).
  const JobStage& job_i() const;

  void check();
  void gen();
  GenFilter gen_filter() const;
  // Out of line: clock_edge is flattened, and this runs only for a quiet target's attackers in a
  // search with quiescence checks.
  [[gnu::noinline]] bool gen_checks() const;
  bool checks_attackers(int tsel) const;
  void test();
  void unmake();
  void apply_step(const ctrl_pkg::search_step_t& step);
  void make_and_eval();
  void host_writes();
  void command();
  void cmd_error(std::uint8_t code) {
    cmd_err_ = true;
    cmd_err_code_ = code;
    d_.ctrl.done_q = true;
  }
  void finish() {
    d_.ctrl.state_q = S_IDLE;
    d_.ctrl.done_q = true;
  }

  const ChipModel& top_;  // chip_top: the input ports
  const State& q_;
  State& d_;
  const ArrayModel& array_i_;
  bool req_i_, we_i_;
  std::uint32_t addr_i_, wdata_i_;
  Out& out_;
  const Regs& cq_;  // q_.ctrl
  Regs& cd_;        // d_.ctrl
  // The RTL's assigns, computed where they are read (the model's time: not stored every clock).
  // Command fields of the running command.
  int op_q() const { return int(field::cmd::OP.get(cq_.cmd_q)); }
  int mode_q() const { return int(field::cmd::MODE.get(cq_.cmd_q)); }
  int depth_q() const { return int(field::cmd::DEPTH.get(cq_.cmd_q)); }
  bool ctrl_idle() const { return cq_.state_q == S_IDLE && !se_busy_i(); }
  bool busy() const { return !ctrl_idle() || q_.job.active_o(); }
  // CMD and MOVE writes, the host's or a JOB's (never both: the host's are refused while a job runs).
  bool cmd_go() const { return st_.cmd_we_o || jw_.cmd_we; }
  std::uint32_t cmd_wdata() const { return jw_.cmd_we ? jw_.cmd : wdata_i(); }
  bool searching() const { return op_q() == int(op::SEARCH); }
  int pi() const { return cq_.ply_q & 31; }                    // current ply index into the stack
  std::uint16_t last() const { return stack().move_o(pi()); }  // the stack's move at pi
  // The host register block's decode and strobes.
  CtrlRegs::Decode dec_;
  CtrlRegs::Strobes st_;
  CtrlJob::Writes jw_;  // the JOB's writes this clock
  CtrlEval eval_;
  CtrlMake make_;
  // u_search: it reads its input ports from this controller (ctrl_search.cpp).
  friend class CtrlEval;
  friend class CtrlSearch;
  CtrlSearch search_;
  const CtrlSearch& search() const { return search_; }
  // This clock's signals.
  bool undo_ = false, cmd_err_ = false, gen_exhausted_ = false, rc_ok_ = false, rm_try_ = false;
  std::uint8_t cmd_err_code_ = 0;
  CtrlEval::StepOut eval_out_;
};

}  // namespace db::chip
