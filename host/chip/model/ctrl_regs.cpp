// See ctrl_regs.h. The sections follow rtl/ctrl_regs.sv: decode, read, write (ERROR is in the
// header).
#include "chip/model/ctrl_regs.h"

#include "chip/array_model.h"
#include "chip/chip_regs.h"
#include "chip/model/ctrl_eval.h"
#include "chip/model/ctrl_search.h"

namespace db::chip {

namespace {

// Data with bits set above a register's or table's width.
bool too_wide(std::uint32_t data, int bits) { return bits < 32 && (data >> bits) != 0; }

}  // namespace

// ---------------------------------------------------------------- decode
CtrlRegs::Decode CtrlRegs::decode(std::uint32_t addr_i) {
  Decode dec;
  dec.is_phase_ram = addr_i >= reg::PHASE_RAM_BASE && addr_i < reg::PHASE_RAM_BASE + reg::PHASE_RAM_COUNT;
  dec.is_pst = addr_i >= reg::PST_BASE && addr_i < reg::PST_BASE + reg::PST_COUNT;
  dec.is_board = addr_i >= reg::BOARD_BASE && addr_i < reg::BOARD_BASE + reg::BOARD_COUNT;
  dec.is_board_pack = addr_i >= reg::BOARD_PACK_BASE && addr_i < reg::BOARD_PACK_BASE + reg::BOARD_PACK_COUNT;
  dec.is_job_hist = addr_i >= reg::JOB_HISTORY_BASE && addr_i < reg::JOB_HISTORY_BASE + reg::JOB_HISTORY_COUNT;
  dec.is_reg_ro = reg::is_read_only(addr_i);  // the decode generated from rtl/regmap.json
  dec.is_reg_rw = reg::is_read_write(addr_i);
  // eval_slow's part: its registers, its tables (an entry: inside a table's window and below its
  // entry count), the group values (read-only).
  dec.se_reg_hit = addr_i >= EVAL_REGS_BASE && addr_i < EVAL_REGS_BASE + EVAL_REGS_COUNT;
  if (addr_i >= EVAL_TABLES_BASE && addr_i < EVAL_TABLES_BASE + EVAL_TABLES_COUNT * EVAL_TABLES_WINDOW) {
    const std::uint32_t off = addr_i - EVAL_TABLES_BASE;
    dec.se_tab_hit = off % EVAL_TABLES_WINDOW < std::uint32_t(EVAL_TABLE_ENTRIES[off / EVAL_TABLES_WINDOW]);
  }
  dec.se_grp_hit = addr_i >= reg::SE_GROUP_BASE && addr_i < reg::SE_GROUP_BASE + reg::SE_GROUP_COUNT;
  return dec;
}

// ---------------------------------------------------------------- read
namespace {

// The slow evaluation's read data (se_rdata).
std::uint32_t se_rdata(const CtrlRegs::Decode& dec, std::uint32_t addr_i, const CtrlRegs::ReadPorts& in) {
  if (dec.se_grp_hit) {
    const std::uint32_t g = addr_i - reg::SE_GROUP_BASE;
    return g < SLOW_GROUPS ? in.se_group_i[g] : 0;
  }
  if (dec.se_reg_hit) return in.se_weights.regs[addr_i - EVAL_REGS_BASE];
  const std::uint32_t off = addr_i - EVAL_TABLES_BASE;
  return in.se_weights.tables[off / EVAL_TABLES_WINDOW][off % EVAL_TABLES_WINDOW];
}

// The evaluation's registers and outputs.
std::uint32_t eval_rdata(std::uint32_t addr_i, const CtrlRegs::Regs& q, const CtrlRegs::ReadPorts& in) {
  const CtrlEval& eval = in.eval_i;
  const PhaseRegs& ph = in.ph_i;
  std::uint32_t rdata = 0;
  switch (addr_i) {
    case reg::EVAL_CTRL:
      return q.eval_ctrl_q;
    case reg::FAST_EVAL:
      return eval.fast_eval_o();
    case reg::PIECE_COUNT_W:
    case reg::PIECE_COUNT_B: {
      const int c = addr_i == reg::PIECE_COUNT_B;
      for (int type = 0; type < 5; ++type) rdata |= std::uint32_t(ph.counts[c * 5 + type]) << (4 * type);
      return rdata;
    }
    case reg::PIECE_LOC_W:
    case reg::PIECE_LOC_B: {
      const int c = addr_i == reg::PIECE_LOC_B;
      for (int type = 0; type < 5; ++type) rdata |= std::uint32_t(ph.locs[c * 6 + type]) << (6 * type);
      return rdata;
    }
    case reg::KING_SQ:
      return std::uint32_t(ph.locs[11]) << 8 | ph.locs[5];
    case reg::PHASE:
      return eval.phase_i();
    case reg::ENDGAME: {
      const KpkState kpk = eval.kpk_i();
      return eval.rule_draw_i() << 2 | std::uint32_t(kpk.active && kpk.win) << 1 | std::uint32_t(kpk.active);
    }
    case reg::RUNNER_BONUS:
      return q.runner_bonus_q;
    case reg::KPA:
      return std::uint32_t(eval.separated_i(1)) << 11 | std::uint32_t(eval.separated_i(0)) << 10 |
             std::uint32_t(eval.black_race_o()) << 9 | std::uint32_t(eval.white_race_o()) << 8 |
             std::uint32_t(eval.runner_i(1)) << 4 | std::uint32_t(eval.runner_i(0));
    case reg::SEP_BONUS:
      return q.sep_bonus_q;
    case reg::PST_SUM:
      return eval.pst_o();
    case reg::SLOW_EVAL:
      return in.se_value_i;
    case reg::EVAL_TOTAL:
      // An endgame the endgame logic calls a draw is worth 0, slow evaluation included.
      return eval.eg_draw_o() ? 0 : std::uint16_t(eval.fast_eval_o() + in.se_value_i);
    case reg::TEST_VALUE:
      return q.test_value_q;
    case reg::SLOW_EST:
      return eval.est_o();
    case reg::LAZY:
      return eval.lazy_o();
    case reg::DRAW_SCORE:
      return in.se_draw_i;
    case reg::CASTLE_DELTA:
      return std::uint32_t(eval.castle_q_o()) << 16 | eval.castle_k_o();
    default:
      return 0;
  }
}

}  // namespace

std::uint32_t CtrlRegs::read(const Regs& q, const Decode& dec, bool we_i, std::uint32_t addr_i, const ReadPorts& in) {
  if (dec.se_reg_hit || dec.se_grp_hit) return se_rdata(dec, addr_i, in);
  // The RAMs read synchronously (rtl/ctrl_regs.sv, ram_read_q): a read gets its word in the
  // response clock; the tables' and the placement table's read ports serve the slow evaluation
  // and MAKE while busy (0 then); a write's response carries 0.
  if (dec.se_tab_hit) return in.busy_i || we_i ? 0 : se_rdata(dec, addr_i, in);
  if (dec.is_board) return in.board_i[addr_i & 63];
  if (dec.is_pst) return in.busy_i || we_i ? 0 : in.pst_ram[addr_i & 511];
  if (dec.is_phase_ram) return we_i ? 0 : in.ph_ram[addr_i & 1023];
  if (dec.is_board_pack) return in.job_i.board[addr_i & 7];
  if (dec.is_job_hist) return in.job_i.hist[addr_i & 15];
  const ArrayModel& array = in.array_i;
  namespace st = field::status;
  switch (addr_i) {
    case reg::ID:
      return CHIP_ID;
    case reg::VERSION:
      return CHIP_VERSION;
    case reg::CMD:
      return in.cmd_i;
    case reg::STATUS:
      return st::BUSY.put(in.busy_i) | st::DONE.put(in.done_i) | st::ERROR.put(q.err_code_q != 0) |
             st::IN_CHECK.put(array.in_check()) | st::MOVE_VALID.put(in.move_valid_i) |
             st::LEGAL.put(!array.king_capture()) | st::ABORTED.put(in.aborted_i) | st::ERR_CODE.put(q.err_code_q);
    case reg::ERROR:
      return q.err_addr_q << 8 | q.err_code_q;
    case reg::STM:
      return in.pos_i.stm;
    case reg::CASTLING:
      return in.pos_i.castling;
    case reg::EP:
      return std::uint32_t(in.pos_i.ep_valid) << 6 | in.pos_i.ep_sq;
    case reg::HALFMOVE:
      return in.pos_i.half;
    case reg::FULLMOVE:
      return in.pos_i.full;
    case reg::MOVE:
      return in.move_i;
    case reg::PLY:
      return std::uint32_t(in.host_ply_i);
    case reg::COUNT_LO:
      return std::uint32_t(in.count_i);
    case reg::COUNT_HI:
      return std::uint32_t(in.count_i >> 32);
    case reg::CYCLES_LO:
      return std::uint32_t(in.cycles_i);
    case reg::CYCLES_HI:
      return std::uint32_t(in.cycles_i >> 32);
    case reg::HUNG_LO:
      return std::uint32_t(array.hung());
    case reg::HUNG_HI:
      return std::uint32_t(array.hung() >> 32);
    case reg::PINNED_LO:
      return std::uint32_t(array.pinned());
    case reg::PINNED_HI:
      return std::uint32_t(array.pinned() >> 32);
    case reg::GENERATED:
      return in.generated_i;
    case reg::SEARCH_CTRL:
      return q.search_ctrl_q;
    case reg::TEST_TIE:
      return q.test_tie_q;
    case reg::NODE_LIMIT:
      return q.node_limit_q;
    case reg::RESULT:
      return in.result_i;
    case reg::OFFSET_CTRL:
      return q.offset_ctrl_q;
    case reg::BEST_MOVE:
      return in.best_i;
    case reg::REP_STATUS:
      return in.search_i.rep_status_o();
    case reg::JOB_POS:
      return in.job_i.pos;
    case reg::JOB_RESULT: {
      namespace jr = field::job_result;
      return jr::RESULT.put(in.result_i) | jr::BEST_MOVE.put(in.best_i) | jr::BUSY.put(in.busy_i) |
             jr::ABORTED.put(in.aborted_i) | jr::ERROR.put(q.err_code_q != 0) |
             jr::WIDE.put((in.count_i >> 13) != 0 || (in.cycles_i >> 19) != 0);
    }
    case reg::TEST_PAIR:
      return std::uint32_t(q.test_tie_q) << 16 | q.test_value_q;
    case reg::JOB_COUNTS:
      return field::job_counts::CYCLES.put(std::uint32_t(in.cycles_i)) |
             field::job_counts::NODES.put(std::uint32_t(in.count_i));
    default:
      return eval_rdata(addr_i, q, in);
  }
}

// ---------------------------------------------------------------- write
// A register's write: the data must fit its width (bits above it zero; the widths come from
// rtl/regmap.json).
CtrlRegs::Strobes CtrlRegs::write(Regs& d, const Decode& dec, bool req_i, bool we_i, std::uint32_t addr_i,
                                  std::uint32_t wdata_i, bool busy_i) {
  Strobes st;
  if (!req_i) return st;
  const bool fits16 = (wdata_i >> 16) == 0;  // the 16-bit registers and tables
  bool wr_reg = false;
  if (!dec.mapped()) {
    st.bus_err_code = std::uint8_t(err::BAD_ADDRESS);
  } else if (!we_i && (dec.is_pst || dec.se_tab_hit) && busy_i) {
    st.bus_err_code = std::uint8_t(err::BUSY);  // the table's host port is in use by the running command
  } else if (we_i) {
    if (addr_i == reg::ABORT) {
      st.abort_we_o = true;
    } else if (addr_i == reg::ERROR) {
      st.err_clear = true;
    } else if (busy_i) {
      st.bus_err_code = std::uint8_t(err::BUSY);
    } else if (dec.is_reg_ro || dec.se_grp_hit) {
      st.bus_err_code = std::uint8_t(err::READ_ONLY);
    } else if (dec.se_reg_hit || dec.se_tab_hit) {
      const bool se_too_wide =
          dec.se_reg_hit ? too_wide(wdata_i, EVAL_REG_BITS[addr_i - EVAL_REGS_BASE])
                         : too_wide(wdata_i, EVAL_TABLE_BITS[(addr_i - EVAL_TABLES_BASE) / EVAL_TABLES_WINDOW]);
      if (se_too_wide)
        st.bus_err_code = std::uint8_t(err::BAD_ARGUMENT);
      else
        st.se_we_o = true;
    } else if (dec.is_phase_ram) {
      if (!fits16)
        st.bus_err_code = std::uint8_t(err::BAD_ARGUMENT);
      else
        st.ph_ram_we_o = true;
    } else if (dec.is_pst) {
      if (!fits16)
        st.bus_err_code = std::uint8_t(err::BAD_ARGUMENT);
      else
        st.pst_we_o = true;
    } else if (dec.is_board) {
      if ((wdata_i & 7) == 7 || (wdata_i & 15) == 8 || (wdata_i >> 4) != 0)
        st.bus_err_code = std::uint8_t(err::BAD_ARGUMENT);
      else
        st.board_we_o = true;
    } else if (dec.is_board_pack) {
      // Eight piece codes: each must be a BOARD code (type 7 and a black "empty", 8, are not).
      bool bad = false;
      for (int k = 0; k < 8; ++k) {
        const std::uint32_t pc = wdata_i >> (4 * k) & 15;
        bad = bad || (pc & 7) == 7 || pc == 8;
      }
      if (bad)
        st.bus_err_code = std::uint8_t(err::BAD_ARGUMENT);
      else
        st.job_board_we = true;
    } else if (dec.is_job_hist) {
      st.job_hist_we = true;
    } else {
      wr_reg = true;
    }
  }
  if (!wr_reg) return st;
  switch (addr_i) {
    case reg::CMD:
      st.cmd_we_o = true;
      break;
    case reg::STM:
      st.stm_we_o = true;
      break;
    case reg::CASTLING:
      st.castling_we_o = true;
      break;
    case reg::EP:
      st.ep_we_o = true;
      break;
    case reg::HALFMOVE:
      st.half_we_o = true;
      break;
    case reg::FULLMOVE:
      st.full_we_o = true;
      break;
    case reg::MOVE:
      st.move_we_o = true;
      break;
    case reg::TEST_VALUE:  // the 16-bit registers: one width check
    case reg::SLOW_EST:
    case reg::SEP_BONUS:
    case reg::RUNNER_BONUS:
    case reg::TEST_TIE:
      if (!fits16)
        st.bus_err_code = std::uint8_t(err::BAD_ARGUMENT);
      else if (addr_i == reg::TEST_VALUE)
        d.test_value_q = std::uint16_t(wdata_i);
      else if (addr_i == reg::SLOW_EST)
        st.est_we_o = true;
      else if (addr_i == reg::SEP_BONUS)
        d.sep_bonus_q = std::uint16_t(wdata_i);
      else if (addr_i == reg::RUNNER_BONUS)
        d.runner_bonus_q = std::uint16_t(wdata_i);
      else
        d.test_tie_q = std::uint16_t(wdata_i);
      break;
    case reg::SEARCH_CTRL:
      if (too_wide(wdata_i, field::search_ctrl::WIDTH))
        st.bus_err_code = std::uint8_t(err::BAD_ARGUMENT);
      else
        d.search_ctrl_q = wdata_i;
      break;
    case reg::NODE_LIMIT:
      d.node_limit_q = wdata_i;
      break;
    case reg::TEST_PAIR:
      d.test_value_q = std::uint16_t(wdata_i);
      d.test_tie_q = std::uint16_t(wdata_i >> 16);
      break;
    case reg::JOB_POS:
      if ((wdata_i >> 12 & 15) != 0)  // JOB_POS's gap
        st.bus_err_code = std::uint8_t(err::BAD_ARGUMENT);
      else
        st.job_pos_we = true;
      break;
    case reg::OFFSET_CTRL:
      if (too_wide(wdata_i, field::offset_ctrl::WIDTH))
        st.bus_err_code = std::uint8_t(err::BAD_ARGUMENT);
      else
        d.offset_ctrl_q = wdata_i;
      break;
    case reg::EVAL_CTRL:
      if (too_wide(wdata_i, field::eval_ctrl::WIDTH))
        st.bus_err_code = std::uint8_t(err::BAD_ARGUMENT);
      else
        d.eval_ctrl_q = std::uint8_t(wdata_i);
      break;
    default:
      break;
  }
  return st;
}

}  // namespace db::chip
