// See mca_chip_backend.h.
#include "mca_chip_backend.h"

#include <array>
#include <stdexcept>

#include <fmt/format.h>

#include "chip/chip_regs.h"
#include "mca_address.h"
#include "mca_node.h"

namespace db::sim {

std::vector<JobBurst> plan_job_bursts(const std::vector<chip::JobWord>& words, std::uint32_t join) {
  std::array<const chip::JobWord*, kJobWindowWords> at{};
  for (const chip::JobWord& w : words) {
    const int i = job_window_index(w.addr);
    if (i < 0) throw std::logic_error(fmt::format("register 0x{:05X} is not in the job window", w.addr));
    at[std::size_t(i)] = &w;
  }
  std::vector<JobBurst> bursts;
  std::uint32_t last = 0;  // the last needed word in the open burst
  for (std::uint32_t i = 0; i < kJobWindowWords; ++i) {
    if (!at[i] || !at[i]->needed) continue;
    bool joins = !bursts.empty() && i - last - 1 <= join;
    for (std::uint32_t k = last + 1; joins && k < i; ++k) joins = at[k] != nullptr;
    if (joins) {
      for (std::uint32_t k = last + 1; k <= i; ++k) bursts.back().data.push_back(at[k]->data);
    } else {
      bursts.push_back({i, {at[i]->data}});
    }
    last = i;
  }
  return bursts;
}

McaChipBackend::McaChipBackend(McaNode& node, int chip, bool bursts) : node_(node), chip_(chip), bursts_(bursts) {}

bool McaChipBackend::write_job(const std::vector<chip::JobWord>& words) {
  if (!bursts_) return ChipBackend::write_job(words);
  for (JobBurst& b : plan_job_bursts(words, join_words())) {
    const std::uint64_t address = job_window_address(McaNode::card_of(chip_), McaNode::slot_of(chip_), b.first);
    if (node_.host().transfer_block(true, address, b.data.data(), b.data.size())) return false;
  }
  return true;
}

std::uint32_t McaChipBackend::join_words() const {
  // Joining over k held words costs k streaming cycles; a new burst, the host's overhead and a
  // first (basic) cycle instead of a streaming one.
  const McaTiming& t = node_.bus().timing();
  const sc_core::sc_time new_burst = node_.host().overhead() + t.basic_cycle;
  if (t.streaming_cycle == sc_core::SC_ZERO_TIME) return kJobWindowWords;
  if (new_burst <= t.streaming_cycle) return 0;
  return std::uint32_t((new_burst - t.streaming_cycle) / t.streaming_cycle);
}

bool McaChipBackend::read_block(std::uint32_t addr, std::uint32_t* out, int n) {
  if (!bursts_ || n <= 1) return ChipBackend::read_block(addr, out, n);
  const std::uint64_t address = chip_address(McaNode::card_of(chip_), McaNode::slot_of(chip_), addr);
  return !node_.host().transfer_block(false, address, out, std::size_t(n));
}

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
