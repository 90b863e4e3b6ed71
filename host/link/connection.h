// The client end of the chip link over TCP or a serial port (Boost.Asio): a synchronous API for a
// single-threaded caller such as the search. Requests may be pipelined: send() returns at once with
// the request's sequence number and wait() collects that reply, keeping replies to other numbers for
// their own wait(). Every wait has a deadline; on a timeout the connection is closed (the server
// then resets and releases its chips).
//
// Over TCP nothing is lost and nothing is resent. A serial port (a UART to a board, or boardsim's
// pseudo-terminal) may lose or damage bytes, so there the Retries rules of docs/link.md apply:
// requests that change nothing (HELLO, DEBUG, RESET, ACCESS batches of reads only) are resent with a
// new sequence number when their reply is late or arrives damaged, and a late reply to an old number
// is dropped; any other request (RUN, ABORT, writes, CLAIM, RELEASE) is at most once: a lost or
// damaged reply to it drops the link.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "link/frame.h"
#include "link/messages.h"

namespace db::link {

struct ConnectionStats {
  std::uint64_t frames_sent = 0;
  std::uint64_t frames_received = 0;
  std::uint64_t bytes_sent = 0;
  std::uint64_t bytes_received = 0;
  std::uint64_t round_trips = 0;  // wait() calls that had to block on the socket
  // Serial links (lossy): requests sent again, replies to numbers no longer awaited (dropped), and
  // frames that arrived damaged (or ERRORs to a request the board could not read).
  std::uint64_t resends = 0;
  std::uint64_t late_replies = 0;
  std::uint64_t damaged_frames = 0;
};

// A serial port: a board's UART (/dev/ttyUSB0) or boardsim's pseudo-terminal. 8N1, no flow control,
// raw. `serial:PATH[@BAUD]` on the command line (chip/remote_chip.h).
constexpr std::uint32_t kDefaultBaud = 3000000;
struct SerialPort {
  std::string path;
  std::uint32_t baud = kDefaultBaud;
};

class Connection {
 public:
  // Connects, sends HELLO (protocol version 1, client name) and checks the reply. Throws LinkError:
  // CLOSED when the server cannot be reached, TIMEOUT, VERSION, SERVER_FULL, or what the server said.
  Connection(const std::string& host, std::uint16_t port,
             std::chrono::milliseconds timeout = std::chrono::milliseconds(10000),
             const std::string& client_name = "deepblue");
  // Opens the serial port (throws LinkError CLOSED naming the path or the baud when it cannot),
  // discards bytes that waited in it, sends one 0x00 (puts the board's receiver in step), then HELLO
  // as above. Over a UART HELLO also begins a new session: the board resets and releases every chip
  // (there is no connection whose end would tell it; docs/link.md "Serial links").
  Connection(const SerialPort& port, std::chrono::milliseconds timeout = std::chrono::milliseconds(10000),
             const std::string& client_name = "deepblue");
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  const HelloReply& hello() const { return hello_; }

  // Claims up to count chips (kAllChips = every free one); throws LinkError NO_CHIPS when none is free.
  std::vector<std::uint16_t> claim(std::uint16_t count);
  void release(std::uint16_t chip);
  void reset(std::uint16_t chip);
  // Ends a RUN on the chip (its own reply then comes with outcome ABORTED); waits for the OK only.
  void abort(std::uint16_t chip);
  DebugReply debug(std::uint16_t chip);
  AccessReply access(const Access& request);
  RunReply run(const Run& request);

  // Sends one request and returns its sequence number without waiting for the reply.
  std::uint16_t send(std::uint8_t type, const std::vector<std::uint8_t>& payload);
  // Sends raw bytes (tests: malformed frames). Counts as bytes sent, not as a frame.
  void send_raw(const std::vector<std::uint8_t>& bytes);
  // The reply to request seq. Throws LinkError: TIMEOUT after the connection's timeout (the
  // connection is then closed), the code of an ERROR reply (also of an ERROR with sequence number
  // 0xFFFF, which answers a frame the server could not read), BAD_CRC/BAD_FRAME/TOO_LONG for a reply
  // that arrived damaged, CLOSED when the server closed the connection. wait(kNoSeq) throws the next
  // ERROR to an unreadable frame (or TIMEOUT when none comes).
  Frame wait(std::uint16_t seq);
  // As wait(), and checks that the reply has the expected type.
  Frame wait(std::uint16_t seq, std::uint8_t reply_type);

  const ConnectionStats& stats() const { return stats_; }
  std::chrono::milliseconds timeout() const { return timeout_; }
  void set_timeout(std::chrono::milliseconds t) { timeout_ = t; }
  // Serial links: the retry rules apply (see above).
  bool lossy() const { return lossy_; }
  // How long a request that may be resent waits for its reply before it is sent again (doubling at
  // each resend, all within the timeout). Default: a tenth of the timeout, so that a slow simulated
  // board given a long --link-timeout is not flooded with resends.
  std::chrono::milliseconds resend_after() const { return resend_after_; }
  void set_resend_after(std::chrono::milliseconds t) { resend_after_ = t; }
  bool is_open() const;
  // Closes the connection (the server then resets and releases this connection's chips); later
  // requests throw CLOSED. A client closes a link it no longer trusts (a timeout, a damaged reply).
  void close();
  // "HOST:PORT" or "PATH@BAUD" as given to the constructor, for messages.
  const std::string& peer() const { return peer_; }

 private:
  struct Io;  // the Asio objects (connection.cpp), so that users of this header need no Boost headers
  using Clock = std::chrono::steady_clock;
  // A request sent on a lossy link whose reply has not come: what is needed to send it again.
  struct Outstanding {
    std::uint8_t type = 0;
    bool retryable = false;
    std::vector<std::uint8_t> payload;  // kept only when retryable
    Clock::time_point sent;
    std::chrono::milliseconds interval{0};  // to the next resend
    int resends = 0;                        // times this request was sent again
  };
  void hello(const std::string& client_name);
  void write_bytes(const std::vector<std::uint8_t>& bytes);
  std::uint16_t send_frame(std::uint8_t type, const std::vector<std::uint8_t>& payload,
                           std::chrono::milliseconds interval);
  // Reads what the stream has (blocking until at least one byte or the deadline) and decodes it;
  // false when the deadline came first (the stream stays open).
  bool read_some(Clock::time_point deadline);
  // A damaged frame or an ERROR to an unreadable request, on a lossy link.
  void on_damage(LinkError error, bool& resend_all);
  // Sends an outstanding request again under a new number; returns it.
  std::uint16_t resend(std::uint16_t seq);
  // The newest number of a request that may have been resent.
  std::uint16_t latest(std::uint16_t seq) const;
  Frame request(std::uint8_t type, const std::vector<std::uint8_t>& payload, std::uint8_t reply_type);

  std::unique_ptr<Io> io_;
  std::chrono::milliseconds timeout_;
  std::string peer_;
  FrameDecoder decoder_;
  std::map<std::uint16_t, Frame> replies_;  // arrived, not yet waited for
  std::vector<LinkError> stream_errors_;    // damaged replies and ERRORs without a sequence number
  std::uint16_t next_seq_ = 0;
  bool lossy_ = false;
  std::chrono::milliseconds resend_after_;
  std::map<std::uint16_t, Outstanding> outstanding_;  // lossy links only
  std::map<std::uint16_t, std::uint16_t> resent_as_;  // a resent request's old number -> its new one
  HelloReply hello_;
  ConnectionStats stats_;
};

}  // namespace db::link
