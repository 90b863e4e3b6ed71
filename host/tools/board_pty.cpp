// The pseudo-terminal and the shuttle loop of `deepblue boardsim`. See board_pty.h.
#include "board_pty.h"

#include <fcntl.h>
#include <pty.h>
#include <termios.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <boost/asio.hpp>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace db::boardsim {

namespace asio = boost::asio;

namespace {

std::optional<speed_t> termios_speed(std::uint32_t baud) {
  switch (baud) {
    case 9600:
      return B9600;
    case 19200:
      return B19200;
    case 38400:
      return B38400;
    case 57600:
      return B57600;
    case 115200:
      return B115200;
    case 230400:
      return B230400;
    case 460800:
      return B460800;
    case 500000:
      return B500000;
    case 921600:
      return B921600;
    case 1000000:
      return B1000000;
    case 1500000:
      return B1500000;
    case 2000000:
      return B2000000;
    case 3000000:
      return B3000000;
    case 4000000:
      return B4000000;
    default:
      return std::nullopt;
  }
}

[[noreturn]] void fail(const std::string& what) {
  throw std::runtime_error(fmt::format("boardsim: {}: {}", what, std::strerror(errno)));
}

}  // namespace

BoardPty::BoardPty(std::uint32_t baud) {
  if (::openpty(&master_, &slave_, nullptr, nullptr, nullptr) != 0) fail("cannot open a pseudo-terminal (openpty)");
  std::array<char, 256> name{};
  if (::ttyname_r(slave_, name.data(), name.size()) != 0) fail("cannot name the pseudo-terminal");
  path_ = name.data();
  termios t{};
  if (::tcgetattr(slave_, &t) != 0) fail("tcgetattr on " + path_);
  ::cfmakeraw(&t);
  t.c_cflag |= CLOCAL | CREAD;
  t.c_cflag &= ~tcflag_t(CRTSCTS);
  if (const auto speed = termios_speed(baud)) ::cfsetspeed(&t, *speed);
  if (::tcsetattr(slave_, TCSANOW, &t) != 0) fail("tcsetattr on " + path_);
  for (int fd : {master_, slave_}) ::fcntl(fd, F_SETFD, FD_CLOEXEC);
  if (::fcntl(master_, F_SETFL, ::fcntl(master_, F_GETFL) | O_NONBLOCK) != 0) fail("non-blocking pty master");
}

BoardPty::~BoardPty() {
  if (slave_ >= 0) ::close(slave_);
  if (master_ >= 0) ::close(master_);
}

QuietRule::QuietRule(std::uint64_t timeout_clocks, std::uint32_t clock_hz)
    : timeout_clocks_(timeout_clocks), quiet_(kMinQuiet) {
  if (timeout_clocks > 0 && clock_hz > 0) {
    const auto board_time = std::chrono::duration_cast<Clock::duration>(
        std::chrono::duration<double>(double(timeout_clocks) / double(clock_hz)));
    quiet_ = std::max<Clock::duration>(quiet_, board_time);
  }
}

void QuietRule::bytes(const std::uint8_t* data, std::size_t n, Clock::time_point now) {
  if (n == 0) return;
  mid_frame_ = data[n - 1] != 0x00;
  last_byte_ = now;
}

std::optional<QuietRule::Clock::duration> QuietRule::wait_limit(Clock::time_point now) const {
  if (timeout_clocks_ == 0 || !mid_frame_) return std::nullopt;
  const Clock::duration elapsed = now - last_byte_;
  return elapsed >= quiet_ ? Clock::duration::zero() : quiet_ - elapsed;
}

ShuttleStats shuttle(asio::io_context& io, BoardPty& pty, link::SimulatedBoard& board, const bool& stop,
                     const ShuttleOptions& options) {
  ShuttleStats st;
  const int master = pty.master();
  // Asio waits on a duplicate (the descriptor object closes what it holds); reads and writes go to
  // the non-blocking master directly.
  const int waited = ::dup(master);
  if (waited < 0) fail("dup of the pty master");
  asio::posix::stream_descriptor fd(io, waited);
  asio::steady_timer timer(io);
  const std::uint64_t timeout = board.interbyte_timeout_clocks();
  QuietRule quiet(timeout, board.clock_hz());
  const std::uint64_t slice =
      timeout > 0 ? std::max<std::uint64_t>(1, std::min(options.slice_clocks, timeout / 4)) : options.slice_clocks;

  std::vector<std::uint8_t> out;     // what the board sent in one run()
  std::vector<std::uint8_t> unread;  // board bytes not yet taken by the pty
  std::array<std::uint8_t, 4096> buf{};

  const auto read_host = [&] {
    for (;;) {
      const ssize_t n = ::read(master, buf.data(), buf.size());
      if (n > 0) {
        board.receive(buf.data(), std::size_t(n));
        quiet.bytes(buf.data(), std::size_t(n), QuietRule::Clock::now());
        st.bytes_from_host += std::uint64_t(n);
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      // EAGAIN: nothing more now. EIO would mean no slave is open (we hold one): nothing to read.
      if (n == 0 || errno == EAGAIN || errno == EWOULDBLOCK || errno == EIO) return;
      fail("reading the pty");
    }
  };
  const auto write_host = [&] {
    unread.insert(unread.end(), out.begin(), out.end());
    out.clear();
    std::size_t done = 0;
    while (done < unread.size()) {
      const ssize_t n = ::write(master, unread.data() + done, unread.size() - done);
      if (n > 0) {
        done += std::size_t(n);
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
      fail("writing the pty");
    }
    st.bytes_to_host += done;
    unread.erase(unread.begin(), unread.begin() + std::ptrdiff_t(done));
    if (unread.size() > options.max_unread) {
      const std::size_t drop = unread.size() - options.max_unread;
      st.bytes_dropped += drop;
      unread.erase(unread.begin(), unread.begin() + std::ptrdiff_t(drop));
    }
  };

  // Set by the handlers below; they outlive one wait (cancelled handlers run at the next poll).
  bool readable = false, writable = false, timed_out = false;
  while (!stop) {
    io.restart();
    io.poll();  // signals
    if (stop) break;
    read_host();
    if (!board.idle()) {
      st.clocks += board.run(slice, out);
      write_host();
      continue;
    }
    write_host();
    const auto limit = quiet.wait_limit(QuietRule::Clock::now());
    if (limit && *limit <= QuietRule::Clock::duration::zero()) {
      // The host stopped in the middle of a frame: clock the board through its inter-byte timeout.
      st.clocks += board.run(timeout + 1, out);
      quiet.fired();
      ++st.timeouts;
      write_host();
      continue;
    }
    readable = writable = timed_out = false;
    fd.async_wait(asio::posix::stream_descriptor::wait_read, [&](const boost::system::error_code& ec) {
      if (!ec) readable = true;
    });
    if (!unread.empty()) {
      fd.async_wait(asio::posix::stream_descriptor::wait_write, [&](const boost::system::error_code& ec) {
        if (!ec) writable = true;
      });
    }
    if (limit) {
      timer.expires_after(*limit);
      timer.async_wait([&](const boost::system::error_code& ec) {
        if (!ec) timed_out = true;
      });
    }
    while (!stop && !readable && !writable && !timed_out) {
      if (io.run_one() == 0) io.restart();
    }
    boost::system::error_code ignored;
    fd.cancel(ignored);
    timer.cancel();
    io.restart();
    io.poll();  // the cancelled waits' handlers
  }
  return st;
}

}  // namespace db::boardsim
