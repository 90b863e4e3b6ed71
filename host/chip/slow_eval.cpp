// The slow evaluation's features in the chip's arithmetic. The code works as the RTL does: the
// board's bitboards and attack maps first, then one file at a time, each file seen as an 8-bit
// column from the side's own point of view (bit r = relative rank r, so "ahead" is a higher bit
// for both colours).
#include "chip/slow_eval.h"

#include <algorithm>
#include <cstdlib>

#include "chip/array_model.h"
#include "chip/slow_bits.h"
#include "chip/slow_features.h"
#include "chip/slow_pawns.h"
#include "chip/slow_pieces.h"
#include "chip/slow_tactics.h"

namespace db::chip {

namespace {

using namespace slowbits;

constexpr std::uint64_t NOT_AB = ~(FILE_A | FILE_A << 1);
constexpr std::uint64_t NOT_GH = ~(FILE_A << 6 | FILE_A << 7);

std::uint64_t diagonal_attacks(std::uint64_t g, std::uint64_t empty) {
  return slide(g, empty, 9, NOT_A) | slide(g, empty, 7, NOT_H) | slide(g, empty, -7, NOT_A) |
         slide(g, empty, -9, NOT_H);
}

std::uint64_t straight_attacks(std::uint64_t g, std::uint64_t empty) {
  return slide(g, empty, 8, ~0ULL) | slide(g, empty, -8, ~0ULL) | slide(g, empty, 1, NOT_A) |
         slide(g, empty, -1, NOT_H);
}

std::uint64_t knight_attacks(std::uint64_t b) {
  const std::uint64_t l1 = (b >> 1) & NOT_H, l2 = (b >> 2) & NOT_GH;
  const std::uint64_t r1 = (b << 1) & NOT_A, r2 = (b << 2) & NOT_AB;
  const std::uint64_t h1 = l1 | r1, h2 = l2 | r2;
  return h1 << 16 | h1 >> 16 | h2 << 8 | h2 >> 8;
}

std::uint64_t king_attacks(std::uint64_t b) {
  const std::uint64_t side = ((b << 1) & NOT_A) | ((b >> 1) & NOT_H);
  const std::uint64_t row = b | side;
  return side | row << 8 | row >> 8;
}

std::uint64_t pawn_attacks(std::uint64_t p, int colour) {
  if (colour == 0) return ((p & NOT_H) << 9) | ((p & NOT_A) << 7);
  return ((p & NOT_A) >> 9) | ((p & NOT_H) >> 7);
}

int popcount(std::uint64_t x) { return __builtin_popcountll(x); }

}  // namespace

const char* slow_group_name(int group) {
  static constexpr const char* NAMES[SLOW_GROUPS] = {
      "mobility",     "rook_files",     "king_safety", "multi_pawns", "passed",  "registers", "pawn_structure",
      "pawn_shelter", "pawn_registers", "pins",        "tactics",     "bishops", "pieces",    "signature"};
  return group >= 0 && group < SLOW_GROUPS ? NAMES[group] : "?";
}

SlowBoard::SlowBoard(const std::array<std::uint8_t, 64>& board) {
  for (int sq = 0; sq < 64; ++sq) {
    const int type = board[sq] & 7;
    if (type == 0 || type == 7) continue;
    pieces[(board[sq] >> 3) & 1][type] |= 1ULL << sq;
    occupied |= 1ULL << sq;
  }
  const std::uint64_t empty = ~occupied;
  for (int c = 0; c < 2; ++c) {
    const auto& p = pieces[c];
    attacks[c].pawn = pawn_attacks(p[CHIP_PAWN], c);
    attacks[c].minor = knight_attacks(p[CHIP_KNIGHT]) | diagonal_attacks(p[CHIP_BISHOP], empty);
    attacks[c].rook = straight_attacks(p[CHIP_ROOK], empty);
    attacks[c].queen = diagonal_attacks(p[CHIP_QUEEN], empty) | straight_attacks(p[CHIP_QUEEN], empty);
    attacks[c].king = king_attacks(p[CHIP_KING]);
  }
}

int control_level(const SlowBoard& b, int sq) {
  int control[2];
  for (int c = 0; c < 2; ++c) {
    const AttackMaps& a = b.attacks[c];
    control[c] = 2 * int(a.pawn >> sq & 1) + int(a.minor >> sq & 1) + int(a.rook >> sq & 1) + int(a.queen >> sq & 1) +
                 int(a.king >> sq & 1);
  }
  return 8 + control[0] - control[1];
}

FileIndices file_indices(const SlowBoard& b, int c, int f) {
  const int e = 1 - c;
  const std::uint64_t own_pawns = b.pieces[c][CHIP_PAWN], opp_pawns = b.pieces[e][CHIP_PAWN];
  const std::uint8_t own = column(own_pawns, f, c), opp = column(opp_pawns, f, c);
  const std::uint8_t own_beside = std::uint8_t(column(own_pawns, f - 1, c) | column(own_pawns, f + 1, c));
  const std::uint8_t rooks = column(b.pieces[c][CHIP_ROOK], f, c);
  const std::uint8_t enemy_minors = column(b.pieces[e][CHIP_KNIGHT] | b.pieces[e][CHIP_BISHOP], f, c);
  const std::uint8_t enemy_pawn_att = column(b.attacks[e].pawn, f, c);
  const std::uint8_t enemy_minor_att = column(b.attacks[e].minor, f, c);
  const std::uint8_t enemy_any = column(b.attacks[e].any(), f, c);
  const std::uint8_t own_pawn_att = column(b.attacks[c].pawn, f, c);
  const std::uint8_t occupied = column(b.occupied, f, c);
  const int centrality = std::min(f, 7 - f);
  FileIndices out;

  // Rooks on files (AIJ 7.2).
  // A pawn that can capture an enemy pawn (a lever) is semi-transparent to rooks (AIJ 7.2): when
  // every own pawn on the file is one, the file is looked up as half-open, at half the value.
  const std::uint8_t opp_beside = std::uint8_t(column(opp_pawns, f - 1, c) | column(opp_pawns, f + 1, c));
  out.rook_lever = own != 0 && (own & ~(opp_beside >> 1)) == 0;
  const bool unopposed = opp == 0, semi_open = own == 0 || out.rook_lever;
  out.rook_count = std::min(popcount(std::uint8_t(rooks & ~below_some(own))), 2);
  int blockage = 0;
  if (unopposed) {
    if (enemy_minors & enemy_pawn_att)
      blockage = 1;
    else if (bit(enemy_minor_att, 6) && bit(enemy_minor_att, 7))
      blockage = 2;
    else if (bit(enemy_any, 6) && bit(enemy_any, 7))
      blockage = 3;
  } else {
    const int front = lowest(opp);
    const bool granite = bit(enemy_pawn_att, front);
    const bool shield = (enemy_minors & enemy_pawn_att & ((1u << front) - 1)) != 0;
    blockage = granite ? 3 : shield ? 1 : bit(enemy_minor_att, front) ? 2 : 0;
  }
  out.rook_files = ((((int(unopposed) * 4 + blockage) * 2 + int(semi_open)) * 4 + centrality) * 3) + out.rook_count;

  // Multiple pawns: 80 entries, {isolated, supported, duo: 16 each; pseudo-isolated: 32 with backward}.
  const int n = popcount(own);
  if (n >= 2) {
    const int sub = int(opp != 0) * 8 + int(n >= 3) * 4 + centrality;
    const int rear = lowest(own);
    if (own_beside == 0) {
      out.multi_pawns = sub;
    } else if (own & own_beside) {
      out.multi_pawns = 32 + sub;
    } else if (own & own_pawn_att) {
      out.multi_pawns = 16 + sub;
    } else {
      const bool backward = (own_beside & ((2u << rear) - 1)) == 0 && bit(enemy_pawn_att, rear + 1);
      out.multi_pawns = 48 + int(backward) * 16 + sub;
    }
  }

  // Passed pawns: the most advanced own passed pawn of the file.
  const std::uint64_t passed = slow_passed_pawns(b, c);
  const std::uint8_t pass = std::uint8_t(column(passed, f, c) & own);
  if (pass) {
    const int rr = highest(pass);
    const int rank_class = rr <= 2 ? 0 : std::min(rr - 2, 4);
    const bool blocked = bit(occupied, rr + 1);
    const bool protected_ = bit(own_pawn_att, rr);
    const bool connected = (column(passed, f - 1, c) | column(passed, f + 1, c)) != 0;
    const bool free = rr < 7 && !bit(enemy_any, rr + 1);
    const int features = int(blocked) * 8 + int(protected_) * 4 + int(connected) * 2 + int(free);
    out.passed = (rank_class * 4 + centrality) * 16 + features;
  }
  return out;
}

MaterialIndices material_indices(const SlowBoard& b, std::uint8_t castling) {
  MaterialIndices out;
  auto upto2 = [](std::uint64_t x) { return x == 0 ? 0 : (x & (x - 1)) ? 2 : 1; };
  int present[2];
  for (int c = 0; c < 2; ++c) {
    const auto& p = b.pieces[c];
    out.signature[c] =
        int(p[CHIP_QUEEN] != 0) << 6 | upto2(p[CHIP_ROOK]) << 4 | upto2(p[CHIP_BISHOP]) << 2 | upto2(p[CHIP_KNIGHT]);
    present[c] = int(p[CHIP_QUEEN] != 0) << 3 | int(p[CHIP_ROOK] != 0) << 2 | int(p[CHIP_BISHOP] != 0) << 1 |
                 int(p[CHIP_KNIGHT] != 0);
  }
  out.joint = present[0] << 4 | present[1];
  int undeveloped[2], king[2];
  for (int c = 0; c < 2; ++c) {
    const int base = c ? 56 : 0;
    const auto& p = b.pieces[c];
    const int n = int(p[CHIP_KNIGHT] >> (base + 1) & 1) + int(p[CHIP_KNIGHT] >> (base + 6) & 1) +
                  int(p[CHIP_BISHOP] >> (base + 2) & 1) + int(p[CHIP_BISHOP] >> (base + 5) & 1);
    undeveloped[c] = std::min(n, 3);
    const int home = int(p[CHIP_KING] >> base & 0xFF);
    const bool rights = c ? (castling & 0xC) != 0 : (castling & 0x3) != 0;
    if (home == 0)
      king[c] = 3;  // off the back rank
    else if (home & 0xC7)
      king[c] = 0;  // castled: files a-c or g-h
    else if ((home & 0x10) && rights)
      king[c] = 1;  // on e1 (e8), may still castle
    else
      king[c] = 2;
  }
  out.development = undeveloped[0] << 6 | undeveloped[1] << 4 | king[0] << 2 | king[1];
  return out;
}

bool file_near_king(int f, int kf) { return std::abs(f - kf) <= 1 || (f == 0 && kf == 2) || (f == 7 && kf == 5); }

SlowEvalResult slow_evaluate(const std::array<std::uint8_t, 64>& board, bool black_to_move, std::uint8_t castling,
                             std::uint16_t phase, std::uint16_t phase_swap, const SlowEvalWeights& w) {
  return slow_sum(slow_features(board, black_to_move, castling), phase, phase_swap, w);
}

}  // namespace db::chip
