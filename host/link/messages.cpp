// Encoding and decoding of the link's payloads; layouts in docs/link.md.
#include "link/messages.h"

#include <fmt/format.h>

#include "link/bytes.h"

namespace db::link {

std::string type_name(std::uint8_t t) {
  switch (t) {
    case type::HELLO:
      return "HELLO";
    case type::CLAIM:
      return "CLAIM";
    case type::RELEASE:
      return "RELEASE";
    case type::RESET:
      return "RESET";
    case type::ACCESS:
      return "ACCESS";
    case type::RUN:
      return "RUN";
    case type::ABORT:
      return "ABORT";
    case type::DEBUG:
      return "DEBUG";
    case type::OK:
      return "OK";
    case type::HELLO_REPLY:
      return "HELLO_REPLY";
    case type::CLAIM_REPLY:
      return "CLAIM_REPLY";
    case type::ACCESS_REPLY:
      return "ACCESS_REPLY";
    case type::RUN_REPLY:
      return "RUN_REPLY";
    case type::DEBUG_REPLY:
      return "DEBUG_REPLY";
    case type::ERROR:
      return "ERROR";
    default:
      return fmt::format("0x{:02X}", t);
  }
}

const char* outcome_name(RunOutcome o) {
  switch (o) {
    case RunOutcome::DONE:
      return "DONE";
    case RunOutcome::BUDGET:
      return "BUDGET";
    case RunOutcome::ABORTED:
      return "ABORTED";
    case RunOutcome::TIMEOUT:
      return "TIMEOUT";
  }
  return "UNKNOWN";
}

namespace {

// n words of a u16 count, each checked against what is left so that a huge count fails at once.
std::vector<std::uint32_t> read_words(ByteReader& r, std::size_t n, const char* field) {
  if (r.remaining() < 4 * n) {
    r.fail(fmt::format("payload truncated in {}: {} words announced, {} bytes left", field, n, r.remaining()));
  }
  std::vector<std::uint32_t> w(n);
  for (auto& x : w) x = r.u32(field);
  return w;
}

void write_words(ByteWriter& w, const std::vector<std::uint32_t>& words, const char* what) {
  if (words.size() > 0xFFFF)
    throw LinkError(ErrorCode::TOO_LONG, fmt::format("{}: {} words over 65535", what, words.size()));
  w.u16(std::uint16_t(words.size()));
  for (std::uint32_t x : words) w.u32(x);
}

}  // namespace

// HELLO ----------------------------------------------------------------------------------------

std::vector<std::uint8_t> Hello::encode() const {
  ByteWriter w;
  w.u16(min_version);
  w.u16(max_version);
  w.text(name);
  return std::move(w.bytes());
}

Hello Hello::decode(const std::vector<std::uint8_t>& p) {
  ByteReader r(p, "HELLO");
  Hello h;
  h.min_version = r.u16("min_version");
  h.max_version = r.u16("max_version");
  h.name = r.text("name");
  r.end();
  return h;
}

std::vector<std::uint8_t> HelloReply::encode() const {
  ByteWriter w;
  w.u16(version);
  w.u16(chips_total);
  w.u16(chips_free);
  w.u8(backend);
  w.u32(clock_hz);
  w.u16(max_payload);
  w.text(name);
  return std::move(w.bytes());
}

HelloReply HelloReply::decode(const std::vector<std::uint8_t>& p) {
  ByteReader r(p, "HELLO reply");
  HelloReply h;
  h.version = r.u16("version");
  h.chips_total = r.u16("chips_total");
  h.chips_free = r.u16("chips_free");
  h.backend = r.u8("backend");
  h.clock_hz = r.u32("clock_hz");
  h.max_payload = r.u16("max_payload");
  h.name = r.text("name");
  r.end();
  return h;
}

// CLAIM ----------------------------------------------------------------------------------------

std::vector<std::uint8_t> Claim::encode() const {
  ByteWriter w;
  w.u16(count);
  return std::move(w.bytes());
}

Claim Claim::decode(const std::vector<std::uint8_t>& p) {
  ByteReader r(p, "CLAIM");
  Claim c;
  c.count = r.u16("count");
  r.end();
  return c;
}

std::vector<std::uint8_t> ClaimReply::encode() const {
  ByteWriter w;
  if (chips.size() > 0xFFFF) throw LinkError(ErrorCode::TOO_LONG, "CLAIM reply: too many chips");
  w.u16(std::uint16_t(chips.size()));
  for (std::uint16_t c : chips) w.u16(c);
  return std::move(w.bytes());
}

ClaimReply ClaimReply::decode(const std::vector<std::uint8_t>& p) {
  ByteReader r(p, "CLAIM reply");
  ClaimReply c;
  const std::size_t n = r.u16("n");
  if (r.remaining() < 2 * n)
    r.fail(fmt::format("payload truncated: {} chips announced, {} bytes left", n, r.remaining()));
  for (std::size_t i = 0; i < n; ++i) c.chips.push_back(r.u16("chip"));
  r.end();
  return c;
}

// RELEASE, RESET, ABORT, DEBUG -------------------------------------------------------------------

std::vector<std::uint8_t> ChipRef::encode() const {
  ByteWriter w;
  w.u16(chip);
  return std::move(w.bytes());
}

ChipRef ChipRef::decode(const std::vector<std::uint8_t>& p) {
  ByteReader r(p, "chip request");
  ChipRef c;
  c.chip = r.u16("chip");
  r.end();
  return c;
}

// ACCESS ---------------------------------------------------------------------------------------

AccessOp AccessOp::write(std::uint32_t addr, std::uint32_t data) {
  AccessOp o;
  o.kind = WRITE;
  o.addr = addr;
  o.data = data;
  return o;
}

AccessOp AccessOp::read(std::uint32_t addr) {
  AccessOp o;
  o.kind = READ;
  o.addr = addr;
  return o;
}

AccessOp AccessOp::block_write(std::uint32_t addr, std::vector<std::uint32_t> words) {
  AccessOp o;
  o.kind = BLOCK_WRITE;
  o.addr = addr;
  o.words = std::move(words);
  return o;
}

AccessOp AccessOp::block_read(std::uint32_t addr, std::uint16_t count) {
  AccessOp o;
  o.kind = BLOCK_READ;
  o.addr = addr;
  o.count = count;
  return o;
}

AccessOp AccessOp::tick(std::uint32_t clocks) {
  AccessOp o;
  o.kind = TICK;
  o.clocks = clocks;
  return o;
}

AccessOp AccessOp::set_tag(std::uint64_t tag) {
  AccessOp o;
  o.kind = SET_TAG;
  o.tag = tag;
  return o;
}

AccessOp AccessOp::get_tag() {
  AccessOp o;
  o.kind = GET_TAG;
  return o;
}

std::size_t AccessOp::reads() const {
  switch (kind) {
    case READ:
      return 1;
    case BLOCK_READ:
      return count;
    case GET_TAG:
      return 2;
    default:
      return 0;
  }
}

std::size_t AccessOp::accesses() const {
  switch (kind) {
    case WRITE:
    case READ:
      return 1;
    case BLOCK_WRITE:
      return words.size();
    case BLOCK_READ:
      return count;
    default:
      return 0;
  }
}

bool AccessOp::mutates() const { return kind == WRITE || kind == BLOCK_WRITE || kind == TICK || kind == SET_TAG; }

bool AccessOp::operator==(const AccessOp& o) const {
  return kind == o.kind && addr == o.addr && data == o.data && words == o.words && count == o.count &&
         clocks == o.clocks && tag == o.tag;
}

std::vector<std::uint8_t> Access::encode() const {
  ByteWriter w;
  w.u16(chip);
  if (ops.size() > 0xFFFF) throw LinkError(ErrorCode::TOO_LONG, "ACCESS: more than 65535 ops");
  w.u16(std::uint16_t(ops.size()));
  for (const AccessOp& o : ops) {
    w.u8(o.kind);
    switch (o.kind) {
      case AccessOp::WRITE:
        w.u32(o.addr);
        w.u32(o.data);
        break;
      case AccessOp::READ:
        w.u32(o.addr);
        break;
      case AccessOp::BLOCK_WRITE:
        w.u32(o.addr);
        write_words(w, o.words, "ACCESS BLOCK_WRITE");
        break;
      case AccessOp::BLOCK_READ:
        w.u32(o.addr);
        w.u16(o.count);
        break;
      case AccessOp::TICK:
        w.u32(o.clocks);
        break;
      case AccessOp::SET_TAG:
        w.u64(o.tag);
        break;
      case AccessOp::GET_TAG:
        break;
    }
  }
  return std::move(w.bytes());
}

Access Access::decode(const std::vector<std::uint8_t>& p) {
  ByteReader r(p, "ACCESS");
  Access a;
  a.chip = r.u16("chip");
  const std::size_t n = r.u16("op count");
  // Every op is at least one byte: a count larger than the bytes left is truncated for sure.
  if (r.remaining() < n) r.fail(fmt::format("payload truncated: {} ops announced, {} bytes left", n, r.remaining()));
  a.ops.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    AccessOp o;
    const std::uint8_t kind = r.u8("op kind");
    switch (kind) {
      case AccessOp::WRITE:
        o = AccessOp::write(r.u32("WRITE address"), 0);
        o.data = r.u32("WRITE data");
        break;
      case AccessOp::READ:
        o = AccessOp::read(r.u32("READ address"));
        break;
      case AccessOp::BLOCK_WRITE: {
        o.kind = AccessOp::BLOCK_WRITE;
        o.addr = r.u32("BLOCK_WRITE address");
        const std::size_t count = r.u16("BLOCK_WRITE count");
        o.words = read_words(r, count, "BLOCK_WRITE data");
        break;
      }
      case AccessOp::BLOCK_READ:
        o.kind = AccessOp::BLOCK_READ;
        o.addr = r.u32("BLOCK_READ address");
        o.count = r.u16("BLOCK_READ count");
        break;
      case AccessOp::TICK:
        o = AccessOp::tick(r.u32("TICK clocks"));
        break;
      case AccessOp::SET_TAG:
        o = AccessOp::set_tag(r.u64("SET_TAG tag"));
        break;
      case AccessOp::GET_TAG:
        o = AccessOp::get_tag();
        break;
      default:
        throw LinkError(ErrorCode::BAD_PAYLOAD, fmt::format("ACCESS: op {} has unknown kind {}", i, kind),
                        std::uint16_t(i));
    }
    a.ops.push_back(std::move(o));
  }
  r.end();
  return a;
}

std::size_t Access::reads() const {
  std::size_t n = 0;
  for (const AccessOp& o : ops) n += o.reads();
  return n;
}

bool Access::read_only() const {
  for (const AccessOp& o : ops) {
    if (o.mutates()) return false;
  }
  return true;
}

std::vector<std::uint8_t> AccessReply::encode() const {
  ByteWriter w;
  w.u16(chip);
  w.u16(failed_op);
  w.u32(failed_addr);
  w.u64(clock);
  write_words(w, words, "ACCESS reply");
  return std::move(w.bytes());
}

AccessReply AccessReply::decode(const std::vector<std::uint8_t>& p) {
  ByteReader r(p, "ACCESS reply");
  AccessReply a;
  a.chip = r.u16("chip");
  a.failed_op = r.u16("failed op");
  a.failed_addr = r.u32("failed address");
  a.clock = r.u64("clock");
  a.words = read_words(r, r.u16("n"), "words");
  r.end();
  return a;
}

// RUN ------------------------------------------------------------------------------------------

std::vector<std::uint8_t> Run::encode() const {
  ByteWriter w;
  w.u16(chip);
  w.u32(quantum);
  w.u32(max_quanta);
  w.u32(poll_addr);
  w.u32(poll_mask);
  w.u32(poll_value);
  write_words(w, reads, "RUN");
  return std::move(w.bytes());
}

Run Run::decode(const std::vector<std::uint8_t>& p) {
  ByteReader r(p, "RUN");
  Run x;
  x.chip = r.u16("chip");
  x.quantum = r.u32("quantum");
  x.max_quanta = r.u32("max quanta");
  x.poll_addr = r.u32("poll address");
  x.poll_mask = r.u32("poll mask");
  x.poll_value = r.u32("poll value");
  x.reads = read_words(r, r.u16("n"), "read addresses");
  r.end();
  if (x.quantum == 0) r.fail("quantum 0 (at least one clock between polls)");
  return x;
}

std::vector<std::uint8_t> RunReply::encode() const {
  ByteWriter w;
  w.u16(chip);
  w.u8(std::uint8_t(outcome));
  w.u32(quanta);
  w.u64(clock);
  write_words(w, words, "RUN reply");
  return std::move(w.bytes());
}

RunReply RunReply::decode(const std::vector<std::uint8_t>& p) {
  ByteReader r(p, "RUN reply");
  RunReply x;
  x.chip = r.u16("chip");
  const std::uint8_t o = r.u8("outcome");
  if (o > std::uint8_t(RunOutcome::TIMEOUT)) r.fail(fmt::format("outcome {} unknown", o));
  x.outcome = RunOutcome(o);
  x.quanta = r.u32("quanta");
  x.clock = r.u64("clock");
  x.words = read_words(r, r.u16("n"), "words");
  r.end();
  return x;
}

// DEBUG ----------------------------------------------------------------------------------------

std::vector<std::uint8_t> DebugReply::encode() const {
  ByteWriter w;
  w.u64(clock);
  w.u8(state);
  w.u8(ply);
  w.u16(move);
  w.u32(nodes);
  w.u16(leaf);
  w.u8(flags);
  return std::move(w.bytes());
}

DebugReply DebugReply::decode(const std::vector<std::uint8_t>& p) {
  ByteReader r(p, "DEBUG reply");
  DebugReply d;
  d.clock = r.u64("clock");
  d.state = r.u8("state");
  d.ply = r.u8("ply");
  d.move = r.u16("move");
  d.nodes = r.u32("nodes");
  d.leaf = r.u16("leaf");
  d.flags = r.u8("flags");
  r.end();
  return d;
}

// ERROR ----------------------------------------------------------------------------------------

std::vector<std::uint8_t> ErrorReply::encode() const {
  ByteWriter w;
  w.u16(std::uint16_t(code));
  w.u16(detail);
  w.text(message);
  return std::move(w.bytes());
}

ErrorReply ErrorReply::decode(const std::vector<std::uint8_t>& p) {
  ByteReader r(p, "ERROR");
  ErrorReply e;
  e.code = ErrorCode(r.u16("code"));
  e.detail = r.u16("detail");
  e.message = r.text("message");
  r.end();
  return e;
}

Frame error_frame(std::uint16_t seq, ErrorCode code, std::uint16_t detail, const std::string& message) {
  Frame f;
  f.type = type::ERROR;
  f.seq = seq;
  f.payload = ErrorReply{code, detail, message}.encode();
  return f;
}

}  // namespace db::link
