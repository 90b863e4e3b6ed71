// Static exchange evaluation: what a move wins or loses on its destination square when both sides
// recapture there with their least valuable men, each stopping when going on would lose.
#pragma once

#include "chess/types.h"

namespace db {

class Position;

// The exchange values of the men (centipawns); the king's is larger than any exchange.
int see_value(PieceType t);

// Whether the exchange that m starts wins at least threshold for the side to move. Castling is an
// exchange of nothing; a promotion gains the new man's value over the pawn's. Pins are ignored.
bool see_ge(const Position& pos, Move m, int threshold);

}  // namespace db
