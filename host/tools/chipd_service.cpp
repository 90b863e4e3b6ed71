// The chip server's requests applied to its chips. See chipd_service.h and docs/link.md.
#include "chipd_service.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>

namespace db::chipd {

using link::AccessOp;
using link::ErrorCode;
using link::Frame;
using link::LinkError;
using Clock = std::chrono::steady_clock;

namespace {

constexpr std::uint64_t kAddressLimit = 1ull << link::kAddressBits;
// Idle clocks per tick() call inside a slice: the slice's wall time is checked between calls.
constexpr std::uint64_t kTickChunk = 4096;

Frame reply(std::uint8_t type, std::uint16_t seq, std::vector<std::uint8_t> payload) {
  Frame f;
  f.type = type;
  f.seq = seq;
  f.payload = std::move(payload);
  return f;
}

void check_address(std::uint64_t first, std::uint64_t count, std::uint16_t op, const char* what) {
  if (count == 0) count = 1;
  if (first + count - 1 >= kAddressLimit) {
    throw LinkError(ErrorCode::BAD_ADDRESS,
                    fmt::format("{}: address 0x{:X}{} over {} bits", what, first,
                                count > 1 ? fmt::format(" + {} words", count) : std::string(), link::kAddressBits),
                    op);
  }
}

}  // namespace

struct ChipService::Job {
  ClientId client = 0;
  std::uint16_t seq = 0;
  bool is_run = false;
  Clock::time_point started;
  // ACCESS: the batch, the op being done, the words or clocks of it done, the reply so far.
  link::Access access;
  std::size_t op = 0;
  std::uint64_t sub = 0;
  link::AccessReply access_reply;
  // RUN: the request, quanta completed, idle clocks left in the current quantum (0: start one).
  link::Run run;
  std::uint32_t quanta = 0;
  std::uint64_t left = 0;
};

struct ChipService::Chip {
  std::unique_ptr<chip::ChipBackend> backend;
  ClientId owner = 0;  // 0: free
  std::uint64_t tag = 0;
  std::optional<Job> job;
  // Requests that came while the job ran, done in order when it ends (a client pipelines a job's
  // start batch and its RUN without waiting).
  std::deque<std::pair<ClientId, Frame>> queued;
};

// Counts a slice's clocks and decides when it is over (clock budget or wall time).
class SliceBudget {
 public:
  SliceBudget(const ServiceOptions& o) : options_(o), start_(o.now()) {}
  // Adds n clocks; true when the slice is over.
  bool spend(std::uint64_t n) {
    used_ += n;
    if (used_ >= options_.slice_clocks) return true;
    if (used_ >= next_check_) {
      next_check_ = used_ + kTickChunk;
      if (options_.now() - start_ >= options_.slice_time) over_ = true;
    }
    return over_;
  }
  // Clocks that may still be ticked in one call.
  std::uint64_t chunk(std::uint64_t want) const {
    const std::uint64_t room = used_ < options_.slice_clocks ? options_.slice_clocks - used_ : 1;
    return std::max<std::uint64_t>(1, std::min({want, kTickChunk, room}));
  }

 private:
  const ServiceOptions& options_;
  Clock::time_point start_;
  std::uint64_t used_ = 0;
  std::uint64_t next_check_ = kTickChunk;
  bool over_ = false;
};

ChipService::ChipService(ServiceOptions options) : options_(std::move(options)) {
  if (options_.chips < 1 || options_.chips > 0xFFFE) {
    throw std::invalid_argument(fmt::format("chip count {} out of range 1-65534", options_.chips));
  }
  chips_.resize(std::size_t(options_.chips));
  for (Chip& c : chips_) c.backend = options_.make_chip();
}

ChipService::~ChipService() = default;

int ChipService::chips() const { return int(chips_.size()); }

int ChipService::free_chips() const {
  return int(std::count_if(chips_.begin(), chips_.end(), [](const Chip& c) { return c.owner == 0; }));
}

bool ChipService::busy() const {
  return std::any_of(chips_.begin(), chips_.end(), [](const Chip& c) { return c.job.has_value(); });
}

bool ChipService::has_job(ClientId client) const {
  return std::any_of(chips_.begin(), chips_.end(),
                     [&](const Chip& c) { return c.job.has_value() && c.job->client == client; });
}

void ChipService::reset_chip(Chip& c) {
  c.backend.reset();  // the old one goes first: a verilated chip is large
  c.backend = options_.make_chip();
  c.tag = 0;
}

void ChipService::disconnect(ClientId client) {
  for (Chip& c : chips_) {
    if (c.owner != client) continue;
    c.job.reset();
    c.queued.clear();
    c.owner = 0;
    reset_chip(c);
  }
}

ChipService::Chip& ChipService::owned(ClientId client, std::uint16_t index) {
  if (index >= chips_.size()) {
    throw LinkError(ErrorCode::BAD_CHIP, fmt::format("chip {} out of range 0-{}", index, chips_.size() - 1), index);
  }
  Chip& c = chips_[index];
  if (c.owner != client) {
    throw LinkError(ErrorCode::NOT_CLAIMED, fmt::format("chip {} is not claimed by this connection", index), index);
  }
  return c;
}

std::vector<Outgoing> ChipService::handle(ClientId client, const Frame& f) {
  Replies out;
  try {
    switch (f.type) {
      case link::type::HELLO:
        hello(client, f, out);
        break;
      case link::type::CLAIM:
        claim(client, f, out);
        break;
      case link::type::RELEASE:
        release(client, f, out);
        break;
      case link::type::RESET:
        reset(client, f, out);
        break;
      case link::type::ACCESS:
        access(client, f, out);
        break;
      case link::type::RUN:
        run(client, f, out);
        break;
      case link::type::ABORT:
        abort(client, f, out);
        break;
      case link::type::DEBUG:
        debug(client, f, out);
        break;
      default:
        throw LinkError(ErrorCode::UNKNOWN_TYPE, fmt::format("unknown request type {}", link::type_name(f.type)),
                        f.type);
    }
  } catch (const LinkError& e) {
    out.push_back({client, link::error_frame(f.seq, e.code(), e.detail(), e.what())});
  } catch (const std::exception& e) {
    out.push_back({client, link::error_frame(f.seq, ErrorCode::INTERNAL, 0, e.what())});
  }
  return out;
}

void ChipService::hello(ClientId client, const Frame& f, Replies& out) {
  const link::Hello h = link::Hello::decode(f.payload);
  if (h.min_version > link::kProtocolVersion || h.max_version < link::kProtocolVersion) {
    throw LinkError(ErrorCode::VERSION, fmt::format("client speaks versions {}-{}, this server only {}", h.min_version,
                                                    h.max_version, link::kProtocolVersion));
  }
  link::HelloReply r;
  r.chips_total = std::uint16_t(chips_.size());
  r.chips_free = std::uint16_t(free_chips());
  r.backend = std::uint8_t(options_.backend);
  r.name = options_.name;
  out.push_back({client, reply(link::type::HELLO_REPLY, f.seq, r.encode())});
}

void ChipService::claim(ClientId client, const Frame& f, Replies& out) {
  const link::Claim c = link::Claim::decode(f.payload);
  link::ClaimReply r;
  for (std::size_t i = 0; i < chips_.size() && r.chips.size() < c.count; ++i) {
    if (chips_[i].owner != 0) continue;
    chips_[i].owner = client;
    reset_chip(chips_[i]);
    r.chips.push_back(std::uint16_t(i));
  }
  if (c.count > 0 && r.chips.empty()) throw LinkError(ErrorCode::NO_CHIPS, "no free chip", 0);
  out.push_back({client, reply(link::type::CLAIM_REPLY, f.seq, r.encode())});
}

void ChipService::release(ClientId client, const Frame& f, Replies& out) {
  const std::uint16_t index = link::ChipRef::decode(f.payload).chip;
  Chip& c = owned(client, index);
  cancel_job(index, out, "RELEASE");
  reset_chip(c);
  c.owner = 0;
  out.push_back({client, reply(link::type::OK, f.seq, {})});
}

void ChipService::reset(ClientId client, const Frame& f, Replies& out) {
  const std::uint16_t index = link::ChipRef::decode(f.payload).chip;
  Chip& c = owned(client, index);
  cancel_job(index, out, "RESET");
  reset_chip(c);
  out.push_back({client, reply(link::type::OK, f.seq, {})});
}

void ChipService::abort(ClientId client, const Frame& f, Replies& out) {
  const std::uint16_t index = link::ChipRef::decode(f.payload).chip;
  Chip& c = owned(client, index);
  if (c.job && c.job->is_run) finish_run(index, link::RunOutcome::ABORTED, out);
  out.push_back({client, reply(link::type::OK, f.seq, {})});
  drain(index, out);
}

void ChipService::debug(ClientId client, const Frame& f, Replies& out) {
  const std::uint16_t index = link::ChipRef::decode(f.payload).chip;
  Chip& c = owned(client, index);
  const chip::DebugPort d = c.backend->debug();
  link::DebugReply r;
  r.clock = c.backend->clock();
  r.state = d.state;
  r.ply = d.ply;
  r.move = d.move;
  r.nodes = d.nodes;
  r.leaf = d.leaf;
  r.flags = d.flags;
  out.push_back({client, reply(link::type::DEBUG_REPLY, f.seq, r.encode())});
}

void ChipService::access(ClientId client, const Frame& f, Replies& out) {
  link::Access a = link::Access::decode(f.payload);
  Chip& c = owned(client, a.chip);
  if (c.job) return queue(c, a.chip, client, f, out);
  std::size_t words = 0;
  for (std::size_t i = 0; i < a.ops.size(); ++i) {
    const AccessOp& o = a.ops[i];
    const std::uint16_t op = std::uint16_t(i);
    if (o.kind == AccessOp::WRITE || o.kind == AccessOp::READ) check_address(o.addr, 1, op, "ACCESS");
    if (o.kind == AccessOp::BLOCK_WRITE) check_address(o.addr, o.words.size(), op, "ACCESS BLOCK_WRITE");
    if (o.kind == AccessOp::BLOCK_READ) check_address(o.addr, o.count, op, "ACCESS BLOCK_READ");
    words += o.reads();
    if (link::AccessReply::size_for(words) > link::kMaxPayload) {
      throw LinkError(ErrorCode::TOO_LONG,
                      fmt::format("ACCESS: the reply would carry {} words, over the payload limit", words), op);
    }
  }
  Job job;
  job.client = client;
  job.seq = f.seq;
  job.started = options_.now();
  job.access_reply.chip = a.chip;
  job.access_reply.words.reserve(words);
  job.access = std::move(a);
  const std::uint16_t index = job.access.chip;
  c.job = std::move(job);
  advance(index, out);
}

void ChipService::run(ClientId client, const Frame& f, Replies& out) {
  link::Run r = link::Run::decode(f.payload);
  Chip& c = owned(client, r.chip);
  if (c.job) return queue(c, r.chip, client, f, out);
  check_address(r.poll_addr, 1, 0xFFFF, "RUN poll");
  for (std::size_t i = 0; i < r.reads.size(); ++i) check_address(r.reads[i], 1, std::uint16_t(i), "RUN read");
  if (link::RunReply::size_for(r.reads.size()) > link::kMaxPayload) {
    throw LinkError(ErrorCode::TOO_LONG, "RUN: the reply would be over the payload limit");
  }
  Job job;
  job.client = client;
  job.seq = f.seq;
  job.is_run = true;
  job.started = options_.now();
  job.run = std::move(r);
  const std::uint16_t index = job.run.chip;
  c.job = std::move(job);
  advance(index, out);
}

void ChipService::queue(Chip& c, std::uint16_t index, ClientId client, const Frame& f, Replies& out) {
  (void)out;
  if (c.queued.size() >= kMaxQueued) {
    throw LinkError(ErrorCode::BUSY,
                    fmt::format("chip {} is running a request and {} more are queued", index, c.queued.size()), index);
  }
  c.queued.emplace_back(client, f);
}

void ChipService::drain(std::uint16_t index, Replies& out) {
  Chip& c = chips_[index];
  while (!c.job && !c.queued.empty()) {
    const auto [client, frame] = std::move(c.queued.front());
    c.queued.pop_front();
    Replies r = handle(client, frame);
    out.insert(out.end(), std::make_move_iterator(r.begin()), std::make_move_iterator(r.end()));
  }
}

void ChipService::cancel_job(std::uint16_t index, Replies& out, const char* why) {
  Chip& c = chips_[index];
  // Requests queued behind the job are cancelled with it.
  for (const auto& [client, frame] : c.queued) {
    out.push_back({client, link::error_frame(frame.seq, ErrorCode::BUSY, index,
                                             fmt::format("request on chip {} cancelled by {}", index, why))});
  }
  c.queued.clear();
  if (!c.job) return;
  if (c.job->is_run) {
    // The chip is reset next: no end reads.
    c.job->run.reads.clear();
    finish_run(index, link::RunOutcome::ABORTED, out);
  } else {
    out.push_back({c.job->client, link::error_frame(c.job->seq, ErrorCode::BUSY, index,
                                                    fmt::format("ACCESS on chip {} cancelled by {}", index, why))});
    c.job.reset();
  }
}

void ChipService::finish_run(std::uint16_t index, link::RunOutcome outcome, Replies& out) {
  Chip& c = chips_[index];
  Job& j = *c.job;
  link::RunReply r;
  r.chip = index;
  r.outcome = outcome;
  r.quanta = j.quanta;
  // The end reads only when the poll condition was met: each read is a clock of the chip, and a run
  // stopped by its budget or by ABORT must leave the chip right after its last poll, as a host that
  // reads the results of finished searches only would, so that the next run continues clock for clock.
  if (outcome == link::RunOutcome::DONE) {
    for (std::uint32_t a : j.run.reads) r.words.push_back(c.backend->access(false, a, 0).data);
  }
  r.clock = c.backend->clock();
  out.push_back({j.client, reply(link::type::RUN_REPLY, j.seq, r.encode())});
  c.job.reset();
}

std::vector<Outgoing> ChipService::step() {
  Replies out;
  for (std::size_t i = 0; i < chips_.size(); ++i) {
    if (chips_[i].job && advance(std::uint16_t(i), out)) drain(std::uint16_t(i), out);
  }
  return out;
}

bool ChipService::advance(std::uint16_t index, Replies& out) {
  Chip& c = chips_[index];
  Job& j = *c.job;
  const ClientId client = j.client;  // for the error reply: the job may be gone when a backend throws
  const std::uint16_t seq = j.seq;
  try {
    if (options_.now() - j.started >= options_.run_timeout) {
      if (j.is_run) {
        finish_run(index, link::RunOutcome::TIMEOUT, out);
      } else {
        out.push_back({j.client, link::error_frame(j.seq, ErrorCode::TIMEOUT, std::uint16_t(j.op),
                                                   fmt::format("ACCESS on chip {} still running after {} ms", index,
                                                               options_.run_timeout.count()))});
        c.job.reset();
      }
      reset_chip(c);
      return true;
    }
    SliceBudget budget(options_);
    chip::ChipBackend& b = *c.backend;
    if (j.is_run) {
      const link::Run& r = j.run;
      for (;;) {
        if (j.left == 0) j.left = r.quantum;
        while (j.left > 0) {
          const std::uint64_t n = budget.chunk(j.left);
          b.tick(n);
          j.left -= n;
          if (budget.spend(n) && j.left > 0) return false;
        }
        const std::uint32_t polled = b.access(false, r.poll_addr, 0).data;
        ++j.quanta;
        if ((polled & r.poll_mask) == r.poll_value) {
          finish_run(index, link::RunOutcome::DONE, out);
          return true;
        }
        if (r.max_quanta != 0 && j.quanta == r.max_quanta) {
          finish_run(index, link::RunOutcome::BUDGET, out);
          return true;
        }
        if (budget.spend(1)) return false;
      }
    }
    link::AccessReply& rep = j.access_reply;
    const std::vector<AccessOp>& ops = j.access.ops;
    auto fail = [&](std::uint32_t addr) {
      rep.failed_op = std::uint16_t(j.op);
      rep.failed_addr = addr;
      j.op = ops.size();
    };
    while (j.op < ops.size()) {
      const AccessOp& o = ops[j.op];
      bool over = false;
      switch (o.kind) {
        case AccessOp::WRITE:
        case AccessOp::READ: {
          const chip::BusResponse resp = b.access(o.kind == AccessOp::WRITE, o.addr, o.data);
          over = budget.spend(1);
          if (resp.error) {
            fail(o.addr);
            continue;
          }
          if (o.kind == AccessOp::READ) rep.words.push_back(resp.data);
          break;
        }
        case AccessOp::BLOCK_WRITE:
        case AccessOp::BLOCK_READ: {
          const bool write = o.kind == AccessOp::BLOCK_WRITE;
          const std::uint64_t n = write ? o.words.size() : o.count;
          bool failed = false;
          while (j.sub < n) {
            const std::uint32_t addr = o.addr + std::uint32_t(j.sub);
            const chip::BusResponse resp = b.access(write, addr, write ? o.words[j.sub] : 0);
            if (resp.error) {
              fail(addr);
              failed = true;
              break;
            }
            if (!write) rep.words.push_back(resp.data);
            ++j.sub;
            if (budget.spend(1) && j.sub < n) return false;
          }
          if (failed) continue;
          break;
        }
        case AccessOp::TICK:
          while (j.sub < o.clocks) {
            const std::uint64_t n = budget.chunk(o.clocks - j.sub);
            b.tick(n);
            j.sub += n;
            if (budget.spend(n) && j.sub < o.clocks) return false;
          }
          break;
        case AccessOp::SET_TAG:
          c.tag = o.tag;
          break;
        case AccessOp::GET_TAG:
          rep.words.push_back(std::uint32_t(c.tag));
          rep.words.push_back(std::uint32_t(c.tag >> 32));
          break;
      }
      ++j.op;
      j.sub = 0;
      if (over && j.op < ops.size()) return false;
    }
    rep.clock = b.clock();
    out.push_back({j.client, reply(link::type::ACCESS_REPLY, j.seq, rep.encode())});
    c.job.reset();
    return true;
  } catch (const std::exception& e) {
    // A backend that throws (a co-simulation mismatch) leaves the chip in no known state: reset it.
    out.push_back(
        {client, link::error_frame(seq, ErrorCode::INTERNAL, index, fmt::format("chip {}: {}", index, e.what()))});
    c.job.reset();
    reset_chip(c);
    return true;
  }
}

}  // namespace db::chipd
