// What a host sees of one chip: a clocked 32-bit device on a 17-bit word-address bus.
#pragma once

#include <cstdint>
#include <string>

#include "chip/chip_regs.h"

namespace db::chip {

// Response to one bus request (it arrives one clock after the request, as on the RTL).
struct BusResponse {
  std::uint32_t data = 0;
  bool error = false;
};

// The debug port, sampled each clock: controller state, working ply, the move being made, and the
// hardware search's node count, last leaf value and flags ({stop, child failed, RESULT[3:0]}).
// Synthesis leaves it unconnected; co-simulation compares it on every clock.
struct DebugPort {
  std::uint8_t state = 0;
  std::uint8_t ply = 0;
  std::uint16_t move = 0;
  std::uint32_t nodes = 0;
  std::uint16_t leaf = 0;
  std::uint8_t flags = 0;
  bool operator==(const DebugPort& o) const {
    return state == o.state && ply == o.ply && move == o.move && nodes == o.nodes && leaf == o.leaf && flags == o.flags;
  }
  bool operator!=(const DebugPort& o) const { return !(*this == o); }
};

// The controller's states (S_IDLE ..., CTRL_STATES, ctrl_state_name) are generated from
// rtl/regmap.json into chip_regs.h.

// One chip behind the bus: the reference model, the verilated RTL, or both in lock-step.
class ChipBackend {
 public:
  virtual ~ChipBackend() = default;
  // One clock with a bus request.
  virtual BusResponse access(bool write, std::uint32_t addr, std::uint32_t data) = 0;
  // n clocks without a request.
  virtual void tick(std::uint64_t n) = 0;
  virtual DebugPort debug() const = 0;
  // Clocks since reset.
  virtual std::uint64_t clock() const = 0;
  virtual std::string name() const = 0;
};

}  // namespace db::chip
