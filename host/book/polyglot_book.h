// Reading Polyglot opening books: 16-byte big-endian entries (key u64, move u16, weight u16, learn
// u32) sorted by key, several entries per position. The whole file is read and checked once, so a
// probe is a binary search in memory and a bad file is reported when it is opened, not mid-game.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "chess/position.h"
#include "chess/types.h"

namespace db::book {

// Debian's gnuchess-book (scripts/deps installs it): the default book of the engine and the tools.
extern const char* const kDefaultBookPath;

constexpr std::size_t kEntryBytes = 16;

struct Entry {
  Key key = 0;
  std::uint16_t move = 0;  // Polyglot's move field (book_move.h)
  std::uint16_t weight = 0;
  std::uint32_t learn = 0;
  bool operator==(const Entry& o) const {
    return key == o.key && move == o.move && weight == o.weight && learn == o.learn;
  }
};

// A book entry decoded to a legal move of the probed position.
struct BookMove {
  Move move;
  std::uint16_t weight = 0;
  std::uint32_t learn = 0;
};

// A book that cannot be used. The message names the file and what is wrong with it.
class BookError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class PolyglotBook {
 public:
  PolyglotBook() = default;  // an empty book
  // Throws BookError: missing or unreadable file, size not a multiple of 16, keys out of order.
  static PolyglotBook open(const std::string& path);
  // The same checks on bytes already in memory; name is used in the messages.
  static PolyglotBook from_bytes(const std::string& bytes, const std::string& name);

  const std::string& name() const { return name_; }
  std::size_t size() const { return entries_.size(); }
  const std::vector<Entry>& entries() const { return entries_; }

  // Every entry with this key, in file order.
  std::vector<Entry> find(Key key) const;
  // The entries of pos whose move is legal there, highest weight first (ties in file order). An
  // entry naming no legal move (a key collision or a damaged book) is left out.
  std::vector<BookMove> probe(const Position& pos) const;

 private:
  std::string name_;
  std::vector<Entry> entries_;
};

// The bytes of an entry, big-endian, and back (for writers and tests).
void put_entry(std::string& out, const Entry& e);
Entry get_entry(const unsigned char* bytes);

}  // namespace db::book
