// Backends that run the RTL: "rtl" (the verilated chip alone) and "cosim" (the verilated chip and
// the reference model in lock-step, compared on every clock), and a factory for all three.
// This header does not expose the harness (verilator_tb/): only rtl_backend.cpp includes it, so the
// users of the backends need neither the harness's nor Verilator's headers.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>

#include "chip/bus.h"
#include "chip/chip_model.h"

namespace db::rtl {
class ChipHarness;  // verilator_tb/chip_harness.h
}

namespace db::chip {

// How the verilated chip is run (handed to the harness).
struct RtlOptions {
  // FST file to write; empty = no trace. Only clocks in [trace_from, trace_to] are dumped.
  std::string trace_path;
  std::uint64_t trace_from = 0;
  std::uint64_t trace_to = std::numeric_limits<std::uint64_t>::max();
  // Verilator coverage data file written when the backend is destroyed (builds with
  // DB_RTL_COVERAGE=line|toggle only); empty = none.
  std::string coverage_path;
};

class RtlBackend final : public ChipBackend {
 public:
  explicit RtlBackend(const RtlOptions& options = {});
  ~RtlBackend() override;
  RtlBackend(const RtlBackend&) = delete;
  RtlBackend& operator=(const RtlBackend&) = delete;
  BusResponse access(bool write, std::uint32_t addr, std::uint32_t data) override;
  void tick(std::uint64_t n) override;
  DebugPort debug() const override;
  std::uint64_t clock() const override;
  std::string name() const override { return "rtl"; }
  // What this build of the verilated chip can do (DB_RTL_TRACE, DB_RTL_COVERAGE).
  static bool trace_supported();
  static bool coverage_supported();

 private:
  std::unique_ptr<rtl::ChipHarness> harness_;
};

// Thrown at the first clock where the RTL and the model differ.
class CosimMismatch : public std::runtime_error {
 public:
  CosimMismatch(const std::string& what, std::uint64_t clock) : std::runtime_error(what), clock_(clock) {}
  // The clock (counted from reset) at which the two first differed.
  std::uint64_t clock() const { return clock_; }

 private:
  std::uint64_t clock_;
};

class CosimBackend final : public ChipBackend {
 public:
  explicit CosimBackend(const RtlOptions& options = {}) : rtl_(options) {}
  BusResponse access(bool write, std::uint32_t addr, std::uint32_t data) override;
  void tick(std::uint64_t n) override;
  DebugPort debug() const override { return model_.debug(); }
  std::uint64_t clock() const override { return model_.clock(); }
  std::string name() const override { return "cosim"; }
  // Clocks checked so far and make events (moves made) compared.
  std::uint64_t moves_compared() const { return moves_compared_; }
  // Fault injection for tests: one bus write to the RTL only (the model keeps its value), e.g. one
  // evaluation weight, so that the co-simulation must catch the difference when it shows.
  void inject_rtl_write(std::uint32_t addr, std::uint32_t data) {
    rtl_.access(true, addr, data);
    model_.tick(1);
  }

 private:
  void compare(const char* what);
  std::string report(const char* what, const DebugPort& m, const DebugPort& r) const;

  ChipModel model_;
  RtlBackend rtl_;
  ChipModel::Registers before_{};  // the model's registers before the clock being checked
  CtrlStack before_stack_{};       // and its move stack
  std::uint64_t moves_compared_ = 0;
};

// "model", "rtl" or "cosim"; throws std::invalid_argument naming the backend otherwise.
std::unique_ptr<ChipBackend> make_backend(const std::string& name, const RtlOptions& options = {});

}  // namespace db::chip
