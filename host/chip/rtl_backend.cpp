// See rtl_backend.h.
#include "chip/rtl_backend.h"

#include <fmt/format.h>

#include "chip/chip_client.h"
#include "chip_harness.h"

namespace db::chip {

RtlBackend::RtlBackend(const RtlOptions& options) {
  rtl::HarnessOptions h;
  h.trace_path = options.trace_path;
  h.trace_from = options.trace_from;
  h.trace_to = options.trace_to;
  h.coverage_path = options.coverage_path;
  harness_ = std::make_unique<rtl::ChipHarness>(std::move(h));
}

RtlBackend::~RtlBackend() = default;

BusResponse RtlBackend::access(bool write, std::uint32_t addr, std::uint32_t data) {
  return harness_->access(write, addr, data);
}
void RtlBackend::tick(std::uint64_t n) { harness_->tick(n); }
DebugPort RtlBackend::debug() const { return harness_->debug(); }
std::uint64_t RtlBackend::clock() const { return harness_->clock(); }
bool RtlBackend::trace_supported() { return rtl::ChipHarness::trace_supported(); }
bool RtlBackend::coverage_supported() { return rtl::ChipHarness::coverage_supported(); }

namespace {

std::string describe(const DebugPort& d) {
  return fmt::format("state {} ply {} move {} nodes {} leaf {} flags 0x{:02X}", ctrl_state_name(d.state), d.ply,
                     chip_move_to_string(d.move), d.nodes, std::int16_t(d.leaf), d.flags);
}

}  // namespace

std::string CosimBackend::report(const char* what, const DebugPort& m, const DebugPort& r) const {
  const ChipModel::Registers& regs = before_;
  std::string path;
  for (int p = regs.ctrl.base_q; p < regs.ctrl.ply_q && p < 32; ++p) {
    path += (path.empty() ? "" : " ") + chip_move_to_string(before_stack_.move_o(p));
  }
  return fmt::format(
      "cosim: RTL and model differ at clock {} ({})\n  position: {}\n  ply: {} (moves from the command's "
      "root: {})\n  model: {}\n  rtl:   {}",
      model_.clock(), what, model_.fen(), m.ply, path.empty() ? "none" : path, describe(m), describe(r));
}

void CosimBackend::compare(const char* what) {
  const DebugPort m = model_.debug();
  const DebugPort r = rtl_.debug();
  if (m != r) throw CosimMismatch(report(what, m, r), model_.clock());
  if (m.state == std::uint8_t(S_MAKE)) ++moves_compared_;
}

BusResponse CosimBackend::access(bool write, std::uint32_t addr, std::uint32_t data) {
  before_ = model_.registers();
  before_stack_ = model_.stack();
  const BusResponse m = model_.access(write, addr, data);
  const BusResponse r = rtl_.access(write, addr, data);
  if (m.data != r.data || m.error != r.error) {
    throw CosimMismatch(
        fmt::format("cosim: bus responses differ at clock {} ({} 0x{:05X}): model data 0x{:08X} error {}, rtl data "
                    "0x{:08X} error {}\n  position: {}",
                    model_.clock(), write ? "write" : "read", addr, m.data, m.error, r.data, r.error, model_.fen()),
        model_.clock());
  }
  compare("after a bus request");
  return m;
}

void CosimBackend::tick(std::uint64_t n) {
  for (std::uint64_t i = 0; i < n; ++i) {
    before_ = model_.registers();
    before_stack_ = model_.stack();
    model_.tick(1);
    rtl_.tick(1);
    compare("idle bus");
  }
}

std::unique_ptr<ChipBackend> make_backend(const std::string& name, const RtlOptions& options) {
  if (name == "model") return std::make_unique<ChipModel>();
  if (name == "rtl") return std::make_unique<RtlBackend>(options);
  if (name == "cosim") return std::make_unique<CosimBackend>(options);
  throw std::invalid_argument("unknown chip backend '" + name + "' (expected model, rtl or cosim)");
}

}  // namespace db::chip
