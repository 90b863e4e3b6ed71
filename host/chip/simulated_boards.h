// The verilated boards `deepblue boardsim` puts behind a pseudo-terminal (docs/fpga.md): the door
// from host/tools to the board harnesses of verilator_tb/, as rtl_backend.h is for the chip's.
//   bridge     the verilated link bridge (rtl/board/link_bridge.sv) in front of 1 or 2 reference-
//              model chips, bit-level UART included: the default suite's board
//   ulx3s-85f  the verilated board top (rtl/board/board_top.sv) with its RTL chip, as on the ULX3S
//              after its PLL; in builds configured with -DDB_BOARD_TOP=ON (it verilates the chip a
//              second time, so the default build leaves it out)
#pragma once

#include <cstdint>
#include <memory>

#include "link/simulated_board.h"

namespace db::chip {

// baud 0: 3,000,000. Throws std::invalid_argument when the 24 MHz board clock cannot make the baud
// within 2 % with at least 4 clocks a bit, or chips is not 1 or 2.
std::unique_ptr<link::SimulatedBoard> make_bridge_board(int chips, std::uint32_t baud);

// Whether this build has the verilated board top.
bool have_board_top();
// Throws std::invalid_argument when the build has none (saying how to get it) or the baud is not
// the one it was verilated for.
std::unique_ptr<link::SimulatedBoard> make_board_top(std::uint32_t baud);

}  // namespace db::chip
