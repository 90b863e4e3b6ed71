// Bit helpers shared by the slow evaluation's reference code: bitboard fills and columns seen
// from one side (bit r = relative rank r), as the RTL's es_* modules compute them.
#pragma once

#include <cstdint>

namespace db::chip::slowbits {

constexpr std::uint64_t FILE_A = 0x0101010101010101ULL;
constexpr std::uint64_t NOT_A = ~FILE_A;
constexpr std::uint64_t NOT_H = ~(FILE_A << 7);
constexpr std::uint64_t LIGHT = 0x55AA55AA55AA55AAULL;  // light squares (b1, a2, ...)

inline std::uint64_t shift(std::uint64_t x, int s) { return s > 0 ? x << s : x >> -s; }

// Kogge-Stone occluded fill: squares attacked along one direction (shift s, mask m of the squares
// a step may land on) by the sliders in g, stopping at occupied squares.
inline std::uint64_t slide(std::uint64_t g, std::uint64_t empty, int s, std::uint64_t m) {
  std::uint64_t p = empty & m;
  g |= p & shift(g, s);
  p &= shift(p, s);
  g |= p & shift(g, 2 * s);
  p &= shift(p, 2 * s);
  g |= p & shift(g, 4 * s);
  return shift(g, s) & m;
}

// Attack sets of every man in a set at once (sliders stop at the first occupied square).
constexpr std::uint64_t NOT_AB = ~(FILE_A | FILE_A << 1);
constexpr std::uint64_t NOT_GH = ~(FILE_A << 6 | FILE_A << 7);

inline std::uint64_t diagonal_attacks(std::uint64_t g, std::uint64_t empty) {
  return slide(g, empty, 9, NOT_A) | slide(g, empty, 7, NOT_H) | slide(g, empty, -7, NOT_A) |
         slide(g, empty, -9, NOT_H);
}

inline std::uint64_t straight_attacks(std::uint64_t g, std::uint64_t empty) {
  return slide(g, empty, 8, ~0ULL) | slide(g, empty, -8, ~0ULL) | slide(g, empty, 1, NOT_A) |
         slide(g, empty, -1, NOT_H);
}

inline std::uint64_t knight_attacks(std::uint64_t b) {
  const std::uint64_t l1 = (b >> 1) & NOT_H, l2 = (b >> 2) & NOT_GH;
  const std::uint64_t r1 = (b << 1) & NOT_A, r2 = (b << 2) & NOT_AB;
  const std::uint64_t h1 = l1 | r1, h2 = l2 | r2;
  return h1 << 16 | h1 >> 16 | h2 << 8 | h2 >> 8;
}

inline std::uint64_t king_attacks(std::uint64_t b) {
  const std::uint64_t side = ((b << 1) & NOT_A) | ((b >> 1) & NOT_H);
  const std::uint64_t row = b | side;
  return side | row << 8 | row >> 8;
}

inline std::uint64_t pawn_attacks(std::uint64_t p, int colour) {
  if (colour == 0) return ((p & NOT_H) << 9) | ((p & NOT_A) << 7);
  return ((p & NOT_A) >> 9) | ((p & NOT_H) >> 7);
}

inline std::uint8_t reverse8(std::uint8_t x) {
  std::uint8_t r = 0;
  for (int i = 0; i < 8; ++i) r = std::uint8_t(r | ((x >> i & 1) << (7 - i)));
  return r;
}

// File f of a bitboard as an 8-bit column from colour c's side; files off the board are empty.
inline std::uint8_t column(std::uint64_t bb, int f, int c) {
  if (f < 0 || f > 7) return 0;
  // File f moved to file a, then one multiply gathers its eight bits into the top byte: bit r =
  // rank r (white's side), or bit r = rank 7 - r (black's); the partial products never overlap.
  const std::uint64_t x = (bb >> f) & FILE_A;
  return std::uint8_t((x * (c ? 0x8040201008040201ULL : 0x0102040810204080ULL)) >> 56);
}

// Files and ranks swapped (the a1-h8 flip): byte f holds file f, bit r of it rank r.
inline std::uint64_t transpose(std::uint64_t x) {
  std::uint64_t t = 0x0F0F0F0F00000000ULL & (x ^ (x << 28));
  x ^= t ^ (t >> 28);
  t = 0x3333000033330000ULL & (x ^ (x << 14));
  x ^= t ^ (t >> 14);
  t = 0x5500550055005500ULL & (x ^ (x << 7));
  x ^= t ^ (t >> 7);
  return x;
}

// Every file of a bitboard as a column from colour c's side at once: byte f is column(bb, f, c).
inline std::uint64_t columns(std::uint64_t bb, int c) { return transpose(c ? __builtin_bswap64(bb) : bb); }
// Column f of such a word (0 off the board), and the two files beside each file ORed.
inline std::uint8_t file_of(std::uint64_t cols, int f) { return f < 0 || f > 7 ? 0 : std::uint8_t(cols >> (8 * f)); }
inline std::uint64_t beside(std::uint64_t cols) { return cols << 8 | cols >> 8; }

inline bool bit(std::uint8_t x, int r) { return r >= 0 && r < 8 && (x >> r & 1); }
inline int lowest(std::uint8_t x) { return x ? __builtin_ctz(x) : -1; }
inline int highest(std::uint8_t x) { return x ? 31 - __builtin_clz(x) : -1; }
// Bits r with some bit of x above r.
inline std::uint8_t below_some(std::uint8_t x) {
  const int h = highest(x);
  return h <= 0 ? 0 : std::uint8_t((1u << h) - 1);
}
// Square of relative rank r on file f for colour c.
inline int square(int f, int r, int c) { return f + 8 * (c ? 7 - r : r); }

inline std::int32_t sext(std::uint32_t v, int bits) {
  const std::uint32_t m = 1u << (bits - 1);
  v &= (bits == 32) ? ~0u : ((1u << bits) - 1);
  return std::int32_t((v ^ m) - m);
}

}  // namespace db::chip::slowbits
