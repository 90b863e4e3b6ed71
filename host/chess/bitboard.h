// Bitboard helpers and precomputed attack tables (magic bitboards for sliders).
#pragma once

#include <bit>
#include <cstdint>

#include "chess/types.h"

namespace db {

constexpr Bitboard FILE_A_BB = 0x0101010101010101ULL;
constexpr Bitboard FILE_H_BB = FILE_A_BB << 7;
constexpr Bitboard RANK_1_BB = 0xFFULL;
constexpr Bitboard RANK_8_BB = RANK_1_BB << 56;

inline int popcount(Bitboard b) { return __builtin_popcountll(b); }
inline Square lsb(Bitboard b) { return __builtin_ctzll(b); }
inline Square pop_lsb(Bitboard& b) {
  Square s = lsb(b);
  b &= b - 1;
  return s;
}
constexpr bool more_than_one(Bitboard b) { return (b & (b - 1)) != 0; }
constexpr Bitboard rank_bb(int r) { return RANK_1_BB << (8 * r); }
constexpr Bitboard file_bb(int f) { return FILE_A_BB << f; }

// Shift a whole board one step; files wrapping around the edge are masked off.
template <int D>
constexpr Bitboard shift(Bitboard b) {
  if constexpr (D == 8)
    return b << 8;
  else if constexpr (D == -8)
    return b >> 8;
  else if constexpr (D == 9)
    return (b & ~FILE_H_BB) << 9;
  else if constexpr (D == 7)
    return (b & ~FILE_A_BB) << 7;
  else if constexpr (D == -7)
    return (b & ~FILE_H_BB) >> 7;
  else if constexpr (D == -9)
    return (b & ~FILE_A_BB) >> 9;
  else
    return 0;
}

namespace attacks {

struct Magic {
  Bitboard mask;
  Bitboard magic;
  const Bitboard* table;
  unsigned shift;
  unsigned index(Bitboard occupied) const {
#if defined(__BMI2__)
    return unsigned(__builtin_ia32_pext_di(occupied, mask));
#else
    return unsigned(((occupied & mask) * magic) >> shift);
#endif
  }
};

extern Bitboard pawn[COLOR_NB][64];
extern Bitboard knight[64];
extern Bitboard king[64];
extern Magic bishop_magics[64];
extern Magic rook_magics[64];
// between[a][b]: squares strictly between a and b on a line, plus b itself (empty if not aligned).
extern Bitboard between[64][64];
// line[a][b]: the whole line through a and b, edge to edge (empty if not aligned).
extern Bitboard line[64][64];

inline Bitboard bishop(Square s, Bitboard occupied) {
  const Magic& m = bishop_magics[s];
  return m.table[m.index(occupied)];
}
inline Bitboard rook(Square s, Bitboard occupied) {
  const Magic& m = rook_magics[s];
  return m.table[m.index(occupied)];
}
inline Bitboard queen(Square s, Bitboard occupied) { return bishop(s, occupied) | rook(s, occupied); }

// Slow reference ray walk, used to build the tables and in tests.
Bitboard slider_reference(PieceType t, Square s, Bitboard occupied);

}  // namespace attacks
}  // namespace db
