#include "book/polyglot_book.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "book/book_move.h"
#include "book/polyglot_key.h"

namespace db::book {

const char* const kDefaultBookPath = "/usr/share/games/gnuchess/book.bin";

namespace {

std::string hex(Key k) {
  std::ostringstream s;
  s << std::hex;
  s.width(16);
  s.fill('0');
  s << k;
  return s.str();
}

std::uint64_t get_be(const unsigned char* p, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v = (v << 8) | p[i];
  return v;
}

void put_be(std::string& out, std::uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out += char((v >> (8 * i)) & 0xff);
}

}  // namespace

void put_entry(std::string& out, const Entry& e) {
  put_be(out, e.key, 8);
  put_be(out, e.move, 2);
  put_be(out, e.weight, 2);
  put_be(out, e.learn, 4);
}

Entry get_entry(const unsigned char* p) {
  Entry e;
  e.key = get_be(p, 8);
  e.move = std::uint16_t(get_be(p + 8, 2));
  e.weight = std::uint16_t(get_be(p + 10, 2));
  e.learn = std::uint32_t(get_be(p + 12, 4));
  return e;
}

PolyglotBook PolyglotBook::open(const std::string& path) {
  std::error_code ec;
  // A directory opens as a stream on Linux and reads as empty: say what it is instead.
  if (std::filesystem::is_directory(path, ec)) throw BookError("book '" + path + "': is a directory, not a book file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw BookError("book '" + path + "': cannot open: " + std::strerror(errno));
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) throw BookError("book '" + path + "': cannot read: " + std::strerror(errno));
  return from_bytes(bytes.str(), path);
}

PolyglotBook PolyglotBook::from_bytes(const std::string& bytes, const std::string& name) {
  if (bytes.size() % kEntryBytes != 0)
    throw BookError("book '" + name + "': size " + std::to_string(bytes.size()) +
                    " bytes is not a multiple of 16 (not a Polyglot book, or cut short)");
  PolyglotBook book;
  book.name_ = name;
  book.entries_.reserve(bytes.size() / kEntryBytes);
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  for (std::size_t i = 0; i < bytes.size(); i += kEntryBytes) {
    const Entry e = get_entry(p + i);
    // The lookup is a binary search: one key out of order would hide entries silently.
    if (!book.entries_.empty() && e.key < book.entries_.back().key)
      throw BookError("book '" + name + "': keys not sorted: entry " + std::to_string(i / kEntryBytes) + " has key " +
                      hex(e.key) + " after " + hex(book.entries_.back().key));
    book.entries_.push_back(e);
  }
  return book;
}

std::vector<Entry> PolyglotBook::find(Key key) const {
  auto less = [](const Entry& e, Key k) { return e.key < k; };
  auto first = std::lower_bound(entries_.begin(), entries_.end(), key, less);
  std::vector<Entry> out;
  for (auto it = first; it != entries_.end() && it->key == key; ++it) out.push_back(*it);
  return out;
}

std::vector<BookMove> PolyglotBook::probe(const Position& pos) const {
  std::vector<BookMove> out;
  for (const Entry& e : find(polyglot_key(pos))) {
    const Move m = decode_move(pos, e.move);
    if (!m.is_none()) out.push_back({m, e.weight, e.learn});
  }
  std::stable_sort(out.begin(), out.end(), [](const BookMove& a, const BookMove& b) { return a.weight > b.weight; });
  return out;
}

}  // namespace db::book
