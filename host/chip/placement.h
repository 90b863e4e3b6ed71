// The piece placement table of the fast evaluation (IEEE Micro figure 7): 512 signed 16-bit
// words, index {piece type (1 pawn .. 6 king), square relative to the piece's owner}. Values
// include material and are from the owner's view; the chip adds white's and subtracts black's.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "chess/position.h"
#include "chip/generator_params.h"

namespace db::chip {

using PlacementTable = std::array<std::int16_t, 512>;
// The game phase RAM: index {white signature, black signature}, signature = {queens >= 1,
// min(rooks, 2), min(knights + bishops, 3)}; word [7:0] signed material-combination bonus
// (white's view), [11:8] king-safety relevance, [15:12] pawn-structure scale.
using PhaseTable = std::array<std::uint16_t, 1024>;

// The evaluation generator's placement values: material (pawn 100, knight 320, bishop 330,
// rook 500, queen 900) plus centralisation, pawn advance, rooks on the seventh, a sheltered king.
PlacementTable default_placement();  // with GeneratorParams::defaults()
PlacementTable default_placement(const GeneratorParams& p);
// Random values (for tests: RTL and model must agree whatever the weights).
PlacementTable random_placement(std::uint32_t seed);

// Game phase values: a bonus for the side with two minor pieces against a rook (and the
// reverse for the other side), king-safety relevance from the opponent's attacking material,
// pawn-structure scale growing as pieces come off.
PhaseTable default_phase();  // with GeneratorParams::defaults()
PhaseTable default_phase(const GeneratorParams& p);
PhaseTable random_phase(std::uint32_t seed);
// Independent of the chip: the phase word for a position's material.
std::uint16_t phase_word(const PhaseTable& table, const Position& pos);

// Independent of the chip: the sum over the board, white's view, in 16-bit wrap-around.
int placement_value(const PlacementTable& table, const Position& pos);

// Saved as JSON: {"placement": {"pawn": [64 values, a1..h8 relative], ...}, "phase": [1024]}.
std::string weights_to_json(const PlacementTable& placement, const PhaseTable& phase);
// Throws std::invalid_argument naming what is wrong (missing piece, wrong count, out of range).
PlacementTable placement_from_json(const std::string& text);
PhaseTable phase_from_json(const std::string& text);

}  // namespace db::chip
