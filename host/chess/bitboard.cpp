#include "chess/bitboard.h"

#include <cstdlib>
#include <vector>

namespace db::attacks {

Bitboard pawn[COLOR_NB][64];
Bitboard knight[64];
Bitboard king[64];
Magic bishop_magics[64];
Magic rook_magics[64];
Bitboard between[64][64];
Bitboard line[64][64];

namespace {

Bitboard bishop_table[0x1480];
Bitboard rook_table[0x19000];

// Steps of (file, rank) for each piece; a step leaving the board is dropped.
Bitboard step_attacks(Square s, const int (*deltas)[2], int n) {
  Bitboard b = 0;
  for (int i = 0; i < n; ++i) {
    int f = file_of(s) + deltas[i][0], r = rank_of(s) + deltas[i][1];
    if (f >= 0 && f < 8 && r >= 0 && r < 8) b |= square_bb(make_square(f, r));
  }
  return b;
}

// A small deterministic generator for the magic search (xorshift64*).
#if !defined(__BMI2__)
struct Prng {
  std::uint64_t s;
  std::uint64_t next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 2685821657736338717ULL;
  }
  std::uint64_t sparse() { return next() & next() & next(); }
};
#endif

void init_magics(PieceType t, Magic* magics, Bitboard* table) {
  std::vector<Bitboard> occupancy(4096), reference(4096);
#if !defined(__BMI2__)
  std::vector<int> epoch(4096, 0);
  int current_epoch = 0;
  Prng rng{0x9E3779B97F4A7C15ULL};
#endif
  Bitboard* next_table = table;
  for (Square s = 0; s < 64; ++s) {
    Bitboard edges =
        ((RANK_1_BB | RANK_8_BB) & ~rank_bb(rank_of(s))) | ((FILE_A_BB | FILE_H_BB) & ~file_bb(file_of(s)));
    Magic& m = magics[s];
    m.mask = slider_reference(t, s, 0) & ~edges;
    m.shift = 64 - unsigned(popcount(m.mask));
    m.table = next_table;
    // Enumerate all subsets of the mask (Carry-Rippler).
    int size = 0;
    Bitboard b = 0;
    do {
      occupancy[size] = b;
      reference[size] = slider_reference(t, s, b);
      ++size;
      b = (b - m.mask) & m.mask;
    } while (b);
    Bitboard* entries = next_table;
    next_table += size;
#if defined(__BMI2__)
    for (int i = 0; i < size; ++i) entries[m.index(occupancy[i])] = reference[i];
#else
    for (;;) {
      m.magic = rng.sparse();
      if (popcount((m.magic * m.mask) >> 56) < 6) continue;
      ++current_epoch;
      bool ok = true;
      for (int i = 0; i < size && ok; ++i) {
        unsigned idx = m.index(occupancy[i]);
        if (epoch[idx] < current_epoch) {
          epoch[idx] = current_epoch;
          entries[idx] = reference[i];
        } else if (entries[idx] != reference[i]) {
          ok = false;
        }
      }
      if (ok) break;
    }
#endif
  }
}

struct Init {
  Init() {
    static const int knight_d[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static const int king_d[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    static const int wpawn_d[2][2] = {{-1, 1}, {1, 1}};
    static const int bpawn_d[2][2] = {{-1, -1}, {1, -1}};
    for (Square s = 0; s < 64; ++s) {
      knight[s] = step_attacks(s, knight_d, 8);
      king[s] = step_attacks(s, king_d, 8);
      pawn[WHITE][s] = step_attacks(s, wpawn_d, 2);
      pawn[BLACK][s] = step_attacks(s, bpawn_d, 2);
    }
    init_magics(BISHOP, bishop_magics, bishop_table);
    init_magics(ROOK, rook_magics, rook_table);
    for (Square a = 0; a < 64; ++a) {
      for (Square b = 0; b < 64; ++b) {
        between[a][b] = square_bb(b);
        line[a][b] = 0;
        for (PieceType t : {BISHOP, ROOK}) {
          if (slider_reference(t, a, 0) & square_bb(b)) {
            line[a][b] = (slider_reference(t, a, 0) & slider_reference(t, b, 0)) | square_bb(a) | square_bb(b);
            between[a][b] |= slider_reference(t, a, square_bb(b)) & slider_reference(t, b, square_bb(a));
          }
        }
      }
    }
  }
};
const Init init_tables;

}  // namespace

Bitboard slider_reference(PieceType t, Square s, Bitboard occupied) {
  static const int bishop_d[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
  static const int rook_d[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
  const int(*d)[2] = t == BISHOP ? bishop_d : rook_d;
  Bitboard b = 0;
  for (int i = 0; i < 4; ++i) {
    int f = file_of(s) + d[i][0], r = rank_of(s) + d[i][1];
    while (f >= 0 && f < 8 && r >= 0 && r < 8) {
      Square to = make_square(f, r);
      b |= square_bb(to);
      if (occupied & square_bb(to)) break;
      f += d[i][0];
      r += d[i][1];
    }
  }
  return b;
}

}  // namespace db::attacks
