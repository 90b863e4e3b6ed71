// Micro Channel timing (IBM technical references; docs/sim.md has the sources and the decisions).
#pragma once

#include <cstdint>

#include <systemc>

namespace db::sim {

struct McaTiming {
  sc_core::sc_time basic_cycle{200, sc_core::SC_NS};          // basic transfer cycle
  sc_core::sc_time sync_extended{300, sc_core::SC_NS};        // synchronous extended cycle (CD CHRDY held)
  sc_core::sc_time async_extended_max{3500, sc_core::SC_NS};  // longest asynchronous extended cycle
  sc_core::sc_time arbitration{300, sc_core::SC_NS};          // minimum arbitration cycle
  sc_core::sc_time burst_release{7800, sc_core::SC_NS};       // a preempted burst holder releases within this
  // Streaming data: each 32-bit word of a burst after its first (40 MB/s; the first word is a basic
  // or extended cycle).
  sc_core::sc_time streaming_cycle{100, sc_core::SC_NS};
  // Host I/O overhead per programmed access on an RS/6000 node (not published; a parameter): the
  // processor's time to issue a load/store through the I/O channel controller, outside the bus cycle.
  sc_core::sc_time host_overhead{500, sc_core::SC_NS};
};

// The chip's clock (IEEE Micro: 24 MHz). Simulated time has SystemC's default 1 ps resolution, in
// which a chip clock is 41 666 2/3 ps: clock counts are computed exactly as 3 clocks per 125 000 ps.
constexpr double kChipClockHz = 24e6;
// Whole chip clocks elapsed at time t (clock k starts at k * 125000/3 ps).
std::uint64_t chip_clocks_at(const sc_core::sc_time& t);
// The time at which chip clock k starts (rounded up to the picosecond).
sc_core::sc_time chip_clock_time(std::uint64_t k);

}  // namespace db::sim
