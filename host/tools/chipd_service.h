// The chip server's request handler without sockets (deepblue chipd, docs/link.md): chips, their
// owners and tags, and the requests of the link applied to them. The socket layer (chipd_server.h)
// feeds it frames and sends what it returns; the fuzz target and the tests call it directly.
//
// Long work (a RUN, an ACCESS with many idle clocks) is a job on its chip, done in slices: handle()
// does the first slice, step() one more slice of every job, so that a single thread serves other
// requests in between. A RUN's quantum may be split between slices: tick(a) then tick(b) is the same
// a + b idle clocks as tick(a + b), so the chip sees exactly the loop the protocol promises.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "chip/bus.h"
#include "link/frame.h"
#include "link/messages.h"

namespace db::chipd {

using ClientId = std::uint32_t;

struct ServiceOptions {
  int chips = 1;
  // Makes a chip in its power-on state (called at start, on CLAIM and RESET, after a watchdog).
  std::function<std::unique_ptr<chip::ChipBackend>()> make_chip;
  link::Backend backend = link::Backend::MODEL;
  std::string name = "deepblue chipd";
  // Wall time after which a job ends: RUN with outcome TIMEOUT, ACCESS with ERROR TIMEOUT; the chip
  // is reset.
  std::chrono::milliseconds run_timeout{60000};
  // A slice ends after this many chip clocks or this much wall time, whichever comes first.
  std::uint64_t slice_clocks = 1u << 18;
  std::chrono::microseconds slice_time{5000};
  // The clock the watchdog and the slices read (tests and the fuzz target may replace it).
  std::function<std::chrono::steady_clock::time_point()> now = [] { return std::chrono::steady_clock::now(); };
};

// A reply and the client it goes to.
struct Outgoing {
  ClientId client;
  link::Frame frame;
};

class ChipService {
 public:
  explicit ChipService(ServiceOptions options);
  ~ChipService();
  ChipService(const ChipService&) = delete;
  ChipService& operator=(const ChipService&) = delete;

  // One request from a client; returns the replies due now (a RUN's reply usually comes from a
  // later step()). Never throws: every failure is an ERROR reply.
  std::vector<Outgoing> handle(ClientId client, const link::Frame& request);
  // One slice of every job; returns the replies of the jobs that ended.
  std::vector<Outgoing> step();
  // Whether any job waits for step().
  bool busy() const;
  // Whether the client has a job (its connection is not idle while it waits for a reply).
  bool has_job(ClientId client) const;
  // The client is gone: its jobs end without replies, its chips are reset and released.
  void disconnect(ClientId client);

  int chips() const;
  int free_chips() const;

 private:
  struct Job;
  struct Chip;
  using Replies = std::vector<Outgoing>;

  void hello(ClientId client, const link::Frame& f, Replies& out);
  void claim(ClientId client, const link::Frame& f, Replies& out);
  void release(ClientId client, const link::Frame& f, Replies& out);
  void reset(ClientId client, const link::Frame& f, Replies& out);
  void access(ClientId client, const link::Frame& f, Replies& out);
  void run(ClientId client, const link::Frame& f, Replies& out);
  void abort(ClientId client, const link::Frame& f, Replies& out);
  void debug(ClientId client, const link::Frame& f, Replies& out);

  // The chip named by a request, owned by the client; throws LinkError BAD_CHIP or NOT_CLAIMED.
  Chip& owned(ClientId client, std::uint16_t index);
  // Power-on state: a new backend, tag 0.
  void reset_chip(Chip& c);
  // A request for a chip whose job runs waits behind it (at most kMaxQueued; then BUSY) ...
  static constexpr std::size_t kMaxQueued = 64;
  void queue(Chip& c, std::uint16_t index, ClientId client, const link::Frame& f, Replies& out);
  // ... and is done when the job ends.
  void drain(std::uint16_t index, Replies& out);
  // Ends a chip's job early (RESET, RELEASE, ABORT): its reply, if the job is a RUN or an ACCESS.
  void cancel_job(std::uint16_t index, Replies& out, const char* why);
  // Advances a job by one slice; true when it ended (its reply is in out).
  bool advance(std::uint16_t index, Replies& out);
  void finish_run(std::uint16_t index, link::RunOutcome outcome, Replies& out);

  ServiceOptions options_;
  std::vector<Chip> chips_;
};

}  // namespace db::chipd
