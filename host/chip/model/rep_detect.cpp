// See rep_detect.h.
#include "chip/model/rep_detect.h"

#include <cstring>

#include "chess/bitboard.h"
#include "chip/array_model.h"

namespace db::chip {

std::uint8_t RepDetect::rep_status(const std::array<std::uint8_t, 64>& board_i, std::uint8_t castling_i,
                                   std::uint8_t ep_i, int moves) const {
  std::uint8_t status = 0;
  // The current board as eight words of eight squares (4-bit piece codes in bytes).
  std::uint64_t now[8];
  std::memcpy(now, board_i.data(), sizeof now);
  for (int k = 0; k < moves && k < 32; ++k) {
    std::uint64_t then[8];
    std::memcpy(then, board_q[k].data(), sizeof then);
    int differ = 0;  // differing squares, counted up to 3 as the comparator saturates
    for (int w = 0; w < 8 && differ < 3; ++w) {
      std::uint64_t x = now[w] ^ then[w];
      x |= x >> 1;
      x |= x >> 2;  // bit 0 of each byte: the square's code differs
      differ += popcount(x & 0x0101010101010101ULL);
    }
    const bool same_side = ((moves - k) & 1) == 0;
    if (same_side && differ == 0 && cast_q[k] == castling_i && ep_q[k] == ep_i) status |= 1;
    if (!same_side && differ == 2) status |= 2;
  }
  return status;
}

bool RepDetect::no_progress(const std::array<std::uint8_t, 64>& board_i, bool stm, int base, int moves) const {
  const std::uint8_t mover = stm ? 0 : CHIP_BLACK;  // the side that just moved
  for (int k = base; k + 3 <= moves && k < 32; ++k) {
    if (((moves - k) & 1) == 0) continue;  // the other side to move there
    int differ = 0;
    bool movers = false, others = false;
    for (int sq = 0; sq < 64; ++sq) {
      if (board_q[k][sq] == board_i[sq]) continue;
      ++differ;
      const std::uint8_t p = board_i[sq];
      if (p & 7) ((p & CHIP_BLACK) == mover ? movers : others) = true;
    }
    if (differ == 2 && movers && !others) return true;
  }
  return false;
}

std::uint16_t RepDetect::repeating_move(const std::array<std::uint8_t, 64>& board_i, bool stm, int ply) const {
  const std::uint8_t own = stm ? CHIP_BLACK : 0;
  for (int k = 0; k < ply && k < 32; ++k) {
    if (((ply - k) & 1) == 0) continue;  // the other side to move there
    int differ = 0, from = 0, to = 0;
    bool owns = false, others = false, empties = false;
    for (int sq = 0; sq < 64; ++sq) {
      if (board_q[k][sq] == board_i[sq]) continue;
      ++differ;
      const std::uint8_t p = board_i[sq];
      if ((p & 7) == 0) {
        empties = true;
        to |= sq;
      } else {
        ((p & CHIP_BLACK) == own ? owns : others) = true;
        from |= sq;
      }
    }
    if (differ == 2 && owns && !others && empties) return std::uint16_t(0x8000 | to << 6 | from);
  }
  return 0;
}

}  // namespace db::chip
