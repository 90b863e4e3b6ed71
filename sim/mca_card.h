// A Deep Blue chip card (TLM-2.0 target): the POS registers (adapter ID, card enable) and eight chip
// slots behind the card's address decoder (chip 0-7, 17-bit word address; mca_address.h), with the
// card's status port, broadcast window and job window, and streaming-data bursts to one chip.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <memory>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "mca_address.h"
#include "mca_cycle.h"

namespace db::sim {

// The adapter ID the cards answer with at POS 0x100/0x101 (a made-up one: IBM's list is not public).
constexpr std::uint16_t kDeepBlueCardId = 0xDB97;

class McaCard : public sc_core::sc_module {
 public:
  struct Options {
    std::uint16_t adapter_id = kDeepBlueCardId;
    // A chip read is a synchronous extended cycle: the card holds CD CHRDY until the chip's answer,
    // one 24 MHz clock after the request, is through its buffers. A write is latched (basic cycle).
    bool extended_reads = true;
  };

  tlm_utils::simple_target_socket<McaCard> socket;  // from the bus

  McaCard(sc_core::sc_module_name name, Options options);
  explicit McaCard(sc_core::sc_module_name name) : McaCard(name, Options{}) {}

  using ChipPort = tlm_utils::simple_initiator_socket_tagged_optional<McaCard>;
  // Chip slot 0-7's port (bind a chip socket's target to it; a slot may stay empty).
  ChipPort& chip_port(int chip);

  // Chip slot c's idle pin, read by the status port at a simulated time (the node connects it).
  using IdlePin = std::function<bool(const sc_core::sc_time&)>;
  void connect_idle_pin(int chip, IdlePin pin);

  bool enabled() const { return pos_[2] & kPosEnableBit; }
  std::uint8_t pos(int index) const { return pos_.at(std::size_t(index)); }

 private:
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  void setup_cycle(tlm::tlm_generic_payload& p);
  void broadcast_write(tlm::tlm_generic_payload& p, McaCycle& cycle, sc_core::sc_time& delay);
  void status_read(tlm::tlm_generic_payload& p, McaCycle& cycle, const sc_core::sc_time& at);
  void job_window_write(tlm::tlm_generic_payload& p, McaCycle& cycle, sc_core::sc_time& delay);
  // The transfer's words to one chip, word i to its register register_of(i).
  // (A template rather than a std::function: every access of the node's chips passes here.)
  template <typename RegisterOf>
  void chip_words(tlm::tlm_generic_payload& p, McaCycle& cycle, sc_core::sc_time& delay, int chip,
                  RegisterOf register_of);

  Options options_;
  std::array<std::uint8_t, kPosCount> pos_{};
  std::array<std::unique_ptr<ChipPort>, kChipsPerCard> chips_;
  std::array<IdlePin, kChipsPerCard> idle_pins_;
};

}  // namespace db::sim
