// A simulated board behind a pseudo-terminal (`deepblue boardsim`): the host opens the pty's slave
// like a board's /dev/ttyUSB0 (serial:PATH), and boardsim shuttles bytes between the pty's master
// and the board, clocking the board only while it has work (OpenTitan's uartdpi does the same for a
// simulated UART).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "link/simulated_board.h"

namespace boost::asio {
class io_context;
}

namespace db::boardsim {

// openpty in raw mode (cfmakeraw on the slave: no echo, no line editing, 8 bits, no flow control).
// The slave stays open here too, so that reading the master gives "no data" rather than EIO while no
// host has the slave open.
class BoardPty {
 public:
  // Throws std::runtime_error naming what failed. baud: the slave's nominal speed (a pty ignores it;
  // set when it is a standard one, so that `stty -F PATH` shows it).
  explicit BoardPty(std::uint32_t baud);
  ~BoardPty();
  BoardPty(const BoardPty&) = delete;
  BoardPty& operator=(const BoardPty&) = delete;
  const std::string& path() const { return path_; }
  int master() const { return master_; }

 private:
  int master_ = -1;
  int slave_ = -1;
  std::string path_;
};

// Simulated clocks advance only while the board is clocked, so the board's inter-byte timeout, which
// counts clocks without a byte, never fires while boardsim waits for the host. This rule maps
// wall-clock silence to it: when the host stopped in the middle of a frame (its last byte was not the
// 0x00 delimiter) and the pty then stays quiet for the timeout in wall time (timeout clocks / clock
// rate, at least kMinQuiet), the board is clocked through its timeout once: run(timeout + 1) on a
// board that reports idle(), which must then clock that many clocks all the same (only then can its
// inter-byte timer expire). No other idle clocks are run: a host that pauses between frames does not
// move the chips' clocks.
class QuietRule {
 public:
  using Clock = std::chrono::steady_clock;
  // A floor on the wall-clock silence: a host that is merely descheduled (shared cores) must not cut
  // its own frames.
  static constexpr std::chrono::milliseconds kMinQuiet{50};
  QuietRule(std::uint64_t timeout_clocks, std::uint32_t clock_hz);
  // Bytes from the host at `now`.
  void bytes(const std::uint8_t* data, std::size_t n, Clock::time_point now);
  // How long boardsim may wait for the host before it must clock the board through its timeout
  // (zero: now); none when no frame is cut short or the board has no timeout.
  std::optional<Clock::duration> wait_limit(Clock::time_point now) const;
  // The board was clocked through its timeout.
  void fired() { mid_frame_ = false; }
  Clock::duration quiet() const { return quiet_; }

 private:
  std::uint64_t timeout_clocks_;
  Clock::duration quiet_;
  bool mid_frame_ = false;
  Clock::time_point last_byte_{};
};

struct ShuttleOptions {
  // Clocks per run() call while the board works (fewer when its timeout is short, so that the host's
  // next bytes are read before the board's timer could expire between them).
  std::uint64_t slice_clocks = 8192;
  // Board bytes the host has not read (none has the slave open) beyond this are dropped, oldest first,
  // as a UART nobody listens to loses them.
  std::size_t max_unread = 1u << 20;
};

struct ShuttleStats {
  std::uint64_t bytes_from_host = 0;
  std::uint64_t bytes_to_host = 0;
  std::uint64_t bytes_dropped = 0;  // unread by any host (max_unread)
  std::uint64_t clocks = 0;         // board clocks run
  std::uint64_t timeouts = 0;       // times the board was clocked through its inter-byte timeout
};

// Shuttles bytes between the pty and the board until `stop` becomes true (set by a handler on `io`,
// e.g. a signal_set's; io's other work runs between slices and while waiting). Throws
// std::runtime_error when the pty fails.
ShuttleStats shuttle(boost::asio::io_context& io, BoardPty& pty, link::SimulatedBoard& board, const bool& stop,
                     const ShuttleOptions& options = {});

}  // namespace db::boardsim
