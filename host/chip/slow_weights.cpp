#include "chip/slow_weights.h"

#include <algorithm>
#include <cstdlib>
#include <random>
#include <stdexcept>

#include "chip/slow_pawns.h"

namespace db::chip {

namespace {

std::uint32_t mask_of(int bits) { return bits >= 32 ? ~0u : (1u << bits) - 1; }
std::uint32_t packed_field(int value, int bits) { return std::uint32_t(value) & mask_of(bits); }
int centrality(int f) { return std::min(f, 7 - f); }

// Every value below is saturated into its field (signed_field / unsigned_field / symmetric_field,
// generator_params.h).
using namespace gp;

void set_rook_files(SlowEvalWeights& w, const GeneratorParams& p) {
  int open[4], half[4];
  for (int k = 0; k < 4; ++k) open[k] = p.get(ROOK_FILES_OPEN + k), half[k] = p.get(ROOK_FILES_HALF + k);
  const int closed_unopposed = p.get(ROOK_FILES_CLOSED_UNOPPOSED), closed_opposed = p.get(ROOK_FILES_CLOSED_OPPOSED);
  const int doubled = p.get(ROOK_FILES_DOUBLED_PERCENT), centre = p.get(ROOK_FILES_CENTRE);
  const int kmod_closed = p.get(ROOK_FILES_KING_FACTOR_CLOSED),
            kmod_opp_closed = p.get(ROOK_FILES_KING_FACTOR_APART_CLOSED);
  const int kmod_open = p.get(ROOK_FILES_KING_FACTOR_OPEN), kmod_opp_open = p.get(ROOK_FILES_KING_FACTOR_APART_OPEN);
  for (int c = 0; c < 2; ++c) {
    for (int unopposed = 0; unopposed < 2; ++unopposed) {
      for (int blockage = 0; blockage < 4; ++blockage) {
        for (int semi = 0; semi < 2; ++semi) {
          for (int cent = 0; cent < 4; ++cent) {
            for (int rc = 0; rc < 3; ++rc) {
              const int idx = (((unopposed * 4 + blockage) * 2 + semi) * 4 + cent) * 3 + rc;
              int base = 0, kmod = kmod_closed, kmod_opp = kmod_opp_closed;
              if (rc > 0) {
                if (semi && unopposed)
                  base = open[blockage];
                else if (semi)
                  base = half[blockage];
                else
                  base = unopposed ? closed_unopposed : closed_opposed;  // a rook in front of its own pawns
                if (rc == 2) base = saturate_signed(base * doubled / 100, 6);
                if (base > 0) base += cent >= 2 ? centre : 0;
                // open files towards the king: 1.5x, 2x when castled apart
                if (semi) kmod = kmod_open, kmod_opp = kmod_opp_open;
              }
              w.tables[ET_ROOK_FILES + c][idx] =
                  signed_field(base, 6) | unsigned_field(kmod, 2) << 6 | unsigned_field(kmod_opp, 2) << 8;
            }
          }
        }
      }
    }
  }
}

void set_multi_pawns(SlowEvalWeights& w, const GeneratorParams& p) {
  const int isolated = p.get(MULTI_PAWNS_ISOLATED), supported = p.get(MULTI_PAWNS_SUPPORTED),
            duo = p.get(MULTI_PAWNS_DUO), pseudo = p.get(MULTI_PAWNS_PSEUDO_ISOLATED),
            backward = p.get(MULTI_PAWNS_BACKWARD);
  const int tripled_percent = p.get(MULTI_PAWNS_TRIPLED_PERCENT), tripled = p.get(MULTI_PAWNS_TRIPLED);
  const int unopposed = p.get(MULTI_PAWNS_UNOPPOSED), rook_pawn = p.get(MULTI_PAWNS_ROOK_PAWN);
  for (int c = 0; c < 2; ++c) {
    for (int idx = 0; idx < 80; ++idx) {
      const int sub = idx & 15, opposed = sub >> 3 & 1, is_tripled = sub >> 2 & 1, cent = sub & 3;
      int pen;
      if (idx < 16)
        pen = isolated;
      else if (idx < 32)
        pen = supported;
      else if (idx < 48)
        pen = duo;
      else
        pen = idx >= 64 ? backward : pseudo;
      pen += is_tripled ? pen * tripled_percent / 100 + tripled : 0;
      pen += opposed ? 0 : unopposed;    // half-open for the enemy rooks
      pen += cent == 0 ? rook_pawn : 0;  // rook pawns
      w.tables[ET_MULTI_PAWNS + c][idx] = unsigned_field(pen, 8);
    }
  }
}

void set_passed(SlowEvalWeights& w, const GeneratorParams& p) {
  int stat[5], endgame[5];
  for (int k = 0; k < 5; ++k) stat[k] = p.get(PASSED_STATIC + k), endgame[k] = p.get(PASSED_ENDGAME + k);
  const int protect_pct = p.get(PASSED_PROTECTED_PERCENT), connected_pct = p.get(PASSED_CONNECTED_PERCENT),
            free_pct = p.get(PASSED_FREE_PERCENT), blocked_pct = p.get(PASSED_BLOCKED_PERCENT),
            rook_pawn_pct = p.get(PASSED_ROOK_PAWN_PERCENT);
  for (int c = 0; c < 2; ++c) {
    for (int idx = 0; idx < 320; ++idx) {
      const int rc = idx / 64, cent = (idx / 16) & 3, feat = idx & 15;
      const bool blocked = feat & 8, protect = feat & 4, connected = feat & 2, free = feat & 1;
      const int pct = 100 + (protect ? protect_pct : 0) + (connected ? connected_pct : 0) + (free ? free_pct : 0) -
                      (blocked ? blocked_pct : 0) - (cent == 0 ? rook_pawn_pct : 0);
      const int lo = stat[rc] * pct / 100, hi = endgame[rc] * pct / 100;
      w.tables[ET_PASSED + c][idx] = signed_field(lo, 16) | signed_field(hi, 16) << 16;
    }
  }
}

void set_mobility(SlowEvalWeights& w, const GeneratorParams& p) {
  const int base = p.get(MOBILITY_BASE), centre = p.get(MOBILITY_CENTRE), far = p.get(MOBILITY_FAR_HALF);
  for (int r = 0; r < 8; ++r) {
    for (int f = 0; f < 8; ++f) {
      for (int level = 0; level < 16; ++level) {
        const int d = level - 8;
        // Control of the centre and of the opponent's half counts more.
        const bool far_half = d > 0 ? r >= 4 : r <= 3;
        const int weight = base + (centrality(f) >= 2 ? centre : 0) + (far_half ? far : 0);
        w.tables[ET_MOBILITY + r][f * 16 + level] = signed_field(d * weight, 9);
      }
    }
  }
}

// Development index {white undeveloped, black undeveloped, white king, black king} with the
// colours swapped.
int development_mirror(int i) { return (i >> 4 & 3) << 6 | (i >> 6 & 3) << 4 | (i & 3) << 2 | (i >> 2 & 3); }
int joint_mirror(int i) { return (i & 15) << 4 | (i >> 4 & 15); }

void set_material(SlowEvalWeights& w, const GeneratorParams& p) {
  // Development: a minor still at home; the king: castled, in the centre able to castle, in the
  // centre unable to castle, off the back rank (development.king[0..3]).
  const int minor = p.get(DEVELOPMENT_MINOR);
  int king[4];
  for (int k = 0; k < 4; ++k) king[k] = p.get(DEVELOPMENT_KING + k);
  for (int i = 0; i < 256; ++i) {
    const int wu = i >> 6 & 3, bu = i >> 4 & 3, wk = i >> 2 & 3, bk = i & 3;
    w.tables[ET_DEVELOPMENT][i] = symmetric_field(minor * (bu - wu) + king[wk] - king[bk], 9);
  }
  // Signature: queen and knight work together better than queen and bishop (Appendix A).
  const int queen_knight = p.get(SIGNATURE_QUEEN_KNIGHT);
  for (int c = 0; c < 2; ++c) {
    for (int i = 0; i < 128; ++i) {
      const bool queen = i >> 6 & 1, bishops = (i >> 2 & 3) != 0, knights = (i & 3) != 0;
      w.tables[ET_SIGNATURE + c][i] = signed_field(queen && knights && !bishops ? queen_knight : 0, 20);
    }
  }
  // Joint signature: a rook against minor pieces only (no rook on the other side).
  const int rook_vs_minors = p.get(JOINT_SIGNATURE_ROOK_VS_MINORS);
  for (int i = 0; i < 256; ++i) {
    const int white = i >> 4, black = i & 15;
    const bool w_rook_vs_minors = (white & 4) && !(black & 4) && (black & 3);
    const bool b_rook_vs_minors = (black & 4) && !(white & 4) && (white & 3);
    w.tables[ET_JOINT_SIGNATURE][i] =
        symmetric_field((w_rook_vs_minors ? rook_vs_minors : 0) - (b_rook_vs_minors ? rook_vs_minors : 0), 8);
  }
  // Contempt stays 0: the host sets it for the opponent and the match situation.
}

void set_pieces(SlowEvalWeights& w, const GeneratorParams& p) {
  const int long_diagonal = p.get(BISHOPS_LONG_DIAGONAL), mobile_value = p.get(BISHOPS_MOBILE),
            own_pawn = p.get(BISHOPS_OWN_PAWN), at_king = p.get(BISHOPS_KING);
  const int sb_base = p.get(SELF_BLOCK_BASE), sb_blocked = p.get(SELF_BLOCK_BLOCKED),
            sb_advanced = p.get(SELF_BLOCK_ADVANCED), sb_centre = p.get(SELF_BLOCK_CENTRE),
            sb_two = p.get(SELF_BLOCK_TWO_BISHOPS);
  const int ob_base = p.get(OPP_BLOCK_BASE), ob_protected = p.get(OPP_BLOCK_PROTECTED),
            ob_blocked = p.get(OPP_BLOCK_BLOCKED);
  const int bb_rear = p.get(BACK_BLOCK_REAR), bb_front = p.get(BACK_BLOCK_FRONT),
            bb_tripled = p.get(BACK_BLOCK_TRIPLED);
  int knight[4], challenge_pct[3];
  for (int k = 0; k < 4; ++k) knight[k] = p.get(MINOR_ON_WEAK_KNIGHT + k);
  for (int k = 0; k < 3; ++k) challenge_pct[k] = p.get(MINOR_ON_WEAK_CHALLENGE_PERCENT + k);
  const int mw_centre = p.get(MINOR_ON_WEAK_CENTRE), bishop_pct = p.get(MINOR_ON_WEAK_BISHOP_PERCENT),
            supported_pct = p.get(MINOR_ON_WEAK_SUPPORTED_PERCENT);
  for (int c = 0; c < 2; ++c) {
    // Bishop diagonals: long diagonals, mobility, aiming at the king; own pawns on them cost.
    for (int d = 0; d < 2; ++d) {
      for (int i = 0; i < 128; ++i) {
        const int id = i >> 3, length = 8 - std::abs(id - 7);
        const bool mobile = i & 4, pawn = i & 2, king = i & 1;
        const int v = (length >= 7 ? long_diagonal : 0) + (mobile ? mobile_value : 0) - (pawn ? own_pawn : 0) +
                      (king ? at_king : 0);
        w.tables[ET_BISHOPS + c * 2 + d][i] = signed_field(id < 15 ? v : 0, 11);
      }
    }
    for (int i = 0; i < 320; ++i) {
      const int opposed = i & 1, two = i >> 1 & 1, prot = i >> 2 & 1, blocked = i >> 3 & 1, cent = i >> 4 & 3,
                rank_class = i >> 6;
      (void)opposed;
      (void)prot;
      const int pen = sb_base + (blocked ? sb_blocked : 0) + (rank_class >= 2 ? sb_advanced : 0) +
                      (cent >= 2 ? sb_centre : 0) - (two ? sb_two : 0);
      w.tables[ET_SELF_BLOCK + c][i] = unsigned_field(pen, 5);
    }
    for (int i = 0; i < 128; ++i) {
      const bool blocked = i >> 1 & 1, prot = i >> 2 & 1;
      w.tables[ET_OPP_BLOCK + c][i] =
          unsigned_field(ob_base + (prot ? ob_protected : 0) + (blocked ? ob_blocked : 0), 4);
    }
    for (int i = 0; i < 160; ++i) {
      const bool tripled = i & 1, front = i >> 1 & 1, rear = i >> 2 & 1;
      w.tables[ET_BACK_BLOCK + c][i] = unsigned_field(bb_rear * rear + bb_front * front + bb_tripled * tripled, 5);
    }
    // Minor pieces on weak squares (outposts): knights more than bishops, supported ones more,
    // less when the opponent can challenge them with a minor piece.
    for (int i = 0; i < 192; ++i) {
      const int challenge = i % 3, supported = i / 3 & 1, bishop = i / 6 & 1, cent = i / 12 & 3, rank_class = i / 48;
      int v = knight[rank_class] + mw_centre * cent;
      if (bishop) v = v * bishop_pct / 100;
      if (supported) v += v * supported_pct / 100;
      v = v * challenge_pct[challenge] / 100;
      w.tables[ET_MINOR_ON_WEAK + c][i] = signed_field(v, 12);
    }
  }
  // Trapped bishops: the trapping pawn in place costs most, defended or with no escape more.
  const int corner = p.get(TRAPPED_BISHOP_CORNER), side = p.get(TRAPPED_BISHOP_SIDE),
            defended_value = p.get(TRAPPED_BISHOP_DEFENDED), no_escape = p.get(TRAPPED_BISHOP_NO_ESCAPE);
  for (int i = 0; i < 128; ++i) {
    const int k = i >> 3 & 7;
    const bool pawn = i & 4, defended = i & 2, escape_blocked = i & 1;
    int pen = 0;
    if (k < 6 && pawn)
      pen = (k < 4 ? corner : side) + (defended ? defended_value : 0) + (escape_blocked ? no_escape : 0);
    w.tables[ET_TRAPPED_BISHOP][i] = unsigned_field(pen, 8);
  }
}

// PINNED: a bonus by the pinned piece's type, more against the king (200 %), less for a queen
// pinner (75 %: it is easily driven away), more per pressure step (+50 % each).
void set_pinned(SlowEvalWeights& w, const GeneratorParams& p) {
  int base[5];  // pawn, knight, bishop, rook, queen
  for (int k = 0; k < 5; ++k) base[k] = p.get(PINNED_BASE + k);
  const int king_pct = p.get(PINNED_KING_PERCENT), queen_pct = p.get(PINNED_QUEEN_PINNER_PERCENT),
            pressure_pct = p.get(PINNED_PRESSURE_PERCENT);
  for (int c = 0; c < 2; ++c) {
    for (int idx = 0; idx < 128; ++idx) {
      const int type = idx / 24, pinner = idx / 8 % 3, king = idx / 4 & 1, press = idx & 3;
      int v = 0;
      if (type < 5) {
        v = king ? base[type] * king_pct / 100 : base[type];
        if (pinner == 2) v = v * queen_pct / 100;
        v = v * (100 + pressure_pct * press) / 100;
      }
      w.tables[ET_PINNED + c][idx] = unsigned_field(v, 8);
    }
  }
}

}  // namespace

SlowEvalWeights default_slow_weights() { return default_slow_weights(GeneratorParams::defaults()); }

SlowEvalWeights default_slow_weights(const GeneratorParams& p) {
  SlowEvalWeights w;
  w.regs[ER_EVAL_CONTROL] = (1u << SLOW_GROUPS) - 1;
  // Lazy evaluation: margin 60, low-pass filter k = 3, on, off below 4 pieces.
  w.regs[ER_EVAL_CONTROL + 1] = 60u | 3u << 16 | 1u << 20 | 4u << 24;
  // Every register in its width (EVAL_REG_BITS), one parameter for both colours.
  const auto reg = [&w, &p](int r, int param) {
    w.regs[r] = unsigned_field(p.get(param), EVAL_REG_BITS[r] < 31 ? EVAL_REG_BITS[r] : 31);
  };
  for (int c = 0; c < 2; ++c) {
    // single: regular, trapped, not; doubled: the same
    for (int k = 0; k < 6; ++k) reg(ER_ROOK7 + c * 6 + k, REG_ROOK7 + k);
    reg(ER_HUNG + c * 2, REG_HUNG_ON_MOVE);       // the opponent's piece hangs and we are on move
    reg(ER_HUNG + c * 2 + 1, REG_HUNG_OFF_MOVE);  // ... and the opponent is on move
    reg(ER_BISHOP_PAIR + c, REG_BISHOP_PAIR);
    reg(ER_SIDE_TO_MOVE + c, REG_SIDE_TO_MOVE);
    reg(ER_XRAY + c, REG_XRAY);
    for (int k = 0; k < 3; ++k) reg(ER_KNIGHT_TRAP + c * 3 + k, REG_KNIGHT_TRAP + k);
    for (int k = 0; k < 4; ++k) reg(ER_ROOK_TRAP + c * 4 + k, REG_ROOK_TRAP + k);
    reg(ER_QUEEN_TRAP + c, REG_QUEEN_TRAP);
  }
  reg(ER_MPIN_HUNG, REG_MPIN_HUNG);
  reg(ER_PINNED_SIMPLE_HUNG, REG_PINNED_SIMPLE_HUNG);
  reg(ER_PINNED_HUNG, REG_PINNED_HUNG);
  reg(ER_PERM_PIN_SIMPLE_HUNG, REG_PERM_PIN_SIMPLE_HUNG);
  set_pinned(w, p);
  set_mobility(w, p);
  set_rook_files(w, p);
  set_multi_pawns(w, p);
  set_passed(w, p);
  set_material(w, p);
  set_pieces(w, p);
  set_default_pawn_weights(w, p);
  return w;
}

SlowEvalWeights random_slow_weights(std::uint32_t seed) {
  std::mt19937 rng(seed * 2654435761u + 17);
  SlowEvalWeights w;
  for (int i = 0; i < EVAL_REGS_COUNT; ++i) w.regs[i] = rng() & mask_of(EVAL_REG_BITS[i]);
  w.regs[ER_EVAL_CONTROL] = (1u << SLOW_GROUPS) - 1;
  for (int t = 0; t < EVAL_TABLES_COUNT; ++t) {
    for (int i = 0; i < EVAL_TABLE_ENTRIES[t]; ++i) w.tables[t][i] = rng() & mask_of(EVAL_TABLE_BITS[t]);
  }
  return w;
}

SlowEvalWeights colour_symmetric(const SlowEvalWeights& in) {
  SlowEvalWeights w = in;
  for (int t = 0; t < EVAL_TABLES_COUNT; ++t) {
    const std::string g = EVAL_TABLE_GROUP[t];
    if (g == "MOBILITY") continue;
    if (t + 1 < EVAL_TABLES_COUNT && g == EVAL_TABLE_GROUP[t + 1] && (t == 0 || g != EVAL_TABLE_GROUP[t - 1])) {
      w.tables[t + 1] = w.tables[t];  // two tables: white's, then black's
    }
  }
  for (int r = 0; r < 4; ++r) {
    for (int f = 0; f < 8; ++f) {
      for (int level = 0; level < 16; ++level) {
        const int v = int(std::int16_t(std::uint16_t(w.tables[ET_MOBILITY + r][f * 16 + level] << 7)) >> 7);
        w.tables[ET_MOBILITY + 7 - r][f * 16 + ((16 - level) & 15)] = packed_field(-v, 9);
      }
    }
  }
  for (int k = 0; k < 6; ++k) w.regs[ER_ROOK7 + 6 + k] = w.regs[ER_ROOK7 + k];
  w.regs[ER_HUNG + 2] = w.regs[ER_HUNG];
  w.regs[ER_HUNG + 3] = w.regs[ER_HUNG + 1];
  w.regs[ER_BISHOP_PAIR + 1] = w.regs[ER_BISHOP_PAIR];
  w.regs[ER_SIDE_TO_MOVE + 1] = w.regs[ER_SIDE_TO_MOVE];
  w.regs[ER_XRAY + 1] = w.regs[ER_XRAY];
  for (int k = 0; k < 3; ++k) w.regs[ER_KNIGHT_TRAP + 3 + k] = w.regs[ER_KNIGHT_TRAP + k];
  for (int k = 0; k < 4; ++k) w.regs[ER_ROOK_TRAP + 4 + k] = w.regs[ER_ROOK_TRAP + k];
  w.regs[ER_QUEEN_TRAP + 1] = w.regs[ER_QUEEN_TRAP];
  w.regs[ER_WASTED_PAWNS + 1] = w.regs[ER_WASTED_PAWNS];
  w.regs[ER_SEPARATED_PASSED + 1] = w.regs[ER_SEPARATED_PASSED];
  w.regs[ER_MISSING_WING + 1] = w.regs[ER_MISSING_WING];
  w.regs[ER_BIAS] = 0;
  // Four bishop tables: white's two diagonals, then black's; the trapped-bishop table's black half.
  w.tables[ET_BISHOPS + 2] = w.tables[ET_BISHOPS];
  w.tables[ET_BISHOPS + 3] = w.tables[ET_BISHOPS + 1];
  for (int i = 0; i < 64; ++i) w.tables[ET_TRAPPED_BISHOP][64 + i] = w.tables[ET_TRAPPED_BISHOP][i];
  // White's-view tables indexed by both sides: the swapped index holds the negated value.
  for (int t : {ET_DEVELOPMENT, ET_JOINT_SIGNATURE, ET_CONTEMPT}) {
    const int bits = EVAL_TABLE_BITS[t];
    for (int i = 0; i < EVAL_TABLE_ENTRIES[t]; ++i) {
      const int m = t == ET_DEVELOPMENT ? development_mirror(i) : joint_mirror(i);
      if (m == i) w.tables[t][i] = 0;
      if (m <= i) continue;
      const std::uint32_t v = w.tables[t][i];
      const int value = int(v << (32 - bits)) >> (32 - bits);
      w.tables[t][m] = packed_field(-value, bits);
    }
  }
  return w;
}

nlohmann::json slow_weights_to_json(const SlowEvalWeights& w) {
  nlohmann::json regs = nlohmann::json::object(), tables = nlohmann::json::object();
  for (int i = 0; i < EVAL_REGS_COUNT; ++i) regs[EVAL_REG_GROUP[i]].push_back(w.regs[i]);
  for (int t = 0; t < EVAL_TABLES_COUNT; ++t) {
    tables[EVAL_TABLE_GROUP[t]].push_back(
        std::vector<std::uint32_t>(w.tables[t].begin(), w.tables[t].begin() + EVAL_TABLE_ENTRIES[t]));
  }
  return {{"registers", regs}, {"tables", tables}};
}

SlowEvalWeights slow_weights_from_json(const nlohmann::json& j) {
  SlowEvalWeights w;
  auto fail = [](const std::string& what) { throw std::invalid_argument("slow weights: " + what); };
  auto number = [&](const nlohmann::json& v, int bits, const std::string& where) {
    if (!v.is_number_unsigned()) fail(where + " is not an unsigned number");
    const auto x = v.get<std::uint64_t>();
    if (x > mask_of(bits))
      fail(where + " = " + std::to_string(x) + " does not fit in " + std::to_string(bits) + " bits");
    return std::uint32_t(x);
  };
  if (!j.is_object() || !j.contains("registers") || !j.contains("tables")) fail("needs \"registers\" and \"tables\"");
  int i = 0;
  while (i < EVAL_REGS_COUNT) {
    const std::string g = EVAL_REG_GROUP[i];
    int n = 0;
    while (i + n < EVAL_REGS_COUNT && g == EVAL_REG_GROUP[i + n]) ++n;
    const auto& a = j["registers"].contains(g) ? j["registers"][g] : nlohmann::json();
    if (!a.is_array() || int(a.size()) != n) fail("register group " + g + " needs " + std::to_string(n) + " values");
    for (int k = 0; k < n; ++k) w.regs[i + k] = number(a[k], EVAL_REG_BITS[i + k], g + "[" + std::to_string(k) + "]");
    i += n;
  }
  int t = 0;
  while (t < EVAL_TABLES_COUNT) {
    const std::string g = EVAL_TABLE_GROUP[t];
    int n = 0;
    while (t + n < EVAL_TABLES_COUNT && g == EVAL_TABLE_GROUP[t + n]) ++n;
    const auto& a = j["tables"].contains(g) ? j["tables"][g] : nlohmann::json();
    if (!a.is_array() || int(a.size()) != n) fail("table group " + g + " needs " + std::to_string(n) + " tables");
    for (int k = 0; k < n; ++k) {
      const int entries = EVAL_TABLE_ENTRIES[t + k];
      const std::string name = g + "[" + std::to_string(k) + "]";
      if (!a[k].is_array() || int(a[k].size()) != entries)
        fail("table " + name + " needs " + std::to_string(entries) + " entries");
      for (int e = 0; e < entries; ++e) {
        w.tables[t + k][e] = number(a[k][e], EVAL_TABLE_BITS[t + k], name + " entry " + std::to_string(e));
      }
    }
    t += n;
  }
  return w;
}

}  // namespace db::chip
