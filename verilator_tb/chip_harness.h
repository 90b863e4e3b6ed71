// Clocks the verilated chip (rtl/chip_top.sv) through its host interface: register reads and
// writes, idle clocks, reset pulsed high-low-high, a clock counter, the debug port, and (in a
// build with FST tracing) a waveform window.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>

#include "chip/bus.h"

class Vchip_top;
class VerilatedContext;

namespace db::rtl {

struct HarnessOptions {
  // FST file to write; empty = no trace. Only clocks in [trace_from, trace_to] are dumped.
  std::string trace_path;
  std::uint64_t trace_from = 0;
  std::uint64_t trace_to = std::numeric_limits<std::uint64_t>::max();
  // Verilator coverage data file written when the harness is destroyed (builds with
  // DB_RTL_COVERAGE=line|toggle only); empty = none.
  std::string coverage_path;
};

class ChipHarness {
 public:
  explicit ChipHarness(HarnessOptions options = {});
  ~ChipHarness();
  ChipHarness(const ChipHarness&) = delete;
  ChipHarness& operator=(const ChipHarness&) = delete;

  // Pulses rst_ni high, low, high (Verilator needs the edge to run asynchronous resets).
  void reset();
  // One clock with a bus request; returns the response registered at that clock.
  chip::BusResponse access(bool write, std::uint32_t addr, std::uint32_t data);
  // n clocks without a request.
  void tick(std::uint64_t n);
  chip::DebugPort debug() const;
  std::uint64_t clock() const { return clock_; }
  // True when this build can trace and a trace file was asked for.
  bool tracing() const;
  static bool trace_supported();
  static bool coverage_supported();

 private:
  void cycle();

  HarnessOptions options_;
  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<Vchip_top> top_;
  struct Trace;  // the FST writer, in builds with tracing (DB_RTL_TRACE=ON)
  std::unique_ptr<Trace> trace_;
  std::uint64_t clock_ = 0;
};

}  // namespace db::rtl
