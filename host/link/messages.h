// The chip link's messages (docs/link.md): type codes and one struct per payload, each with
// encode() to a payload and a static decode() that throws LinkError (BAD_PAYLOAD) naming the field
// that is truncated, extra or out of range. The link knows no register meanings: addresses and words
// are opaque 32-bit values (addresses at most 17 bits wide).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "link/error.h"
#include "link/frame.h"

namespace db::link {

constexpr std::uint16_t kProtocolVersion = 1;
constexpr std::uint32_t kChipClockHz = 24000000;
constexpr int kAddressBits = 17;
constexpr std::uint16_t kAllChips = 0xFFFF;    // CLAIM count: every free chip
constexpr std::uint16_t kNoFailedOp = 0xFFFF;  // ACCESS reply: no op failed

namespace type {
// Requests (0x01-0x7F).
constexpr std::uint8_t HELLO = 0x01;
constexpr std::uint8_t CLAIM = 0x02;
constexpr std::uint8_t RELEASE = 0x03;
constexpr std::uint8_t RESET = 0x04;
constexpr std::uint8_t ACCESS = 0x05;
constexpr std::uint8_t RUN = 0x06;
constexpr std::uint8_t ABORT = 0x07;
constexpr std::uint8_t DEBUG = 0x08;
// Replies (0x80-0xFF): a request's type | 0x80, OK for the requests that return nothing, ERROR.
constexpr std::uint8_t OK = 0x80;
constexpr std::uint8_t HELLO_REPLY = 0x81;
constexpr std::uint8_t CLAIM_REPLY = 0x82;
constexpr std::uint8_t ACCESS_REPLY = 0x85;
constexpr std::uint8_t RUN_REPLY = 0x86;
constexpr std::uint8_t DEBUG_REPLY = 0x88;
constexpr std::uint8_t ERROR = 0xFF;
}  // namespace type

// "HELLO", "ACCESS_REPLY", ...; "0xNN" for an unknown type.
std::string type_name(std::uint8_t t);

enum class Backend : std::uint8_t { MODEL = 0, RTL = 1, COSIM = 2, BOARD = 3 };

struct Hello {
  std::uint16_t min_version = kProtocolVersion;
  std::uint16_t max_version = kProtocolVersion;
  std::string name;  // the client's name, at most 255 bytes
  std::vector<std::uint8_t> encode() const;
  static Hello decode(const std::vector<std::uint8_t>& payload);
};

struct HelloReply {
  std::uint16_t version = kProtocolVersion;
  std::uint16_t chips_total = 0;
  std::uint16_t chips_free = 0;
  std::uint8_t backend = 0;  // Backend
  std::uint32_t clock_hz = kChipClockHz;
  std::uint16_t max_payload = std::uint16_t(kMaxPayload);
  std::string name;  // the server's name
  std::vector<std::uint8_t> encode() const;
  static HelloReply decode(const std::vector<std::uint8_t>& payload);
};

struct Claim {
  std::uint16_t count = 1;  // kAllChips = every free chip
  std::vector<std::uint8_t> encode() const;
  static Claim decode(const std::vector<std::uint8_t>& payload);
};

struct ClaimReply {
  std::vector<std::uint16_t> chips;  // server-wide indices
  std::vector<std::uint8_t> encode() const;
  static ClaimReply decode(const std::vector<std::uint8_t>& payload);
};

// The payload of RELEASE, RESET, ABORT and DEBUG: one chip index.
struct ChipRef {
  std::uint16_t chip = 0;
  std::vector<std::uint8_t> encode() const;
  static ChipRef decode(const std::vector<std::uint8_t>& payload);
};
using Release = ChipRef;
using Reset = ChipRef;
using Abort = ChipRef;
using Debug = ChipRef;

struct AccessOp {
  enum Kind : std::uint8_t { WRITE = 0, READ = 1, BLOCK_WRITE = 2, BLOCK_READ = 3, TICK = 4, SET_TAG = 5, GET_TAG = 6 };
  Kind kind = READ;
  std::uint32_t addr = 0;            // WRITE, READ, BLOCK_WRITE, BLOCK_READ
  std::uint32_t data = 0;            // WRITE
  std::vector<std::uint32_t> words;  // BLOCK_WRITE
  std::uint16_t count = 0;           // BLOCK_READ
  std::uint32_t clocks = 0;          // TICK
  std::uint64_t tag = 0;             // SET_TAG

  static AccessOp write(std::uint32_t addr, std::uint32_t data);
  static AccessOp read(std::uint32_t addr);
  static AccessOp block_write(std::uint32_t addr, std::vector<std::uint32_t> words);
  static AccessOp block_read(std::uint32_t addr, std::uint16_t count);
  static AccessOp tick(std::uint32_t clocks);
  static AccessOp set_tag(std::uint64_t tag);
  static AccessOp get_tag();
  // Words this op adds to the reply (READ 1, BLOCK_READ count, GET_TAG 2).
  std::size_t reads() const;
  // Bus accesses (chip clocks with a request) this op makes.
  std::size_t accesses() const;
  // Whether the op changes the chip (a write, clocks, the tag): such batches are never retried.
  bool mutates() const;
  bool operator==(const AccessOp& o) const;
};

struct Access {
  std::uint16_t chip = 0;
  std::vector<AccessOp> ops;
  std::vector<std::uint8_t> encode() const;
  static Access decode(const std::vector<std::uint8_t>& payload);
  // Words the reply will carry.
  std::size_t reads() const;
  // Only reads (READ, BLOCK_READ, GET_TAG): may be retried.
  bool read_only() const;
};

struct AccessReply {
  std::uint16_t chip = 0;
  std::uint16_t failed_op = kNoFailedOp;  // index of the op whose bus response had error set
  std::uint32_t failed_addr = 0;          // its address (the word's address in a block op)
  std::uint64_t clock = 0;                // the chip's clock after the batch
  std::vector<std::uint32_t> words;       // read words, in order, block reads expanded
  std::vector<std::uint8_t> encode() const;
  static AccessReply decode(const std::vector<std::uint8_t>& payload);
  // Bytes of a reply carrying n words.
  static constexpr std::size_t size_for(std::size_t n) { return 2 + 2 + 4 + 8 + 2 + 4 * n; }
};

struct Run {
  std::uint16_t chip = 0;
  std::uint32_t quantum = 1;     // clocks between polls, at least 1
  std::uint32_t max_quanta = 0;  // 0 = no budget (only the server's watchdog)
  std::uint32_t poll_addr = 0;
  std::uint32_t poll_mask = 0;
  std::uint32_t poll_value = 0;
  std::vector<std::uint32_t> reads;  // addresses read once at the end
  std::vector<std::uint8_t> encode() const;
  static Run decode(const std::vector<std::uint8_t>& payload);
};

enum class RunOutcome : std::uint8_t { DONE = 0, BUDGET = 1, ABORTED = 2, TIMEOUT = 3 };
const char* outcome_name(RunOutcome o);

struct RunReply {
  std::uint16_t chip = 0;
  RunOutcome outcome = RunOutcome::DONE;
  std::uint32_t quanta = 0;  // completed quanta (polls made)
  std::uint64_t clock = 0;   // the chip's clock after the run and the reads
  std::vector<std::uint32_t> words;
  std::vector<std::uint8_t> encode() const;
  static RunReply decode(const std::vector<std::uint8_t>& payload);
  static constexpr std::size_t size_for(std::size_t n) { return 2 + 1 + 4 + 8 + 2 + 4 * n; }
};

struct DebugReply {
  std::uint64_t clock = 0;
  std::uint8_t state = 0;
  std::uint8_t ply = 0;
  std::uint16_t move = 0;
  std::uint32_t nodes = 0;
  std::uint16_t leaf = 0;
  std::uint8_t flags = 0;
  std::vector<std::uint8_t> encode() const;
  static DebugReply decode(const std::vector<std::uint8_t>& payload);
};

struct ErrorReply {
  ErrorCode code = ErrorCode::INTERNAL;
  std::uint16_t detail = 0;  // the op index, chip index or 0
  std::string message;       // at most 255 bytes
  std::vector<std::uint8_t> encode() const;
  static ErrorReply decode(const std::vector<std::uint8_t>& payload);
};

// An ERROR frame (reply) with the given sequence number.
Frame error_frame(std::uint16_t seq, ErrorCode code, std::uint16_t detail, const std::string& message);

}  // namespace db::link
