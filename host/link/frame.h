// Frames of the chip link (docs/link.md): the decoded layout
//   0 type u8 | 1 flags u8 | 2-3 seq u16 | 4-5 payload length u16 | 6.. payload | CRC-32 u32
// (little-endian; the CRC covers bytes 0 to the payload's end), COBS-encoded and ended by one 0x00.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "link/cobs.h"
#include "link/error.h"

namespace db::link {

constexpr std::size_t kHeaderSize = 6;
constexpr std::size_t kCrcSize = 4;
constexpr std::size_t kMaxPayload = 4096;
constexpr std::size_t kMaxDecodedFrame = kHeaderSize + kMaxPayload + kCrcSize;
constexpr std::size_t kMaxEncodedFrame = cobs_max_encoded(kMaxDecodedFrame);  // without the delimiter
// The sequence number of an ERROR reply to a frame whose own number is unknown (its CRC failed).
constexpr std::uint16_t kNoSeq = 0xFFFF;

struct Frame {
  std::uint8_t type = 0;
  std::uint8_t flags = 0;
  std::uint16_t seq = 0;
  std::vector<std::uint8_t> payload;
};

// The frame's bytes on the wire: COBS(header, payload, CRC) and the 0x00 delimiter. Throws LinkError
// TOO_LONG for a payload over kMaxPayload.
std::vector<std::uint8_t> encode_frame(const Frame& frame);

// Parses one decoded (un-COBSed) frame: checks size, CRC, then the length field. Throws LinkError
// (BAD_FRAME, BAD_CRC, TOO_LONG); seq_out receives the frame's sequence number once its CRC holds,
// else kNoSeq.
Frame parse_frame(const std::vector<std::uint8_t>& decoded, std::uint16_t& seq_out);

// One complete frame from the stream, or what was wrong with the bytes up to a delimiter.
struct DecodeResult {
  bool ok = false;
  Frame frame;                        // when ok
  ErrorCode error = ErrorCode::NONE;  // when not ok
  std::uint16_t seq = kNoSeq;         // the bad frame's sequence number when its CRC held
  std::string message;                // what was wrong
};

// Splits a byte stream into frames. Bytes may arrive in any pieces. A receiver that starts in the
// middle of a frame, or meets a corrupted byte, reports one error for the bytes up to the next 0x00
// and is in step again after it (a 0x00 never occurs inside an encoded frame). Bytes beyond
// kMaxEncodedFrame without a delimiter are dropped (one TOO_LONG) up to the next 0x00, so memory stays
// bounded. Empty frames (0x00 0x00) are ignored: a sender may send 0x00 to put a receiver in step.
class FrameDecoder {
 public:
  std::vector<DecodeResult> feed(const std::uint8_t* data, std::size_t size);
  // Frames and errors counted since construction.
  std::uint64_t frames() const { return frames_; }
  std::uint64_t errors() const { return errors_; }
  // Bytes waiting for their delimiter.
  std::size_t pending() const { return buffer_.size(); }

 private:
  void finish(std::vector<DecodeResult>& out);
  std::vector<std::uint8_t> buffer_;
  bool overflow_ = false;  // dropping bytes up to the next delimiter
  std::uint64_t frames_ = 0;
  std::uint64_t errors_ = 0;
};

}  // namespace db::link
