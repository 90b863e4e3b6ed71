// A chip backend that passes everything to another and writes what crossed the bus to a file: every
// access with the chip's answer, and every run of idle clocks. The file is the stimulus and the
// expected responses of the gate-level check (`scripts/fpga gatesim`, docs/fpga.md), which replays it
// on the netlist Yosys made for a board and compares every answer.
//
// Format, one event a line (numbers in hex except the clock counts):
//   W <addr> <data> <err>      a write and the error bit the chip answered
//   R <addr> <data> <err>      a read and the data and error bit the chip answered
//   T <clocks>                 idle clocks (decimal); consecutive ticks are merged
// The first line is a comment, "# deepblue bus record v1 <backend>"; the chip starts from reset.
#pragma once

#include <cstdint>
#include <fstream>
#include <memory>
#include <string>

#include "chip/bus.h"

namespace db::chip {

class BusRecorder : public ChipBackend {
 public:
  // Throws std::runtime_error naming the path when the file cannot be written.
  BusRecorder(std::unique_ptr<ChipBackend> inner, const std::string& path);
  ~BusRecorder() override;

  BusResponse access(bool write, std::uint32_t addr, std::uint32_t data) override;
  void tick(std::uint64_t n) override;
  DebugPort debug() const override { return inner_->debug(); }
  std::uint64_t clock() const override { return inner_->clock(); }
  std::string name() const override { return inner_->name(); }

  std::uint64_t events() const { return events_; }

 private:
  void flush_ticks();

  std::unique_ptr<ChipBackend> inner_;
  std::string path_;
  std::ofstream out_;
  std::uint64_t pending_ticks_ = 0;
  std::uint64_t events_ = 0;
};

// Replays a bus record on a chip fresh from reset and compares every answer: what the gate-level
// testbench does, in C++ (tests; a record checked on the model and the verilated RTL). Throws
// std::runtime_error naming the line for a malformed record.
struct ReplayResult {
  std::uint64_t events = 0;      // accesses and tick runs replayed
  std::uint64_t mismatches = 0;  // answers that differ from the record
  std::string first_mismatch;    // "line N: read 00040: recorded ..., got ..." (empty: none)
};
ReplayResult replay_bus_record(const std::string& path, ChipBackend& chip);

}  // namespace db::chip
