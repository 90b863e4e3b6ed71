// What a host sees of one chip: a clocked 32-bit device on a 17-bit word-address bus.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

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

// One word of a search job's staging as a host hands it to a backend (ChipClient::start_job): the
// register, its value, and whether it must be written (`needed`) or the chip already holds it
// (or, for a history word past the job's moves, need not hold anything): a backend whose bus moves
// several words in one transfer may write such a word anyway to join two runs of writes into one.
struct JobWord {
  std::uint32_t addr = 0;
  std::uint32_t data = 0;
  bool needed = true;
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

  // Whether write_job() and read_block() move several words per bus transfer (the Micro Channel
  // model's cards with streaming-data bursts). A host uses read_block() for words it would not
  // otherwise read only then: elsewhere every extra read costs a clock.
  virtual bool bursts() const { return false; }
  // Writes a search job's staging and its JOB command: at least every needed word, the command
  // (the last needed word) last. False when the chip refused a write (its ERROR register says
  // which); the words after it are then not written. Here: the needed words one access each.
  virtual bool write_job(const std::vector<JobWord>& words) {
    for (const JobWord& w : words) {
      if (w.needed && access(true, w.addr, w.data).error) return false;
    }
    return true;
  }
  // Reads n consecutive registers from addr into out. False when the chip refused a read (an
  // unmapped address); out then holds the words before it. Here: one access each.
  virtual bool read_block(std::uint32_t addr, std::uint32_t* out, int n) {
    for (int i = 0; i < n; ++i) {
      const BusResponse r = access(false, addr + std::uint32_t(i), 0);
      if (r.error) return false;
      out[i] = r.data;
    }
    return true;
  }
};

}  // namespace db::chip
