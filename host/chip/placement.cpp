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

PlacementTable default_placement() {
  PlacementTable t{};
  for (int sq = 0; sq < 64; ++sq) {
    const int rank = sq >> 3, file = sq & 7, c = centrality(sq);
    const bool centre_file = file >= 2 && file <= 5;
    t[1 << 6 | sq] =
        std::int16_t(rank == 0 || rank == 7 ? 0 : 100 + 6 * (rank - 1) + (centre_file ? 4 * (rank - 1) : 0));
    t[2 << 6 | sq] = std::int16_t(320 + 12 * c - (c == 0 ? 15 : 0));
    t[3 << 6 | sq] = std::int16_t(330 + 6 * c);
    t[4 << 6 | sq] = std::int16_t(500 + (rank == 6 ? 20 : 0) + (centre_file ? 3 : 0));
    t[5 << 6 | sq] = std::int16_t(900 + 3 * c);
    t[6 << 6 | sq] = std::int16_t(rank == 0 ? (file <= 2 || file >= 6 ? 20 : 0) : -10 * rank);
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

PhaseTable default_phase() {
  PhaseTable t{};
  for (int w = 0; w < 32; ++w) {
    for (int b = 0; b < 32; ++b) {
      const int wq = w >> 4, wr = (w >> 2) & 3, wm = w & 3, bq = b >> 4, br = (b >> 2) & 3, bm = b & 3;
      // Two minors are worth more than a rook (and a pawn), when that is the imbalance.
      int bonus = 0;
      if (wm - bm == 2 && br - wr == 1) bonus = 15;
      if (bm - wm == 2 && wr - br == 1) bonus = -15;
      // King safety matters with the opponent's queen and rooks on the board (for white's king).
      const int relevance = std::min(15, 6 * bq + 2 * br + bm);
      // Pawn structure counts for more as pieces come off.
      const int pieces = 3 * (wq + bq) + 2 * (wr + br) + wm + bm;
      const int pawn_scale = std::max(4, 15 - pieces / 2);
      t[w << 5 | b] = std::uint16_t((bonus & 0xFF) | relevance << 8 | pawn_scale << 12);
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
