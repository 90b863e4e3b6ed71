// The software search's own evaluation for its leaves (material, placement, pawn structure, mobility,
// rook files, king shelter and attack, tapered between middlegame and endgame),
// used until the chip's hardware search takes over the last plies (issues 4 and 5). It is NOT the
// chip's evaluation: that lives in the chip reference model and the RTL.
#pragma once

#include "chess/position.h"

namespace db::search {

// Score from the side to move's point of view, in centipawns.
int interim_evaluate(const Position& pos);

// The tie-breaker of a theoretically drawn position's draw score (AIJ 4.3): for a king and pawn
// against king that the ROM calls a draw, or a position without mating material, the evaluation
// it would have without that knowledge (side to move's view); 0 for any other position.
int interim_draw_tie(const Position& pos);

int piece_value(PieceType t);

}  // namespace db::search
