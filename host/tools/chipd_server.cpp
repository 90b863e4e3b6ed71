// Sessions of the chip server: read bytes, decode frames, hand requests to the service, queue the
// replies; slices of running jobs are posted to the same io_context. See chipd_server.h.
#include "chipd_server.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <array>
#include <boost/asio.hpp>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>
#include <set>
#include <stdexcept>

namespace db::chipd {

namespace asio = boost::asio;
using asio::ip::tcp;
using boost::system::error_code;

namespace {
// How long a refused client (SERVER_FULL) may take to read its ERROR before it is cut off.
constexpr std::chrono::seconds kRejectLinger{2};
}  // namespace

struct Session;

struct ChipServer::Impl {
  Impl(asio::io_context& io_, ChipService& service_, const ServerOptions& options_)
      : io(io_), service(service_), options(options_), acceptor(io_) {}
  void accept();
  void dispatch(ClientId id, const link::Frame& frame);
  void deliver(const std::vector<Outgoing>& replies);
  void schedule_step();
  void remove(ClientId id, const std::string& peer, const std::string& reason);
  // Fault injection (ServerOptions::fault): true when the request is not to be handled.
  bool inject_fault(ClientId id, const link::Frame& frame);

  asio::io_context& io;
  ChipService& service;
  ServerOptions options;
  tcp::acceptor acceptor;
  std::map<ClientId, std::shared_ptr<Session>> sessions;
  ClientId next_id = 1;
  bool step_posted = false;
  bool stopped = false;
  std::uint64_t runs = 0;                               // RUN requests received (fault injection)
  bool hung = false;                                    // fault HANG: nothing is answered any more
  std::set<std::pair<ClientId, std::uint16_t>> damage;  // fault GARBAGE: replies to send damaged
};

struct Session : std::enable_shared_from_this<Session> {
  Session(ChipServer::Impl& server_, tcp::socket socket_, ClientId id_, bool reject_)
      : server(server_), socket(std::move(socket_)), timer(server_.io), id(id_), reject(reject_) {
    error_code ec;
    const tcp::endpoint ep = socket.remote_endpoint(ec);
    peer = ec ? std::string("?") : fmt::format("{}:{}", ep.address().to_string(), ep.port());
    socket.set_option(tcp::no_delay(true), ec);
  }

  void start() {
    if (reject) {
      // Tell the client why, then stop sending and drain what it sends until it closes (closing with
      // unread bytes would reset the connection and could lose the ERROR), or until the linger ends.
      send(link::error_frame(link::kNoSeq, link::ErrorCode::SERVER_FULL, 0,
                             fmt::format("server full: {} clients", server.options.max_clients)));
      timer.expires_after(kRejectLinger);
      timer.async_wait([self = shared_from_this()](const error_code&) { self->close_socket(); });
    } else {
      arm_idle();
    }
    read();
  }

  void read() {
    socket.async_read_some(asio::buffer(buffer),
                           [self = shared_from_this()](const error_code& ec, std::size_t n) { self->on_read(ec, n); });
  }

  void on_read(const error_code& ec, std::size_t n) {
    if (closed) return;
    if (ec) {
      close(ec == asio::error::eof ? "closed by the client" : ec.message());
      return;
    }
    if (reject) {
      read();
      return;
    }
    arm_idle();
    for (link::DecodeResult& r : decoder.feed(buffer.data(), n)) {
      if (closed) return;
      if (!r.ok) {
        spdlog::warn("chipd: client {} ({}): {}: {}", id, peer, link::error_name(r.error), r.message);
        send(link::error_frame(r.seq, r.error, 0, r.message));
        continue;
      }
      server.dispatch(id, r.frame);
    }
    if (!closed) read();
  }

  void send(const link::Frame& frame, bool damaged = false) {
    if (closed) return;
    queue.push_back(link::encode_frame(frame));
    // A byte of the payload flipped (its COBS encoding can turn it into a delimiter: also damage).
    if (damaged) queue.back()[queue.back().size() / 2] ^= 0x5A;
    pending += queue.back().size();
    if (pending > server.options.max_pending_bytes) {
      close(fmt::format("{} bytes of replies unread", pending));
      return;
    }
    write_next();
  }

  void write_next() {
    if (writing || queue.empty() || closed) return;
    writing = true;
    asio::async_write(socket, asio::buffer(queue.front()),
                      [self = shared_from_this()](const error_code& ec, std::size_t n) {
                        self->writing = false;
                        if (self->closed) return;
                        if (ec) {
                          self->close("write failed: " + ec.message());
                          return;
                        }
                        self->pending -= n;
                        self->queue.pop_front();
                        if (self->queue.empty() && self->reject) {
                          error_code ignored;
                          self->socket.shutdown(tcp::socket::shutdown_send, ignored);
                        }
                        self->write_next();
                      });
  }

  void arm_idle() {
    timer.expires_after(server.options.idle_timeout);
    timer.async_wait([weak = std::weak_ptr<Session>(shared_from_this())](const error_code& ec) {
      auto self = weak.lock();
      if (!self || ec == asio::error::operation_aborted || self->closed) return;
      if (self->server.service.has_job(self->id)) {
        self->arm_idle();  // waiting for a RUN's reply is not idleness
        return;
      }
      self->close(fmt::format("idle for {} s", self->server.options.idle_timeout.count() / 1000.0));
    });
  }

  void close_socket() {
    error_code ignored;
    socket.shutdown(tcp::socket::shutdown_both, ignored);
    socket.close(ignored);
    timer.cancel();
  }

  void close(const std::string& reason) {
    if (closed) return;
    closed = true;
    close_socket();
    if (!reject) server.remove(id, peer, reason);
  }

  ChipServer::Impl& server;
  tcp::socket socket;
  asio::steady_timer timer;  // idle timeout, or the linger of a refused client
  ClientId id;
  bool reject;
  std::string peer;
  link::FrameDecoder decoder;
  std::array<std::uint8_t, 4096> buffer{};
  std::deque<std::vector<std::uint8_t>> queue;
  std::size_t pending = 0;
  bool writing = false;
  bool closed = false;
};

void ChipServer::Impl::accept() {
  acceptor.async_accept([this](const error_code& ec, tcp::socket socket) {
    if (stopped || ec == asio::error::operation_aborted) return;
    if (ec) {
      spdlog::warn("chipd: accept failed: {}", ec.message());
    } else if (int(sessions.size()) >= options.max_clients) {
      auto s = std::make_shared<Session>(*this, std::move(socket), 0, true);
      spdlog::warn("chipd: refused {}: server full ({} clients)", s->peer, options.max_clients);
      s->start();
    } else {
      const ClientId id = next_id++;
      auto s = std::make_shared<Session>(*this, std::move(socket), id, false);
      sessions[id] = s;
      spdlog::info("chipd: client {} connected from {}", id, s->peer);
      s->start();
    }
    accept();
  });
}

void ChipServer::Impl::dispatch(ClientId id, const link::Frame& frame) {
  if (inject_fault(id, frame)) return;
  deliver(service.handle(id, frame));
  schedule_step();
}

void ChipServer::Impl::deliver(const std::vector<Outgoing>& replies) {
  for (const Outgoing& o : replies) {
    if (o.frame.type == link::type::ERROR) {
      const link::ErrorReply e = link::ErrorReply::decode(o.frame.payload);
      spdlog::info("chipd: client {}: request {}: {}: {}", o.client, o.frame.seq, link::error_name(e.code), e.message);
    }
    if (hung) return;
    auto it = sessions.find(o.client);
    const bool damaged = o.frame.type == link::type::RUN_REPLY && damage.erase({o.client, o.frame.seq}) > 0;
    if (it != sessions.end()) it->second->send(o.frame, damaged);
  }
}

bool ChipServer::Impl::inject_fault(ClientId id, const link::Frame& frame) {
  if (hung) return true;
  if (options.fault.kind == Fault::Kind::NONE || frame.type != link::type::RUN) return false;
  if (++runs != options.fault.at_run) return false;
  switch (options.fault.kind) {
    case Fault::Kind::DIE:
      spdlog::warn("chipd: fault injection: dying at RUN {} (client {}, request {})", runs, id, frame.seq);
      spdlog::default_logger()->flush();
      std::_Exit(3);  // no clean-up, no goodbye: as if the process were killed
    case Fault::Kind::HANG:
      spdlog::warn("chipd: fault injection: hanging at RUN {} (client {}, request {})", runs, id, frame.seq);
      hung = true;
      return true;
    case Fault::Kind::GARBAGE:
      spdlog::warn("chipd: fault injection: the reply to RUN {} (client {}, request {}) goes out damaged", runs, id,
                   frame.seq);
      damage.insert({id, frame.seq});
      return false;
    case Fault::Kind::NONE:
      break;
  }
  return false;
}

Fault parse_fault(const std::string& text) {
  const std::size_t colon = text.find(':');
  const std::string kind = text.substr(0, colon);
  Fault f;
  if (kind == "die") {
    f.kind = Fault::Kind::DIE;
  } else if (kind == "hang") {
    f.kind = Fault::Kind::HANG;
  } else if (kind == "garbage") {
    f.kind = Fault::Kind::GARBAGE;
  } else {
    throw std::invalid_argument(fmt::format("--fault '{}': '{}' is not die, hang or garbage", text, kind));
  }
  const std::string n = colon == std::string::npos ? "" : text.substr(colon + 1);
  if (n.empty() || n.size() > 9 || n.find_first_not_of("0123456789") != std::string::npos || std::stoul(n) == 0) {
    throw std::invalid_argument(fmt::format("--fault '{}': the RUN number '{}' is not 1-999999999", text, n));
  }
  f.at_run = std::stoul(n);
  return f;
}

void ChipServer::Impl::schedule_step() {
  if (step_posted || stopped || hung || !service.busy()) return;
  step_posted = true;
  // Posted, not run here: the reads and writes ready meanwhile go first.
  asio::post(io, [this] {
    step_posted = false;
    if (stopped) return;
    deliver(service.step());
    schedule_step();
  });
}

void ChipServer::Impl::remove(ClientId id, const std::string& peer, const std::string& reason) {
  service.disconnect(id);
  sessions.erase(id);
  spdlog::info("chipd: client {} ({}) disconnected: {}", id, peer, reason);
}

ChipServer::ChipServer(asio::io_context& io, ChipService& service, const ServerOptions& options)
    : impl_(std::make_shared<Impl>(io, service, options)) {
  error_code ec;
  const asio::ip::address address =
      asio::ip::make_address(options.host == "localhost" ? "127.0.0.1" : options.host, ec);
  if (ec) throw std::runtime_error(fmt::format("chipd: '{}' is not an IP address", options.host));
  const tcp::endpoint ep(address, options.port);
  impl_->acceptor.open(ep.protocol());
  impl_->acceptor.set_option(tcp::acceptor::reuse_address(true));
  impl_->acceptor.bind(ep, ec);
  if (ec)
    throw std::runtime_error(
        fmt::format("chipd: cannot listen on {}:{}: {}", options.host, options.port, ec.message()));
  impl_->acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec)
    throw std::runtime_error(
        fmt::format("chipd: cannot listen on {}:{}: {}", options.host, options.port, ec.message()));
  impl_->accept();
}

ChipServer::~ChipServer() { stop(); }

std::uint16_t ChipServer::port() const { return impl_->acceptor.local_endpoint().port(); }

std::string ChipServer::address() const { return impl_->acceptor.local_endpoint().address().to_string(); }

void ChipServer::stop() {
  if (impl_->stopped) return;
  impl_->stopped = true;
  error_code ignored;
  impl_->acceptor.close(ignored);
  auto sessions = impl_->sessions;  // close() erases from the map
  for (auto& [id, s] : sessions) s->close("server stopping");
}

}  // namespace db::chipd
