// A PERFT command and a search job as link requests, as ChipClient::load, ChipClient::perft and
// ChipClient's search job would send them, for the tests that compare a chip behind the link with a
// local model.
#pragma once

#include "chess/position.h"
#include "chip/chip_client.h"
#include "chip/chip_regs.h"
#include "link/messages.h"

namespace db::link::test {

// Loads pos and starts PERFT at depth.
inline Access perft_start(std::uint16_t chip, const Position& pos, int depth) {
  namespace reg = db::chip::reg;
  namespace fld = db::chip::field;
  Access a;
  a.chip = chip;
  std::vector<std::uint32_t> board;
  for (int s = 0; s < 64; ++s) board.push_back(db::chip::to_chip_piece(pos.piece_on(Square(s))));
  a.ops.push_back(AccessOp::block_write(reg::BOARD_BASE, board));
  a.ops.push_back(AccessOp::write(reg::STM, pos.side_to_move() == BLACK ? 1 : 0));
  a.ops.push_back(AccessOp::write(reg::CASTLING, pos.castling_rights()));
  const Square ep = pos.ep_square();
  a.ops.push_back(AccessOp::write(reg::EP, ep == SQ_NONE ? 0 : (0x40 | std::uint32_t(ep))));
  a.ops.push_back(AccessOp::write(reg::HALFMOVE, std::uint32_t(pos.halfmove_clock()) & 0xFFFF));
  a.ops.push_back(AccessOp::write(reg::FULLMOVE, std::uint32_t(pos.fullmove_number()) & 0xFFFF));
  a.ops.push_back(
      AccessOp::write(reg::CMD, fld::cmd::OP.put(db::chip::op::PERFT) | fld::cmd::DEPTH.put(std::uint32_t(depth))));
  return a;
}

// Polls STATUS until not busy; reads COUNT_LO, COUNT_HI, STATUS at the end.
inline Run perft_wait(std::uint16_t chip, std::uint32_t quantum, std::uint32_t max_quanta = 0) {
  namespace reg = db::chip::reg;
  Run r;
  r.chip = chip;
  r.quantum = quantum;
  r.max_quanta = max_quanta;
  r.poll_addr = reg::STATUS;
  r.poll_mask = db::chip::field::status::BUSY.put(1);
  r.poll_value = 0;
  r.reads = {reg::COUNT_LO, reg::COUNT_HI, reg::STATUS};
  return r;
}

// Loads pos and starts a hardware search job with params (no game history).
inline Access search_job_start(std::uint16_t chip, const Position& pos, const db::chip::SearchParams& params) {
  Access a;
  a.chip = chip;
  for (const db::chip::RegWrite& w : db::chip::search_job_writes(db::chip::ChipPosition::of(pos), {}, params))
    a.ops.push_back(AccessOp::write(w.addr, w.data));
  return a;
}

// Polls STATUS until not busy; reads the search's result registers at the end.
inline Run search_wait(std::uint16_t chip, std::uint32_t quantum) {
  Run r = perft_wait(chip, quantum);
  r.reads.assign(db::chip::kSearchResultRegisters.begin(), db::chip::kSearchResultRegisters.end());
  return r;
}

}  // namespace db::link::test
