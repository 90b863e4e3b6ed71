// An endgame's material: the kings and up to three more pieces in all, as counts per colour and
// type. Its name is the usual signature ("KQvKR", "KPvK"); the side with the more valuable set is
// white in a database's own orientation (material.cpp), so that KRvKQ and KQvKR are one table.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "chess/position.h"
#include "chess/types.h"
#include "egtb/value.h"

namespace db::egtb {

constexpr int kMaxPieces = 5;  // kings included: what the index and board types can hold

struct Material {
  // counts[colour][type] for PAWN..QUEEN (kings are implied: one each).
  std::array<std::array<std::uint8_t, 5>, 2> counts{};

  int pieces() const;  // kings included
  bool has_pawns() const { return counts[WHITE][PAWN] + counts[BLACK][PAWN] > 0; }
  std::string name() const;         // "KQvKR": strongest piece first
  Material flipped() const;         // colours swapped
  bool white_is_canonical() const;  // white holds the set a database file is made for
  Material canonical() const { return white_is_canonical() ? *this : flipped(); }
  std::uint32_t key() const;  // a number unique to the counts
  bool operator==(const Material& o) const { return counts == o.counts; }

  static Material of(const Position& pos);
  // Parses "KQvKR" (also "KQKR"); throws std::invalid_argument naming what is wrong.
  static Material parse(std::string_view name);
};

// Every material with 3..max_pieces pieces (kings included), canonical, in an order in which each
// table's captures and promotions lead only to tables listed before it.
std::vector<Material> all_materials(int max_pieces);

}  // namespace db::egtb
