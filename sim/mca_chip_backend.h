// A chip seen from the host through the Micro Channel: a ChipBackend whose access() is one host
// transfer (host overhead, arbitration, bus cycle; the chip socket clocks the chip up to the
// transfer's time first) and whose tick(n) is the host waiting n chip clocks. ChipClient runs on it
// unchanged.
#pragma once

#include <string>

#include "chip/bus.h"

namespace db::sim {

class McaNode;

class McaChipBackend final : public chip::ChipBackend {
 public:
  McaChipBackend(McaNode& node, int chip);
  chip::BusResponse access(bool write, std::uint32_t addr, std::uint32_t data) override;
  void tick(std::uint64_t n) override;
  // The chip's debug port and clock at the host's time.
  chip::DebugPort debug() const override;
  std::uint64_t clock() const override;
  std::string name() const override;

 private:
  McaNode& node_;
  int chip_;
};

}  // namespace db::sim
