// Polyglot's 16-bit move field and our Move. Bits 0-5 the to square, 6-11 the from square (file
// and row, a1 = 0 as ours), 12-14 the promotion piece (1 knight .. 4 queen). Castling is written as
// the king taking its own rook (e1h1, e1a1, e8h8, e8a8), not as the king's two-square step.
#pragma once

#include <cstdint>

#include "chess/position.h"
#include "chess/types.h"

namespace db::book {

std::uint16_t encode_move(Move m);

// The legal move of pos the field names, or Move::none() (no such legal move, or the null move).
Move decode_move(const Position& pos, std::uint16_t field);

}  // namespace db::book
