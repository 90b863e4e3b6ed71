// The seam between the software search's chip leaves (ChipLeafSearch) and whatever keeps the chips'
// time: an interface the search owns and a simulation (sim/'s Micro Channel model) implements,
// without including the search's internals.
#pragma once

#include <cstddef>
#include <cstdint>

namespace db::search {

// The chips' timeline: how the host's time passes while it works with its chips. Without one (the
// default), the host clocks every running chip ChipLeafSearch::kQuantum clocks between status polls,
// its bus accesses cost nothing, and simulated time is those quanta. With one (the Micro Channel
// model, sim/), the chips run on in the timeline's simulated time while every host access takes bus
// time: the host polls the running chips back to back, and simulated time is the host's clock.
class ChipTimeline {
 public:
  virtual ~ChipTimeline() = default;
  // The host's simulated time, in chip clocks.
  virtual std::uint64_t now_clocks() const = 0;
  // A new search downloads the evaluation weights to the chips (from here) ...
  virtual void download_started() {}
  // ... and they are on the chips: the search's own time starts here.
  virtual void search_started() {}
  // Between two rounds of status polls while chips search (the host may wait here).
  virtual void between_polls() {}
  // Whether the same words can go to every chip at once (one broadcast per card); if so,
  // broadcast() writes n words from register addr on (false, the default: each chip downloads its
  // own).
  virtual bool can_broadcast() const { return false; }
  virtual void broadcast(std::uint32_t /*addr*/, const std::uint32_t* /*words*/, std::size_t /*n*/) {}
  // A card-level status register: sets idle to those of the running chips (bit i: the leaf search's
  // chip i) that may have finished, read from their cards, and returns true; false (the default)
  // when the host polls each running chip's STATUS register instead. The masks have a bit per chip:
  // a timeline drives at most kMaxChips chips (a Micro Channel node: 8 cards of 8).
  static constexpr std::size_t kMaxChips = 64;
  virtual bool idle_chips(std::uint64_t /*running*/, std::uint64_t& /*idle*/) { return false; }
  // The host computes (its software search) for this many chip clocks without the bus; the chips
  // run on meanwhile.
  virtual void host_computes(std::uint64_t clocks) = 0;
};

}  // namespace db::search
