// The host's end of a simulated board's UART, clock by clock at the board's divisor: the line into
// the board's receive pin (bytes 8N1, a byte with a bad stop bit, a BREAK) and a receiver sampling
// the board's transmit pin in the middle of each bit. Used by the board harnesses (bridge_board,
// board_top_board).
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

namespace db::rtl {

// Host -> board: line levels, one per clock.
class UartLine {
 public:
  explicit UartLine(std::uint64_t divisor) : div_(divisor) {}
  void byte(std::uint8_t b, bool stop = true) {
    levels_.push_back({0, div_});
    for (int i = 0; i < 8; ++i) levels_.push_back({(b >> i) & 1, div_});
    levels_.push_back({stop ? 1 : 0, div_});
    if (!stop) levels_.push_back({1, 2 * div_});  // back to idle, so that the next start bit is an edge
  }
  void low(std::uint64_t clocks) {
    levels_.push_back({0, clocks});
    levels_.push_back({1, 2 * div_});
  }
  // The level for this clock.
  int next() {
    if (left_ == 0 && !levels_.empty()) {
      level_ = levels_.front().level;
      left_ = levels_.front().clocks;
      levels_.pop_front();
    }
    if (left_ == 0) return 1;
    --left_;
    return level_;
  }
  bool idle() const { return levels_.empty() && left_ == 0; }

 private:
  struct Level {
    int level;
    std::uint64_t clocks;
  };
  std::uint64_t div_;
  std::deque<Level> levels_;
  std::uint64_t left_ = 0;
  int level_ = 1;
};

// Board -> host: a receiver sampling the transmit pin once a clock.
class UartSampler {
 public:
  explicit UartSampler(std::uint64_t divisor) : div_(divisor) {}
  void sample(int tx, std::vector<std::uint8_t>& out) {
    if (!busy_) {
      if (tx == 0) {
        busy_ = true;
        count_ = div_ / 2;
        bit_ = -1;
        shift_ = 0;
      }
      return;
    }
    if (--count_ != 0) return;
    count_ = div_;
    if (bit_ < 0) {
      if (tx != 0)
        busy_ = false;  // a glitch
      else
        bit_ = 0;
    } else if (bit_ < 8) {
      shift_ = std::uint8_t(shift_ | tx << bit_);
      ++bit_;
    } else {
      out.push_back(shift_);  // the stop bit (a board never sends a bad one)
      busy_ = false;
    }
  }
  bool idle() const { return !busy_; }

 private:
  std::uint64_t div_;
  bool busy_ = false;
  std::uint64_t count_ = 0;
  int bit_ = 0;
  std::uint8_t shift_ = 0;
};

}  // namespace db::rtl
