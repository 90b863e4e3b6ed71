// Frame encoding and the stream decoder.
#include "link/frame.h"

#include <fmt/format.h>

#include "link/crc32.h"

namespace db::link {

namespace {

std::uint32_t load_u32(const std::uint8_t* p) {
  return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 | std::uint32_t(p[3]) << 24;
}

}  // namespace

std::vector<std::uint8_t> encode_frame(const Frame& frame) {
  if (frame.payload.size() > kMaxPayload) {
    throw LinkError(ErrorCode::TOO_LONG,
                    fmt::format("frame payload of {} bytes over the limit of {}", frame.payload.size(), kMaxPayload));
  }
  std::vector<std::uint8_t> raw;
  raw.reserve(kHeaderSize + frame.payload.size() + kCrcSize);
  const std::size_t n = frame.payload.size();
  raw.insert(raw.end(), {frame.type, frame.flags, std::uint8_t(frame.seq), std::uint8_t(frame.seq >> 8),
                         std::uint8_t(n), std::uint8_t(n >> 8)});
  raw.insert(raw.end(), frame.payload.begin(), frame.payload.end());
  const std::uint32_t crc = crc32(raw.data(), raw.size());
  for (int i = 0; i < 4; ++i) raw.push_back(std::uint8_t(crc >> (8 * i)));
  std::vector<std::uint8_t> out = cobs_encode(raw);
  out.push_back(0);
  return out;
}

Frame parse_frame(const std::vector<std::uint8_t>& d, std::uint16_t& seq_out) {
  seq_out = kNoSeq;
  if (d.size() < kHeaderSize + kCrcSize) {
    throw LinkError(ErrorCode::BAD_FRAME, fmt::format("frame of {} bytes shorter than header and CRC ({})", d.size(),
                                                      kHeaderSize + kCrcSize));
  }
  const std::size_t body = d.size() - kCrcSize;
  const std::uint32_t want = load_u32(d.data() + body);
  const std::uint32_t got = crc32(d.data(), body);
  if (want != got) {
    throw LinkError(ErrorCode::BAD_CRC,
                    fmt::format("frame CRC 0x{:08X} does not match its bytes (0x{:08X})", want, got));
  }
  Frame f;
  f.type = d[0];
  f.flags = d[1];
  f.seq = std::uint16_t(d[2] | d[3] << 8);
  seq_out = f.seq;
  const std::size_t len = std::size_t(d[4] | d[5] << 8);
  if (len > kMaxPayload) {
    throw LinkError(ErrorCode::TOO_LONG, fmt::format("payload length {} over the limit of {}", len, kMaxPayload));
  }
  if (len != body - kHeaderSize) {
    throw LinkError(ErrorCode::BAD_FRAME,
                    fmt::format("length field {} but the frame holds {} payload bytes", len, body - kHeaderSize));
  }
  f.payload.assign(d.begin() + std::ptrdiff_t(kHeaderSize), d.begin() + std::ptrdiff_t(body));
  return f;
}

std::vector<DecodeResult> FrameDecoder::feed(const std::uint8_t* data, std::size_t size) {
  std::vector<DecodeResult> out;
  for (std::size_t i = 0; i < size; ++i) {
    const std::uint8_t b = data[i];
    if (b == 0) {
      finish(out);
      continue;
    }
    if (overflow_) continue;
    if (buffer_.size() == kMaxEncodedFrame) {
      overflow_ = true;
      buffer_.clear();
      ++errors_;
      DecodeResult r;
      r.error = ErrorCode::TOO_LONG;
      r.message = fmt::format("frame longer than {} encoded bytes: dropped up to the next delimiter", kMaxEncodedFrame);
      out.push_back(std::move(r));
      continue;
    }
    buffer_.push_back(b);
  }
  return out;
}

void FrameDecoder::finish(std::vector<DecodeResult>& out) {
  if (overflow_) {
    overflow_ = false;  // already reported
    return;
  }
  if (buffer_.empty()) return;
  DecodeResult r;
  try {
    r.frame = parse_frame(cobs_decode(buffer_), r.seq);
    r.ok = true;
    ++frames_;
  } catch (const LinkError& e) {
    r.error = e.code();
    r.message = e.what();
    ++errors_;
  }
  buffer_.clear();
  out.push_back(std::move(r));
}

}  // namespace db::link
