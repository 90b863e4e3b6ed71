// The client end of the chip link over TCP (Boost.Asio): a synchronous API for a single-threaded
// caller such as the search. Requests may be pipelined: send() returns at once with the request's
// sequence number and wait() collects that reply, keeping replies to other numbers for their own
// wait(). Every wait has a deadline; on a timeout the connection is closed (the server then resets
// and releases its chips: requests that change a chip are never resent, docs/link.md "Retries").
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
};

class Connection {
 public:
  // Connects, sends HELLO (protocol version 1, client name) and checks the reply. Throws LinkError:
  // CLOSED when the server cannot be reached, TIMEOUT, VERSION, SERVER_FULL, or what the server said.
  Connection(const std::string& host, std::uint16_t port,
             std::chrono::milliseconds timeout = std::chrono::milliseconds(10000),
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
  bool is_open() const;
  // Closes the connection (the server then resets and releases this connection's chips); later
  // requests throw CLOSED. A client closes a link it no longer trusts (a timeout, a damaged reply).
  void close();
  // "HOST:PORT" as given to the constructor, for messages.
  const std::string& peer() const { return peer_; }

 private:
  struct Io;  // the Asio objects (connection.cpp), so that users of this header need no Boost headers
  void write_bytes(const std::vector<std::uint8_t>& bytes);
  // Reads what the socket has (blocking until at least one byte or the deadline) and decodes it.
  void read_some(std::chrono::steady_clock::time_point deadline);
  Frame request(std::uint8_t type, const std::vector<std::uint8_t>& payload, std::uint8_t reply_type);

  std::unique_ptr<Io> io_;
  std::chrono::milliseconds timeout_;
  std::string peer_;
  FrameDecoder decoder_;
  std::map<std::uint16_t, Frame> replies_;  // arrived, not yet waited for
  std::vector<LinkError> stream_errors_;    // damaged replies and ERRORs without a sequence number
  std::uint16_t next_seq_ = 0;
  HelloReply hello_;
  ConnectionStats stats_;
};

}  // namespace db::link
