// COBS: each block is a code byte c followed by c - 1 non-zero bytes; c < 0xFF means a 0x00 follows
// the block (except after the last one), c == 0xFF means 254 bytes and no 0x00.
#include "link/cobs.h"

#include <string>

#include "link/error.h"

namespace db::link {

std::vector<std::uint8_t> cobs_encode(const std::uint8_t* data, std::size_t size) {
  std::vector<std::uint8_t> out;
  out.reserve(cobs_max_encoded(size));
  std::size_t code_at = out.size();
  out.push_back(0);  // code byte of the current block, filled in when the block ends
  std::uint8_t code = 1;
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == 0) {
      out[code_at] = code;
      code_at = out.size();
      out.push_back(0);
      code = 1;
      continue;
    }
    out.push_back(data[i]);
    if (++code == 0xFF) {
      // A full block of 254 bytes: it ends without an implied zero. A new block starts only if data
      // follows (the encoding of exactly 254 bytes is 0xFF + the bytes, without an empty block).
      out[code_at] = code;
      code = 1;
      if (i + 1 < size) {
        code_at = out.size();
        out.push_back(0);
      } else {
        return out;
      }
    }
  }
  out[code_at] = code;
  return out;
}

std::vector<std::uint8_t> cobs_decode(const std::uint8_t* data, std::size_t size) {
  std::vector<std::uint8_t> out;
  out.reserve(size);
  std::size_t i = 0;
  while (i < size) {
    const std::uint8_t code = data[i];
    if (code == 0) throw LinkError(ErrorCode::BAD_FRAME, "COBS: 0x00 inside a frame at offset " + std::to_string(i));
    if (i + code > size) {
      throw LinkError(ErrorCode::BAD_FRAME, "COBS: block at offset " + std::to_string(i) + " of length " +
                                                std::to_string(code) + " runs past the frame's end (" +
                                                std::to_string(size) + " bytes)");
    }
    for (std::size_t k = 1; k < code; ++k) {
      if (data[i + k] == 0) {
        throw LinkError(ErrorCode::BAD_FRAME, "COBS: 0x00 inside a frame at offset " + std::to_string(i + k));
      }
      out.push_back(data[i + k]);
    }
    i += code;
    if (code < 0xFF && i < size) out.push_back(0);
  }
  return out;
}

}  // namespace db::link
