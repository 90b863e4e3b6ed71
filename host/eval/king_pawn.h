// The king-and-pawn array of the chip's fast evaluation (Micro, "Fast evaluation"), reference side:
// passed pawns and the "pawn can run" condition, where the defending king can no longer catch a
// passed pawn (the square rule). With no other pieces such a pawn is as good as a queen, unless the
// other side has a faster runner.
#pragma once

#include "chess/position.h"

namespace db::eval {

// Pawns of colour c with no enemy pawn ahead on their own or the adjacent files.
Bitboard passed_pawns(const Position& pos, Color c);

// Plies (moves of its own side) the pawn on s needs to promote, counting the double step.
int moves_to_promote(Color c, Square s);

// True when the pawn on s (a passed pawn) promotes before the enemy king can catch it: the enemy has
// only its king and pawns, our own king is not in the pawn's way, and the enemy king is outside the
// pawn's square (one square less when the enemy is to move).
bool pawn_can_run(const Position& pos, Square s);

// The fewest own moves in which a runner of colour c promotes, or -1 when c has none.
int fastest_runner(const Position& pos, Color c);

// Widely separated passed pawns: colour c has passed pawns at least four files apart and the
// enemy has only its king and pawns (one king cannot stop both).
bool widely_separated_passers(const Position& pos, Color c);

}  // namespace db::eval
