// Consistent Overhead Byte Stuffing (Cheshire and Baker, 1999): rewrites a block so that it holds no
// 0x00, at a cost of one byte per 254 (plus one), so that 0x00 can mark the end of every frame on a
// byte stream. Unlike a sync pattern, the delimiter can never occur inside an encoded payload.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace db::link {

// The encoding of data (no 0x00 in it; the caller appends the delimiter).
std::vector<std::uint8_t> cobs_encode(const std::uint8_t* data, std::size_t size);
inline std::vector<std::uint8_t> cobs_encode(const std::vector<std::uint8_t>& data) {
  return cobs_encode(data.data(), data.size());
}

// Decodes one encoded block (without its delimiter); throws LinkError BAD_FRAME naming the offset of
// a 0x00 inside it or of a code byte that points past its end.
std::vector<std::uint8_t> cobs_decode(const std::uint8_t* data, std::size_t size);
inline std::vector<std::uint8_t> cobs_decode(const std::vector<std::uint8_t>& data) {
  return cobs_decode(data.data(), data.size());
}

// The largest encoding of n bytes.
constexpr std::size_t cobs_max_encoded(std::size_t n) { return n + n / 254 + 1; }

}  // namespace db::link
