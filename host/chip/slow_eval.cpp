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

int popcount(std::uint64_t x) { return __builtin_popcountll(x); }

}  // namespace

const char* slow_group_name(int group) {
  static constexpr const char* NAMES[SLOW_GROUPS] = {
      "mobility",     "rook_files",     "king_safety", "multi_pawns", "passed",  "registers", "pawn_structure",
      "pawn_shelter", "pawn_registers", "pins",        "tactics",     "bishops", "pieces",    "signature"};
  return group >= 0 && group < SLOW_GROUPS ? NAMES[group] : "?";
}

SlowBoard::SlowBoard(const std::array<std::uint8_t, 64>& board) : squares(board) {
  // Without a branch per square: empty squares (type 0, and the unused code 7) land in sets
  // that are not kept.
  std::uint64_t sets[2][8] = {};
  for (int sq = 0; sq < 64; ++sq) sets[board[std::size_t(sq)] >> 3 & 1][board[std::size_t(sq)] & 7] |= 1ULL << sq;
  for (int c = 0; c < 2; ++c) {
    for (int type = CHIP_PAWN; type <= CHIP_KING; ++type) {
      pieces[std::size_t(c)][std::size_t(type)] = sets[c][type];
      occupied |= sets[c][type];
    }
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
  for (int c = 0; c < 2; ++c) passed[std::size_t(c)] = slow_passed_pawns(*this, c);
  for (int c = 0; c < 2; ++c) {
    const int e = 1 - c;
    const auto& own = pieces[std::size_t(c)];
    const auto& enemy = pieces[std::size_t(e)];
    SideColumns& v = cols[std::size_t(c)];
    v.own_pawns = columns(own[CHIP_PAWN], c);
    v.enemy_pawns = columns(enemy[CHIP_PAWN], c);
    v.own_rooks = columns(own[CHIP_ROOK], c);
    v.own_minors = columns(own[CHIP_KNIGHT] | own[CHIP_BISHOP], c);
    v.own_bishops = columns(own[CHIP_BISHOP], c);
    v.enemy_minors = columns(enemy[CHIP_KNIGHT] | enemy[CHIP_BISHOP], c);
    v.own_pawn_att = columns(attacks[std::size_t(c)].pawn, c);
    v.enemy_pawn_att = columns(attacks[std::size_t(e)].pawn, c);
    v.enemy_minor_att = columns(attacks[std::size_t(e)].minor, c);
    v.enemy_any = columns(attacks[std::size_t(e)].any(), c);
    v.occupied = columns(occupied, c);
    v.own_passed = columns(passed[std::size_t(c)], c);
    v.light = columns(LIGHT, c);
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

namespace {

// SPREAD[x]: byte i is bit i of x (a rank's eight squares, one byte each).
struct Spread {
  std::uint64_t bytes[256];
  constexpr Spread() : bytes() {
    for (int x = 0; x < 256; ++x) {
      for (int i = 0; i < 8; ++i) bytes[x] |= std::uint64_t(x >> i & 1) << (8 * i);
    }
  }
};
constexpr Spread SPREAD{};

}  // namespace

std::array<std::uint8_t, 64> control_levels(const SlowBoard& b) {
  // A rank at a time, a square per byte: white's weights added to 8 first, then black's taken
  // away, so that no byte leaves 2..14 and none borrows from its neighbour.
  std::array<std::uint8_t, 64> level;
  for (int r = 0; r < 8; ++r) {
    std::uint64_t bytes = 0x0808080808080808ULL;
    for (int c = 0; c < 2; ++c) {
      const AttackMaps& a = b.attacks[std::size_t(c)];
      const auto row = [r](std::uint64_t map) { return SPREAD.bytes[map >> (8 * r) & 0xFF]; };
      const std::uint64_t add = 2 * row(a.pawn) + row(a.minor) + row(a.rook) + row(a.queen) + row(a.king);
      bytes = c ? bytes - add : bytes + add;
    }
    for (int i = 0; i < 8; ++i) level[std::size_t(8 * r + i)] = std::uint8_t(bytes >> (8 * i));
  }
  return level;
}

FileIndices file_indices(const SlowBoard& b, int c, int f) {
  const SideColumns& v = b.cols[std::size_t(c)];
  const std::uint8_t own = file_of(v.own_pawns, f), opp = file_of(v.enemy_pawns, f);
  const std::uint8_t own_beside = file_of(beside(v.own_pawns), f);
  const std::uint8_t rooks = file_of(v.own_rooks, f);
  const std::uint8_t enemy_minors = file_of(v.enemy_minors, f);
  const std::uint8_t enemy_pawn_att = file_of(v.enemy_pawn_att, f);
  const std::uint8_t enemy_minor_att = file_of(v.enemy_minor_att, f);
  const std::uint8_t enemy_any = file_of(v.enemy_any, f);
  const std::uint8_t own_pawn_att = file_of(v.own_pawn_att, f);
  const std::uint8_t occupied = file_of(v.occupied, f);
  const int centrality = std::min(f, 7 - f);
  FileIndices out;

  // Rooks on files (AIJ 7.2).
  // A pawn that can capture an enemy pawn (a lever) is semi-transparent to rooks (AIJ 7.2): when
  // every own pawn on the file is one, the file is looked up as half-open, at half the value.
  const std::uint8_t opp_beside = file_of(beside(v.enemy_pawns), f);
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
  const std::uint8_t pass = std::uint8_t(file_of(v.own_passed, f) & own);
  if (pass) {
    const int rr = highest(pass);
    const int rank_class = rr <= 2 ? 0 : std::min(rr - 2, 4);
    const bool blocked = bit(occupied, rr + 1);
    const bool protected_ = bit(own_pawn_att, rr);
    const bool connected = file_of(beside(v.own_passed), f) != 0;
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
