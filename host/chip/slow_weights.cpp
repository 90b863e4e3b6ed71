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

void set_rook_files(SlowEvalWeights& w) {
  for (int c = 0; c < 2; ++c) {
    for (int unopposed = 0; unopposed < 2; ++unopposed) {
      for (int blockage = 0; blockage < 4; ++blockage) {
        for (int semi = 0; semi < 2; ++semi) {
          for (int cent = 0; cent < 4; ++cent) {
            for (int rc = 0; rc < 3; ++rc) {
              const int idx = (((unopposed * 4 + blockage) * 2 + semi) * 4 + cent) * 3 + rc;
              int base = 0, kmod = 3, kmod_opp = 2;
              if (rc > 0) {
                static constexpr int OPEN[4] = {20, 8, 10, 12}, HALF[4] = {12, 6, 6, 2};
                if (semi && unopposed)
                  base = OPEN[blockage];
                else if (semi)
                  base = HALF[blockage];
                else
                  base = unopposed ? 4 : -2;  // a rook in front of its own pawns
                if (rc == 2) base = std::min(31, base * 3 / 2);
                if (base > 0) base += cent >= 2 ? 1 : 0;
                if (semi) kmod = 1, kmod_opp = 0;  // open files towards the king: 1.5x, 2x when castled apart
              }
              w.tables[ET_ROOK_FILES + c][idx] =
                  packed_field(base, 6) | std::uint32_t(kmod) << 6 | std::uint32_t(kmod_opp) << 8;
            }
          }
        }
      }
    }
  }
}

void set_multi_pawns(SlowEvalWeights& w) {
  for (int c = 0; c < 2; ++c) {
    for (int idx = 0; idx < 80; ++idx) {
      const int sub = idx & 15, opposed = sub >> 3 & 1, tripled = sub >> 2 & 1, cent = sub & 3;
      int pen;
      if (idx < 16)
        pen = 30;  // isolated
      else if (idx < 32)
        pen = 10;  // supported
      else if (idx < 48)
        pen = 8;  // duo
      else
        pen = idx >= 64 ? 26 : 18;  // pseudo-isolated, backward
      pen += tripled ? pen / 2 + 10 : 0;
      pen += opposed ? 0 : 5;    // half-open for the enemy rooks
      pen += cent == 0 ? 4 : 0;  // rook pawns
      w.tables[ET_MULTI_PAWNS + c][idx] = packed_field(pen, 8);
    }
  }
}

void set_passed(SlowEvalWeights& w) {
  static constexpr int STATIC[5] = {10, 20, 35, 60, 100}, ENDGAME[5] = {10, 20, 40, 70, 110};
  for (int c = 0; c < 2; ++c) {
    for (int idx = 0; idx < 320; ++idx) {
      const int rc = idx / 64, cent = (idx / 16) & 3, feat = idx & 15;
      const bool blocked = feat & 8, protect = feat & 4, connected = feat & 2, free = feat & 1;
      int pct =
          100 + (protect ? 25 : 0) + (connected ? 25 : 0) + (free ? 20 : 0) - (blocked ? 30 : 0) - (cent == 0 ? 10 : 0);
      const int lo = STATIC[rc] * pct / 100, hi = ENDGAME[rc] * pct / 100;
      w.tables[ET_PASSED + c][idx] = packed_field(lo, 16) | packed_field(hi, 16) << 16;
    }
  }
}

void set_mobility(SlowEvalWeights& w) {
  for (int r = 0; r < 8; ++r) {
    for (int f = 0; f < 8; ++f) {
      for (int level = 0; level < 16; ++level) {
        const int d = level - 8;
        // Control of the centre and of the opponent's half counts more.
        const bool far_half = d > 0 ? r >= 4 : r <= 3;
        const int weight = 1 + (centrality(f) >= 2 ? 1 : 0) + (far_half ? 1 : 0);
        w.tables[ET_MOBILITY + r][f * 16 + level] = packed_field(d * weight, 9);
      }
    }
  }
}

// Development index {white undeveloped, black undeveloped, white king, black king} with the
// colours swapped.
int development_mirror(int i) { return (i >> 4 & 3) << 6 | (i >> 6 & 3) << 4 | (i & 3) << 2 | (i >> 2 & 3); }
int joint_mirror(int i) { return (i & 15) << 4 | (i >> 4 & 15); }

void set_material(SlowEvalWeights& w) {
  // Development: 8 a minor still at home; the king: castled 0, in the centre able to castle -5,
  // in the centre unable to castle -25, off the back rank -15.
  static constexpr int KING[4] = {0, -5, -25, -15};
  for (int i = 0; i < 256; ++i) {
    const int wu = i >> 6 & 3, bu = i >> 4 & 3, wk = i >> 2 & 3, bk = i & 3;
    w.tables[ET_DEVELOPMENT][i] = packed_field(8 * (bu - wu) + KING[wk] - KING[bk], 9);
  }
  // Signature: queen and knight work together better than queen and bishop (Appendix A).
  for (int c = 0; c < 2; ++c) {
    for (int i = 0; i < 128; ++i) {
      const bool queen = i >> 6 & 1, bishops = (i >> 2 & 3) != 0, knights = (i & 3) != 0;
      w.tables[ET_SIGNATURE + c][i] = packed_field(queen && knights && !bishops ? 8 : 0, 20);
    }
  }
  // Joint signature: a rook against minor pieces only (no rook on the other side).
  for (int i = 0; i < 256; ++i) {
    const int white = i >> 4, black = i & 15;
    const bool w_rook_vs_minors = (white & 4) && !(black & 4) && (black & 3);
    const bool b_rook_vs_minors = (black & 4) && !(white & 4) && (white & 3);
    w.tables[ET_JOINT_SIGNATURE][i] = packed_field((w_rook_vs_minors ? 5 : 0) - (b_rook_vs_minors ? 5 : 0), 8);
  }
  // Contempt stays 0: the host sets it for the opponent and the match situation.
}

void set_pieces(SlowEvalWeights& w) {
  for (int c = 0; c < 2; ++c) {
    // Bishop diagonals: long diagonals, mobility, aiming at the king; own pawns on them cost.
    for (int d = 0; d < 2; ++d) {
      for (int i = 0; i < 128; ++i) {
        const int id = i >> 3, length = 8 - std::abs(id - 7);
        const bool mobile = i & 4, pawn = i & 2, king = i & 1;
        const int v = (length >= 7 ? 5 : 0) + (mobile ? 8 : 0) - (pawn ? 3 : 0) + (king ? 10 : 0);
        w.tables[ET_BISHOPS + c * 2 + d][i] = packed_field(id < 15 ? v : 0, 11);
      }
    }
    for (int i = 0; i < 320; ++i) {
      const int opposed = i & 1, two = i >> 1 & 1, prot = i >> 2 & 1, blocked = i >> 3 & 1, cent = i >> 4 & 3,
                rank_class = i >> 6;
      (void)opposed;
      (void)prot;
      const int pen = 4 + (blocked ? 6 : 0) + (rank_class >= 2 ? 2 : 0) + (cent >= 2 ? 3 : 0) - (two ? 2 : 0);
      w.tables[ET_SELF_BLOCK + c][i] = packed_field(pen, 5);
    }
    for (int i = 0; i < 128; ++i) {
      const bool blocked = i >> 1 & 1, prot = i >> 2 & 1;
      w.tables[ET_OPP_BLOCK + c][i] = packed_field(2 + (prot ? 4 : 0) + (blocked ? 3 : 0), 4);
    }
    for (int i = 0; i < 160; ++i) {
      const bool tripled = i & 1, front = i >> 1 & 1, rear = i >> 2 & 1;
      w.tables[ET_BACK_BLOCK + c][i] = packed_field(3 * rear + 3 * front + 4 * tripled, 5);
    }
    // Minor pieces on weak squares (outposts): knights more than bishops, supported ones more,
    // less when the opponent can challenge them with a minor piece.
    static constexpr int KNIGHT[4] = {10, 18, 25, 20};
    for (int i = 0; i < 192; ++i) {
      const int challenge = i % 3, supported = i / 3 & 1, bishop = i / 6 & 1, cent = i / 12 & 3, rank_class = i / 48;
      int v = KNIGHT[rank_class] + 3 * cent;
      if (bishop) v /= 2;
      if (supported) v += v / 2;
      v = v * (challenge == 0 ? 100 : challenge == 1 ? 75 : 60) / 100;
      w.tables[ET_MINOR_ON_WEAK + c][i] = packed_field(v, 12);
    }
  }
  // Trapped bishops: the trapping pawn in place costs most, defended or with no escape more.
  for (int i = 0; i < 128; ++i) {
    const int k = i >> 3 & 7;
    const bool pawn = i & 4, defended = i & 2, escape_blocked = i & 1;
    int pen = 0;
    if (k < 6 && pawn) pen = (k < 4 ? 80 : 40) + (defended ? 30 : 0) + (escape_blocked ? 30 : 0);
    w.tables[ET_TRAPPED_BISHOP][i] = packed_field(pen, 8);
  }
}

// PINNED: a bonus by the pinned piece's type, doubled against the king, a quarter less for a queen
// pinner (it is easily driven away), +50 % per pressure step.
void set_pinned(SlowEvalWeights& w) {
  static constexpr int BASE[5] = {5, 12, 12, 16, 24};  // pawn, knight, bishop, rook, queen
  for (int c = 0; c < 2; ++c) {
    for (int idx = 0; idx < 128; ++idx) {
      const int type = idx / 24, pinner = idx / 8 % 3, king = idx / 4 & 1, press = idx & 3;
      int v = 0;
      if (type < 5) {
        v = BASE[type] * (king ? 2 : 1);
        if (pinner == 2) v = v * 3 / 4;
        v = std::min(255, v * (2 + press) / 2);
      }
      w.tables[ET_PINNED + c][idx] = packed_field(v, 8);
    }
  }
}

}  // namespace

SlowEvalWeights default_slow_weights() {
  SlowEvalWeights w;
  w.regs[ER_EVAL_CONTROL] = (1u << SLOW_GROUPS) - 1;
  // Lazy evaluation: margin 60, low-pass filter k = 3, on, off below 4 pieces.
  w.regs[ER_EVAL_CONTROL + 1] = 60u | 3u << 16 | 1u << 20 | 4u << 24;
  for (int c = 0; c < 2; ++c) {
    static constexpr int ROOK7[6] = {20, 40, 25, 40, 80, 50};  // single: regular, trapped, not; doubled
    for (int k = 0; k < 6; ++k) w.regs[ER_ROOK7 + c * 6 + k] = ROOK7[k];
    w.regs[ER_HUNG + c * 2] = 40;      // the opponent's piece hangs and we are on move
    w.regs[ER_HUNG + c * 2 + 1] = 10;  // ... and the opponent is on move
    w.regs[ER_BISHOP_PAIR + c] = 30;
    w.regs[ER_SIDE_TO_MOVE + c] = 8;
    w.regs[ER_XRAY + c] = 8;
    static constexpr int KNIGHT_TRAP[3] = {120, 80, 50}, ROOK_TRAP[4] = {40, 40, 80, 60};
    for (int k = 0; k < 3; ++k) w.regs[ER_KNIGHT_TRAP + c * 3 + k] = KNIGHT_TRAP[k];
    for (int k = 0; k < 4; ++k) w.regs[ER_ROOK_TRAP + c * 4 + k] = ROOK_TRAP[k];
    w.regs[ER_QUEEN_TRAP + c] = 150;
  }
  w.regs[ER_MPIN_HUNG] = 30;
  w.regs[ER_PINNED_SIMPLE_HUNG] = 40;
  w.regs[ER_PINNED_HUNG] = 25;
  w.regs[ER_PERM_PIN_SIMPLE_HUNG] = 60;
  set_pinned(w);
  set_mobility(w);
  set_rook_files(w);
  set_multi_pawns(w);
  set_passed(w);
  set_material(w);
  set_pieces(w);
  set_default_pawn_weights(w);
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
