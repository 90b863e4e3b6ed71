// Connection: synchronous calls over asynchronous Asio operations, each run on a private io_context
// up to a deadline (the "blocking client with timeouts" idiom of Asio's examples): on the deadline
// the pending operation is cancelled and the call either resends (lossy links, requests that change
// nothing) or closes the stream and throws TIMEOUT.
#include "link/connection.h"

#include <fmt/format.h>
#include <termios.h>

#include <algorithm>
#include <array>
#include <boost/asio.hpp>
#include <optional>
#include <random>

namespace db::link {

namespace asio = boost::asio;
using asio::ip::tcp;

// A TCP socket or a serial port: both are Asio byte streams with the same operations, so the
// connection's code is written once (with_stream) for either.
struct Connection::Io {
  asio::io_context ctx;
  std::optional<tcp::socket> socket;
  std::optional<asio::serial_port> serial;
  std::array<std::uint8_t, 8192> buffer{};

  template <class F>
  auto with_stream(F&& f) {
    return serial ? f(*serial) : f(*socket);
  }
  bool is_open() const { return serial ? serial->is_open() : socket->is_open(); }
  void close() {
    boost::system::error_code ignored;
    if (serial) {
      serial->close(ignored);
    } else {
      socket->shutdown(tcp::socket::shutdown_both, ignored);
      socket->close(ignored);
    }
  }

  // Runs the pending operation to its end; false when the deadline came first (the operation is
  // then cancelled, the stream stays open).
  bool run_until(Clock::time_point deadline) {
    ctx.restart();
    ctx.run_until(deadline);
    if (ctx.stopped()) return true;
    boost::system::error_code ignored;
    with_stream([&](auto& s) { s.cancel(ignored); });
    ctx.restart();
    ctx.run();  // the cancelled operation's handler
    return false;
  }
};

namespace {

// docs/link.md "Retries": the requests that change nothing, so that doing them twice is doing them once.
bool may_resend(std::uint8_t type, const std::vector<std::uint8_t>& payload) {
  switch (type) {
    case type::HELLO:
    case type::DEBUG:
    case type::RESET:
      return true;
    case type::ACCESS:
      try {
        return Access::decode(payload).read_only();
      } catch (const LinkError&) {
        return false;  // a malformed batch (tests): the board answers ERROR, nothing to resend
      }
    default:
      return false;
  }
}

// A board that damages every reply (a wrong baud) is given up after this many resends of a request.
constexpr int kMaxResends = 8;

std::chrono::milliseconds default_resend_after(std::chrono::milliseconds timeout) {
  return std::max(std::chrono::milliseconds(10), timeout / 10);
}

}  // namespace

Connection::Connection(const std::string& host, std::uint16_t port, std::chrono::milliseconds timeout,
                       const std::string& client_name)
    : io_(std::make_unique<Io>()),
      timeout_(timeout),
      peer_(fmt::format("{}:{}", host, port)),
      resend_after_(default_resend_after(timeout)) {
  io_->socket.emplace(io_->ctx);
  const Clock::time_point deadline = Clock::now() + timeout_;
  boost::system::error_code ec;
  tcp::resolver resolver(io_->ctx);
  const auto endpoints = resolver.resolve(host, std::to_string(port), ec);
  if (ec) throw LinkError(ErrorCode::CLOSED, fmt::format("chip link: cannot resolve {}: {}", host, ec.message()));
  bool done = false;
  asio::async_connect(*io_->socket, endpoints, [&](const boost::system::error_code& e, const tcp::endpoint&) {
    ec = e;
    done = true;
  });
  if (!io_->run_until(deadline) || !done) {
    io_->close();
    throw LinkError(ErrorCode::TIMEOUT,
                    fmt::format("chip link: no connection to {}:{} within {} ms", host, port, timeout_.count()));
  }
  if (ec) {
    throw LinkError(ErrorCode::CLOSED, fmt::format("chip link: cannot connect to {}:{}: {}", host, port, ec.message()));
  }
  io_->socket->set_option(tcp::no_delay(true), ec);  // small request frames: do not wait to coalesce them
  hello(client_name);
}

Connection::Connection(const SerialPort& port, std::chrono::milliseconds timeout, const std::string& client_name)
    : io_(std::make_unique<Io>()),
      timeout_(timeout),
      peer_(fmt::format("{}@{}", port.path, port.baud)),
      lossy_(true),
      resend_after_(default_resend_after(timeout)) {
  io_->serial.emplace(io_->ctx);
  asio::serial_port& s = *io_->serial;
  boost::system::error_code ec;
  s.open(port.path, ec);  // Asio opens it O_NOCTTY, non-blocking, and puts it in raw mode
  if (ec) throw LinkError(ErrorCode::CLOSED, fmt::format("serial link: cannot open {}: {}", port.path, ec.message()));
  using base = asio::serial_port_base;
  s.set_option(base::baud_rate(port.baud), ec);
  if (ec) {
    throw LinkError(ErrorCode::CLOSED, fmt::format("serial link: cannot set {} to {} baud: {}", port.path, port.baud,
                                                   ec == asio::error::invalid_argument
                                                       ? std::string("not a baud rate this system's serial ports know")
                                                       : ec.message()));
  }
  const auto set = [&](const auto& option, const char* what) {
    s.set_option(option, ec);
    if (ec) {
      throw LinkError(ErrorCode::CLOSED,
                      fmt::format("serial link: cannot set {} on {}: {}", what, port.path, ec.message()));
    }
  };
  set(base::character_size(8), "8 data bits");
  set(base::parity(base::parity::none), "no parity");
  set(base::stop_bits(base::stop_bits::one), "one stop bit");
  set(base::flow_control(base::flow_control::none), "no flow control");
  // Bytes that waited in the port (a board's replies to an earlier client) are not ours. Replies to
  // that client may still come after the flush; numbering from a random start makes it unlikely that
  // one carries a number we await (the others are dropped as late).
  ::tcflush(s.native_handle(), TCIOFLUSH);
  next_seq_ = std::uint16_t(std::random_device{}() % kNoSeq);
  // One delimiter first: whatever the board's receiver holds becomes one bad frame (its ERROR comes
  // back with sequence number 0xFFFF while only HELLO is outstanding, which is resent: harmless).
  write_bytes({0x00});
  hello(client_name);
}

void Connection::hello(const std::string& client_name) {
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

void Connection::close() { io_->close(); }

bool Connection::is_open() const { return io_->is_open(); }

void Connection::write_bytes(const std::vector<std::uint8_t>& bytes) {
  if (!io_->is_open()) throw LinkError(ErrorCode::CLOSED, "chip link: connection closed");
  boost::system::error_code ec;
  bool done = false;
  io_->with_stream([&](auto& s) {
    asio::async_write(s, asio::buffer(bytes), [&](const boost::system::error_code& e, std::size_t) {
      ec = e;
      done = true;
    });
  });
  io_->run_until(Clock::now() + timeout_);
  if (!done || ec == asio::error::operation_aborted) {
    io_->close();
    throw LinkError(ErrorCode::TIMEOUT, fmt::format("chip link: write not done within {} ms", timeout_.count()));
  }
  if (ec) {
    io_->close();
    throw LinkError(ErrorCode::CLOSED, "chip link: write failed: " + ec.message());
  }
  stats_.bytes_sent += bytes.size();
}

std::uint16_t Connection::send_frame(std::uint8_t type, const std::vector<std::uint8_t>& payload,
                                     std::chrono::milliseconds interval) {
  Frame f;
  f.type = type;
  f.seq = next_seq_;
  f.payload = payload;
  next_seq_ = std::uint16_t(next_seq_ + 1);
  if (next_seq_ == kNoSeq) next_seq_ = 0;  // 0xFFFF marks an ERROR to an unreadable frame
  write_bytes(encode_frame(f));
  ++stats_.frames_sent;
  if (lossy_) {
    Outstanding& o = outstanding_[f.seq];
    o.type = type;
    o.retryable = may_resend(type, payload);
    if (o.retryable) o.payload = payload;
    o.sent = Clock::now();
    o.interval = interval;
  }
  return f.seq;
}

std::uint16_t Connection::send(std::uint8_t type, const std::vector<std::uint8_t>& payload) {
  return send_frame(type, payload, resend_after_);
}

void Connection::send_raw(const std::vector<std::uint8_t>& bytes) { write_bytes(bytes); }

std::uint16_t Connection::resend(std::uint16_t seq) {
  Outstanding o = std::move(outstanding_.at(seq));
  outstanding_.erase(seq);
  const std::uint16_t now = send_frame(o.type, o.payload, o.interval * 2);
  outstanding_.at(now).resends = o.resends + 1;
  resent_as_[seq] = now;
  ++stats_.resends;
  return now;
}

std::uint16_t Connection::latest(std::uint16_t seq) const {
  for (auto it = resent_as_.find(seq); it != resent_as_.end(); it = resent_as_.find(seq)) seq = it->second;
  return seq;
}

void Connection::on_damage(LinkError error, bool& resend_all) {
  ++stats_.damaged_frames;
  // Nothing awaited: it cannot be a reply we need (noise before a request, a board's answer to the
  // 0x00 sent on opening).
  if (outstanding_.empty()) return;
  // It may have been the reply to any outstanding request (its number is unreadable). If all of them
  // may be done twice, they are sent again; if one may not, the link is no longer trusted.
  if (std::all_of(outstanding_.begin(), outstanding_.end(),
                  [](const auto& o) { return o.second.retryable && o.second.resends < kMaxResends; })) {
    resend_all = true;
    return;
  }
  stream_errors_.push_back(std::move(error));
}

bool Connection::read_some(Clock::time_point deadline) {
  if (!io_->is_open()) throw LinkError(ErrorCode::CLOSED, "chip link: connection closed");
  boost::system::error_code ec;
  std::size_t n = 0;
  bool done = false;
  io_->with_stream([&](auto& s) {
    s.async_read_some(asio::buffer(io_->buffer), [&](const boost::system::error_code& e, std::size_t got) {
      ec = e;
      n = got;
      done = true;
    });
  });
  io_->run_until(deadline);
  // Cancelled at the deadline with nothing read (bytes read just before it count).
  if (!done || ec == asio::error::operation_aborted) return false;
  if (ec) {
    io_->close();
    throw LinkError(ErrorCode::CLOSED, "chip link: server closed the connection (" + ec.message() + ")");
  }
  stats_.bytes_received += n;
  bool resend_all = false;
  for (DecodeResult& r : decoder_.feed(io_->buffer.data(), n)) {
    if (!r.ok) {
      LinkError e(r.error, "chip link: damaged reply: " + r.message);
      if (lossy_) {
        on_damage(std::move(e), resend_all);
      } else {
        stream_errors_.push_back(std::move(e));
      }
      continue;
    }
    ++stats_.frames_received;
    if (r.frame.type == type::ERROR && r.frame.seq == kNoSeq) {
      ErrorReply e = ErrorReply::decode(r.frame.payload);
      LinkError error(e.code, "chip link: server: " + error_name(e.code) + ": " + e.message, e.detail);
      if (lossy_) {
        on_damage(std::move(error), resend_all);  // one of our requests arrived damaged
      } else {
        stream_errors_.push_back(std::move(error));
      }
      continue;
    }
    if (lossy_) {
      // A reply to a number no longer awaited: the request was resent (docs/link.md "Retries").
      if (outstanding_.erase(r.frame.seq) == 0) {
        ++stats_.late_replies;
        continue;
      }
    }
    replies_[r.frame.seq] = std::move(r.frame);
  }
  if (resend_all) {
    std::vector<std::uint16_t> seqs;
    for (const auto& o : outstanding_) seqs.push_back(o.first);
    for (std::uint16_t s : seqs) resend(s);
  }
  return true;
}

Frame Connection::wait(std::uint16_t seq) {
  const Clock::time_point deadline = Clock::now() + timeout_;
  bool blocked = false;
  for (;;) {
    const std::uint16_t current = latest(seq);
    auto it = replies_.find(current);
    if (it != replies_.end()) {
      Frame f = std::move(it->second);
      replies_.erase(it);
      for (auto r = resent_as_.find(seq); r != resent_as_.end(); r = resent_as_.find(seq)) {
        seq = r->second;
        resent_as_.erase(r);
      }
      if (f.type == type::ERROR) {
        const ErrorReply e = ErrorReply::decode(f.payload);
        throw LinkError(e.code, "chip link: server: " + error_name(e.code) + ": " + e.message, e.detail);
      }
      return f;
    }
    if (!stream_errors_.empty()) {
      LinkError e = stream_errors_.front();
      stream_errors_.erase(stream_errors_.begin());
      if (lossy_) close();  // a reply that may not be asked for again was lost: drop the link
      throw e;
    }
    if (!blocked) {
      blocked = true;
      ++stats_.round_trips;
    }
    const auto o = outstanding_.find(current);
    const bool retryable = lossy_ && o != outstanding_.end() && o->second.retryable && o->second.resends < kMaxResends;
    const Clock::time_point wake = retryable ? std::min(deadline, o->second.sent + o->second.interval) : deadline;
    if (read_some(wake)) continue;
    if (retryable && Clock::now() < deadline) {
      resend(current);
      continue;
    }
    close();
    throw LinkError(ErrorCode::TIMEOUT, fmt::format("chip link: no reply within {} ms from {} (connection closed)",
                                                    timeout_.count(), peer_));
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
