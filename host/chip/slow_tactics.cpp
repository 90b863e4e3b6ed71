// Pins, x-rays, hung-piece refinements and traps. Pins are found piece by piece and ray by ray;
// x-rays and traps with occluded fills, as the RTL (rtl/es_tactics.sv) finds all of them.
#include "chip/slow_tactics.h"

#include <algorithm>

#include "chip/array_model.h"
#include "chip/slow_bits.h"

namespace db::chip {

namespace {

constexpr int DIAG[4][2] = {{1, 1}, {-1, 1}, {1, -1}, {-1, -1}};  // {file step, rank step}
constexpr int STRAIGHT[4][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}};

bool on(std::uint64_t bb, int sq) { return (bb >> sq & 1) != 0; }

int type_on(const SlowBoard& b, int c, int sq) { return b.type_on(c, sq); }

std::uint64_t men_of(const SlowBoard& b, int c) {
  std::uint64_t x = 0;
  for (int t = CHIP_PAWN; t <= CHIP_KING; ++t) x |= b.pieces[c][t];
  return x;
}

// The squares from each square to the board's edge along each step (df, dr), df and dr in -1..1
// (index (dr + 1) * 3 + df + 1), the square itself excluded.
struct Rays {
  std::uint64_t ray[9][64];
  constexpr Rays() : ray() {
    for (int dr = -1; dr <= 1; ++dr) {
      for (int df = -1; df <= 1; ++df) {
        for (int sq = 0; sq < 64; ++sq) {
          std::uint64_t out = 0;
          for (int f = sq % 8 + df, r = sq / 8 + dr; (df || dr) && f >= 0 && f < 8 && r >= 0 && r < 8;
               f += df, r += dr) {
            out |= 1ULL << (f + 8 * r);
          }
          ray[(dr + 1) * 3 + df + 1][sq] = out;
        }
      }
    }
  }
};
constexpr Rays RAYS{};

// The next occupied square from sq along (df, dr), -1 if none: the ray's occupied square nearest sq
// (the lowest on a step that raises the square number, else the highest).
int next_piece(const SlowBoard& b, int sq, int df, int dr) {
  const std::uint64_t hit = RAYS.ray[(dr + 1) * 3 + df + 1][sq] & b.occupied;
  if (!hit) return -1;
  return df + 8 * dr > 0 ? __builtin_ctzll(hit) : 63 - __builtin_clzll(hit);
}

// Colour c's relative square (file, relative rank) as an absolute square.
int rel(int c, int file, int rank) { return file + 8 * (c ? 7 - rank : rank); }

// The squares of a set, lowest first (the loops below visit only the squares that can matter:
// every result is an OR over them, so the order is that of the square-by-square walk anyway).
template <typename F>
void for_each_square(std::uint64_t set, F f) {
  for (; set; set &= set - 1) f(__builtin_ctzll(set));
}

std::uint64_t sliders_of(const SlowBoard& b, int c) {
  return b.pieces[c][CHIP_BISHOP] | b.pieces[c][CHIP_ROOK] | b.pieces[c][CHIP_QUEEN];
}

int attack_count(const AttackMaps& a, int sq) {
  return int(on(a.pawn, sq)) + int(on(a.minor, sq)) + int(on(a.rook, sq)) + int(on(a.queen, sq)) + int(on(a.king, sq));
}

}  // namespace

int value_class(int type) {
  static constexpr int CLASS[7] = {0, 0, 1, 1, 2, 3, 4};
  return CLASS[type & 7];
}

PinInfo find_pins(const SlowBoard& b, int c) {
  const int e = 1 - c;
  PinInfo out;
  const std::uint64_t enemy_men = men_of(b, e);
  for_each_square(sliders_of(b, c), [&](int sq) {
    const int t = type_on(b, c, sq);
    for (int line = 0; line < 2; ++line) {
      if ((line == 0 && t == CHIP_ROOK) || (line == 1 && t == CHIP_BISHOP)) continue;
      const auto& dirs = line == 0 ? DIAG : STRAIGHT;
      for (int d = 0; d < 4; ++d) {
        // A pin needs two enemy men on the ray (most rays have fewer: the walk is skipped).
        const std::uint64_t enemy_on_ray = RAYS.ray[(dirs[d][1] + 1) * 3 + dirs[d][0] + 1][sq] & enemy_men;
        if (!(enemy_on_ray & (enemy_on_ray - 1))) continue;
        const int p = next_piece(b, sq, dirs[d][0], dirs[d][1]);
        if (p < 0) continue;
        const int pt = type_on(b, e, p);
        if (pt == 0 || pt == CHIP_KING) continue;
        const int q = next_piece(b, p, dirs[d][0], dirs[d][1]);
        if (q < 0) continue;
        const int qt = type_on(b, e, q);
        if (qt == 0 || value_class(qt) <= value_class(pt)) continue;
        const std::uint64_t bit = 1ULL << p;
        out.pinned |= bit;
        if (qt == CHIP_KING) out.against_king |= bit;
        (t == CHIP_BISHOP ? out.by_bishop : t == CHIP_ROOK ? out.by_rook : out.by_queen) |= bit;
        if (value_class(qt) == value_class(t)) out.mpin |= bit;
      }
    }
  });
  return out;
}

int pressure(const SlowBoard& b, int c, int sq) {
  const int e = 1 - c;
  const AttackMaps& a = b.attacks[c];
  const int cls = value_class(type_on(b, e, sq));
  const bool cheaper = (cls > 0 && on(a.pawn, sq)) || (cls > 1 && on(a.minor, sq)) || (cls > 2 && on(a.rook, sq));
  if (cheaper) return 3;
  if (!on(b.attacks[e].any(), sq)) return 2;
  return attack_count(a, sq) > attack_count(b.attacks[e], sq) ? 1 : 0;
}

int pinned_index(const SlowBoard& b, int c, const PinInfo& pins, int sq) {
  const int type = type_on(b, 1 - c, sq);
  const int pinner = on(pins.by_bishop, sq) ? 0 : on(pins.by_rook, sq) ? 1 : 2;
  return (((type - 1) * 3 + pinner) * 2 + int(on(pins.against_king, sq))) * 4 + pressure(b, c, sq);
}

int pinned_file_index(const SlowBoard& b, int c, const PinInfo& pins, int file) {
  int best = -1;
  if (!(pins.pinned & slowbits::FILE_A << file)) return best;
  for (int r = 0; r < 8; ++r) {
    const int sq = file + 8 * r;
    if (on(pins.pinned, sq)) best = std::max(best, pinned_index(b, c, pins, sq));
  }
  return best;
}

TacticsFlags tactics_flags(const SlowBoard& b, int c, const PinInfo& pins) {
  const int e = 1 - c;
  const std::uint64_t defended = b.attacks[e].any();
  const std::uint64_t own = men_of(b, c);
  const std::uint64_t safe = ~own & ~defended;  // empty or enemy, not attacked by the opponent
  TacticsFlags f;

  // X-ray: two sliders of c on a line they both move along, nothing between them: one is the
  // first man the other meets along that line.
  const std::uint64_t empty = ~b.occupied;
  const std::uint64_t diagonal = b.pieces[c][CHIP_BISHOP] | b.pieces[c][CHIP_QUEEN];
  const std::uint64_t straight = b.pieces[c][CHIP_ROOK] | b.pieces[c][CHIP_QUEEN];
  f.xray = (slowbits::diagonal_attacks(diagonal, empty) & diagonal) != 0 ||
           (slowbits::straight_attacks(straight, empty) & straight) != 0;

  // Hung pins.
  std::uint64_t cheaper_or_more = 0, pressed = 0;
  for_each_square(pins.pinned, [&](int sq) {
    const int p = pressure(b, c, sq);  // 3: attacked by a cheaper class; 1: defended, attacked more often
    if (p == 3 || p == 1) cheaper_or_more |= 1ULL << sq;
    if (p != 0) pressed |= 1ULL << sq;
  });
  f.mpin_hung = (pins.mpin & pressed) != 0;
  f.pinned_simple_hung = (pins.pinned & ~defended) != 0;
  f.pinned_hung = (pins.pinned & defended & cheaper_or_more) != 0;
  f.perm_pin_simple_hung = (pins.against_king & ~defended) != 0;

  // Traps of c's own pieces: no safe square to go to.
  const std::uint64_t enemy_att = b.attacks[e].any();
  const auto file_of = [](int sq) { return sq % 8; };
  const auto rank_of = [c](int sq) { return c ? 7 - sq / 8 : sq / 8; };
  for_each_square(b.pieces[c][CHIP_KNIGHT], [&](int sq) {
    if (slowbits::knight_attacks(1ULL << sq) & safe) return;
    const int file = file_of(sq), rr = rank_of(sq);
    const bool rim_file = file == 0 || file == 7;
    if (rim_file && rr == 7) f.knight_trap[0] = true;
    if ((rim_file && rr == 6) || ((file == 1 || file == 6) && rr == 7)) f.knight_trap[1] = true;
    if ((rim_file && (rr == 4 || rr == 5)) || (file >= 2 && file <= 5 && rr == 7)) f.knight_trap[2] = true;
  });
  for_each_square(b.pieces[c][CHIP_ROOK], [&](int sq) {
    if (slowbits::straight_attacks(1ULL << sq, empty) & safe) return;
    const int file = file_of(sq), rr = rank_of(sq);
    const std::uint64_t king = b.pieces[c][CHIP_KING];
    const bool king_fg = on(king, rel(c, 5, 0)) || on(king, rel(c, 6, 0));
    if (king_fg && rr == 0 && file >= 6) f.rook_trap[0] = true;
    for (int kf = 1; kf <= 3; ++kf) {
      if (on(king, rel(c, kf, 0)) && rr == 0 && file < kf) f.rook_trap[1] = true;
    }
    if (on(enemy_att, sq)) f.rook_trap[2] = true;
    if (rr >= 5) f.rook_trap[3] = true;
  });
  for_each_square(b.pieces[c][CHIP_QUEEN] & enemy_att, [&](int sq) {
    const std::uint64_t q = 1ULL << sq;
    if (((slowbits::straight_attacks(q, empty) | slowbits::diagonal_attacks(q, empty)) & safe) == 0)
      f.queen_trap = true;
  });
  return f;
}

std::uint16_t tactics_sum(const TacticsFlags (&flags)[2], const SlowEvalWeights& w) {
  const auto reg = [&w](int i, int bits) { return std::int32_t(w.regs[i] & ((1u << bits) - 1)); };
  std::int32_t v = 0;
  for (int c = 0; c < 2; ++c) {
    const std::int32_t sign = c ? -1 : 1;
    const TacticsFlags& f = flags[c];
    std::int32_t bonus = 0;
    if (f.xray) bonus += reg(ER_XRAY + c, 6);
    if (f.mpin_hung) bonus += reg(ER_MPIN_HUNG, 7);
    if (f.pinned_simple_hung) bonus += reg(ER_PINNED_SIMPLE_HUNG, 8);
    if (f.pinned_hung) bonus += reg(ER_PINNED_HUNG, 7);
    if (f.perm_pin_simple_hung) bonus += reg(ER_PERM_PIN_SIMPLE_HUNG, 8);
    for (int k = 0; k < 3; ++k) {
      if (f.knight_trap[k]) bonus -= reg(ER_KNIGHT_TRAP + c * 3 + k, 8);
    }
    for (int k = 0; k < 4; ++k) {
      if (f.rook_trap[k]) bonus -= reg(ER_ROOK_TRAP + c * 4 + k, 8);
    }
    if (f.queen_trap) bonus -= reg(ER_QUEEN_TRAP + c, 8);
    v += sign * bonus;
  }
  return std::uint16_t(v);
}

std::uint16_t tactics_value(const SlowBoard& b, const SlowEvalWeights& w) {
  const TacticsFlags flags[2] = {tactics_flags(b, 0, find_pins(b, 0)), tactics_flags(b, 1, find_pins(b, 1))};
  return tactics_sum(flags, w);
}

}  // namespace db::chip
