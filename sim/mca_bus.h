// The Micro Channel of one node (TLM-2.0, loosely timed, blocking transport with delay annotation).
// A master binds to the port of its arbitration level, master_port(level) (each level is one
// master's, as on the bus); a card binds to its slot's port, slot_port(slot). A transfer costs one arbitration
// cycle when the bus changes hands (the last owner keeps it parked otherwise), then a basic,
// synchronous extended or asynchronous extended cycle as the target's CD CHRDY hold asks.
//
// Two ways to call it. From an SC_THREAD (several masters): the call synchronises to its annotated
// time and queues; an arbiter process runs the arbitration cycle (at least 300 ns) and grants the
// bus to the pending request of the highest priority (level 0 highest; ties in order of request).
// From outside the kernel (a lone master, such as the search's host between sc_start calls): the
// same rules computed from the annotated time alone (no other master can be pending then).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "mca_cycle.h"
#include "mca_timing.h"

namespace db::sim {

class McaBus : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(McaBus);
  explicit McaBus(sc_core::sc_module_name name, McaTiming timing = {});

  using MasterPort = tlm_utils::simple_target_socket_tagged_optional<McaBus>;
  using SlotPort = tlm_utils::simple_initiator_socket_tagged_optional<McaBus>;
  static constexpr int kLevels = 16;

  // The port of arbitration level 0-15 (0: highest priority), for one master.
  MasterPort& master_port(int level);
  // A card slot's port, 0-7.
  SlotPort& slot_port(int slot);

  const McaTiming& timing() const { return timing_; }

  struct Stats {
    std::uint64_t transfers = 0;
    std::uint64_t arbitrations = 0;
    std::uint64_t extended = 0;  // synchronous or asynchronous extended cycles
    std::uint64_t errors = 0;    // transfers answered with an error response
    sc_core::sc_time busy;       // arbitration and transfer cycles
  };
  const Stats& stats() const { return stats_; }
  // The time at which the bus is next free (end of the last transfer).
  sc_core::sc_time free_at() const { return free_at_; }

 private:
  void b_transport(int master, tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  // The transfer itself from `start` (absolute): decode, forward, cycle length; returns its end.
  sc_core::sc_time transfer(tlm::tlm_generic_payload& p, const sc_core::sc_time& start);
  void route(tlm::tlm_generic_payload& p, McaCycle& cycle, const sc_core::sc_time& start);
  sc_core::sc_time cycle_length(tlm::tlm_generic_payload& p, McaCycle& cycle);
  void arbiter();

  struct Request {
    int master;  // its level
    std::uint64_t ticket;
  };

  McaTiming timing_;
  std::vector<std::unique_ptr<MasterPort>> masters_;  // by level
  std::vector<std::unique_ptr<SlotPort>> slots_;      // by slot
  int setup_slot_ = -1;                               // the card in setup, or -1
  int owner_ = -1;                                    // the master that last held the bus (parked)
  sc_core::sc_time free_at_;
  Stats stats_;
  // Thread mode.
  std::deque<Request> pending_;
  std::uint64_t next_ticket_ = 0;
  std::uint64_t granted_ = ~std::uint64_t(0);
  sc_core::sc_event request_event_, grant_event_, release_event_;
};

}  // namespace db::sim
