// A board seen from its UART, simulated: what `deepblue boardsim` puts behind a pseudo-terminal.
// The host's bytes go in at the board's receive pin and the board's bytes come out of its
// transmit pin, with the board's clock advanced by the simulation, not by the wall clock.
//
// Implementations: the verilated link bridge in front of model chips (the default suite's fast
// configuration), the verilated board top with its RTL chips (`-L deep`), and a stand-in that
// answers frames with the link service directly (tests of the pseudo-terminal and serial code).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace db::link {

class SimulatedBoard {
 public:
  virtual ~SimulatedBoard() = default;

  // Queues bytes the host wrote; the board's UART receiver takes them at its own bit timing.
  virtual void receive(const std::uint8_t* data, std::size_t n) = 0;

  // Runs the board for at most `clocks` of its clocks (fewer when it becomes idle first) and
  // appends the bytes its transmitter finished sending to `out`. Returns the clocks run.
  virtual std::uint64_t run(std::uint64_t clocks, std::vector<std::uint8_t>& out) = 0;

  // True when nothing is queued, nothing is being received or sent, and no chip command runs:
  // the caller may wait for the host's next bytes instead of clocking.
  virtual bool idle() const = 0;

  // The inter-byte timeout the board resets its bridge after, in its clocks (0: none).
  virtual std::uint64_t interbyte_timeout_clocks() const = 0;

  // Clock frequency (Hz) and UART baud, for messages and for converting the timeout.
  virtual std::uint32_t clock_hz() const = 0;
  virtual std::uint32_t baud() const = 0;

  // For `boardsim`'s banner and errors: "bridge+model x1 @ 3000000 baud", say.
  virtual std::string describe() const = 0;
};

}  // namespace db::link
