// The piece placement table of the fast evaluation (IEEE Micro figure 7): 512 signed 16-bit
// words, index {piece type (1 pawn .. 6 king), square relative to the piece's owner}. Values
// include material and are from the owner's view; the chip adds white's and subtracts black's.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "chess/position.h"

namespace db::chip {

using PlacementTable = std::array<std::int16_t, 512>;

// The evaluation generator's placement values: material (pawn 100, knight 320, bishop 330,
// rook 500, queen 900) plus centralisation, pawn advance, rooks on the seventh, a sheltered king.
PlacementTable default_placement();
// Random values (for tests: RTL and model must agree whatever the weights).
PlacementTable random_placement(std::uint32_t seed);

// Independent of the chip: the sum over the board, white's view, in 16-bit wrap-around.
int placement_value(const PlacementTable& table, const Position& pos);

// Saved as JSON: {"placement": {"pawn": [64 values, a1..h8 relative], ...}}.
std::string placement_to_json(const PlacementTable& table);
// Throws std::invalid_argument naming what is wrong (missing piece, wrong count, out of range).
PlacementTable placement_from_json(const std::string& text);

}  // namespace db::chip
