// The chip server's sockets (deepblue chipd): a TCP acceptor and one session per client on a single
// Boost.Asio io_context thread, around a ChipService. Jobs run in slices posted to the same context,
// so reads, writes and other clients' requests are served between slices.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "chipd_service.h"

namespace boost::asio {
class io_context;
}

namespace db::chipd {

// Fault injection, for testing clients against a server that fails (docs/link.md, "Faults"): at the
// n-th RUN request it receives (counted over all clients) the server dies (exits at once, as if
// killed), hangs (stays up, reads and answers nothing more) or damages the RUN's reply (one byte
// flipped, so that its CRC fails) and carries on.
struct Fault {
  enum class Kind { NONE, DIE, HANG, GARBAGE };
  Kind kind = Kind::NONE;
  std::uint64_t at_run = 0;
};
// "die:N", "hang:N", "garbage:N" (N >= 1); throws std::invalid_argument naming the bad part.
Fault parse_fault(const std::string& text);

struct ServerOptions {
  std::string host = "127.0.0.1";
  std::uint16_t port = 0;  // 0: any free port (see ChipServer::port())
  int max_clients = 8;
  std::chrono::milliseconds idle_timeout{300000};  // no bytes and no job for this long: closed
  // A client that does not read its replies: closed when this many bytes wait to be sent to it.
  std::size_t max_pending_bytes = 1u << 20;
  Fault fault;
};

class ChipServer {
 public:
  // Binds and listens (throws std::runtime_error naming the address when it cannot).
  ChipServer(boost::asio::io_context& io, ChipService& service, const ServerOptions& options);
  ~ChipServer();
  ChipServer(const ChipServer&) = delete;
  ChipServer& operator=(const ChipServer&) = delete;
  // The bound port.
  std::uint16_t port() const;
  std::string address() const;
  // Stops accepting and closes every session (their chips are released).
  void stop();

  struct Impl;  // the acceptor and the sessions (chipd_server.cpp)

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace db::chipd
