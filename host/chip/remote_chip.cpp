// Chips behind a link. See remote_chip.h.
#include "chip/remote_chip.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "chip/chip_client.h"
#include "chip/chip_regs.h"

namespace db::chip {

namespace {

// Payload bytes of ops (docs/link.md): an ACCESS header is chip and count, 4 bytes.
constexpr std::size_t kAccessHeader = 4;
constexpr std::size_t kWriteBytes = 9, kReadBytes = 5, kTickBytes = 5, kBlockHeader = 7;

// A batch the chip did not take whole: the chip's error code for the refused op, as ChipClient
// reports it (the sticky ERROR register read and cleared).
[[noreturn]] void refused(link::Connection& link, std::uint16_t chip, const link::AccessReply& reply) {
  link::Access clear{chip, {link::AccessOp::read(reg::ERROR), link::AccessOp::write(reg::ERROR, 0)}};
  const link::AccessReply e = link.access(clear);
  const std::uint32_t code = e.words.empty() ? 0 : field::error::CODE.get(e.words[0]);
  const char* name = register_name(reply.failed_addr);
  throw ChipError(code, reply.failed_addr,
                  fmt::format("remote chip {}: access to {} (0x{:05X}) refused: {}", chip,
                              *name ? name : "unmapped address", reply.failed_addr, error_name(code)));
}

void append_writes(std::vector<link::AccessOp>& ops, const WriteBlock& b) {
  if (b.data.size() == 1) {
    ops.push_back(link::AccessOp::write(b.addr, b.data[0]));
  } else {
    ops.push_back(link::AccessOp::block_write(b.addr, b.data));
  }
}

}  // namespace

RemoteBackend::RemoteBackend(LinkPtr link, std::uint16_t chip) : link_(std::move(link)), chip_(chip) {}

RemoteBackend::~RemoteBackend() {
  try {
    if (link_->is_open()) flush();
  } catch (const std::exception&) {
    // A destructor cannot report: the server resets the chip when the connection goes.
  }
}

std::string RemoteBackend::name() const { return fmt::format("remote chip {}", chip_); }

void RemoteBackend::queue(link::AccessOp op, std::size_t bytes) {
  if (kAccessHeader + pending_bytes_ + bytes > link::kMaxPayload) flush();
  pending_.push_back(std::move(op));
  pending_bytes_ += bytes;
}

BusResponse RemoteBackend::access(bool write, std::uint32_t addr, std::uint32_t data) {
  ++clock_;
  if (write) {
    // Consecutive addresses go as one block write (a position, a weights table).
    if (!pending_.empty()) {
      link::AccessOp& last = pending_.back();
      const bool block = last.kind == link::AccessOp::BLOCK_WRITE;
      const std::uint32_t next = block ? last.addr + std::uint32_t(last.words.size()) : last.addr + 1;
      if ((block || last.kind == link::AccessOp::WRITE) && addr == next &&
          kAccessHeader + pending_bytes_ + 4 + (block ? 0 : kBlockHeader) <= link::kMaxPayload &&
          (!block || last.words.size() < 0xFFFF)) {
        if (!block) {
          last = link::AccessOp::block_write(last.addr, {last.data});
          pending_bytes_ += kBlockHeader + 4 - kWriteBytes;
        }
        last.words.push_back(data);
        pending_bytes_ += 4;
        return {};
      }
    }
    queue(link::AccessOp::write(addr, data), kWriteBytes);
    return {};
  }
  queue(link::AccessOp::read(addr), kReadBytes);
  const std::size_t read_op = pending_.size() - 1;
  const link::AccessReply reply = send_batch();
  if (reply.failed_op != link::kNoFailedOp) {
    // A refused write earlier in the batch is reported as the write's error; a refused read (an
    // unmapped address) goes back to the caller as the bus's error response, as in process.
    if (reply.failed_op != read_op) refused(*link_, chip_, reply);
    return {0, true};
  }
  return {reply.words.back(), false};
}

void RemoteBackend::tick(std::uint64_t n) {
  clock_ += n;
  while (n > 0) {
    const std::uint32_t step = std::uint32_t(std::min<std::uint64_t>(n, 0xFFFFFFFFu));
    if (!pending_.empty() && pending_.back().kind == link::AccessOp::TICK &&
        pending_.back().clocks <= 0xFFFFFFFFu - step) {
      pending_.back().clocks += step;
    } else {
      queue(link::AccessOp::tick(step), kTickBytes);
    }
    n -= step;
  }
}

void RemoteBackend::flush() {
  if (pending_.empty()) return;
  const link::AccessReply reply = send_batch();
  if (reply.failed_op != link::kNoFailedOp) refused(*link_, chip_, reply);
}

link::AccessReply RemoteBackend::send_batch() {
  link::Access batch{chip_, std::move(pending_)};
  pending_.clear();
  pending_bytes_ = 0;
  link::AccessReply reply = link_->access(batch);
  clock_ = reply.clock;
  return reply;
}

DebugPort RemoteBackend::debug() const {
  const_cast<RemoteBackend*>(this)->flush();
  const link::DebugReply d = link_->debug(chip_);
  DebugPort p;
  p.state = d.state;
  p.ply = d.ply;
  p.move = d.move;
  p.nodes = d.nodes;
  p.leaf = d.leaf;
  p.flags = d.flags;
  return p;
}

template <class Op>
auto RemoteSearchChip::guarded(const char* what, Op&& op) {
  try {
    return op();
  } catch (const link::LinkError& e) {
    link_->close();
    start_seq_ = run_seq_ = -1;
    throw ChipLost(fmt::format("remote chip {} of {}: {}: {}", chip_, link_->peer(), what, e.what()));
  }
}

void RemoteSearchChip::load_weights(const std::vector<WriteBlock>& weights, std::uint64_t generation) {
  guarded("weights", [&] { send_weights(weights, generation); });
}

void RemoteSearchChip::start(const SearchJob& job) {
  guarded("start", [&] { send_start(job); });
}

void RemoteSearchChip::begin_run(std::uint64_t max_quanta) {
  guarded("run", [&] { send_run(max_quanta); });
}

RunOutcome RemoteSearchChip::end_run() {
  return guarded("run", [&] { return receive_run(); });
}

SearchResult RemoteSearchChip::abort() {
  return guarded("abort", [&] { return abort_search(); });
}

void RemoteSearchChip::send_weights(const std::vector<WriteBlock>& weights, std::uint64_t generation) {
  if (generation != 0 && generation == generation_) return;
  // Batches that fit a frame, sent back to back; the tag goes with the last.
  std::vector<link::Access> batches(1, link::Access{chip_, {}});
  std::size_t bytes = kAccessHeader;
  auto add = [&](link::AccessOp op, std::size_t size) {
    if (bytes + size > link::kMaxPayload) {
      batches.push_back(link::Access{chip_, {}});
      bytes = kAccessHeader;
    }
    batches.back().ops.push_back(std::move(op));
    bytes += size;
  };
  const std::size_t words_per_block = (link::kMaxPayload - kAccessHeader - kBlockHeader) / 4;
  for (const WriteBlock& b : weights) {
    for (std::size_t at = 0; at < b.data.size(); at += words_per_block) {
      const std::size_t n = std::min(words_per_block, b.data.size() - at);
      WriteBlock part{b.addr + std::uint32_t(at),
                      {b.data.begin() + std::ptrdiff_t(at), b.data.begin() + std::ptrdiff_t(at + n)}};
      std::vector<link::AccessOp> ops;
      append_writes(ops, part);
      add(std::move(ops[0]), n == 1 ? kWriteBytes : kBlockHeader + 4 * n);
    }
  }
  add(link::AccessOp::set_tag(generation), 9);
  std::vector<std::uint16_t> seqs;
  for (const link::Access& b : batches) seqs.push_back(link_->send(link::type::ACCESS, b.encode()));
  for (std::uint16_t seq : seqs) {
    const link::AccessReply reply = link::AccessReply::decode(link_->wait(seq, link::type::ACCESS_REPLY).payload);
    if (reply.failed_op != link::kNoFailedOp) refused(*link_, chip_, reply);
  }
  generation_ = generation;
}

void RemoteSearchChip::send_start(const SearchJob& job) {
  if (start_seq_ >= 0 || run_seq_ >= 0) throw std::logic_error("remote chip: start while a job is under way");
  const SearchParams& p = job.params;
  if (p.depth < 1 || p.depth > 31)
    throw std::invalid_argument(fmt::format("search depth {} out of range 1-31", p.depth));
  // The job as LocalSearchChip sends it (one JOB: ChipClient::start_job, only the words the chip does
  // not hold), access for access, so that the chip runs the same clocks behind the link as in process.
  link::Access batch{chip_, {}};
  for (const RegWrite& w : job_registers_.writes(job.start, job.history, p)) {
    batch.ops.push_back(link::AccessOp::write(w.addr, w.data));
  }
  start_seq_ = link_->send(link::type::ACCESS, batch.encode());
}

void RemoteSearchChip::check_start() {
  if (start_seq_ < 0) return;
  const std::uint16_t seq = std::uint16_t(start_seq_);
  start_seq_ = -1;
  const link::AccessReply reply = link::AccessReply::decode(link_->wait(seq, link::type::ACCESS_REPLY).payload);
  job_clock_ = reply.clock;
  if (reply.failed_op != link::kNoFailedOp) {
    job_registers_.clear();  // what the chip holds is not known
    refused(*link_, chip_, reply);
  }
}

SearchResult RemoteSearchChip::result_of(const std::array<std::uint32_t, 7>& words) {
  // A JOB that stopped at a refused step (a history move not legal, a bad SEARCH argument) did not
  // search: its error is in STATUS (kSearchResultRegisters[1]).
  const std::uint32_t code = field::status::ERR_CODE.get(words[1]);
  if (code != err::NONE) {
    link_->access(link::Access{chip_, {link::AccessOp::write(reg::ERROR, 0)}});
    throw ChipError(code, reg::CMD, fmt::format("remote chip {}: search job failed: {}", chip_, error_name(code)));
  }
  return search_result_of(words);
}

void RemoteSearchChip::send_run(std::uint64_t max_quanta) {
  if (run_seq_ >= 0) throw std::logic_error("remote chip: begin_run while a run is under way");
  if (max_quanta > 0xFFFFFFFFu) throw std::invalid_argument("remote chip: run budget over 2^32 quanta");
  link::Run run;
  run.chip = chip_;
  run.quantum = std::uint32_t(kQuantum);
  run.max_quanta = std::uint32_t(max_quanta);
  run.poll_addr = reg::STATUS;
  run.poll_mask = field::status::BUSY.put(1);
  run.poll_value = 0;
  run.reads.assign(kSearchResultRegisters.begin(), kSearchResultRegisters.end());
  run_seq_ = link_->send(link::type::RUN, run.encode());
}

RunOutcome RemoteSearchChip::receive_run() {
  if (run_seq_ < 0) throw std::logic_error("remote chip: end_run without begin_run");
  const std::uint16_t seq = std::uint16_t(run_seq_);
  run_seq_ = -1;
  // The RUN's reply first: the start batch's reply came before it, so checking that one then does not
  // wait again (one round trip for the job).
  const link::RunReply reply = link::RunReply::decode(link_->wait(seq, link::type::RUN_REPLY).payload);
  check_start();
  if (reply.outcome == link::RunOutcome::TIMEOUT || reply.outcome == link::RunOutcome::ABORTED) {
    throw link::LinkError(link::ErrorCode::TIMEOUT,
                          fmt::format("remote chip {}: run ended {}", chip_, link::outcome_name(reply.outcome)));
  }
  if (reply.outcome == link::RunOutcome::DONE && reply.words.size() != kSearchResultRegisters.size()) {
    throw link::LinkError(link::ErrorCode::PROTOCOL,
                          fmt::format("remote chip {}: run reply with {} words, expected {}", chip_, reply.words.size(),
                                      kSearchResultRegisters.size()));
  }
  RunOutcome out;
  out.quanta = reply.quanta;
  out.done = reply.outcome == link::RunOutcome::DONE;
  if (out.done) {
    std::array<std::uint32_t, 7> words{};
    std::copy(reply.words.begin(), reply.words.end(), words.begin());
    out.result = result_of(words);
  }
  return out;
}

SearchResult RemoteSearchChip::abort_search() {
  check_start();
  // As LocalSearchChip::abort: one ABORT write (the chip is idle after its clock) and no result
  // read; the clocks from the job's start batch to the ABORT from the two replies' clocks, the nodes
  // from the debug port. DEBUG is not queued behind the ACCESS (docs/link.md), so it is sent with it
  // (one round trip) and asked again if the server answered it before the write.
  const link::Access batch{chip_, {link::AccessOp::write(reg::ABORT, 1)}};
  const std::uint16_t access_seq = link_->send(link::type::ACCESS, batch.encode());
  const std::uint16_t debug_seq = link_->send(link::type::DEBUG, link::ChipRef{chip_}.encode());
  const link::AccessReply reply = link::AccessReply::decode(link_->wait(access_seq, link::type::ACCESS_REPLY).payload);
  link::DebugReply debug = link::DebugReply::decode(link_->wait(debug_seq, link::type::DEBUG_REPLY).payload);
  if (reply.failed_op != link::kNoFailedOp) refused(*link_, chip_, reply);
  if (debug.clock != reply.clock) debug = link_->debug(chip_);
  if (debug.clock != reply.clock) {
    throw link::LinkError(link::ErrorCode::PROTOCOL,
                          fmt::format("remote chip {}: the chip's clock moved after its abort ({} then {})", chip_,
                                      reply.clock, debug.clock));
  }
  if (reply.clock < job_clock_) {
    throw link::LinkError(link::ErrorCode::PROTOCOL,
                          fmt::format("remote chip {}: the abort's clock {} is before its job's start {}", chip_,
                                      reply.clock, job_clock_));
  }
  return aborted_search(debug.nodes, reply.clock - job_clock_);
}

bool is_remote_backend(const std::string& name) { return name.rfind("remote:", 0) == 0; }

std::vector<ServerAddress> parse_remote_backend(const std::string& name) {
  if (!is_remote_backend(name)) throw std::invalid_argument("backend '" + name + "' is not remote:HOST:PORT[,...]");
  std::vector<ServerAddress> out;
  std::string rest = name.substr(7);
  std::size_t at = 0;
  while (at <= rest.size()) {
    const std::size_t comma = std::min(rest.find(',', at), rest.size());
    const std::string item = rest.substr(at, comma - at);
    const std::size_t colon = item.rfind(':');
    if (item.empty() || colon == std::string::npos || colon == 0 || colon + 1 == item.size()) {
      throw std::invalid_argument(fmt::format("remote backend: '{}' is not HOST:PORT", item));
    }
    const std::string port = item.substr(colon + 1);
    if (port.size() > 5 || !std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
        std::stoul(port) == 0 || std::stoul(port) > 65535) {
      throw std::invalid_argument(fmt::format("remote backend: port '{}' of '{}' is not 1-65535", port, item));
    }
    std::string host = item.substr(0, colon);
    if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
    out.push_back({host, std::uint16_t(std::stoul(port))});
    at = comma + 1;
  }
  return out;
}

bool is_serial_backend(const std::string& name) { return name.rfind("serial:", 0) == 0; }

bool is_link_backend(const std::string& name) { return is_remote_backend(name) || is_serial_backend(name); }

link::SerialPort parse_serial_backend(const std::string& name) {
  if (!is_serial_backend(name)) throw std::invalid_argument("backend '" + name + "' is not serial:PATH[@BAUD]");
  link::SerialPort port;
  port.path = name.substr(7);
  const std::size_t at = port.path.rfind('@');
  if (at != std::string::npos) {
    const std::string baud = port.path.substr(at + 1);
    port.path.resize(at);
    const bool digits = !baud.empty() && baud.size() <= 7 &&
                        std::all_of(baud.begin(), baud.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!digits || std::stoul(baud) == 0 || std::stoul(baud) > 4000000) {
      throw std::invalid_argument(fmt::format("serial backend '{}': baud '{}' is not a number 1-4000000", name, baud));
    }
    port.baud = std::uint32_t(std::stoul(baud));
  }
  if (port.path.empty()) {
    throw std::invalid_argument(fmt::format("serial backend '{}': no device path (serial:/dev/ttyUSB0[@BAUD])", name));
  }
  return port;
}

std::vector<RemoteChip> claim_remote_chips(const std::string& name, int wanted, std::chrono::milliseconds timeout) {
  std::vector<RemoteChip> chips;
  // A board behind a serial port is one link, like one server.
  const std::vector<ServerAddress> servers =
      is_serial_backend(name) ? std::vector<ServerAddress>(1) : parse_remote_backend(name);
  for (const ServerAddress& server : servers) {
    if (wanted > 0 && int(chips.size()) >= wanted) break;
    auto link = is_serial_backend(name) ? std::make_shared<link::Connection>(parse_serial_backend(name), timeout)
                                        : std::make_shared<link::Connection>(server.host, server.port, timeout);
    const std::uint16_t count = wanted > 0
                                    ? std::uint16_t(std::min<int>(wanted - int(chips.size()), link->hello().chips_free))
                                    : link::kAllChips;
    if (count == 0) continue;
    for (std::uint16_t c : link->claim(count)) chips.push_back({link, c});
  }
  if (chips.empty() || (wanted > 0 && int(chips.size()) < wanted)) {
    throw std::invalid_argument(
        fmt::format("remote backend {}: {} chip(s) free, {} wanted", name, chips.size(), wanted > 0 ? wanted : 1));
  }
  return chips;
}

}  // namespace db::chip
