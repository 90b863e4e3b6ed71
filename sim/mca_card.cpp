// See mca_card.h.
#include "mca_card.h"

#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace db::sim {

McaCard::McaCard(sc_core::sc_module_name name, Options options) : sc_module(name), socket("socket"), options_(options) {
  socket.register_b_transport(this, &McaCard::b_transport);
  pos_[0] = std::uint8_t(options_.adapter_id & 0xFF);
  pos_[1] = std::uint8_t(options_.adapter_id >> 8);
  for (int c = 0; c < kChipsPerCard; ++c) {
    chips_[std::size_t(c)] = std::make_unique<ChipPort>(fmt::format("chip_{}", c).c_str());
  }
}

McaCard::ChipPort& McaCard::chip_port(int chip) {
  if (chip < 0 || chip >= kChipsPerCard)
    throw std::invalid_argument(fmt::format("chip slot {} out of range 0-7", chip));
  return *chips_[std::size_t(chip)];
}

void McaCard::connect_idle_pin(int chip, IdlePin pin) {
  if (chip < 0 || chip >= kChipsPerCard)
    throw std::invalid_argument(fmt::format("chip slot {} out of range 0-7", chip));
  idle_pins_[std::size_t(chip)] = std::move(pin);
}

void McaCard::status_read(tlm::tlm_generic_payload& p, McaCycle& cycle, const sc_core::sc_time& at) {
  if (!p.is_read()) {
    p.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    cycle.error = fmt::format("{}: the status port is read-only", name());
    return;
  }
  // A latch on the card: a basic cycle, no chip is accessed.
  std::uint32_t word = 0;
  for (int c = 0; c < kChipsPerCard; ++c) {
    if (chips_[std::size_t(c)]->size() == 0) continue;
    word |= 1u << (8 + c);
    if (idle_pins_[std::size_t(c)] && idle_pins_[std::size_t(c)](at)) word |= 1u << c;
  }
  std::memcpy(p.get_data_ptr(), &word, sizeof word);
  p.set_response_status(tlm::TLM_OK_RESPONSE);
}

void McaCard::broadcast_write(tlm::tlm_generic_payload& p, McaCycle& cycle, sc_core::sc_time& delay) {
  if (!p.is_write()) {
    p.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    cycle.error = fmt::format("{}: the broadcast window is write-only", name());
    return;
  }
  // Every chip latches the same write in the same basic cycle.
  const std::uint64_t offset = p.get_address();
  p.set_address((offset >> 2) & ((1u << kChipAddressBits) - 1));
  bool error = false;
  for (auto& port : chips_) {
    if (port->size() == 0) continue;
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time d = delay;
    (*port)->b_transport(p, d);
    error |= p.is_response_error();
  }
  p.set_address(offset);
  p.set_response_status(error ? tlm::TLM_GENERIC_ERROR_RESPONSE : tlm::TLM_OK_RESPONSE);
}

void McaCard::setup_cycle(tlm::tlm_generic_payload& p) {
  const std::size_t index = std::size_t(p.get_address() - kPosBase);
  std::uint8_t* data = p.get_data_ptr();
  if (p.is_read()) {
    for (unsigned i = 0; i < p.get_data_length(); ++i) data[i] = i == 0 ? pos_[index] : 0;
  } else if (index >= 2) {  // the adapter ID is read-only; writes to it are ignored, as on the bus
    pos_[index] = data[0];
  }
  p.set_response_status(tlm::TLM_OK_RESPONSE);
}

void McaCard::b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  McaCycle* cycle = p.get_extension<McaCycle>();
  if (!cycle) throw std::logic_error(fmt::format("{}: a transfer without its Micro Channel cycle", name()));
  if (cycle->setup) return setup_cycle(p);
  const std::uint64_t offset = p.get_address();
  if (!enabled()) {
    p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    cycle->error =
        fmt::format("{}: card disabled (POS 0x102 bit 0 clear): access to offset 0x{:X} refused", name(), offset);
    return;
  }
  if (cycle->card_status) return status_read(p, *cycle, sc_core::sc_time_stamp() + delay);
  if (cycle->broadcast) return broadcast_write(p, *cycle, delay);
  if (cycle->job_window) return job_window_write(p, *cycle, delay);
  const int chip = int(offset >> (kChipAddressBits + 2));
  const std::uint32_t word = std::uint32_t(offset >> 2) & ((1u << kChipAddressBits) - 1);
  if (word + p.get_data_length() / 4 > (1u << kChipAddressBits)) {
    p.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    cycle->error = fmt::format("{}: a burst of {} words from chip word 0x{:05X} runs past the chip's address space",
                               name(), p.get_data_length() / 4, word);
    return;
  }
  // A chip read holds CD CHRDY: the first word's cycle is extended, and the words after it follow.
  if (p.is_read() && options_.extended_reads)
    cycle->hold = std::max(cycle->hold, sc_core::sc_time(100, sc_core::SC_NS));
  chip_words(p, *cycle, delay, chip, [word](std::uint32_t i) { return word + i; });
}

void McaCard::job_window_write(tlm::tlm_generic_payload& p, McaCycle& cycle, sc_core::sc_time& delay) {
  const std::uint64_t offset = p.get_address();
  const std::uint32_t first = std::uint32_t(offset % kJobWindowChip) / 4;
  const std::uint32_t words = p.get_data_length() / 4;
  if (!p.is_write()) {
    p.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    cycle.error = fmt::format("{}: the job window is write-only", name());
    return;
  }
  if (first + words > kJobWindowWords) {
    p.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    cycle.error = fmt::format("{}: a burst of {} words from job window word {} runs past its {} words", name(), words,
                              first, kJobWindowWords);
    return;
  }
  chip_words(p, cycle, delay, int(offset / kJobWindowChip), [first](std::uint32_t i) { return kJobWindow[first + i]; });
}

template <typename RegisterOf>
void McaCard::chip_words(tlm::tlm_generic_payload& p, McaCycle& cycle, sc_core::sc_time& delay, int chip,
                         RegisterOf register_of) {
  ChipPort& port = *chips_[std::size_t(chip) % kChipsPerCard];
  if (port.size() == 0) {
    p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    cycle.error = fmt::format("{}: no chip in slot {}", name(), chip);
    return;
  }
  // Word by word as the chip takes them (one request a 24 MHz clock; a streaming cycle is longer),
  // each when its cycle starts: the first at the start, the next after the first cycle (and the
  // hold), then one a streaming cycle. A word the chip flags ends the burst.
  const std::uint64_t offset = p.get_address();
  unsigned char* const data = p.get_data_ptr();
  const unsigned length = p.get_data_length(), width = p.get_streaming_width();
  p.set_data_length(4);
  p.set_streaming_width(4);
  for (std::uint32_t i = 0; i < length / 4; ++i) {
    p.set_address(register_of(i));
    p.set_data_ptr(data + 4 * i);
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time at = i == 0 ? delay : delay + cycle.first_cycle + cycle.hold + cycle.word_time * double(i - 1);
    port->b_transport(p, at);
    if (p.get_response_status() != tlm::TLM_OK_RESPONSE) break;
  }
  p.set_address(offset);
  p.set_data_ptr(data);
  p.set_data_length(length);
  p.set_streaming_width(width);
}

}  // namespace db::sim
