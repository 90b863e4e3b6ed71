// The model's chip_top (rtl/chip_top.sv): one call of clock_edge() is one clock. The controller
// (host/chip/model/chip_ctrl.h and its blocks) computes the clock from the registers before it;
// clock_edge() runs the slow evaluation (eval_slow) before it and applies what it decided to the
// rest of the chip after it: the array's board, the game phase registers, the tables, the move
// stack and the repetition detector.
#include "chip/chip_model.h"

#include "chip/array_model.h"
#include "chip/chip_regs.h"
#include "chip/slow_memo.h"

namespace db::chip {

ChipModel::ChipModel() = default;

BusResponse ChipModel::access(bool write, std::uint32_t addr, std::uint32_t data) {
  return clock_edge(true, write, addr, data);
}

void ChipModel::tick(std::uint64_t n) {
  for (std::uint64_t i = 0; i < n; ++i) clock_edge(false, false, 0, 0);
}

std::string ChipModel::fen() const {
  const Registers& r = registers();
  const ctrl_pkg::pos_t& pos = r.pos;
  static constexpr const char* LETTERS = " PNBRQK?";
  std::string f;
  for (int rank = 7; rank >= 0; --rank) {
    int gap = 0;
    for (int file = 0; file < 8; ++file) {
      const std::uint8_t p = r.board[rank * 8 + file];
      if ((p & 7) == 0) {
        ++gap;
        continue;
      }
      if (gap) f += char('0' + gap), gap = 0;
      const char c = LETTERS[p & 7];
      f += (p & CHIP_BLACK) ? char(c - 'A' + 'a') : c;
    }
    if (gap) f += char('0' + gap);
    if (rank) f += '/';
  }
  f += pos.stm ? " b " : " w ";
  std::string rights;
  if (pos.castling & 1) rights += 'K';
  if (pos.castling & 2) rights += 'Q';
  if (pos.castling & 4) rights += 'k';
  if (pos.castling & 8) rights += 'q';
  f += rights.empty() ? "-" : rights;
  f += ' ';
  if (pos.ep_valid) {
    f += char('a' + (pos.ep_sq & 7));
    f += char('1' + (pos.ep_sq >> 3));
  } else {
    f += '-';
  }
  return f + " " + std::to_string(pos.half) + " " + std::to_string(pos.full);
}

DebugPort ChipModel::debug() const {
  const Registers& r = registers();
  const CtrlSearch::Regs& s = r.search;
  return DebugPort{
      r.ctrl.state_q,
      r.ctrl.ply_q,
      r.ctrl.mv_q,
      std::uint32_t(r.ctrl.count_q),
      s.leaf_q,
      std::uint8_t(s.phase_q << 6 | (s.stop_q ? 0x20 : 0) | (s.child_fail_q ? 0x10 : 0) | (s.result_q & 15))};
}

SlowEvalResult ChipModel::slow_eval_cached(const std::array<std::uint8_t, 64>& board, bool stm, std::uint8_t castling,
                                           std::uint16_t phase, std::uint16_t phase_swap) {
  if (weights_id_ == 0) weights_id_ = weights_id(tables_.slow);
  const SlowMemoKey key = slow_memo_key(board, stm, castling, phase, phase_swap, weights_id_);
  SlowEvalResult res;
  if (slow_memo_find(key, res)) return res;
  res = slow_evaluate(board, stm, castling, phase, phase_swap, tables_.slow);
  slow_memo_store(key, res);
  return res;
}

// ---------------------------------------------------------------- chip_ctrl's input ports
// The wiring of rtl/chip_top.sv: the controller reads the rest of the chip through its one
// reference to it. The controller's registers before the clock (q_) are part of chip_top's.
namespace {
const ChipModel::Registers& top_q(const ChipCtrl::State& q) { return static_cast<const ChipModel::Registers&>(q); }
}  // namespace

const std::array<std::uint8_t, 64>& ChipCtrl::board_i() const { return top_q(q_).board; }
std::uint64_t ChipCtrl::board_hash_i() const { return top_.sets_.hash; }
const std::array<std::uint16_t, 512>& ChipCtrl::pst_ram() const { return top_.tables_.pst_ram; }
const PhaseRegs& ChipCtrl::ph_i() const { return top_q(q_).phase; }
const std::array<std::uint16_t, 1024>& ChipCtrl::ph_ram() const { return top_.tables_.phase_ram; }
const SlowEvalWeights& ChipCtrl::se_weights() const { return top_.tables_.slow; }
bool ChipCtrl::se_busy_i() const { return top_q(q_).se.busy_q; }
bool ChipCtrl::se_finish_i() const { return top_q(q_).se.busy_q && top_q(q_).se.clock_q == SLOW_EVAL_CLOCKS - 1; }
std::uint16_t ChipCtrl::se_white_i() const { return top_.se_white_; }  // valid with se_finish_i
std::uint16_t ChipCtrl::se_value_i() const { return top_q(q_).se.value_q; }
std::uint16_t ChipCtrl::se_draw_i() const { return top_q(q_).se.draw_q; }
const std::array<std::uint16_t, SLOW_GROUPS>& ChipCtrl::se_group_i() const { return top_q(q_).se.group_q; }
const CtrlStack& ChipCtrl::stack() const { return top_.stack_; }
const RepDetect& ChipCtrl::rep() const { return top_.rep_; }
const JobStage& ChipCtrl::job_i() const { return top_.job_; }

// flatten: the controller's blocks are inlined here (their sources are one unit with this one:
// host/chip/CMakeLists.txt), the model's hottest code.
__attribute__((flatten)) BusResponse ChipModel::clock_edge(bool req, bool write, std::uint32_t addr,
                                                           std::uint32_t data) {
  ++clock_;
  const Registers& q = regs_[cur_];
  ++state_clocks_[q.ctrl.state_q < CTRL_STATES ? q.ctrl.state_q : 0];
  // A stand pat's clocks waiting for the slow evaluation (SEVAL before the evaluation's last clock,
  // no bus request) change nothing but the evaluation's clock and CYCLES: the full step below
  // would find the same after all its decoding (about one clock in eleven of a search).
  if (!req && q.ctrl.state_q == S_SEVAL && q.se.busy_q && q.se.clock_q < SLOW_EVAL_CLOCKS - 1) {
    Registers& r = regs_[cur_];
    r.ctrl.cycles_q = q.ctrl.cycles_q + 1;
    r.se.clock_q = std::uint8_t(q.se.clock_q + 1);
    return BusResponse{};
  }
  addr &= (1u << ADDRESS_BITS) - 1;  // the bus has 17 address lines
  Registers& d = regs_[cur_ ^ 1];    // the registers after the clock: as before unless assigned
  d = q;
  const ArrayModel array(sets_, q.pos.stm, q.pos.castling, q.pos.ep_valid, q.pos.ep_sq);

  // The slow evaluation (rtl/eval_slow.sv): 8 file steps and 4 clocks of latency (two to drain,
  // one to sum into a register, one with that register as the result); the last clock writes the
  // result. Its inputs (board, side to move, castling, phase, weights) do not change while it runs,
  // so the model computes it all in the last clock.
  const bool se_finish = q.se.busy_q && q.se.clock_q == SLOW_EVAL_CLOCKS - 1;
  if (q.se.busy_q) {
    d.se.clock_q = std::uint8_t(q.se.clock_q + 1);
    if (se_finish) {
      const SlowEvalResult res =
          slow_eval_cached(q.board, q.pos.stm, q.pos.castling, phase_word(q.phase, tables_.phase_ram),
                           phase_word_swapped(q.phase, tables_.phase_ram));
      se_white_ = res.white;
      d.se.draw_q = res.draw_score;
      d.se.group_q = res.group;
      d.se.value_q = q.pos.stm ? std::uint16_t(0 - res.white) : res.white;
      d.se.busy_q = false;
    }
  }

  // The controller.
  ChipCtrl::Out out;
  ChipCtrl(*this, q, d, array, req, write, addr, data, out).clock();

  // The rest of the chip at the clock edge.
  if (out.se_start_o) {
    d.se.busy_q = true;
    d.se.clock_q = 0;
  }
  if (out.se_abort_o) d.se.busy_q = false;
  if (out.pst_we_o) tables_.pst_ram[addr & 511] = std::uint16_t(data);
  if (out.ph_ram_we_o) tables_.phase_ram[addr & 1023] = std::uint16_t(data);
  if (out.job_board_we) job_.board[addr & 7] = data;
  if (out.job_hist_we) job_.hist[addr & 15] = data;
  if (out.job_pos_we) job_.pos = data;
  if (out.se_we_o) {
    if (addr >= EVAL_REGS_BASE && addr < EVAL_REGS_BASE + EVAL_REGS_COUNT) {
      tables_.slow.regs[addr - EVAL_REGS_BASE] = data;
    } else {
      const std::uint32_t off = addr - EVAL_TABLES_BASE;
      tables_.slow.tables[off / EVAL_TABLES_WINDOW][off % EVAL_TABLES_WINDOW] = data;
    }
    weights_id_ = 0;  // new weights: the memo's entries for the old ones no longer apply
  }
  apply_phase_events(d.phase, out.ph_ev);
  if (out.ph_clear_o) d.phase = PhaseRegs{};
  const int pi = q.ctrl.ply_q & 31;
  if (out.rep_we) {
    rep_.clock(true, pi, q.board, sets_.hash, q.pos.castling,
               std::uint8_t((q.pos.ep_valid ? 0x40 : 0) | q.pos.ep_sq));  // sets_ still holds q.board
    SavedAttacks& a = saved_attacks_[pi];
    a.ready = sets_.attacks_ready;
    if (a.ready) {
      a.attacked[0] = sets_.attacked[0], a.attacked[1] = sets_.attacked[1];
      a.attacked_np[0] = sets_.attacked_np[0], a.attacked_np[1] = sets_.attacked_np[1];
    }
  }
  for (unsigned en = out.wr.en; en != 0; en &= en - 1) {  // the valid slots in order
    const int i = __builtin_ctz(en);
    d.board[out.wr.sq[i]] = out.wr.pc[i];
    sets_.set(out.wr.sq[i], out.wr.pc[i]);
  }
  if (out.undo) {
    // The move taken back: the board is most often the one stored at its MAKE.
    const SavedAttacks& a = saved_attacks_[pi];
    if (a.ready && !sets_.attacks_ready && sets_.hash == rep_.hash_q[pi] && sets_.board == rep_.board_q[pi]) {
      sets_.attacked[0] = a.attacked[0], sets_.attacked[1] = a.attacked[1];
      sets_.attacked_np[0] = a.attacked_np[0], sets_.attacked_np[1] = a.attacked_np[1];
      sets_.attacks_ready = true;
    }
  }
  stack_.clock(pi, out.stk_we, out.push_full, out.stk_move_we, out.stk_move_waddr, out.stk_move_wdata);
  if (out.clear_o) {
    d.board.fill(0);
    sets_ = BoardSets{};
  }
  cur_ ^= 1;  // d becomes the registers
  return out.resp;
}

}  // namespace db::chip
