#include "chip/slow_pieces.h"

#include <algorithm>

#include "chip/array_model.h"
#include "chip/slow_bits.h"

namespace db::chip {

using namespace slowbits;

namespace {

int popcount(std::uint64_t x) { return __builtin_popcountll(x); }

// The whole diagonal through a square (both directions, the square included), and what a bishop
// there attacks on it.
struct Diagonal {
  std::uint64_t line, attacks;
};
struct DiagonalLines {
  std::uint64_t main[64], anti[64];  // a1-h8 and a8-h1 directions
  constexpr DiagonalLines() : main(), anti() {
    for (int sq = 0; sq < 64; ++sq) {
      for (int t = 0; t < 64; ++t) {
        const int df = t % 8 - sq % 8, dr = t / 8 - sq / 8;
        if (df == dr) main[sq] |= 1ULL << t;
        if (df == -dr) anti[sq] |= 1ULL << t;
      }
    }
  }
};
constexpr DiagonalLines DIAGONAL_LINES{};

Diagonal diagonal(int sq, std::uint64_t empty, bool main) {
  // main (a1-h8): +9 lands off file a, -9 off file h; anti (a8-h1): +7 off file h, -7 off file a.
  const std::uint64_t one = 1ULL << sq;
  const int up = main ? 9 : 7, down = main ? -9 : -7;
  const std::uint64_t m_up = main ? NOT_A : NOT_H, m_down = main ? NOT_H : NOT_A;
  Diagonal d;
  d.attacks = slide(one, empty, up, m_up) | slide(one, empty, down, m_down);
  d.line = main ? DIAGONAL_LINES.main[sq] : DIAGONAL_LINES.anti[sq];
  return d;
}

}  // namespace

PieceIndices piece_indices(const SlowBoard& b, int c, int f) {
  const int e = 1 - c;
  const auto& mine = b.pieces[c];
  const auto& theirs = b.pieces[e];
  const SideColumns& v = b.cols[std::size_t(c)];
  const std::uint8_t own = file_of(v.own_pawns, f), opp = file_of(v.enemy_pawns, f);
  const std::uint8_t opp_beside = file_of(beside(v.enemy_pawns), f);
  const std::uint8_t own_minor = file_of(v.own_minors, f);
  const std::uint8_t own_bishop = file_of(v.own_bishops, f);
  const std::uint8_t own_pawn_att = file_of(v.own_pawn_att, f);
  const std::uint8_t opp_pawn_att = file_of(v.enemy_pawn_att, f);
  const int centrality = std::min(f, 7 - f);
  const bool has_light = (mine[CHIP_BISHOP] & LIGHT) != 0, has_dark = (mine[CHIP_BISHOP] & ~LIGHT) != 0;
  const bool two = has_light && has_dark;
  const std::uint8_t light = file_of(v.light, f);
  const std::uint8_t bishop_colour = std::uint8_t((has_light ? light : 0) | (has_dark ? ~light : 0));
  PieceIndices out;

  // Minor on a weak square: no enemy pawn beside the file ahead of it can ever attack it.
  const std::uint8_t weak = std::uint8_t(~below_some(opp_beside));
  const std::uint8_t outposts = std::uint8_t(own_minor & weak & 0xF8);
  if (outposts) {
    const int rr = highest(outposts);
    const int sq = square(f, rr, c);
    const bool sq_light = LIGHT >> sq & 1;
    const int challenge = (theirs[CHIP_BISHOP] & (sq_light ? LIGHT : ~LIGHT)) ? 2 : theirs[CHIP_KNIGHT] ? 1 : 0;
    out.minor_on_weak =
        (((std::min(rr - 3, 3) * 4 + centrality) * 2 + int(bit(own_bishop, rr))) * 2 + int(bit(own_pawn_att, rr))) * 3 +
        challenge;
  }

  // Bishop diagonals: the file's own bishop nearest its side, its two diagonals (relative
  // directions: 0 = the a1-h8 diagonal from the side's own view).
  if (own_bishop) {
    const int rb = lowest(own_bishop);
    const int sq = square(f, rb, c);
    const std::uint64_t zone = b.attacks[e].king | theirs[CHIP_KING];
    for (int d = 0; d < 2; ++d) {
      const bool main = (c == 0) == (d == 0);
      const Diagonal g = diagonal(sq, ~b.occupied, main);
      const int id = d == 0 ? f - rb + 7 : f + rb;
      const int features =
          int(popcount(g.attacks) >= 4) * 4 + int((g.line & mine[CHIP_PAWN]) != 0) * 2 + int((g.line & zone) != 0);
      out.bishops[d] = id * 8 + features;
    }
  }

  // Own pawns on the colour of an own bishop restrain it.
  const std::uint8_t self = std::uint8_t(own & bishop_colour);
  if (self) {
    const int rr = highest(self);
    const int rank_class = rr <= 1 ? 0 : std::min(rr - 1, 4);
    out.self_block =
        ((((rank_class * 4 + centrality) * 2 + int(bit(opp, rr + 1))) * 2 + int(bit(own_pawn_att, rr))) * 2 +
         int(two)) *
            2 +
        int(opp != 0);
  }
  // The enemy pawn nearest this side, on an own bishop's colour.
  if (opp && mine[CHIP_BISHOP]) {
    const int fr = lowest(opp);
    if (bit(bishop_colour, fr)) {
      const int rank_class = std::min(std::max(fr - 2, 0), 3);
      out.opp_block =
          (((rank_class * 4 + centrality) * 2 + int(bit(opp_pawn_att, fr))) * 2 + int(bit(own, fr - 1))) * 2 + int(two);
    }
  }
  // Doubled pawns in front of the bishop's diagonals.
  if (popcount(own) >= 2 && mine[CHIP_BISHOP]) {
    const int rear = lowest(own), front = highest(own);
    const int rank_class = rear <= 1 ? 0 : std::min(rear - 1, 4);
    out.back_block =
        (((rank_class * 4 + centrality) * 2 + int(bit(bishop_colour, rear))) * 2 + int(bit(bishop_colour, front))) * 2 +
        int(popcount(own) >= 3);
  }
  return out;
}

int trapped_bishop_index(const SlowBoard& b, int c) {
  // {bishop, trapping pawn, escape square}, relative squares: a7/b6/b8, h7/g6/g8, b8/c7/a7,
  // g8/f7/h7, a6/b5/b7, h6/g5/g7.
  static constexpr int PATTERNS[6][3] = {{48, 41, 57}, {55, 46, 62}, {57, 50, 48},
                                         {62, 53, 55}, {40, 33, 49}, {47, 38, 54}};
  const int e = 1 - c, flip = c ? 56 : 0;
  for (int k = 0; k < 6; ++k) {
    const int bsq = PATTERNS[k][0] ^ flip, tsq = PATTERNS[k][1] ^ flip, esq = PATTERNS[k][2] ^ flip;
    if (!(b.pieces[c][CHIP_BISHOP] >> bsq & 1)) continue;
    const bool pawn = b.pieces[e][CHIP_PAWN] >> tsq & 1;
    const bool defended = b.attacks[e].pawn >> tsq & 1;
    const bool escape_blocked = (b.occupied >> esq & 1) || (b.attacks[e].pawn >> esq & 1);
    return c * 64 + k * 8 + int(pawn) * 4 + int(defended) * 2 + int(escape_blocked);
  }
  return -1;
}

}  // namespace db::chip
