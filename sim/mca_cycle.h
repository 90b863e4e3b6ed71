// The Micro Channel side of a transfer, carried with the generic payload as a TLM extension: whether
// it is a setup (POS) cycle, how long the target holds CD CHRDY, and why a target refused it.
#pragma once

#include <string>

#include <systemc>
#include <tlm>

namespace db::sim {

struct McaCycle : tlm::tlm_extension<McaCycle> {
  // Set by the bus: a setup cycle to the POS registers (I/O 0x100-0x107) of the card in setup.
  bool setup = false;
  // Set by the bus: a read of the card's status port (I/O kCardStatusBase + 4 * slot).
  bool card_status = false;
  // Set by the bus: a write to the card's broadcast window (every chip on the card).
  bool broadcast = false;
  // Set by the bus: a write to the card's job window (mca_address.h: word i to kJobWindow[i]).
  bool job_window = false;
  // Set by the bus for a burst (several words): the first word's cycle before the target's hold
  // (a basic cycle), then the time from one word to the next (a streaming cycle).
  sc_core::sc_time first_cycle = sc_core::SC_ZERO_TIME;
  sc_core::sc_time word_time = sc_core::SC_ZERO_TIME;
  // Set by the target: how long it holds CD CHRDY beyond the basic cycle (0: a basic cycle; up to
  // 100 ns: the synchronous extended cycle; longer: an asynchronous extended cycle, at most 3.5 us).
  sc_core::sc_time hold = sc_core::SC_ZERO_TIME;
  // Set by a chip: the chip itself flagged the request (its BusResponse.error); the host then reads
  // the chip's ERROR register. Any other error response is the bus's or the card's, explained here.
  bool device_error = false;
  std::string error;

  tlm::tlm_extension_base* clone() const override { return new McaCycle(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override { *this = static_cast<const McaCycle&>(other); }
};

}  // namespace db::sim
