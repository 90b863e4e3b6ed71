// See mca_bus.h.
#include "mca_bus.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "mca_address.h"

namespace db::sim {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

namespace {

bool in_thread() {
  return sc_core::sc_get_status() == sc_core::SC_RUNNING &&
         sc_core::sc_get_current_process_handle().proc_kind() == sc_core::SC_THREAD_PROC_;
}

void fail(tlm::tlm_generic_payload& p, McaCycle& cycle, tlm::tlm_response_status status, std::string why) {
  p.set_response_status(status);
  cycle.error = std::move(why);
}

}  // namespace

McaBus::McaBus(sc_core::sc_module_name name, McaTiming timing) : sc_module(name), timing_(timing) {
  for (int level = 0; level < kLevels; ++level) {
    masters_.push_back(std::make_unique<MasterPort>(fmt::format("level_{}", level).c_str()));
    masters_.back()->register_b_transport(this, &McaBus::b_transport, level);
  }
  for (int slot = 0; slot < kSlots; ++slot)
    slots_.push_back(std::make_unique<SlotPort>(fmt::format("slot_{}", slot).c_str()));
  SC_THREAD(arbiter);
}

McaBus::MasterPort& McaBus::master_port(int level) {
  if (level < 0 || level >= kLevels)
    throw std::invalid_argument(fmt::format("arbitration level {} out of range 0-15", level));
  return *masters_[std::size_t(level)];
}

McaBus::SlotPort& McaBus::slot_port(int slot) {
  if (slot < 0 || slot >= kSlots)
    throw std::invalid_argument(fmt::format("slot {} out of range 0-{}", slot, kSlots - 1));
  return *slots_[std::size_t(slot)];
}

void McaBus::b_transport(int master, tlm::tlm_generic_payload& p, sc_time& delay) {
  if (in_thread()) {
    // Synchronise, queue, and wait for the arbiter's grant.
    wait(delay);
    delay = SC_ZERO_TIME;
    const std::uint64_t ticket = next_ticket_++;
    pending_.push_back({master, ticket});
    request_event_.notify(SC_ZERO_TIME);
    while (granted_ != ticket) wait(grant_event_);
    const sc_time end = transfer(p, sc_core::sc_time_stamp());
    wait(end - sc_core::sc_time_stamp());
    granted_ = ~std::uint64_t(0);
    release_event_.notify(SC_ZERO_TIME);
    return;
  }
  // A lone master outside the kernel: the same rules from the annotated time.
  if (!pending_.empty()) throw std::logic_error("Micro Channel: a master outside the kernel while others arbitrate");
  const sc_time now = sc_core::sc_time_stamp();
  sc_time start = std::max(now + delay, free_at_);
  if (owner_ != master) {
    start += timing_.arbitration;
    stats_.busy += timing_.arbitration;
    ++stats_.arbitrations;
    owner_ = master;
  }
  delay = transfer(p, start) - now;
}

void McaBus::arbiter() {
  for (;;) {
    while (pending_.empty()) wait(request_event_);
    if (free_at_ > sc_core::sc_time_stamp()) wait(free_at_ - sc_core::sc_time_stamp());
    // The owner keeps a parked bus when nobody else asks; otherwise an arbitration cycle decides
    // among the requests present at its end.
    if (!(pending_.size() == 1 && pending_.front().master == owner_)) {
      wait(timing_.arbitration);
      stats_.busy += timing_.arbitration;
      ++stats_.arbitrations;
    }
    auto best = pending_.begin();
    for (auto it = pending_.begin(); it != pending_.end(); ++it) {
      if (it->master < best->master) best = it;  // the lower level wins; ties: the earlier request
    }
    owner_ = best->master;
    granted_ = best->ticket;
    pending_.erase(best);
    grant_event_.notify(SC_ZERO_TIME);
    wait(release_event_);
  }
}

sc_time McaBus::transfer(tlm::tlm_generic_payload& p, const sc_time& start) {
  McaCycle* cycle = p.get_extension<McaCycle>();
  McaCycle local;
  if (!cycle) p.set_extension(cycle = &local);
  cycle->setup = false;
  cycle->card_status = false;
  cycle->broadcast = false;
  cycle->job_window = false;
  cycle->first_cycle = timing_.basic_cycle;
  cycle->word_time = timing_.streaming_cycle;
  cycle->hold = SC_ZERO_TIME;
  cycle->device_error = false;
  cycle->error.clear();
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  route(p, *cycle, start);
  const sc_time length = cycle_length(p, *cycle);
  if (p.is_response_error()) ++stats_.errors;
  if (cycle == &local) p.clear_extension(&local);
  ++stats_.transfers;
  stats_.busy += length;
  free_at_ = start + length;
  return free_at_;
}

void McaBus::route(tlm::tlm_generic_payload& p, McaCycle& cycle, const sc_time& start) {
  const std::uint64_t addr = p.get_address();
  // I/O ports (setup, POS) are byte-wide; the cards' memory takes aligned 32-bit words, one a
  // transfer or several in a streaming-data burst (consecutive words: the streaming width is the
  // whole length) to a chip's memory window or a job window.
  const bool io = addr == kSetupSelect || (addr >= kPosBase && addr < kPosBase + kPosCount);
  const unsigned length = p.get_data_length();
  const bool words = length >= 4 && length % 4 == 0 && !p.get_byte_enable_ptr() && addr % 4 == 0 &&
                     (length == 4 ? p.get_streaming_width() >= 4 : p.get_streaming_width() == length);
  if (length < 1 || (!io && !words)) {
    return fail(p, cycle, tlm::TLM_BURST_ERROR_RESPONSE,
                fmt::format("Micro Channel: only aligned 32-bit transfers (address 0x{:X}, {} bytes)", addr, length));
  }
  const bool burst = length > 4;
  const bool memory = (addr >= kCardBase && addr < kCardBase + std::uint64_t(kSlots) * kCardWindow) ||
                      (addr >= kJobWindowBase && addr < kJobWindowBase + std::uint64_t(kSlots) * kJobWindowCard);
  if (burst && !memory) {
    return fail(p, cycle, tlm::TLM_BURST_ERROR_RESPONSE,
                fmt::format("Micro Channel: a burst of {} words to 0x{:X}: bursts go to a chip's memory window or "
                            "a job window only",
                            length / 4, addr));
  }
  // The adapter setup port.
  if (addr == kSetupSelect) {
    if (p.is_write()) {
      const std::uint8_t v = *p.get_data_ptr();
      setup_slot_ = (v & kSetupEnable) ? int(v & 7) : -1;
    } else {
      *p.get_data_ptr() = std::uint8_t(setup_slot_ < 0 ? 0 : kSetupEnable | std::uint32_t(setup_slot_));
    }
    p.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  int slot = -1;
  std::uint64_t local = 0;
  if (addr >= kPosBase && addr < kPosBase + kPosCount) {
    if (setup_slot_ < 0) {
      return fail(p, cycle, tlm::TLM_ADDRESS_ERROR_RESPONSE,
                  fmt::format("Micro Channel: POS register 0x{:X} accessed with no card in setup (port 0x96)", addr));
    }
    slot = setup_slot_;
    local = addr;
    cycle.setup = true;
  } else if (addr >= kCardStatusBase && addr < card_status_port(kSlots)) {
    slot = int((addr - kCardStatusBase) / 4);
    local = 0;
    cycle.card_status = true;
  } else if (addr >= kBroadcastBase && addr < kBroadcastBase + std::uint64_t(kSlots) * kBroadcastWindow) {
    slot = int((addr - kBroadcastBase) / kBroadcastWindow);
    local = (addr - kBroadcastBase) % kBroadcastWindow;
    cycle.broadcast = true;
  } else if (addr >= kJobWindowBase && addr < kJobWindowBase + std::uint64_t(kSlots) * kJobWindowCard) {
    slot = int((addr - kJobWindowBase) / kJobWindowCard);
    local = (addr - kJobWindowBase) % kJobWindowCard;
    cycle.job_window = true;
  } else if (addr >= kCardBase && addr < kCardBase + std::uint64_t(kSlots) * kCardWindow) {
    slot = int((addr - kCardBase) / kCardWindow);
    local = (addr - kCardBase) % kCardWindow;
  } else {
    return fail(p, cycle, tlm::TLM_ADDRESS_ERROR_RESPONSE,
                fmt::format("Micro Channel: no device at address 0x{:X}", addr));
  }
  SlotPort& port = *slots_[std::size_t(slot)];
  if (port.size() == 0) {
    return fail(p, cycle, tlm::TLM_ADDRESS_ERROR_RESPONSE,
                fmt::format("Micro Channel: no card in slot {} (address 0x{:X})", slot, addr));
  }
  p.set_address(local);
  sc_time at = start - sc_core::sc_time_stamp();
  port->b_transport(p, at);
  p.set_address(addr);
  if (p.get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE) {
    fail(p, cycle, tlm::TLM_GENERIC_ERROR_RESPONSE, fmt::format("Micro Channel: card in slot {} did not answer", slot));
  }
}

sc_time McaBus::cycle_length(tlm::tlm_generic_payload& p, McaCycle& cycle) {
  // A burst: the first word's cycle, then a streaming cycle for each further word.
  const sc_time streaming = timing_.streaming_cycle * double(p.get_data_length() > 4 ? p.get_data_length() / 4 - 1 : 0);
  if (cycle.hold == SC_ZERO_TIME) return timing_.basic_cycle + streaming;
  ++stats_.extended;
  if (cycle.hold <= timing_.sync_extended - timing_.basic_cycle) return timing_.sync_extended + streaming;
  const sc_time length = timing_.basic_cycle + cycle.hold;
  if (length > timing_.async_extended_max) {
    // A card holding CD CHRDY too long: the channel check ends the cycle at the limit.
    fail(p, cycle, tlm::TLM_GENERIC_ERROR_RESPONSE,
         fmt::format("Micro Channel: channel check: the card at 0x{:X} held CD CHRDY for {} (longest cycle {})",
                     p.get_address(), length.to_string(), timing_.async_extended_max.to_string()));
    return timing_.async_extended_max;
  }
  return length + streaming;
}

}  // namespace db::sim
