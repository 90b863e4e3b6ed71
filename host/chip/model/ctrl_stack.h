// Twin of rtl/ctrl_stack.sv: the controller's move stack. Per ply, the move searched there (the
// generator's "last move") and what unmaking it needs. Two write ports, applied at the end of the
// clock: the entry of the move made at the current ply, and a move word anywhere (the generator
// resets a ply's move to 0 when it starts it). One read port, at the current ply.
#pragma once

#include <array>
#include <cstdint>

#include "chip/chip_regs.h"
#include "chip/model/ctrl_pkg.h"

namespace db::chip {

class CtrlStack {
 public:
  static constexpr int StackDepth = int(STACK_DEPTH);

  std::uint16_t move_o(int ply_i) const { return move_q[ply_i & 31]; }
  const ctrl_pkg::stk_entry_t& entry_o(int ply_i) const { return entry_q[ply_i & 31]; }

  // The clock edge: the writes the controller decided this clock.
  void clock(int ply_i, bool entry_we_i, const ctrl_pkg::stk_entry_t& entry_wdata_i, bool move_we_i, int move_waddr_i,
             std::uint16_t move_wdata_i) {
    if (entry_we_i) entry_q[ply_i & 31] = entry_wdata_i;
    if (move_we_i) move_q[move_waddr_i & 31] = move_wdata_i;
  }

  // No reset in the RTL: entries are written before they are read (the model starts at 0).
  std::array<std::uint16_t, StackDepth> move_q{};
  std::array<ctrl_pkg::stk_entry_t, StackDepth> entry_q{};
};

}  // namespace db::chip
