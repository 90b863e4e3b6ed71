// Twin of rtl/ctrl_regs.sv: the controller's host register block. The address decode, the read
// multiplexer, the bus response (the model answers in the clock of the request; the RTL registers
// it for the next), the ERROR register, the registers only the host writes (the search's and the
// evaluation's parameters; a search job's staging, JobStage, which chip_model keeps and writes at the
// clock's end through the strobes), and a write strobe for each register another block owns. Writes other
// than ABORT and ERROR are refused while a command runs. The addresses come from rtl/regmap.json
// (chip/chip_regs.h).
#pragma once

#include <array>
#include <cstdint>

#include "chip/bus.h"
#include "chip/model/ctrl_job.h"
#include "chip/model/ctrl_pkg.h"
#include "chip/model/eval_blocks.h"
#include "chip/slow_eval.h"

namespace db::chip {

class ArrayModel;
class CtrlEval;
class CtrlSearch;

class CtrlRegs {
 public:
  // The block's registers.
  struct Regs {
    std::uint8_t err_code_q = 0;
    std::uint32_t err_addr_q = 0;
    std::uint8_t eval_ctrl_q = 0;
    std::uint16_t runner_bonus_q = 0, sep_bonus_q = 0, test_value_q = 0, test_tie_q = 0;
    std::uint32_t search_ctrl_q = 0, node_limit_q = 0, offset_ctrl_q = 0;
    bool kpk_en_o() const { return eval_ctrl_q >> 1 & 1; }  // EVAL_CTRL: the KPK ROM
    bool rules_en_o() const { return eval_ctrl_q & 1; }     // EVAL_CTRL: the endgame rules
  };
  // The address decode, the slow evaluation's part of the map included (eval_slow decodes it).
  struct Decode {
    bool is_board = false, is_pst = false, is_phase_ram = false, is_reg_ro = false, is_reg_rw = false;
    bool is_board_pack = false, is_job_hist = false;
    bool se_reg_hit = false, se_tab_hit = false, se_grp_hit = false;
    bool mapped() const {
      return is_board || is_pst || is_phase_ram || is_reg_ro || is_reg_rw || se_reg_hit || se_tab_hit || se_grp_hit ||
             is_board_pack || is_job_hist;
    }
  };
  // The write strobes for the registers and memories of other blocks, and the bus's error.
  struct Strobes {
    std::uint8_t bus_err_code = 0;
    bool err_clear = false;
    bool cmd_we_o = false, abort_we_o = false, move_we_o = false, stm_we_o = false, castling_we_o = false;
    bool ep_we_o = false, half_we_o = false, full_we_o = false, board_we_o = false, est_we_o = false;
    bool pst_we_o = false, ph_ram_we_o = false, se_we_o = false;
    // The job's staging (ctrl_regs' job_board_q, job_hist_q, job_pos_q): written at the clock's end.
    bool job_board_we = false, job_hist_we = false, job_pos_we = false;
  };
  // What the host reads of the other blocks (the read multiplexer's inputs). The registers come
  // as their blocks hold them; the array's, the evaluation's and the detector's outputs are
  // computed when read.
  struct ReadPorts {
    std::uint32_t cmd_i;
    bool busy_i, done_i, move_valid_i, aborted_i;
    const ctrl_pkg::pos_t& pos_i;
    std::uint16_t move_i;
    int host_ply_i;
    std::uint64_t count_i, cycles_i;
    std::uint32_t generated_i;
    const std::array<std::uint8_t, 64>& board_i;
    const PhaseRegs& ph_i;                          // counts_i, locs_i
    const std::array<std::uint16_t, 512>& pst_ram;  // the placement table's port A
    const std::array<std::uint16_t, 1024>& ph_ram;
    const SlowEvalWeights& se_weights;  // the slow evaluation's registers and tables (se_rdata_i)
    const std::array<std::uint16_t, SLOW_GROUPS>& se_group_i;
    std::uint16_t se_value_i, se_draw_i;
    std::uint8_t result_i;
    std::uint16_t best_i;
    const ArrayModel& array_i;
    const CtrlEval& eval_i;
    const CtrlSearch& search_i;
    const JobStage& job_i;
  };

  static Decode decode(std::uint32_t addr_i);
  // The write: the strobes, the bus's error code, and the host-only registers after the clock (d
  // holds them before it: the registers written change).
  static Strobes write(Regs& d, const Decode& dec, bool req_i, bool we_i, std::uint32_t addr_i, std::uint32_t wdata_i,
                       bool busy_i);
  // The read multiplexer (rdata).
  static std::uint32_t read(const Regs& q, const Decode& dec, bool we_i, std::uint32_t addr_i, const ReadPorts& in);
  // ERROR and the bus's error response (err): a refused access, or a command refused at its write
  // (the state machine's error, cmd_err_i); a command's error while it runs is recorded without a
  // response. The bus's error takes precedence, and a write to ERROR clears it.
  static bool error(const Regs& q, Regs& d, const Strobes& st, bool cmd_err_i, std::uint8_t cmd_err_code_i,
                    std::uint32_t addr_i) {
    bool err_d = false;
    d.err_code_q = q.err_code_q;
    d.err_addr_q = q.err_addr_q;
    if (cmd_err_i) {
      err_d = st.cmd_we_o;
      d.err_code_q = cmd_err_code_i;
      d.err_addr_q = reg::CMD;
    }
    if (st.err_clear) {
      d.err_code_q = 0;
      d.err_addr_q = 0;
    }
    if (st.bus_err_code != 0) {
      err_d = true;
      d.err_code_q = st.bus_err_code;
      d.err_addr_q = addr_i;
    }
    return err_d;
  }
};

}  // namespace db::chip
