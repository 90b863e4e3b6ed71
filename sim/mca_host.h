// The node's host processor as a Micro Channel master (TLM-2.0 initiator): programmed I/O, one
// 32-bit transfer per access (or a streaming-data burst of several words), each costing the host's
// I/O overhead (McaTiming::host_overhead) before the bus cycle. It keeps its own time (loosely timed: the time
// annotated on its transfers), so it can be driven from plain C++ between sc_start calls, as the software search does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

namespace db::sim {

// A transfer the bus or a card refused (no card, disabled card, empty slot, channel check).
class McaError : public std::runtime_error {
 public:
  McaError(const std::string& what, std::uint64_t address) : std::runtime_error(what), address_(address) {}
  std::uint64_t address() const { return address_; }

 private:
  std::uint64_t address_;
};

class McaHost : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<McaHost> socket;  // to a bus master port

  McaHost(sc_core::sc_module_name name, sc_core::sc_time overhead);

  struct Result {
    std::uint32_t data = 0;
    bool device_error = false;  // the chip flagged the request (BusResponse.error)
  };
  // One programmed access; throws McaError when the bus or a card refuses it.
  Result transfer(bool write, std::uint64_t address, std::uint32_t data);
  // A streaming-data burst of n words from `address` on (one host I/O operation: one overhead, then
  // the bus's first cycle and a streaming cycle for each further word). Reads fill `words`. True
  // when a chip flagged one of the words (the burst stopped there); throws McaError as transfer().
  bool transfer_block(bool write, std::uint64_t address, std::uint32_t* words, std::size_t n);
  std::uint32_t read(std::uint64_t address) { return transfer(false, address, 0).data; }
  void write(std::uint64_t address, std::uint32_t data) { transfer(true, address, data); }
  // A POS register (0x100-0x107) of the card in `slot`: setup on, the access, setup off.
  std::uint8_t pos_read(int slot, std::uint32_t reg);
  void pos_write(int slot, std::uint32_t reg, std::uint8_t value);

  // The host waits (or computes) for d without the bus.
  void idle(const sc_core::sc_time& d) { now_ += d; }
  // The host's time: absolute simulated time of its next access.
  sc_core::sc_time now() const { return now_; }

  sc_core::sc_time overhead() const { return overhead_; }
  void set_overhead(const sc_core::sc_time& t) { overhead_ = t; }

  struct Stats {
    std::uint64_t accesses = 0;  // transfers (a burst is one)
    std::uint64_t words = 0;     // 32-bit words moved
    sc_core::sc_time overhead;   // host I/O overhead, all accesses
    sc_core::sc_time on_bus;     // from the end of the overhead to the end of the bus cycle (waits, arbitration, cycle)
  };
  const Stats& stats() const { return stats_; }

 private:
  sc_core::sc_time overhead_;
  sc_core::sc_time now_;
  Stats stats_;
};

}  // namespace db::sim
