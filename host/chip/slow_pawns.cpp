// The pawn family of the slow evaluation in the chip's arithmetic (see slow_pawns.h). Files are
// seen as 8-bit columns from the side's own end, as in slow_eval.cpp.
#include "chip/slow_pawns.h"

#include <algorithm>

#include "chip/array_model.h"
#include "chip/slow_bits.h"

namespace db::chip {

namespace {

using namespace slowbits;

int popcount(std::uint64_t x) { return __builtin_popcountll(x); }

constexpr std::uint64_t QUEEN_WING = FILE_A * 0x0F, KING_WING = FILE_A * 0xF0;

}  // namespace

std::uint64_t slow_passed_pawns(const SlowBoard& b, int c) {
  // The squares strictly behind each enemy pawn (from colour c's side: below a black pawn, above a
  // white one) on its file and the two beside it: an own pawn there has an enemy pawn ahead.
  const std::uint64_t own = b.pieces[c][CHIP_PAWN], opp = b.pieces[1 - c][CHIP_PAWN];
  std::uint64_t x;
  if (c == 0) {
    x = opp >> 8;
    x |= x >> 8;
    x |= x >> 16;
    x |= x >> 32;
  } else {
    x = opp << 8;
    x |= x << 8;
    x |= x << 16;
    x |= x << 32;
  }
  const std::uint64_t blocked = x | ((x << 1) & NOT_A) | ((x >> 1) & NOT_H);
  return own & ~blocked;
}

PawnFileIndices pawn_file_indices(const SlowBoard& b, int c, int f) {
  const SideColumns& v = b.cols[std::size_t(c)];
  const std::uint8_t own = file_of(v.own_pawns, f), opp = file_of(v.enemy_pawns, f);
  const std::uint8_t own_beside = file_of(beside(v.own_pawns), f);
  const std::uint8_t own_pawn_att = file_of(v.own_pawn_att, f);
  const std::uint8_t enemy_pawn_att = file_of(v.enemy_pawn_att, f);
  const int centrality = std::min(f, 7 - f);
  PawnFileIndices out;

  // Structure of the rearmost own pawn: isolated 0, duo 1, supported 2, backward 3, unsupported 4.
  if (own) {
    const int rear = lowest(own);
    const bool opposed = (opp >> (rear + 1)) != 0;
    const int rank_class = rear <= 1 ? 0 : std::min(rear - 1, 3);
    int cls;
    if (own_beside == 0)
      cls = 0;
    else if (bit(own_beside, rear))
      cls = 1;
    else if (bit(own_pawn_att, rear))
      cls = 2;
    else if ((own_beside & ((2u << rear) - 1)) == 0 && bit(enemy_pawn_att, rear + 1))
      cls = 3;
    else
      cls = 4;
    out.structure = ((cls * 2 + int(opposed)) * 4 + rank_class) * 4 + centrality;
  }

  // Shelter and storm on the king's file and the files beside it.
  const std::uint64_t king = b.pieces[c][CHIP_KING];
  if (king) {
    const int ksq = __builtin_ctzll(king), kf = ksq & 7, kr = c ? 7 - (ksq >> 3) : ksq >> 3;
    const int df = f - kf;
    if (df >= -1 && df <= 1) {
      const std::uint8_t above = std::uint8_t(0xFEu << kr);
      const std::uint8_t shelter = own & above, storm = opp & above;
      const int sp = lowest(shelter), tp = lowest(storm);
      const int sh_dist = shelter ? sp - kr : 0, st_dist = storm ? tp - kr : 0;
      const bool defended = shelter && bit(own_pawn_att, sp);
      const bool blocked = storm && bit(own, tp - 1);
      out.shelter = (((df + 1) * 2 + int(kr == 0)) * 4 + centrality) * 16 + sh_dist * 2 + int(defended);
      out.storm = ((int(df == 0) * 2 + int(blocked)) * 8 + st_dist) * 4 + centrality;
    }
  }

  // Rook behind the most advanced own passed pawn: the nearest occupied square behind it.
  const std::uint8_t pass = std::uint8_t(file_of(v.own_passed, f) & own);
  if (pass) {
    const int rr = highest(pass);
    const std::uint8_t behind = std::uint8_t(file_of(v.occupied, f) & ((1u << rr) - 1));
    out.rook_behind = behind && bit(file_of(v.own_rooks, f), highest(behind));
  }
  return out;
}

std::int32_t shelter_storm_value(std::uint32_t shelter_entry, std::uint32_t storm_entry, bool opposite_wings) {
  const std::int32_t st = sext(storm_entry, 14);
  const std::int32_t storm = opposite_wings ? (st * std::int32_t(storm_entry >> 14 & 15)) >> 2 : st;
  return sext(shelter_entry, 14) + storm;
}

PawnRegisterFeatures pawn_register_features(const SlowBoard& b) {
  int material[2], pawns[2];
  for (int c = 0; c < 2; ++c) {
    const auto& p = b.pieces[c];
    pawns[c] = popcount(p[CHIP_PAWN]);
    material[c] = pawns[c] + 3 * popcount(p[CHIP_KNIGHT] | p[CHIP_BISHOP]) + 5 * popcount(p[CHIP_ROOK]) +
                  9 * popcount(p[CHIP_QUEEN]);
  }
  const std::uint64_t all_pawns = b.pieces[0][CHIP_PAWN] | b.pieces[1][CHIP_PAWN];
  const bool one_wing = all_pawns && (!(all_pawns & QUEEN_WING) || !(all_pawns & KING_WING));
  PawnRegisterFeatures f;
  // Bishops of opposite colours: one bishop each, on squares of different colours, no knights.
  const std::uint64_t wb = b.pieces[0][CHIP_BISHOP], bb = b.pieces[1][CHIP_BISHOP];
  f.boc = popcount(wb) == 1 && popcount(bb) == 1 && bool(wb & LIGHT) != bool(bb & LIGHT) &&
          !(b.pieces[0][CHIP_KNIGHT] | b.pieces[1][CHIP_KNIGHT]);
  f.majors = (b.pieces[0][CHIP_ROOK] | b.pieces[1][CHIP_ROOK] | b.pieces[0][CHIP_QUEEN] | b.pieces[1][CHIP_QUEEN]) != 0;
  f.pawn_difference = pawns[0] - pawns[1];
  for (int c = 0; c < 2; ++c) {
    const int e = 1 - c;
    // Wasted pawns: on a wing, more pawns than the enemy but on no more files than the enemy has
    // pawns there (the majority cannot make a passed pawn).
    for (const std::uint64_t wing : {QUEEN_WING, KING_WING}) {
      const std::uint64_t own = b.pieces[c][CHIP_PAWN] & wing;
      int files = 0;
      for (int file = 0; file < 8; ++file) files += (own & (FILE_A << file)) != 0;
      const int enemy = popcount(b.pieces[e][CHIP_PAWN] & wing);
      if (popcount(own) > enemy && files <= enemy) ++f.wasted_wings[c];
    }
    // Widely separated passed pawns: passed pawns three or more files apart.
    const std::uint64_t passed = b.passed[std::size_t(c)];
    std::uint8_t pf = 0;
    for (int file = 0; file < 8; ++file) pf = std::uint8_t(pf | ((passed & (FILE_A << file)) ? 1u << file : 0u));
    f.separated[c] = pf && highest(pf) - lowest(pf) >= 3;
    f.missing_wing[c] = one_wing && material[c] > material[e];
  }
  return f;
}

std::int32_t pawn_registers_sum(const PawnRegisterFeatures& f, int ps_scale, const SlowEvalWeights& w) {
  const bool pure_boc = f.boc && !f.majors;
  std::int32_t value = 0;
  for (int c = 0; c < 2; ++c) {
    const int sign = c ? -1 : 1;
    std::int32_t part = 0;
    part -= std::int32_t((w.regs[ER_WASTED_PAWNS + c] & 63) * std::uint32_t(f.wasted_wings[c] * ps_scale) >> 2);
    // Separated passed pawns count double in a pure opposite-colour-bishop ending.
    if (f.separated[c]) part += std::int32_t(w.regs[ER_SEPARATED_PASSED + c] & 255) * (pure_boc ? 2 : 1);
    if (f.missing_wing[c]) part -= std::int32_t(w.regs[ER_MISSING_WING + c] & 1023);
    value += sign * part;
  }
  // Opposite-colour bishops: each pawn of advantage is worth BOC[0] less in a pure ending, BOC[1]
  // less with rooks or queens on the board.
  if (f.boc) value -= std::int32_t(w.regs[ER_BOC + (f.majors ? 1 : 0)] & 63) * f.pawn_difference;
  return value;
}

std::int32_t pawn_registers_value(const SlowBoard& b, int ps_scale, const SlowEvalWeights& w) {
  return pawn_registers_sum(pawn_register_features(b), ps_scale, w);
}

void set_default_pawn_weights(SlowEvalWeights& w) { set_default_pawn_weights(w, GeneratorParams::defaults()); }

void set_default_pawn_weights(SlowEvalWeights& w, const GeneratorParams& p) {
  using namespace gp;
  // Structure of the rearmost pawn: isolated, duo, supported, backward, unsupported.
  int stat[5], endgame[5];
  for (int k = 0; k < 5; ++k)
    stat[k] = p.get(PAWN_STRUCTURE_STATIC + k), endgame[k] = p.get(PAWN_STRUCTURE_ENDGAME + k);
  const int half_open_lo = p.get(PAWN_STRUCTURE_HALF_OPEN_STATIC),
            half_open_hi = p.get(PAWN_STRUCTURE_HALF_OPEN_ENDGAME);
  const int weak_centre = p.get(PAWN_STRUCTURE_WEAK_CENTRE);
  const int advance_lo = p.get(PAWN_STRUCTURE_ADVANCE_STATIC), advance_hi = p.get(PAWN_STRUCTURE_ADVANCE_ENDGAME);
  // Shelter: the nearest own pawn in front of the king, by rank distance (0: none).
  int shelter[8], storm[8];
  for (int k = 0; k < 8; ++k) shelter[k] = p.get(SHELTER_DISTANCE + k), storm[k] = p.get(STORM_DISTANCE + k);
  const int shelter_defended = p.get(SHELTER_DEFENDED), king_file_pct = p.get(SHELTER_KING_FILE_PERCENT),
            off_back_pct = p.get(SHELTER_OFF_BACK_PERCENT);
  const int storm_blocked_pct = p.get(STORM_BLOCKED_PERCENT);
  const std::uint32_t opposite_wings = unsigned_field(p.get(STORM_OPPOSITE_WINGS), 4);
  for (int c = 0; c < 2; ++c) {
    for (int idx = 0; idx < 160; ++idx) {
      const int cls = idx / 32, opposed = idx / 16 & 1, rc = idx / 4 & 3, cent = idx & 3;
      int lo = stat[cls], hi = endgame[cls];
      const bool weak = cls == 0 || cls == 3;
      if (weak && !opposed) lo -= half_open_lo, hi -= half_open_hi;         // on a half-open file for the enemy rooks
      if (weak && cent >= 2) lo -= weak_centre;                             // a weak centre pawn
      if (!weak && cls != 4) lo += advance_lo * rc, hi += advance_hi * rc;  // an advanced chain or duo
      w.tables[ET_PAWN_STRUCTURE + c][idx] = signed_field(lo, 16) | signed_field(hi, 16) << 16;
    }
    for (int idx = 0; idx < 384; ++idx) {
      const int rel = idx / 128, back = idx / 64 & 1, dist = idx / 2 & 7, defended = idx & 1;
      int v = shelter[dist] + (defended && dist ? shelter_defended : 0);
      if (rel == 1) v = v * king_file_pct / 100;  // the king's own file
      if (!back) v = v * off_back_pct / 100;      // the king has left its back rank
      w.tables[ET_PAWN_SHELTER + c][idx] = signed_field(v, 14);
    }
    // Storm: the nearest enemy pawn in front of the king, by rank distance (0: none); less when a
    // pawn of ours blocks it; [17:14]: the factor (quarters) when the kings are on opposite wings.
    for (int idx = 0; idx < 128; ++idx) {
      const int blocked = idx / 32 & 1, dist = idx / 4 & 7;
      const int v = blocked ? storm[dist] * storm_blocked_pct / 100 : storm[dist];
      w.tables[ET_PAWN_STORM + c][idx] = signed_field(v, 14) | opposite_wings << 14;
    }
  }
  // Registers, in their widths (EVAL_REG_BITS), one parameter for both colours.
  const auto reg = [&w, &p](int r, int param) { w.regs[r] = unsigned_field(p.get(param), EVAL_REG_BITS[r]); };
  for (int c = 0; c < 2; ++c) {
    reg(ER_WASTED_PAWNS + c, REG_WASTED_PAWNS);
    reg(ER_SEPARATED_PASSED + c, REG_SEPARATED_PASSED);
    reg(ER_MISSING_WING + c, REG_MISSING_WING);
  }
  reg(ER_ROOK_BEHIND_PASSED, REG_ROOK_BEHIND_PASSED);
  reg(ER_BOC, REG_BOC);          // per pawn of advantage, pure opposite-colour-bishop ending
  reg(ER_BOC + 1, REG_BOC + 1);  // ... with rooks or queens
}

}  // namespace db::chip
