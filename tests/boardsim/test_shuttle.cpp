// boardsim's loop (board_pty.h) on a real pseudo-terminal with a recording board: bytes both ways,
// no clocks while the board is idle and the host pauses between frames, the board clocked through
// its inter-byte timeout once after a frame cut short, slices capped by the timeout, board bytes no
// host reads dropped instead of blocking the loop. The verilated boards plug into this loop.
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <boost/asio.hpp>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>

#include "tools/board_pty.h"

namespace db::boardsim {
namespace {

using namespace std::chrono_literals;

// Echoes what it receives on its next run(), and records every run()'s clocks.
class RecordingBoard final : public link::SimulatedBoard {
 public:
  static constexpr std::uint64_t kTimeout = 240000;  // 10 ms at 24 MHz: kMinQuiet (50 ms) applies
  void receive(const std::uint8_t* data, std::size_t n) override {
    std::lock_guard<std::mutex> lock(mutex_);
    input_.insert(input_.end(), data, data + n);
  }
  std::uint64_t run(std::uint64_t clocks, std::vector<std::uint8_t>& out) override {
    std::lock_guard<std::mutex> lock(mutex_);
    runs_.push_back(clocks);
    out.insert(out.end(), input_.begin(), input_.end());
    input_.clear();
    if (flood_ > 0) {
      out.resize(out.size() + flood_, 0x55);
      flood_ = 0;
    }
    return clocks;
  }
  bool idle() const override {
    std::lock_guard<std::mutex> lock(mutex_);
    return input_.empty() && flood_ == 0;
  }
  std::uint64_t interbyte_timeout_clocks() const override { return kTimeout; }
  std::uint32_t clock_hz() const override { return 24000000; }
  std::uint32_t baud() const override { return 3000000; }
  std::string describe() const override { return "recording board"; }

  std::vector<std::uint64_t> runs() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return runs_;
  }
  // The next run() sends this many bytes more.
  void flood(std::size_t n) {
    std::lock_guard<std::mutex> lock(mutex_);
    flood_ = n;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<std::uint8_t> input_;
  std::vector<std::uint64_t> runs_;
  std::size_t flood_ = 0;
};

// The loop on its own thread; stop() posts the stop to the loop's io_context (as a signal would).
class Loop {
 public:
  Loop(RecordingBoard& board, ShuttleOptions options = {}) : pty_(3000000) {
    thread_ = std::thread([this, &board, options] { stats_ = shuttle(io_, pty_, board, stop_, options); });
  }
  ~Loop() { stop(); }
  const std::string& path() const { return pty_.path(); }
  ShuttleStats stop() {
    if (thread_.joinable()) {
      boost::asio::post(io_, [this] { stop_ = true; });
      thread_.join();
    }
    return stats_;
  }

 private:
  boost::asio::io_context io_;
  BoardPty pty_;
  bool stop_ = false;
  ShuttleStats stats_;
  std::thread thread_;
};

std::string read_some(int fd, std::size_t want) {
  std::string got;
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (got.size() < want && std::chrono::steady_clock::now() < deadline) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 50) <= 0) continue;
    char buf[256];
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n > 0) got.append(buf, std::size_t(n));
  }
  return got;
}

TEST(Shuttle, BytesBothWaysNoIdleClocksTimeoutOnceAfterACutFrame) {
  RecordingBoard board;
  Loop loop(board);
  const int fd = open(loop.path().c_str(), O_RDWR | O_NOCTTY);
  ASSERT_GE(fd, 0) << loop.path();
  const std::string whole(
      "\x03"
      "ab\x00",
      4);
  ASSERT_EQ(write(fd, whole.data(), whole.size()), ssize_t(whole.size()));
  EXPECT_EQ(read_some(fd, whole.size()), whole);
  const std::vector<std::uint64_t> after_frame = board.runs();
  ASSERT_FALSE(after_frame.empty());
  // Slices: a quarter of the board's timeout (60,000) is over the default 8,192.
  for (std::uint64_t c : after_frame) EXPECT_EQ(c, 8192u);
  // The host pauses between frames: the idle board is not clocked.
  std::this_thread::sleep_for(200ms);
  EXPECT_EQ(board.runs().size(), after_frame.size());
  // A frame cut short, then silence: one run() through the timeout, after at least 50 ms.
  const auto cut_at = std::chrono::steady_clock::now();
  ASSERT_EQ(write(fd,
                  "\x05"
                  "ab",
                  3),
            3);
  EXPECT_EQ(read_some(fd, 3),
            "\x05"
            "ab");
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (board.runs().back() != RecordingBoard::kTimeout + 1 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(5ms);
  }
  EXPECT_GE(std::chrono::steady_clock::now() - cut_at, QuietRule::kMinQuiet);
  std::this_thread::sleep_for(200ms);
  const std::vector<std::uint64_t> runs = board.runs();
  EXPECT_EQ(std::count(runs.begin(), runs.end(), RecordingBoard::kTimeout + 1), 1) << "once per silence";
  const ShuttleStats st = loop.stop();
  close(fd);
  EXPECT_EQ(st.timeouts, 1u);
  EXPECT_EQ(st.bytes_from_host, 7u);
  EXPECT_EQ(st.bytes_to_host, 7u);
  EXPECT_EQ(st.bytes_dropped, 0u);
}

// A megabyte from the board while no host reads: the pty takes what it can, the loop keeps at most
// max_unread more and drops the rest, and still stops when asked (it never blocks on the pty).
TEST(Shuttle, BoardBytesNobodyReadsAreDropped) {
  RecordingBoard board;
  board.flood(1u << 20);
  ShuttleOptions o;
  o.max_unread = 1000;
  Loop loop(board, o);
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (board.runs().empty() && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(5ms);
  const ShuttleStats st = loop.stop();
  EXPECT_GT(st.bytes_dropped, 0u);
  // What the pty took, what was dropped, and at most max_unread bytes still waiting: the megabyte.
  EXPECT_LE(st.bytes_to_host + st.bytes_dropped, 1u << 20) << "sent " << st.bytes_to_host;
  EXPECT_GE(st.bytes_to_host + st.bytes_dropped + 1000, 1u << 20) << "sent " << st.bytes_to_host;
}

}  // namespace
}  // namespace db::boardsim
