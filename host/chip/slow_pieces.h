// Bishops and minor pieces in the slow evaluation (group 11 "bishops": BISHOPS, SELF_BLOCK,
// OPP_BLOCK, BACK_BLOCK, TRAPPED_BISHOP; MINOR_ON_WEAK in group 12 "pieces"): the table indices
// one file yields for one side, as rtl/es_piece.sv forms them. Index layouts: docs/evaluation.md.
#pragma once

#include "chip/slow_eval.h"

namespace db::chip {

struct PieceIndices {
  int minor_on_weak = -1;     // the most advanced own minor on a weak square (relative rank >= 3)
  int bishops[2] = {-1, -1};  // the file's own bishop nearest its side: its two diagonals
  int self_block = -1;        // the most advanced own pawn on an own bishop's colour
  int opp_block = -1;         // the enemy pawn nearest this side, on an own bishop's colour
  int back_block = -1;        // doubled own pawns when the side has a bishop
};
PieceIndices piece_indices(const SlowBoard& b, int colour, int file);

// TRAPPED_BISHOP index of a side's first trapped-bishop pattern (-1: none).
int trapped_bishop_index(const SlowBoard& b, int colour);

}  // namespace db::chip
