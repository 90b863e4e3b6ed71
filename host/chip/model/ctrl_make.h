// Twin of rtl/ctrl_make.sv: make and unmake, and the position registers they change (side to move,
// castling rights, en passant, the move clocks). MAKE writes the move into the array (up to four
// squares: from, to, the captured pawn en passant or the castling rook's two squares), pushes what
// unmaking needs, and reports the game phase events; unmake reverses it from the stack entry. The
// host writes the registers and single squares directly; a JOB loads its staged board four squares a
// clock and its position state (JOB_POS) at once.
//
// One CtrlMake is the block during one clock (its inputs); next() gives the position registers
// after it and the clock's array writes and game phase events. Header only: MAKE and unmake are
// the model's hottest clocks.
#pragma once

#include <array>
#include <cstdint>

#include "chip/chip_regs.h"
#include "chip/model/ctrl_pkg.h"
#include "chip/model/eval_blocks.h"

namespace db::chip {

// Array writes (wr_en, wr_sq, wr_pc): up to four squares a clock, slot i valid when bit i of en is.
struct ArrayWrites {
  std::uint8_t en = 0;
  std::uint8_t sq[4];
  std::uint8_t pc[4];
  void set(int i, int s, std::uint8_t p) {
    en = std::uint8_t(en | 1 << i);
    sq[i] = std::uint8_t(s);
    pc[i] = p;
  }
};

class CtrlMake {
 public:
  // CLEAR and the host's writes (only while idle).
  struct HostWrites {
    bool clear_i = false;
    bool stm_we_i = false, castling_we_i = false, ep_we_i = false, half_we_i = false, full_we_i = false;
    bool board_we_i = false;
    std::uint8_t board_sq_i = 0;
    std::uint16_t wdata_i = 0;
    // A JOB's load: four squares from load_sq_i on (codes at load_pc_i[4i +: 4]); JOB_POS.
    bool load_we_i = false, job_pos_we_i = false;
    std::uint8_t load_sq_i = 0;
    std::uint16_t load_pc_i = 0;
    std::uint32_t job_pos_i = 0;
    bool any() const {
      return clear_i || stm_we_i || castling_we_i || ep_we_i || half_we_i || full_we_i || board_we_i || load_we_i ||
             job_pos_we_i;
    }
  };

  CtrlMake(const ctrl_pkg::pos_t& pos_q, const std::array<std::uint8_t, 64>& board_i)
      : pos_q_(pos_q), board_i_(board_i) {}

  const ctrl_pkg::pos_t& pos_o() const { return pos_q_; }

  // ---------------------------------------------------------------- make
  // What the placement sum needs of the move mv_i (mk_o).
  ctrl_pkg::mk_view_t mk_o(std::uint16_t mv_i) const {
    const int base_sq = pos_q_.stm ? 56 : 0;
    ctrl_pkg::mk_view_t mk;
    mk.from = std::uint8_t(ctrl_pkg::mv_from(mv_i));
    mk.to = std::uint8_t(ctrl_pkg::mv_to(mv_i));
    mk.pc = board_i_[mk.from];
    const bool mk_pawn = (mk.pc & 7) == CHIP_PAWN;
    const bool mk_ep = mk_pawn && pos_q_.ep_valid && mk.to == pos_q_.ep_sq;
    mk.castle = (mk.pc & 7) == CHIP_KING && mk.from == base_sq + 4 && (mk.to == base_sq + 6 || mk.to == base_sq + 2);
    mk.cap = mk_ep ? std::uint8_t((pos_q_.stm ? 0 : CHIP_BLACK) | CHIP_PAWN) : board_i_[mk.to];
    mk.new_pc = ctrl_pkg::mv_promo(mv_i)
                    ? std::uint8_t((pos_q_.stm ? CHIP_BLACK : 0) | ctrl_pkg::promo_type(ctrl_pkg::mv_promo_idx(mv_i)))
                    : mk.pc;
    mk.capsq = std::uint8_t(mk_ep ? (mk.to ^ 8) : mk.to);
    mk.kside = mk.to == base_sq + 6;
    return mk;
  }
  // The stack entry MAKE pushes (its pst and qc fields are 0: the evaluation and the search fill
  // them in).
  ctrl_pkg::stk_entry_t push_o(const ctrl_pkg::mk_view_t& mk) const {
    const bool mk_ep = mk.capsq != mk.to;
    ctrl_pkg::stk_entry_t push;
    push.cap = mk.cap;
    push.cast = pos_q_.castling;
    push.ep = std::uint8_t((pos_q_.ep_valid ? 0x40 : 0) | pos_q_.ep_sq);
    push.half = pos_q_.half;
    push.flag = std::uint8_t((mk.castle ? 2 : 0) | (mk_ep ? 1 : 0));
    return push;
  }

  // ---------------------------------------------------------------- next position
  // MAKE of mv_i (its view mk), or unmake of the stack entry at the current ply, or the host's
  // writes: the position registers after the clock, the array writes and the game phase events.
  void next(ctrl_pkg::pos_t& pos_d, bool make_i, std::uint16_t mv_i, const ctrl_pkg::mk_view_t& mk, bool undo_i,
            std::uint16_t undo_move_i, const ctrl_pkg::stk_entry_t& undo_entry_i, const HostWrites& host,
            ArrayWrites& wr_o, ph_events_t& ph_ev_o) const {
    if (make_i) make(pos_d, mv_i, mk, wr_o, ph_ev_o);
    if (undo_i) undo(pos_d, undo_move_i, undo_entry_i, wr_o, ph_ev_o);
    if (host.any()) host_writes(pos_d, host, wr_o);
  }

 private:
  void make(ctrl_pkg::pos_t& pos_d, std::uint16_t mv_i, const ctrl_pkg::mk_view_t& mk, ArrayWrites& wr_o,
            ph_events_t& ph_ev_o) const {
    const int base_sq = pos_q_.stm ? 56 : 0;
    const bool mk_pawn = (mk.pc & 7) == CHIP_PAWN;
    const bool mk_ep = mk.capsq != mk.to;
    const int mk_rook_from = mk.kside ? base_sq + 7 : base_sq;
    const int mk_rook_to = mk.kside ? base_sq + 5 : base_sq + 3;
    const bool mk_double = mk_pawn && ((mk.from ^ mk.to) == 16);
    const std::uint8_t rook = std::uint8_t((pos_q_.stm ? CHIP_BLACK : 0) | CHIP_ROOK);
    wr_o.set(0, mk.from, 0);
    wr_o.set(1, mk.to, mk.new_pc);
    if (mk_ep) wr_o.set(2, mk.to ^ 8, 0);
    if (mk.castle) {
      wr_o.set(2, mk_rook_from, 0);
      wr_o.set(3, mk_rook_to, rook);
    }
    pos_d.stm = !pos_q_.stm;
    pos_d.castling = std::uint8_t(pos_q_.castling & ~(ctrl_pkg::castle_mask(mk.from) | ctrl_pkg::castle_mask(mk.to)));
    pos_d.ep_valid = mk_double;
    pos_d.ep_sq = mk_double ? std::uint8_t((mk.from + mk.to) >> 1) : 0;
    pos_d.half = (mk_pawn || mk.cap != 0) ? 0 : std::uint16_t(pos_q_.half + 1);
    pos_d.full = std::uint16_t(pos_q_.full + (pos_q_.stm ? 1 : 0));
    // Game phase: the mover leaves from and lands on to (a promotion changes the counts), the
    // captured piece goes, the castling rook moves.
    const bool promo = ctrl_pkg::mv_promo(mv_i);
    ph_ev_o.set(0, mk.pc, mk.from, promo ? -1 : 0);
    ph_ev_o.set(1, mk.new_pc, mk.to, promo ? 1 : 0);
    if (mk.cap & 7) ph_ev_o.set(2, mk.cap, mk.capsq, -1);
    if (mk.castle) ph_ev_o.set(3, rook, mk_rook_from ^ mk_rook_to, 0);
  }

  // The stack entry at the current ply; the side to move is the mover's opponent.
  void undo(ctrl_pkg::pos_t& pos_d, std::uint16_t undo_move_i, const ctrl_pkg::stk_entry_t& undo_entry_i,
            ArrayWrites& wr_o, ph_events_t& ph_ev_o) const {
    const bool um_promo = ctrl_pkg::mv_promo(undo_move_i);
    const int um_from = ctrl_pkg::mv_from(undo_move_i), um_to = ctrl_pkg::mv_to(undo_move_i);
    const std::uint8_t um_cap = undo_entry_i.cap;
    const bool um_ep = undo_entry_i.flag & 1, um_castle = undo_entry_i.flag & 2;
    const bool um_mover = !pos_q_.stm;
    const int um_base = um_mover ? 56 : 0;
    const std::uint8_t um_orig = um_promo ? std::uint8_t((um_mover ? CHIP_BLACK : 0) | CHIP_PAWN) : board_i_[um_to];
    const int um_rook_from = um_to == um_base + 6 ? um_base + 7 : um_base;
    const int um_rook_to = um_to == um_base + 6 ? um_base + 5 : um_base + 3;
    const std::uint8_t rook = std::uint8_t((um_mover ? CHIP_BLACK : 0) | CHIP_ROOK);
    wr_o.set(0, um_from, um_orig);
    wr_o.set(1, um_to, um_ep ? std::uint8_t(0) : um_cap);
    if (um_ep) wr_o.set(2, um_to ^ 8, um_cap);
    if (um_castle) {
      wr_o.set(2, um_rook_to, 0);
      wr_o.set(3, um_rook_from, rook);
    }
    pos_d.stm = um_mover;
    pos_d.castling = undo_entry_i.cast;
    pos_d.ep_valid = (undo_entry_i.ep >> 6) & 1;
    pos_d.ep_sq = undo_entry_i.ep & 63;
    pos_d.half = undo_entry_i.half;
    pos_d.full = std::uint16_t(pos_q_.full - (um_mover ? 1 : 0));
    // The same game phase events as MAKE, counts reversed (locations toggle back).
    ph_ev_o.set(0, um_orig, um_from, um_promo ? 1 : 0);
    ph_ev_o.set(1, board_i_[um_to], um_to, um_promo ? -1 : 0);
    if (um_cap & 7) ph_ev_o.set(2, um_cap, um_ep ? (um_to ^ 8) : um_to, 1);
    if (um_castle) ph_ev_o.set(3, rook, um_rook_from ^ um_rook_to, 0);
  }

  void host_writes(ctrl_pkg::pos_t& pos_d, const HostWrites& host, ArrayWrites& wr_o) const {
    if (host.board_we_i) {
      wr_o = ArrayWrites{};
      wr_o.set(0, host.board_sq_i, std::uint8_t(host.wdata_i & 15));
    }
    if (host.load_we_i) {
      wr_o = ArrayWrites{};
      for (int i = 0; i < 4; ++i) wr_o.set(i, (host.load_sq_i + i) & 63, std::uint8_t(host.load_pc_i >> (4 * i) & 15));
    }
    if (host.job_pos_we_i) {
      namespace jp = field::job_pos;
      pos_d.stm = jp::BLACK.get(host.job_pos_i);
      pos_d.castling = std::uint8_t(jp::CASTLING.get(host.job_pos_i));
      pos_d.ep_valid = jp::EP_VALID.get(host.job_pos_i);
      pos_d.ep_sq = std::uint8_t(jp::EP_SQUARE.get(host.job_pos_i));
      pos_d.half = std::uint16_t(jp::HALFMOVE.get(host.job_pos_i));
    }
    if (host.stm_we_i) pos_d.stm = host.wdata_i & 1;
    if (host.castling_we_i) pos_d.castling = host.wdata_i & 15;
    if (host.ep_we_i) {
      pos_d.ep_valid = (host.wdata_i >> 6) & 1;
      pos_d.ep_sq = host.wdata_i & 63;
    }
    if (host.half_we_i) pos_d.half = host.wdata_i;
    if (host.full_we_i) pos_d.full = host.wdata_i;
    if (host.clear_i) pos_d = ctrl_pkg::pos_t{};
  }

  const ctrl_pkg::pos_t& pos_q_;
  const std::array<std::uint8_t, 64>& board_i_;
};

}  // namespace db::chip
