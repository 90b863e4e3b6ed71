// One endgame database: the index of a material's positions (with the board's symmetries) and one
// byte per index (value.h). The index is side to move, the white king on one of the squares left by
// the symmetries (10 without pawns: a1-d1-d4; 32 with: files a-d), then 64 squares for each other
// piece (black king, white pieces strongest first, black pieces). Positions with two like pieces
// are stored once, the lower square first; an index that breaks a rule holds kInvalid.
//
// File (material.name() + ".dbtb"): "DBEGTB1\n", the material name (16 bytes, zero padded), the
// entry count and the compressed size (little-endian u64), the CRC-32 of the entries (u32), then
// the entries compressed with zlib.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "egtb/board.h"
#include "egtb/material.h"
#include "egtb/value.h"

namespace db::egtb {

class Layout {
 public:
  explicit Layout(const Material& canonical);
  const Material& material() const { return material_; }
  std::uint64_t size() const { return size_; }
  // The index of b, which has this material with white as the table's white (any symmetry).
  std::uint64_t index(const Board& b) const;
  // The position at an index; false when the index is no legal canonical position.
  bool decode(std::uint64_t index, Board& b) const;

 private:
  Material material_;
  bool pawns_;
  int kings_;  // white king squares: 10 or 32
  int n_;      // pieces
  Piece slots_[kMaxPieces];
  std::uint64_t size_;
};

struct Table {
  Layout layout;
  std::vector<std::uint8_t> entries;  // layout.size() of them

  explicit Table(const Material& canonical) : layout(canonical), entries(layout.size(), kInvalid) {}
  Value value(const Board& b) const { return Value::from_code(entries[layout.index(b)]); }
};

std::string table_file_name(const Material& m);  // "KQvKR.dbtb"
// Throw std::runtime_error naming the file and what is wrong.
void write_table(const std::string& path, const Table& t);
Table read_table(const std::string& path);

}  // namespace db::egtb
