// Connection: synchronous calls over asynchronous Asio operations, each run on a private io_context
// up to a deadline (the "blocking client with timeouts" idiom of Asio's examples): on the deadline
// the socket is closed, which completes the pending operation, and the call throws TIMEOUT.
#include "link/connection.h"

#include <fmt/format.h>

#include <array>
#include <boost/asio.hpp>

namespace db::link {

namespace asio = boost::asio;
using asio::ip::tcp;
using Clock = std::chrono::steady_clock;

struct Connection::Io {
  asio::io_context ctx;
  tcp::socket socket{ctx};
  std::array<std::uint8_t, 8192> buffer{};

  // Runs the pending operation to its end; false when the deadline came first (socket closed).
  bool run_until(Clock::time_point deadline) {
    ctx.restart();
    ctx.run_until(deadline);
    if (ctx.stopped()) return true;
    boost::system::error_code ignored;
    socket.close(ignored);
    ctx.restart();
    ctx.run();  // the cancelled operation's handler
    return false;
  }
};

Connection::Connection(const std::string& host, std::uint16_t port, std::chrono::milliseconds timeout,
                       const std::string& client_name)
    : io_(std::make_unique<Io>()), timeout_(timeout), peer_(fmt::format("{}:{}", host, port)) {
  const Clock::time_point deadline = Clock::now() + timeout_;
  boost::system::error_code ec;
  tcp::resolver resolver(io_->ctx);
  const auto endpoints = resolver.resolve(host, std::to_string(port), ec);
  if (ec) throw LinkError(ErrorCode::CLOSED, fmt::format("chip link: cannot resolve {}: {}", host, ec.message()));
  bool done = false;
  asio::async_connect(io_->socket, endpoints, [&](const boost::system::error_code& e, const tcp::endpoint&) {
    ec = e;
    done = true;
  });
  if (!io_->run_until(deadline) || !done) {
    throw LinkError(ErrorCode::TIMEOUT,
                    fmt::format("chip link: no connection to {}:{} within {} ms", host, port, timeout_.count()));
  }
  if (ec) {
    throw LinkError(ErrorCode::CLOSED, fmt::format("chip link: cannot connect to {}:{}: {}", host, port, ec.message()));
  }
  io_->socket.set_option(tcp::no_delay(true), ec);  // small request frames: do not wait to coalesce them

  Hello h;
  h.name = client_name;
  const Frame reply = request(type::HELLO, h.encode(), type::HELLO_REPLY);
  hello_ = HelloReply::decode(reply.payload);
  if (hello_.version != kProtocolVersion) {
    throw LinkError(ErrorCode::VERSION,
                    fmt::format("chip link: server chose protocol version {}, this client speaks {}", hello_.version,
                                kProtocolVersion));
  }
}

Connection::~Connection() { close(); }

void Connection::close() {
  boost::system::error_code ignored;
  io_->socket.shutdown(tcp::socket::shutdown_both, ignored);
  io_->socket.close(ignored);
}

bool Connection::is_open() const { return io_->socket.is_open(); }

void Connection::write_bytes(const std::vector<std::uint8_t>& bytes) {
  if (!io_->socket.is_open()) throw LinkError(ErrorCode::CLOSED, "chip link: connection closed");
  boost::system::error_code ec;
  bool done = false;
  asio::async_write(io_->socket, asio::buffer(bytes), [&](const boost::system::error_code& e, std::size_t) {
    ec = e;
    done = true;
  });
  if (!io_->run_until(Clock::now() + timeout_) || !done) {
    throw LinkError(ErrorCode::TIMEOUT, fmt::format("chip link: write not done within {} ms", timeout_.count()));
  }
  if (ec) throw LinkError(ErrorCode::CLOSED, "chip link: write failed: " + ec.message());
  stats_.bytes_sent += bytes.size();
}

std::uint16_t Connection::send(std::uint8_t type, const std::vector<std::uint8_t>& payload) {
  Frame f;
  f.type = type;
  f.seq = next_seq_;
  f.payload = payload;
  next_seq_ = std::uint16_t(next_seq_ + 1);
  if (next_seq_ == kNoSeq) next_seq_ = 0;  // 0xFFFF marks an ERROR to an unreadable frame
  write_bytes(encode_frame(f));
  ++stats_.frames_sent;
  return f.seq;
}

void Connection::send_raw(const std::vector<std::uint8_t>& bytes) { write_bytes(bytes); }

void Connection::read_some(Clock::time_point deadline) {
  if (!io_->socket.is_open()) throw LinkError(ErrorCode::CLOSED, "chip link: connection closed");
  boost::system::error_code ec;
  std::size_t n = 0;
  bool done = false;
  io_->socket.async_read_some(asio::buffer(io_->buffer), [&](const boost::system::error_code& e, std::size_t got) {
    ec = e;
    n = got;
    done = true;
  });
  if (!io_->run_until(deadline) || !done) {
    throw LinkError(ErrorCode::TIMEOUT,
                    fmt::format("chip link: no reply within {} ms (connection closed)", timeout_.count()));
  }
  if (ec) {
    boost::system::error_code ignored;
    io_->socket.close(ignored);
    throw LinkError(ErrorCode::CLOSED, "chip link: server closed the connection (" + ec.message() + ")");
  }
  stats_.bytes_received += n;
  for (DecodeResult& r : decoder_.feed(io_->buffer.data(), n)) {
    if (!r.ok) {
      stream_errors_.emplace_back(r.error, "chip link: damaged reply: " + r.message);
      continue;
    }
    ++stats_.frames_received;
    if (r.frame.type == type::ERROR && r.frame.seq == kNoSeq) {
      ErrorReply e = ErrorReply::decode(r.frame.payload);
      stream_errors_.emplace_back(e.code, "chip link: server: " + error_name(e.code) + ": " + e.message, e.detail);
      continue;
    }
    replies_[r.frame.seq] = std::move(r.frame);
  }
}

Frame Connection::wait(std::uint16_t seq) {
  const Clock::time_point deadline = Clock::now() + timeout_;
  bool blocked = false;
  for (;;) {
    auto it = replies_.find(seq);
    if (it != replies_.end()) {
      Frame f = std::move(it->second);
      replies_.erase(it);
      if (f.type == type::ERROR) {
        const ErrorReply e = ErrorReply::decode(f.payload);
        throw LinkError(e.code, "chip link: server: " + error_name(e.code) + ": " + e.message, e.detail);
      }
      return f;
    }
    if (!stream_errors_.empty()) {
      LinkError e = stream_errors_.front();
      stream_errors_.erase(stream_errors_.begin());
      throw e;
    }
    if (!blocked) {
      blocked = true;
      ++stats_.round_trips;
    }
    read_some(deadline);
  }
}

Frame Connection::wait(std::uint16_t seq, std::uint8_t reply_type) {
  Frame f = wait(seq);
  if (f.type != reply_type) {
    throw LinkError(ErrorCode::PROTOCOL, fmt::format("chip link: expected a {} reply to request {}, got {}",
                                                     type_name(reply_type), seq, type_name(f.type)));
  }
  return f;
}

Frame Connection::request(std::uint8_t type, const std::vector<std::uint8_t>& payload, std::uint8_t reply_type) {
  return wait(send(type, payload), reply_type);
}

std::vector<std::uint16_t> Connection::claim(std::uint16_t count) {
  return ClaimReply::decode(request(type::CLAIM, Claim{count}.encode(), type::CLAIM_REPLY).payload).chips;
}

void Connection::release(std::uint16_t chip) { request(type::RELEASE, ChipRef{chip}.encode(), type::OK); }
void Connection::reset(std::uint16_t chip) { request(type::RESET, ChipRef{chip}.encode(), type::OK); }
void Connection::abort(std::uint16_t chip) { request(type::ABORT, ChipRef{chip}.encode(), type::OK); }

DebugReply Connection::debug(std::uint16_t chip) {
  return DebugReply::decode(request(type::DEBUG, ChipRef{chip}.encode(), type::DEBUG_REPLY).payload);
}

AccessReply Connection::access(const Access& a) {
  return AccessReply::decode(request(type::ACCESS, a.encode(), type::ACCESS_REPLY).payload);
}

RunReply Connection::run(const Run& r) {
  return RunReply::decode(request(type::RUN, r.encode(), type::RUN_REPLY).payload);
}

}  // namespace db::link
