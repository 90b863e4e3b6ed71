#include "chip/bus_recorder.h"

#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

namespace db::chip {

BusRecorder::BusRecorder(std::unique_ptr<ChipBackend> inner, const std::string& path)
    : inner_(std::move(inner)), path_(path), out_(path) {
  if (!out_) throw std::runtime_error(fmt::format("--bus-record: cannot write '{}'", path));
  out_ << "# deepblue bus record v1 " << inner_->name() << '\n';
}

BusRecorder::~BusRecorder() {
  flush_ticks();
  out_.flush();
}

BusResponse BusRecorder::access(bool write, std::uint32_t addr, std::uint32_t data) {
  flush_ticks();
  const BusResponse r = inner_->access(write, addr, data);
  // A write's data is what was written; a read's is what the chip answered.
  out_ << fmt::format("{} {:05x} {:08x} {}\n", write ? 'W' : 'R', addr, write ? data : r.data, r.error ? 1 : 0);
  if (!out_) throw std::runtime_error(fmt::format("--bus-record: writing '{}' failed", path_));
  ++events_;
  return r;
}

void BusRecorder::tick(std::uint64_t n) {
  inner_->tick(n);
  pending_ticks_ += n;
}

void BusRecorder::flush_ticks() {
  if (pending_ticks_ == 0) return;
  out_ << "T " << pending_ticks_ << '\n';
  pending_ticks_ = 0;
  ++events_;
}

ReplayResult replay_bus_record(const std::string& path, ChipBackend& chip) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(fmt::format("bus record '{}' cannot be read", path));
  ReplayResult result;
  std::string line;
  for (int line_no = 1; std::getline(in, line); ++line_no) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    char kind = 0;
    fields >> kind;
    if (kind == 'T') {
      std::uint64_t n = 0;
      if (!(fields >> n) || !(fields >> std::ws).eof()) {
        throw std::runtime_error(fmt::format("bus record '{}' line {}: malformed tick '{}'", path, line_no, line));
      }
      chip.tick(n);
    } else if (kind == 'W' || kind == 'R') {
      std::uint32_t addr = 0, data = 0;
      int err = 0;
      if (!(fields >> std::hex >> addr >> data >> std::dec >> err) || !(fields >> std::ws).eof() || addr > 0x1FFFF ||
          (err != 0 && err != 1)) {
        throw std::runtime_error(fmt::format("bus record '{}' line {}: malformed access '{}'", path, line_no, line));
      }
      const bool write = kind == 'W';
      const BusResponse r = chip.access(write, addr, write ? data : 0);
      if (r.error != (err == 1) || (!write && r.data != data)) {
        if (result.mismatches++ == 0) {
          result.first_mismatch =
              fmt::format("line {}: {} {:05x}: recorded data {:08x} err {}, got data {:08x} err {}", line_no,
                          write ? "write" : "read", addr, data, err, r.data, r.error ? 1 : 0);
        }
      }
    } else {
      throw std::runtime_error(fmt::format("bus record '{}' line {}: unknown event '{}'", path, line_no, line));
    }
    ++result.events;
  }
  return result;
}

}  // namespace db::chip
