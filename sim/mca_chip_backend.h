// A chip seen from the host through the Micro Channel: a ChipBackend whose access() is one host
// transfer (host overhead, arbitration, bus cycle; the chip socket clocks the chip up to the
// transfer's time first) and whose tick(n) is the host waiting n chip clocks. ChipClient runs on it
// unchanged. With bursts (the cards' streaming data, --card-bursts) a search job is written through
// the card's job window in one or two transfers and its result read in one.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "chip/bus.h"

namespace db::sim {

class McaNode;

// A run of a job's words in the job window: its first index and the words from there on.
struct JobBurst {
  std::uint32_t first = 0;
  std::vector<std::uint32_t> data;
};
// The bursts that write a job's needed words through the job window (mca_address.h), in window
// order: a burst joins the next needed word when the words between are in the job (held, or
// history words the job does not use) and writing them again costs less than a new transfer
// (`join` words at most: the host's overhead and a first cycle against streaming cycles). A word
// not in the job (SLOW_EST when the chip keeps its estimate) is never written. Throws
// std::logic_error on a register outside the window.
std::vector<JobBurst> plan_job_bursts(const std::vector<chip::JobWord>& words, std::uint32_t join);

class McaChipBackend final : public chip::ChipBackend {
 public:
  // With bursts, a job goes through the card's job window and a run of reads is one transfer.
  McaChipBackend(McaNode& node, int chip, bool bursts = false);
  chip::BusResponse access(bool write, std::uint32_t addr, std::uint32_t data) override;
  bool bursts() const override { return bursts_; }
  bool write_job(const std::vector<chip::JobWord>& words) override;
  bool read_block(std::uint32_t addr, std::uint32_t* out, int n) override;
  // How many held words a job's burst writes again rather than start a new burst (plan_job_bursts):
  // 6 at the default 0.5 us overhead.
  std::uint32_t join_words() const;
  void tick(std::uint64_t n) override;
  // The chip's debug port and clock at the host's time.
  chip::DebugPort debug() const override;
  std::uint64_t clock() const override;
  std::string name() const override;

 private:
  McaNode& node_;
  int chip_;
  bool bursts_;
};

}  // namespace db::sim
