// See placement.h.
#include "chip/placement.h"

#include <random>
#include <stdexcept>

#include <nlohmann/json.hpp>

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
    t[1 << 6 | sq] = std::int16_t(rank == 0 || rank == 7 ? 0 : 100 + 6 * (rank - 1) + (centre_file ? 4 * (rank - 1) : 0));
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

std::string placement_to_json(const PlacementTable& table) {
  nlohmann::json j;
  for (int t = 1; t <= 6; ++t) {
    std::vector<int> v(table.begin() + (t << 6), table.begin() + (t << 6) + 64);
    j["placement"][TYPE_NAMES[t]] = v;
  }
  return j.dump(1);
}

PlacementTable placement_from_json(const std::string& text) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw std::invalid_argument(std::string("placement file: not JSON: ") + e.what());
  }
  if (!j.is_object() || !j.contains("placement") || !j["placement"].is_object()) {
    throw std::invalid_argument("placement file: no \"placement\" object");
  }
  PlacementTable t{};
  for (int type = 1; type <= 6; ++type) {
    const auto& p = j["placement"];
    if (!p.contains(TYPE_NAMES[type])) {
      throw std::invalid_argument(std::string("placement file: no values for ") + TYPE_NAMES[type]);
    }
    const auto& v = p[TYPE_NAMES[type]];
    if (!v.is_array() || v.size() != 64) {
      throw std::invalid_argument(std::string("placement file: ") + TYPE_NAMES[type] + " needs 64 values");
    }
    for (int sq = 0; sq < 64; ++sq) {
      if (!v[sq].is_number_integer() || v[sq].get<long long>() < -32768 || v[sq].get<long long>() > 32767) {
        throw std::invalid_argument(std::string("placement file: ") + TYPE_NAMES[type] + " value " +
                                    std::to_string(sq) + " is not an integer in -32768..32767");
      }
      t[type << 6 | sq] = std::int16_t(v[sq].get<int>());
    }
  }
  return t;
}

}  // namespace db::chip
