// See mca_chip_backend.h.
#include "mca_chip_backend.h"

#include "chip/chip_regs.h"
#include "mca_address.h"
#include "mca_node.h"

namespace db::sim {

McaChipBackend::McaChipBackend(McaNode& node, int chip) : node_(node), chip_(chip) {}

chip::BusResponse McaChipBackend::access(bool write, std::uint32_t addr, std::uint32_t data) {
  McaHost& host = node_.host();
  const sc_core::sc_time before = host.now();
  const McaHost::Result r =
      host.transfer(write, chip_address(McaNode::card_of(chip_), McaNode::slot_of(chip_), addr), data);
  if (!write && addr == chip::reg::STATUS) node_.count_poll(host.now() - before);
  return chip::BusResponse{r.data, r.device_error};
}

void McaChipBackend::tick(std::uint64_t n) {
  McaHost& host = node_.host();
  const std::uint64_t now = chip_clocks_at(host.now());
  host.idle(chip_clock_time(now + n) - chip_clock_time(now));
}

chip::DebugPort McaChipBackend::debug() const {
  ChipSocket& s = node_.socket(chip_);
  s.sync(node_.host().now());
  return s.chip().debug();
}

std::uint64_t McaChipBackend::clock() const {
  ChipSocket& s = node_.socket(chip_);
  s.sync(node_.host().now());
  return s.chip().clock();
}

std::string McaChipBackend::name() const { return "mca/" + node_.socket(chip_).chip().name(); }

}  // namespace db::sim
