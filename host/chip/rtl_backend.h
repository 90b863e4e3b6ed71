// Backends that run the RTL: "rtl" (the verilated chip alone) and "cosim" (the verilated chip and
// the reference model in lock-step, compared on every clock), and a factory for all three.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include "chip/bus.h"
#include "chip/chip_model.h"
#include "chip_harness.h"

namespace db::chip {

class RtlBackend final : public ChipBackend {
 public:
  explicit RtlBackend(rtl::HarnessOptions options = {}) : harness_(std::move(options)) {}
  BusResponse access(bool write, std::uint32_t addr, std::uint32_t data) override {
    return harness_.access(write, addr, data);
  }
  void tick(std::uint64_t n) override { harness_.tick(n); }
  DebugPort debug() const override { return harness_.debug(); }
  std::uint64_t clock() const override { return harness_.clock(); }
  std::string name() const override { return "rtl"; }

 private:
  rtl::ChipHarness harness_;
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
  explicit CosimBackend(rtl::HarnessOptions options = {}) : rtl_(std::move(options)) {}
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
  std::array<ChipModel::StackEntry, 32> before_stack_{};  // and its move stack
  std::uint64_t moves_compared_ = 0;
};

// "model", "rtl" or "cosim"; throws std::invalid_argument naming the backend otherwise.
std::unique_ptr<ChipBackend> make_backend(const std::string& name, rtl::HarnessOptions options = {});

}  // namespace db::chip
