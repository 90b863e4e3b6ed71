// One chip in its socket on a card (TLM-2.0 target): a ChipBackend (model, rtl, cosim) kept clocked
// at 24 MHz in simulated time. The chip is caught up lazily: on each access (and on sync()), it is
// clocked to the access's time before the request's own clock. This is exact because chips interact
// only through the bus, and far cheaper than a SystemC process per clock.
#pragma once

#include <cstdint>
#include <memory>

#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "chip/bus.h"

namespace db::sim {

class ChipSocket : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<ChipSocket> socket;  // from the card

  ChipSocket(sc_core::sc_module_name name, std::unique_ptr<chip::ChipBackend> chip);

  // Clocks the chip up to time t (absolute simulated time); never backwards.
  void sync(const sc_core::sc_time& t);
  // The chip, as clocked so far (call sync() first for its state at a given time).
  chip::ChipBackend& chip() { return *chip_; }
  const chip::ChipBackend& chip() const { return *chip_; }
  // The chip's idle pin at time t: its controller is in S_IDLE (read from the debug port: no clock).
  bool idle_at(const sc_core::sc_time& t);
  // The chip's clock count that corresponds to time t.
  std::uint64_t clock_at(const sc_core::sc_time& t) const;

  std::uint64_t accesses() const { return accesses_; }

 private:
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);

  std::unique_ptr<chip::ChipBackend> chip_;
  std::uint64_t epoch_;  // the chip's clock at simulated time 0
  std::uint64_t accesses_ = 0;
};

}  // namespace db::sim
