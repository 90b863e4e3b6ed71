// "No progress" pruning (AIJ 4.3): a position that the side to move could have reached by playing an
// alternative move earlier on the search path is pruned as a fail low: good moves should be played
// at once. Here: the same piece moving A->B and then B->C, where A->C was legal two plies earlier and
// the opponent's move in between did not touch A, B, C or the squares between them.
#pragma once

#include "chess/movegen.h"
#include "chess/types.h"

namespace db::search {

// earlier: our move two plies up (A->B); reply: the opponent's move in between; now: our move (B->C);
// earlier_moves: the legal moves at that earlier position.
bool is_no_progress(Move earlier, Move reply, Move now, const MoveList& earlier_moves);

}  // namespace db::search
