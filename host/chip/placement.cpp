// See placement.h.
#include "chip/placement.h"

#include <algorithm>
#include <random>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "chess/bitboard.h"

namespace db::chip {

namespace {

constexpr const char* TYPE_NAMES[7] = {"", "pawn", "knight", "bishop", "rook", "queen", "king"};

int centrality(int sq) {  // 0 (edge) .. 3 (centre)
  const int f = sq & 7, r = sq >> 3;
  const int fr = f < 7 - f ? f : 7 - f, rr = r < 7 - r ? r : 7 - r;
  return fr < rr ? fr : rr;
}

}  // namespace

PlacementTable default_placement() { return default_placement(GeneratorParams::defaults()); }

PlacementTable default_placement(const GeneratorParams& p) {
  using namespace gp;
  const int pawn = p.get(PAWN_VALUE), pawn_advance = p.get(PAWN_ADVANCE), pawn_centre = p.get(PAWN_CENTRE_ADVANCE);
  const int knight = p.get(KNIGHT_VALUE), knight_centre = p.get(KNIGHT_CENTRE), knight_rim = p.get(KNIGHT_RIM);
  const int bishop = p.get(BISHOP_VALUE), bishop_centre = p.get(BISHOP_CENTRE);
  const int rook = p.get(ROOK_VALUE), rook_seventh = p.get(ROOK_SEVENTH), rook_centre = p.get(ROOK_CENTRE_FILE);
  const int queen = p.get(QUEEN_VALUE), queen_centre = p.get(QUEEN_CENTRE);
  const int king_corner = p.get(KING_CORNER), king_advance = p.get(KING_ADVANCE);
  const auto word = [](int v) { return std::int16_t(saturate_signed(v, 16)); };
  PlacementTable t{};
  for (int sq = 0; sq < 64; ++sq) {
    const int rank = sq >> 3, file = sq & 7, c = centrality(sq);
    const bool centre_file = file >= 2 && file <= 5;
    t[1 << 6 | sq] = word(
        rank == 0 || rank == 7 ? 0 : pawn + pawn_advance * (rank - 1) + (centre_file ? pawn_centre * (rank - 1) : 0));
    t[2 << 6 | sq] = word(knight + knight_centre * c - (c == 0 ? knight_rim : 0));
    t[3 << 6 | sq] = word(bishop + bishop_centre * c);
    t[4 << 6 | sq] = word(rook + (rank == 6 ? rook_seventh : 0) + (centre_file ? rook_centre : 0));
    t[5 << 6 | sq] = word(queen + queen_centre * c);
    // The middlegame's king (generate_weights blends it with the ending's by the root's stage).
    t[6 << 6 | sq] = word(rank == 0 ? (file <= 2 || file >= 6 ? king_corner : 0) : -king_advance * rank);
  }
  return t;
}

PlacementTable random_placement(std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> v(-32768, 32767);
  PlacementTable t{};
  for (auto& x : t) x = std::int16_t(v(rng));
  return t;
}

int placement_value(const PlacementTable& table, const Position& pos) {
  std::uint16_t sum = 0;
  for (Square s = 0; s < 64; ++s) {
    const Piece p = pos.piece_on(s);
    if (p == NO_PIECE) continue;
    const bool black = color_of(p) == BLACK;
    const std::uint16_t v = std::uint16_t(table[(type_of(p) + 1) << 6 | (black ? s ^ 56 : s)]);
    sum = std::uint16_t(black ? sum - v : sum + v);
  }
  return std::int16_t(sum);
}

namespace {

int signature(const Position& pos, Color c) {
  const int q = popcount(pos.pieces(c, QUEEN)), r = popcount(pos.pieces(c, ROOK));
  const int minors = popcount(pos.pieces(c, KNIGHT)) + popcount(pos.pieces(c, BISHOP));
  return (q != 0) << 4 | (r >= 2 ? 2 : r) << 2 | (minors >= 3 ? 3 : minors);
}

nlohmann::json parse_weights(const std::string& text) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {  // syntax errors, and numbers out of range (1e99999)
    throw std::invalid_argument(std::string("weights file: not JSON: ") + e.what());
  }
}

}  // namespace

PhaseTable default_phase() { return default_phase(GeneratorParams::defaults()); }

PhaseTable default_phase(const GeneratorParams& p) {
  using namespace gp;
  const int minor_pair = p.get(PHASE_MINOR_PAIR);
  const int rel_queen = p.get(PHASE_RELEVANCE_QUEEN), rel_rook = p.get(PHASE_RELEVANCE_ROOK),
            rel_minor = p.get(PHASE_RELEVANCE_MINOR);
  const int scale_base = p.get(PHASE_SCALE_BASE), scale_floor = p.get(PHASE_SCALE_FLOOR);
  const int scale_queen = p.get(PHASE_SCALE_QUEEN), scale_rook = p.get(PHASE_SCALE_ROOK),
            scale_minor = p.get(PHASE_SCALE_MINOR), scale_divisor = p.get(PHASE_SCALE_DIVISOR);
  PhaseTable t{};
  for (int w = 0; w < 32; ++w) {
    for (int b = 0; b < 32; ++b) {
      const int wq = w >> 4, wr = (w >> 2) & 3, wm = w & 3, bq = b >> 4, br = (b >> 2) & 3, bm = b & 3;
      // Two minors are worth more than a rook (and a pawn), when that is the imbalance.
      int bonus = 0;
      if (wm - bm == 2 && br - wr == 1) bonus = minor_pair;
      if (bm - wm == 2 && wr - br == 1) bonus = -minor_pair;
      // King safety matters with the opponent's queen and rooks on the board (for white's king).
      const int relevance = saturate_unsigned(rel_queen * bq + rel_rook * br + rel_minor * bm, 4);
      // Pawn structure counts for more as pieces come off.
      const int pieces = scale_queen * (wq + bq) + scale_rook * (wr + br) + scale_minor * (wm + bm);
      const int pawn_scale = saturate_unsigned(std::max(scale_floor, scale_base - pieces / scale_divisor), 4);
      t[w << 5 | b] =
          std::uint16_t(signed_field(bonus, 8) | std::uint32_t(relevance) << 8 | std::uint32_t(pawn_scale) << 12);
    }
  }
  return t;
}

PhaseTable random_phase(std::uint32_t seed) {
  std::mt19937 rng(seed ^ 0x9E3779B9u);
  std::uniform_int_distribution<int> v(0, 65535);
  PhaseTable t{};
  for (auto& x : t) x = std::uint16_t(v(rng));
  return t;
}

std::uint16_t phase_word(const PhaseTable& table, const Position& pos) {
  return table[signature(pos, WHITE) << 5 | signature(pos, BLACK)];
}

std::string weights_to_json(const PlacementTable& placement, const PhaseTable& phase) {
  nlohmann::json j;
  for (int t = 1; t <= 6; ++t) {
    std::vector<int> v(placement.begin() + (t << 6), placement.begin() + (t << 6) + 64);
    j["placement"][TYPE_NAMES[t]] = v;
  }
  j["phase"] = std::vector<int>(phase.begin(), phase.end());
  return j.dump(1);
}

PhaseTable phase_from_json(const std::string& text) {
  const nlohmann::json j = parse_weights(text);
  if (!j.is_object() || !j.contains("phase") || !j["phase"].is_array() || j["phase"].size() != 1024) {
    throw std::invalid_argument("weights file: \"phase\" needs 1024 values");
  }
  PhaseTable t{};
  for (int i = 0; i < 1024; ++i) {
    const auto& v = j["phase"][i];
    if (!v.is_number_integer() || v.get<long long>() < 0 || v.get<long long>() > 65535) {
      throw std::invalid_argument("weights file: phase value " + std::to_string(i) + " is not in 0..65535");
    }
    t[i] = std::uint16_t(v.get<int>());
  }
  return t;
}

PlacementTable placement_from_json(const std::string& text) {
  const nlohmann::json j = parse_weights(text);
  if (!j.is_object() || !j.contains("placement") || !j["placement"].is_object()) {
    throw std::invalid_argument("weights file: no \"placement\" object");
  }
  PlacementTable t{};
  for (int type = 1; type <= 6; ++type) {
    const auto& p = j["placement"];
    if (!p.contains(TYPE_NAMES[type])) {
      throw std::invalid_argument(std::string("weights file: no placement values for ") + TYPE_NAMES[type]);
    }
    const auto& v = p[TYPE_NAMES[type]];
    if (!v.is_array() || v.size() != 64) {
      throw std::invalid_argument(std::string("weights file: placement of ") + TYPE_NAMES[type] + " needs 64 values");
    }
    for (int sq = 0; sq < 64; ++sq) {
      if (!v[sq].is_number_integer() || v[sq].get<long long>() < -32768 || v[sq].get<long long>() > 32767) {
        throw std::invalid_argument(std::string("weights file: placement of ") + TYPE_NAMES[type] + " value " +
                                    std::to_string(sq) + " is not an integer in -32768..32767");
      }
      t[type << 6 | sq] = std::int16_t(v[sq].get<int>());
    }
  }
  return t;
}

}  // namespace db::chip
