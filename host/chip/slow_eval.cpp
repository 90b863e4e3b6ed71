// The slow evaluation's features in the chip's arithmetic. The code works as the RTL does: the
// board's bitboards and attack maps first, then one file at a time, each file seen as an 8-bit
// column from the side's own point of view (bit r = relative rank r, so "ahead" is a higher bit
// for both colours).
#include "chip/slow_eval.h"

#include <algorithm>
#include <cstdlib>

#include "chip/array_model.h"
#include "chip/slow_bits.h"
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
  const SlowBoard b(board);
  const auto table = [&w](int t, int i) { return w.tables[t][i]; };
  std::uint16_t mobility = 0, rook_files = 0, multi = 0, passed = 0, bishops = 0, minors = 0;
  std::uint16_t ks[2] = {0, 0};  // king-safety sums (half units) against the other side's king
  int king_file[2];
  for (int c = 0; c < 2; ++c) {
    const std::uint64_t k = b.pieces[c][CHIP_KING];
    king_file[c] = k ? __builtin_ctzll(k) & 7 : -1;
  }
  const bool opposite = king_file[0] >= 0 && king_file[1] >= 0 && ((king_file[0] < 4) != (king_file[1] < 4));
  const int ps_scale = phase >> 12 & 15;
  const PinInfo pins[2] = {find_pins(b, 0), find_pins(b, 1)};
  std::uint16_t pinned = 0;
  std::uint16_t pawn_structure = 0, shelter[2] = {0, 0};  // shelter: each side's own king
  int rooks_behind[2] = {0, 0};

  for (int f = 0; f < 8; ++f) {
    for (int r = 0; r < 8; ++r) {
      const int sq = f + 8 * r;
      mobility = std::uint16_t(mobility + sext(table(ET_MOBILITY + r, f * 16 + control_level(b, sq)), 9));
    }
    for (int c = 0; c < 2; ++c) {
      const FileIndices fi = file_indices(b, c, f);
      const std::uint32_t rf = table(ET_ROOK_FILES + c, fi.rook_files);
      const std::int32_t base = fi.rook_lever ? sext(rf, 6) >> 1 : sext(rf, 6);
      rook_files = std::uint16_t(c ? rook_files - base : rook_files + base);
      const int enemy_king = king_file[1 - c];
      if (enemy_king >= 0 && file_near_king(f, enemy_king)) {
        const int field = opposite ? (rf >> 8 & 3) : (rf >> 6 & 3);
        ks[c] = std::uint16_t(ks[c] + base * (4 - field));
      }
      if (fi.multi_pawns >= 0) {
        const std::uint32_t pen = table(ET_MULTI_PAWNS + c, fi.multi_pawns) & 0xFF;
        multi = std::uint16_t(c ? multi + pen : multi - pen);
      }
      // Bishops (group 11) and minor pieces on weak squares (group 12).
      const PieceIndices pi = piece_indices(b, c, f);
      std::int32_t bishop_value = 0;
      for (int d = 0; d < 2; ++d) {
        if (pi.bishops[d] >= 0) bishop_value += sext(table(ET_BISHOPS + c * 2 + d, pi.bishops[d]), 11);
      }
      if (pi.self_block >= 0) bishop_value -= std::int32_t(table(ET_SELF_BLOCK + c, pi.self_block) & 31);
      if (pi.opp_block >= 0) bishop_value -= std::int32_t(table(ET_OPP_BLOCK + c, pi.opp_block) & 15);
      if (pi.back_block >= 0) bishop_value -= std::int32_t(table(ET_BACK_BLOCK + c, pi.back_block) & 31);
      bishops = std::uint16_t(c ? bishops - bishop_value : bishops + bishop_value);
      if (pi.minor_on_weak >= 0) {
        const std::int32_t v = sext(table(ET_MINOR_ON_WEAK + c, pi.minor_on_weak), 12);
        minors = std::uint16_t(c ? minors - v : minors + v);
      }
      if (fi.passed >= 0) {
        const std::uint32_t pv = table(ET_PASSED + c, fi.passed);
        const std::int32_t v = sext(pv, 16) + ((sext(pv >> 16, 16) * ps_scale) >> 4);
        passed = std::uint16_t(c ? passed - v : passed + v);
      }
      const int pin = pinned_file_index(b, c, pins[c], f);
      if (pin >= 0) {
        const std::uint32_t pv = table(ET_PINNED + c, pin) & 0xFF;
        pinned = std::uint16_t(c ? pinned - pv : pinned + pv);
      }
      const PawnFileIndices pf = pawn_file_indices(b, c, f);
      if (pf.structure >= 0) {
        const std::uint32_t sv = table(ET_PAWN_STRUCTURE + c, pf.structure);
        const std::int32_t v = sext(sv, 16) + ((sext(sv >> 16, 16) * ps_scale) >> 4);
        pawn_structure = std::uint16_t(c ? pawn_structure - v : pawn_structure + v);
      }
      if (pf.shelter >= 0) {
        shelter[c] = std::uint16_t(shelter[c] + shelter_storm_value(table(ET_PAWN_SHELTER + c, pf.shelter),
                                                                    table(ET_PAWN_STORM + c, pf.storm), opposite));
      }
      rooks_behind[c] += int(pf.rook_behind);
    }
  }

  // King safety, scaled by each king's relevance from the game phase RAM (AIJ 7.2: the king-safety
  // part of rooks on files is scaled by material before it counts).
  const int rel_white_king = phase >> 8 & 15, rel_black_king = phase_swap >> 8 & 15;
  // Each side's part is rounded on its own, so that the mirrored position gives the negated value.
  const std::int32_t king_safety =
      ((sext(ks[0], 16) * rel_black_king) >> 5) - ((sext(ks[1], 16) * rel_white_king) >> 5);

  // Table 4 registers.
  const auto reg = [&w](int i) { return w.regs[i]; };
  std::int32_t regs = sext(reg(ER_BIAS), 8);
  for (int c = 0; c < 2; ++c) {
    const int e = 1 - c;
    const int sign = c ? -1 : 1;
    const int rank7 = c ? 1 : 6, rank8 = c ? 0 : 7;
    const std::uint64_t row7 = 0xFFULL << (8 * rank7), row8 = 0xFFULL << (8 * rank8);
    const int n7 = popcount(b.pieces[c][CHIP_ROOK] & row7);
    if (n7 > 0) {
      const std::uint64_t king = b.pieces[e][CHIP_KING];
      int kind = -1;
      if (king & row8) {
        const std::uint64_t front = king_attacks(king) & row7;  // the king's squares on the seventh
        kind = (front & ~b.attacks[c].any()) == 0 ? 1 : 2;
      } else if (b.pieces[e][CHIP_PAWN] & row7) {
        kind = 0;
      }
      if (kind >= 0) regs += sign * std::int32_t(reg(ER_ROOK7 + c * 6 + (n7 >= 2) * 3 + kind) & 0xFF);
    }
    std::uint64_t enemy_men = 0;
    for (int t = CHIP_PAWN; t <= CHIP_QUEEN; ++t) enemy_men |= b.pieces[e][t];
    if (enemy_men & b.attacks[c].any() & ~b.attacks[e].any()) {
      const bool on_move = (c == 1) == black_to_move;
      regs += sign * std::int32_t(reg(ER_HUNG + c * 2 + (on_move ? 0 : 1)) & 0x7F);
    }
    if (popcount(b.pieces[c][CHIP_BISHOP]) >= 2) regs += sign * std::int32_t(reg(ER_BISHOP_PAIR + c) & 0x7F);
  }
  regs += black_to_move ? -std::int32_t(reg(ER_SIDE_TO_MOVE + 1) & 15) : std::int32_t(reg(ER_SIDE_TO_MOVE) & 15);

  // Looked up once: development (group 12), signatures (group 13), contempt (DRAW_SCORE).
  const MaterialIndices mi = material_indices(b, castling);
  const std::int32_t pieces_value = sext(table(ET_DEVELOPMENT, mi.development), 9) + std::int16_t(minors);
  // Trapped bishops: one TRAPPED_BISHOP lookup per side (the scan's first two file steps).
  for (int c = 0; c < 2; ++c) {
    const int idx = trapped_bishop_index(b, c);
    if (idx >= 0) {
      const std::int32_t pen = std::int32_t(table(ET_TRAPPED_BISHOP, idx) & 0xFF);
      bishops = std::uint16_t(c ? bishops + pen : bishops - pen);
    }
  }
  const std::int32_t signature_value = sext(table(ET_SIGNATURE, mi.signature[0]), 20) -
                                       sext(table(ET_SIGNATURE + 1, mi.signature[1]), 20) +
                                       sext(table(ET_JOINT_SIGNATURE, mi.joint), 8);
  // Pawn shelter and storm, each side's sum scaled by the relevance of its own king, rounded on its own.
  const std::int32_t pawn_shelter =
      ((sext(shelter[0], 16) * rel_white_king) >> 4) - ((sext(shelter[1], 16) * rel_black_king) >> 4);
  const std::int32_t pawn_regs = pawn_registers_value(b, ps_scale, w) +
                                 std::int32_t(reg(ER_ROOK_BEHIND_PASSED) & 511) * (rooks_behind[0] - rooks_behind[1]);

  SlowEvalResult out;
  out.draw_score = std::uint16_t(sext(table(ET_CONTEMPT, mi.joint), 8));
  out.group[SG_PIECES] = std::uint16_t(pieces_value);
  out.group[SG_BISHOPS] = bishops;
  out.group[SG_SIGNATURE] = std::uint16_t(signature_value);
  out.group[SG_MOBILITY] = mobility;
  out.group[SG_ROOK_FILES] = rook_files;
  out.group[SG_KING_SAFETY] = std::uint16_t(king_safety);
  out.group[SG_MULTI_PAWNS] = multi;
  out.group[SG_PASSED] = passed;
  out.group[SG_REGISTERS] = std::uint16_t(regs);
  out.group[SG_PINS] = pinned;
  out.group[SG_TACTICS] = tactics_value(b, w);
  out.group[SG_PAWN_STRUCTURE] = pawn_structure;
  out.group[SG_PAWN_SHELTER] = std::uint16_t(pawn_shelter);
  out.group[SG_PAWN_REGISTERS] = std::uint16_t(pawn_regs);
  const std::uint32_t enables = w.regs[ER_EVAL_CONTROL];
  for (int g = 0; g < SLOW_GROUPS; ++g) {
    if (!(enables >> g & 1)) out.group[g] = 0;
    out.white = std::uint16_t(out.white + out.group[g]);
  }
  return out;
}

}  // namespace db::chip
