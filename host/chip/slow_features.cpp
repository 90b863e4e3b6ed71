// See slow_features.h. slow_sum keeps slow_evaluate's arithmetic step for step (each entry's
// value formed as the RTL forms it, then added in 16-bit wrap-around), so that the two-step
// evaluation is the chip's to the bit.
#include "chip/slow_features.h"

#include "chip/array_model.h"
#include "chip/slow_bits.h"
#include "chip/slow_pieces.h"

namespace db::chip {

using slowbits::sext;

namespace {

int popcount(std::uint64_t x) { return __builtin_popcountll(x); }

}  // namespace

SlowFeatures slow_features(const std::array<std::uint8_t, 64>& board, bool black_to_move, std::uint8_t castling) {
  const SlowBoard b(board);
  SlowFeatures out;
  out.black_to_move = black_to_move;
  int king_file[2];
  for (int c = 0; c < 2; ++c) {
    const std::uint64_t k = b.pieces[c][CHIP_KING];
    king_file[c] = k ? __builtin_ctzll(k) & 7 : -1;
  }
  out.opposite_wings = king_file[0] >= 0 && king_file[1] >= 0 && ((king_file[0] < 4) != (king_file[1] < 4));
  const PinInfo pins[2] = {find_pins(b, 0), find_pins(b, 1)};
  out.control = control_levels(b);
  for (int f = 0; f < 8; ++f) {
    for (int c = 0; c < 2; ++c) {
      SlowFileFeatures& ff = out.files[std::size_t(f)][std::size_t(c)];
      const FileIndices fi = file_indices(b, c, f);
      ff.rook_files = std::int16_t(fi.rook_files);
      ff.rook_lever = fi.rook_lever;
      const int enemy_king = king_file[1 - c];
      ff.near_enemy_king = enemy_king >= 0 && file_near_king(f, enemy_king);
      ff.multi_pawns = std::int16_t(fi.multi_pawns);
      ff.passed = std::int16_t(fi.passed);
      const PieceIndices pi = piece_indices(b, c, f);
      ff.bishops[0] = std::int16_t(pi.bishops[0]);
      ff.bishops[1] = std::int16_t(pi.bishops[1]);
      ff.self_block = std::int16_t(pi.self_block);
      ff.opp_block = std::int16_t(pi.opp_block);
      ff.back_block = std::int16_t(pi.back_block);
      ff.minor_on_weak = std::int16_t(pi.minor_on_weak);
      ff.pinned = std::int16_t(pinned_file_index(b, c, pins[c], f));
      const PawnFileIndices pf = pawn_file_indices(b, c, f);
      ff.structure = std::int16_t(pf.structure);
      ff.shelter = std::int16_t(pf.shelter);
      ff.storm = std::int16_t(pf.storm);
      out.rooks_behind[c] += int(pf.rook_behind);
    }
  }
  // Table 4 registers: rooks on the seventh, hung pieces, the bishop pair.
  for (int c = 0; c < 2; ++c) {
    const int e = 1 - c;
    const int rank7 = c ? 1 : 6, rank8 = c ? 0 : 7;
    const std::uint64_t row7 = 0xFFULL << (8 * rank7), row8 = 0xFFULL << (8 * rank8);
    const int n7 = popcount(b.pieces[c][CHIP_ROOK] & row7);
    if (n7 > 0) {
      const std::uint64_t king = b.pieces[e][CHIP_KING];
      int kind = -1;
      if (king & row8) {
        const std::uint64_t front = b.attacks[e].king & row7;  // the king's squares on the seventh
        kind = (front & ~b.attacks[c].any()) == 0 ? 1 : 2;
      } else if (b.pieces[e][CHIP_PAWN] & row7) {
        kind = 0;
      }
      if (kind >= 0) out.rook7[c] = std::int8_t((n7 >= 2) * 3 + kind);
    }
    std::uint64_t enemy_men = 0;
    for (int t = CHIP_PAWN; t <= CHIP_QUEEN; ++t) enemy_men |= b.pieces[e][t];
    out.hung[c] = (enemy_men & b.attacks[c].any() & ~b.attacks[e].any()) != 0;
    out.bishop_pair[c] = popcount(b.pieces[c][CHIP_BISHOP]) >= 2;
    out.trapped_bishop[c] = std::int8_t(trapped_bishop_index(b, c));
    out.tactics[c] = tactics_flags(b, c, pins[c]);
  }
  out.material = material_indices(b, castling);
  out.pawn_registers = pawn_register_features(b);
  return out;
}

SlowEvalResult slow_sum(const SlowFeatures& f, std::uint16_t phase, std::uint16_t phase_swap,
                        const SlowEvalWeights& w) {
  const auto table = [&w](int t, int i) { return w.tables[std::size_t(t)][std::size_t(i)]; };
  std::uint16_t mobility = 0, rook_files = 0, multi = 0, passed = 0, bishops = 0, minors = 0, pinned = 0;
  std::uint16_t ks[2] = {0, 0};                           // king-safety sums (half units) against the other side's king
  std::uint16_t pawn_structure = 0, shelter[2] = {0, 0};  // shelter: each side's own king
  const int ps_scale = phase >> 12 & 15;

  for (int file = 0; file < 8; ++file) {
    for (int r = 0; r < 8; ++r) {
      const int level = f.control[std::size_t(file + 8 * r)];
      mobility = std::uint16_t(mobility + sext(table(ET_MOBILITY + r, file * 16 + level), 9));
    }
    for (int c = 0; c < 2; ++c) {
      const SlowFileFeatures& ff = f.files[std::size_t(file)][std::size_t(c)];
      const std::uint32_t rf = table(ET_ROOK_FILES + c, ff.rook_files);
      const std::int32_t base = ff.rook_lever ? sext(rf, 6) >> 1 : sext(rf, 6);
      rook_files = std::uint16_t(c ? rook_files - base : rook_files + base);
      if (ff.near_enemy_king) {
        const int field = f.opposite_wings ? (rf >> 8 & 3) : (rf >> 6 & 3);
        ks[c] = std::uint16_t(ks[c] + base * (4 - field));
      }
      if (ff.multi_pawns >= 0) {
        const std::uint32_t pen = table(ET_MULTI_PAWNS + c, ff.multi_pawns) & 0xFF;
        multi = std::uint16_t(c ? multi + pen : multi - pen);
      }
      // Bishops (group 11) and minor pieces on weak squares (group 12).
      std::int32_t bishop_value = 0;
      for (int d = 0; d < 2; ++d) {
        if (ff.bishops[d] >= 0) bishop_value += sext(table(ET_BISHOPS + c * 2 + d, ff.bishops[d]), 11);
      }
      if (ff.self_block >= 0) bishop_value -= std::int32_t(table(ET_SELF_BLOCK + c, ff.self_block) & 31);
      if (ff.opp_block >= 0) bishop_value -= std::int32_t(table(ET_OPP_BLOCK + c, ff.opp_block) & 15);
      if (ff.back_block >= 0) bishop_value -= std::int32_t(table(ET_BACK_BLOCK + c, ff.back_block) & 31);
      bishops = std::uint16_t(c ? bishops - bishop_value : bishops + bishop_value);
      if (ff.minor_on_weak >= 0) {
        const std::int32_t v = sext(table(ET_MINOR_ON_WEAK + c, ff.minor_on_weak), 12);
        minors = std::uint16_t(c ? minors - v : minors + v);
      }
      if (ff.passed >= 0) {
        const std::uint32_t pv = table(ET_PASSED + c, ff.passed);
        const std::int32_t v = sext(pv, 16) + ((sext(pv >> 16, 16) * ps_scale) >> 4);
        passed = std::uint16_t(c ? passed - v : passed + v);
      }
      if (ff.pinned >= 0) {
        const std::uint32_t pv = table(ET_PINNED + c, ff.pinned) & 0xFF;
        pinned = std::uint16_t(c ? pinned - pv : pinned + pv);
      }
      if (ff.structure >= 0) {
        const std::uint32_t sv = table(ET_PAWN_STRUCTURE + c, ff.structure);
        const std::int32_t v = sext(sv, 16) + ((sext(sv >> 16, 16) * ps_scale) >> 4);
        pawn_structure = std::uint16_t(c ? pawn_structure - v : pawn_structure + v);
      }
      if (ff.shelter >= 0) {
        shelter[c] =
            std::uint16_t(shelter[c] + shelter_storm_value(table(ET_PAWN_SHELTER + c, ff.shelter),
                                                           table(ET_PAWN_STORM + c, ff.storm), f.opposite_wings));
      }
    }
  }

  // King safety, scaled by each king's relevance from the game phase RAM (AIJ 7.2: the king-safety
  // part of rooks on files is scaled by material before it counts).
  const int rel_white_king = phase >> 8 & 15, rel_black_king = phase_swap >> 8 & 15;
  // Each side's part is rounded on its own, so that the mirrored position gives the negated value.
  const std::int32_t king_safety =
      ((sext(ks[0], 16) * rel_black_king) >> 5) - ((sext(ks[1], 16) * rel_white_king) >> 5);

  // Table 4 registers.
  const auto reg = [&w](int i) { return w.regs[std::size_t(i)]; };
  std::int32_t regs = sext(reg(ER_BIAS), 8);
  for (int c = 0; c < 2; ++c) {
    const int sign = c ? -1 : 1;
    if (f.rook7[c] >= 0) regs += sign * std::int32_t(reg(ER_ROOK7 + c * 6 + f.rook7[c]) & 0xFF);
    if (f.hung[c]) {
      const bool on_move = (c == 1) == f.black_to_move;
      regs += sign * std::int32_t(reg(ER_HUNG + c * 2 + (on_move ? 0 : 1)) & 0x7F);
    }
    if (f.bishop_pair[c]) regs += sign * std::int32_t(reg(ER_BISHOP_PAIR + c) & 0x7F);
  }
  regs += f.black_to_move ? -std::int32_t(reg(ER_SIDE_TO_MOVE + 1) & 15) : std::int32_t(reg(ER_SIDE_TO_MOVE) & 15);

  // Looked up once: development (group 12), signatures (group 13), contempt (DRAW_SCORE).
  const MaterialIndices& mi = f.material;
  const std::int32_t pieces_value = sext(table(ET_DEVELOPMENT, mi.development), 9) + std::int16_t(minors);
  // Trapped bishops: one TRAPPED_BISHOP lookup per side (the scan's first two file steps).
  for (int c = 0; c < 2; ++c) {
    if (f.trapped_bishop[c] >= 0) {
      const std::int32_t pen = std::int32_t(table(ET_TRAPPED_BISHOP, f.trapped_bishop[c]) & 0xFF);
      bishops = std::uint16_t(c ? bishops + pen : bishops - pen);
    }
  }
  const std::int32_t signature_value = sext(table(ET_SIGNATURE, mi.signature[0]), 20) -
                                       sext(table(ET_SIGNATURE + 1, mi.signature[1]), 20) +
                                       sext(table(ET_JOINT_SIGNATURE, mi.joint), 8);
  // Pawn shelter and storm, each side's sum scaled by the relevance of its own king, rounded on its own.
  const std::int32_t pawn_shelter =
      ((sext(shelter[0], 16) * rel_white_king) >> 4) - ((sext(shelter[1], 16) * rel_black_king) >> 4);
  const std::int32_t pawn_regs =
      pawn_registers_sum(f.pawn_registers, ps_scale, w) +
      std::int32_t(reg(ER_ROOK_BEHIND_PASSED) & 511) * (f.rooks_behind[0] - f.rooks_behind[1]);

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
  out.group[SG_TACTICS] = tactics_sum(f.tactics, w);
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
