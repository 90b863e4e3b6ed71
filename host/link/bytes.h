// Little-endian fields in a payload: a writer that appends and a reader that throws LinkError
// BAD_PAYLOAD naming the field when the payload is too short (and, at the end, too long).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "link/error.h"

namespace db::link {

class ByteWriter {
 public:
  void u8(std::uint8_t v) { out_.push_back(v); }
  void u16(std::uint16_t v) { put(v, 2); }
  void u32(std::uint32_t v) { put(v, 4); }
  void u64(std::uint64_t v) { put(v, 8); }
  // A u8 length and the bytes; a longer text is cut at 255 bytes.
  void text(const std::string& s) {
    const std::size_t n = s.size() < 255 ? s.size() : 255;
    u8(std::uint8_t(n));
    out_.insert(out_.end(), s.begin(), s.begin() + std::ptrdiff_t(n));
  }
  std::vector<std::uint8_t>& bytes() { return out_; }

 private:
  void put(std::uint64_t v, int n) {
    for (int i = 0; i < n; ++i) out_.push_back(std::uint8_t(v >> (8 * i)));
  }
  std::vector<std::uint8_t> out_;
};

class ByteReader {
 public:
  // what: the message's name, for errors ("ACCESS: payload truncated in op 3's address").
  ByteReader(const std::vector<std::uint8_t>& in, const char* what) : in_(in), what_(what) {}
  std::uint8_t u8(const char* field) { return std::uint8_t(get(1, field)); }
  std::uint16_t u16(const char* field) { return std::uint16_t(get(2, field)); }
  std::uint32_t u32(const char* field) { return std::uint32_t(get(4, field)); }
  std::uint64_t u64(const char* field) { return get(8, field); }
  std::string text(const char* field) {
    const std::size_t n = u8(field);
    need(n, field);
    std::string s(in_.begin() + std::ptrdiff_t(pos_), in_.begin() + std::ptrdiff_t(pos_ + n));
    pos_ += n;
    return s;
  }
  std::size_t remaining() const { return in_.size() - pos_; }
  // Throws unless every byte was read.
  void end() const {
    if (pos_ != in_.size()) {
      throw LinkError(ErrorCode::BAD_PAYLOAD, std::string(what_) + ": " + std::to_string(in_.size() - pos_) +
                                                  " extra bytes after the last field");
    }
  }
  [[noreturn]] void fail(const std::string& why) const {
    throw LinkError(ErrorCode::BAD_PAYLOAD, std::string(what_) + ": " + why);
  }

 private:
  void need(std::size_t n, const char* field) const {
    if (in_.size() - pos_ < n) {
      fail(std::string("payload truncated in ") + field + " (at byte " + std::to_string(pos_) + " of " +
           std::to_string(in_.size()) + ")");
    }
  }
  std::uint64_t get(int n, const char* field) {
    need(std::size_t(n), field);
    std::uint64_t v = 0;
    for (int i = 0; i < n; ++i) v |= std::uint64_t(in_[pos_ + std::size_t(i)]) << (8 * i);
    pos_ += std::size_t(n);
    return v;
  }
  const std::vector<std::uint8_t>& in_;
  std::size_t pos_ = 0;
  const char* what_;
};

}  // namespace db::link
