// The king-and-pawn versus king ROM of the chip's endgame logic (Micro, "Endgame ROM interface"):
// for every placement it tells whether the pawn side wins. Its contents come from our own
// retrograde analysis here; tests check them against an independent solution built on the chess
// core's move generator.
#pragma once

#include <cstdint>
#include <vector>

#include "chess/types.h"

namespace db::eval {

// ROM address: side to move (1 bit) | black king (6) | white king (6) | pawn file a-d (2) | pawn rank 2-7 (3,
// as rank - 1, 0..5). The pawn side is white; other placements are normalised by colour flip and mirroring.
constexpr int kKpkAddressBits = 1 + 6 + 6 + 2 + 3;
constexpr std::uint32_t kKpkSize = 1u << kKpkAddressBits;  // 2^18 bits; 196608 of them are used

std::uint32_t kpk_address(Color side_to_move, Square white_king, Square white_pawn, Square black_king);

class KpkRom {
 public:
  KpkRom();  // runs the retrograde analysis (a few tens of milliseconds)
  // True when white (the pawn side) wins. The pawn must be on files a-d, ranks 2-7; the placement
  // must be legal (kings apart, the side not to move not in check).
  bool white_wins(Color side_to_move, Square white_king, Square white_pawn, Square black_king) const;
  // Any KPK placement, either colour with the pawn, any file: true when the pawn side wins.
  bool pawn_side_wins(Color pawn_side, Color side_to_move, Square strong_king, Square pawn, Square weak_king) const;
  const std::vector<std::uint8_t>& bits() const { return bits_; }  // kKpkSize / 8 bytes, LSB first
  std::uint32_t win_count() const;

 private:
  std::vector<std::uint8_t> bits_;
};

const KpkRom& kpk_rom();  // built once on first use

}  // namespace db::eval
