// The software search's chips on a Micro Channel node (search::ChipTimeline): simulated time is the
// node host's clock, the chips run on while the host is on the bus, and the bus figures of the
// search (from the end of the evaluation weights' download) are kept for the report.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <systemc>

#include "mca_node.h"
#include "search/chip_timeline.h"

namespace db::sim {

class McaTimeline final : public search::ChipTimeline {
 public:
  // What the host uses of its cards (docs/sim.md): their status ports, to learn which chips are
  // done with one read per card instead of polling every running chip's STATUS register; their
  // broadcast windows, to download the evaluation weights once per card instead of once per chip.
  struct Cards {
    bool status = false;
    bool broadcast = false;
  };
  explicit McaTimeline(std::shared_ptr<McaNode> node);
  McaTimeline(std::shared_ptr<McaNode> node, Cards cards);

  std::uint64_t now_clocks() const override { return chip_clocks_at(node_->host().now()); }
  void download_started() override { download_start_ = node_->host().now(); }
  void search_started() override;
  // The host's software time: the host is off the bus, the chips search on.
  void host_computes(std::uint64_t clocks) override;
  bool idle_chips(std::uint64_t running, std::uint64_t& idle) override {
    if (!cards_.status) return false;
    idle = node_->idle_chips(running);
    return true;
  }
  bool can_broadcast() const override { return cards_.broadcast; }
  void broadcast(std::uint32_t addr, const std::uint32_t* words, std::size_t n) override {
    node_->broadcast({chip::WriteBlock{addr, std::vector<std::uint32_t>(words, words + n)}});
  }
  const Cards& cards() const { return cards_; }

  McaNode& node() const { return *node_; }

  // Since search_started() (or since the node started, if no search has).
  struct Figures {
    std::uint64_t accesses = 0;        // host transfers (programmed I/O; a burst is one)
    std::uint64_t words = 0;           // 32-bit words they moved
    double bus_busy_seconds = 0;       // arbitration and transfer cycles on the bus
    double host_overhead_seconds = 0;  // the host's I/O overhead
    double host_io_seconds = 0;        // overhead plus the host's own time on the bus
    std::uint64_t status_polls = 0;    // of those accesses, reads of a chip's STATUS register
    double host_poll_seconds = 0;      // their host time (overhead and bus)
    double simulated_seconds = 0;      // host time
    double download_seconds = 0;       // the last search's evaluation weights download (before the above)
    double host_software_seconds = 0;  // the host's software search (the cost model), off the bus
  };
  Figures figures() const;

 private:
  struct Mark {
    std::uint64_t accesses = 0, words = 0;
    sc_core::sc_time busy, overhead, on_bus, now;
    std::uint64_t polls = 0;
    sc_core::sc_time poll_time;
    sc_core::sc_time software;
  };
  Mark mark() const;

  std::shared_ptr<McaNode> node_;
  Cards cards_;
  Mark start_;
  sc_core::sc_time download_start_;
  double download_seconds_ = 0;
  sc_core::sc_time software_;  // host_computes() so far
};

}  // namespace db::sim
