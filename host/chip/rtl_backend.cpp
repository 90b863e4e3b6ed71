// See rtl_backend.h.
#include "chip/rtl_backend.h"

#include <fmt/format.h>

#include "chip/chip_client.h"

namespace db::chip {

namespace {

std::string describe(const DebugPort& d) {
  return fmt::format("state {} ply {} move {} nodes {} leaf {} flags 0x{:02X}", ctrl_state_name(d.state), d.ply,
                     chip_move_to_string(d.move), d.nodes, std::int16_t(d.leaf), d.flags);
}

}  // namespace

std::string CosimBackend::report(const char* what, const DebugPort& m, const DebugPort& r) const {
  ChipModel::Registers regs = before_;
  std::string path;
  for (int p = regs.base; p < regs.ply && p < 32; ++p) {
    path += (path.empty() ? "" : " ") + chip_move_to_string(before_stack_[p].move);
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
  if (m.state == std::uint8_t(CtrlState::MAKE)) ++moves_compared_;
}

BusResponse CosimBackend::access(bool write, std::uint32_t addr, std::uint32_t data) {
  before_ = model_.registers();
  before_stack_ = model_.stack();
  const BusResponse m = model_.access(write, addr, data);
  const BusResponse r = rtl_.access(write, addr, data);
  if (m.data != r.data || m.error != r.error) {
    throw CosimMismatch(fmt::format(
        "cosim: bus responses differ at clock {} ({} 0x{:05X}): model data 0x{:08X} error {}, rtl data "
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

std::unique_ptr<ChipBackend> make_backend(const std::string& name, rtl::HarnessOptions options) {
  if (name == "model") return std::make_unique<ChipModel>();
  if (name == "rtl") return std::make_unique<RtlBackend>(std::move(options));
  if (name == "cosim") return std::make_unique<CosimBackend>(std::move(options));
  throw std::invalid_argument("unknown chip backend '" + name + "' (expected model, rtl or cosim)");
}

}  // namespace db::chip
