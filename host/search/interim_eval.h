// A small software evaluation (material and piece placement) for the software search's leaves,
// used until the chip's hardware search takes over the last plies (issues 4 and 5). It is NOT the
// chip's evaluation: that lives in the chip reference model and the RTL.
#pragma once

#include "chess/position.h"

namespace db::search {

// Score from the side to move's point of view, in centipawns.
int interim_evaluate(const Position& pos);

int piece_value(PieceType t);

}  // namespace db::search
