// Helpers for the book tests: positions after UCI moves, and small books written to temporary files.
#pragma once

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "book/polyglot_book.h"
#include "chess/notation.h"
#include "chess/position.h"

namespace db::book::testing {

inline Position after(const std::string& uci_moves, const std::string& fen = kStartFen) {
  Position pos = Position::from_fen(fen);
  std::string word;
  for (std::size_t i = 0; i <= uci_moves.size(); ++i) {
    if (i == uci_moves.size() || uci_moves[i] == ' ') {
      if (!word.empty()) pos.make_move(parse_uci(pos, word));
      word.clear();
    } else {
      word += uci_moves[i];
    }
  }
  return pos;
}

// A file in the test's temporary directory, removed when the object goes.
class TempFile {
 public:
  explicit TempFile(const std::string& name) : path_(::testing::TempDir() + name) {}
  ~TempFile() { std::remove(path_.c_str()); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }
  void write(const std::string& bytes) const {
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
  }

 private:
  std::string path_;
};

inline std::string bytes_of(const std::vector<Entry>& entries) {
  std::string bytes;
  for (const Entry& e : entries) put_entry(bytes, e);
  return bytes;
}

}  // namespace db::book::testing
