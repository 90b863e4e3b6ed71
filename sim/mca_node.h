// One Deep Blue node on its Micro Channel: the host (a bus master), two cards of eight chips, each
// chip a reference model or verilated RTL in a ChipSocket. start() completes SystemC's elaboration
// and enables the cards through their POS registers; then the host's accesses run the node in
// simulated time. SystemC elaborates once per process: build one node per process.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "chip/bus.h"
#include "chip/search_chip.h"
#include "chip_socket.h"
#include "mca_bus.h"
#include "mca_card.h"
#include "mca_host.h"
#include "mca_timing.h"

namespace db::sim {

struct McaNodeOptions {
  int chips = 16;                      // 1 to 8 * cards: card 0 slots 0-7, then card 1, ...
  std::string chip_backend = "model";  // model, rtl or cosim (chip::make_backend)
  McaTiming timing;
  int host_level = 0;  // the host's arbitration level (it is the node's only master)
  int cards = 2;
};

class McaNode : public sc_core::sc_module {
 public:
  McaNode(sc_core::sc_module_name name, McaNodeOptions options);
  ~McaNode() override;

  // Ends elaboration (sc_start of zero time, once per process) and enables the cards through POS
  // (setup cycles on the bus, in simulated time).
  void start();

  int chips() const { return int(sockets_.size()); }
  // Card slot and chip slot of chip i.
  static int card_of(int i) { return i / kChipsPerCard; }
  static int slot_of(int i) { return i % kChipsPerCard; }
  ChipSocket& socket(int i) { return *sockets_.at(std::size_t(i)); }
  McaCard& card(int slot) { return *cards_.at(std::size_t(slot)); }
  McaHost& host() { return host_; }
  McaBus& bus() { return bus_; }
  // Clocks every chip up to the host's time.
  void sync();
  // The chips among `chips` (bit i: chip i) whose controller is idle, from the status ports of their
  // cards: one host read per card (counted as a poll).
  std::uint64_t idle_chips(std::uint64_t chips);
  // Writes the words to every chip through the broadcast window of each card that holds chips (one
  // host write per word and card); throws McaError if a chip flags a write.
  void broadcast(const std::vector<chip::WriteBlock>& writes);
  // A ChipBackend for chip i whose every access is a host transfer on this node's bus (for a
  // ChipClient); its tick(n) is the host waiting n chip clocks. With bursts, search jobs go through
  // the card's job window and result reads are one streaming-data transfer (McaChipBackend). The
  // node must outlive it.
  std::unique_ptr<chip::ChipBackend> backend(int i, bool bursts = false);

  // The host's reads of a chip's STATUS register (polls while the chips work), with their host
  // time (overhead and bus), counted by the backends of backend().
  struct Polls {
    std::uint64_t count = 0;
    sc_core::sc_time time;
  };
  const Polls& polls() const { return polls_; }
  void count_poll(const sc_core::sc_time& t) {
    ++polls_.count;
    polls_.time += t;
  }

 private:
  McaNodeOptions options_;
  McaBus bus_;
  McaHost host_;
  std::vector<std::unique_ptr<McaCard>> cards_;
  std::vector<std::unique_ptr<ChipSocket>> sockets_;
  bool started_ = false;
  Polls polls_;
};

}  // namespace db::sim
