#include "search/no_progress.h"

#include "chess/bitboard.h"

namespace db::search {

bool is_no_progress(Move earlier, Move reply, Move now, const MoveList& earlier_moves) {
  if (earlier.is_none() || now.is_none() || earlier.to() != now.from()) return false;
  // Only plain piece relocations: captures, promotions, castling and double pushes change more.
  if (earlier.kind() != QUIET || now.kind() != QUIET) return false;
  const Square a = earlier.from(), c = now.to();
  if (a == c) return false;  // moving back is a repetition, handled elsewhere
  const Move direct(a, c, QUIET);
  if (!earlier_moves.contains(direct)) return false;
  if (!reply.is_none()) {
    const Square b = earlier.to();
    const Bitboard touched = square_bb(a) | square_bb(b) | square_bb(c) | attacks::between[a][b] |
                             attacks::between[b][c] | attacks::between[a][c];
    if (touched & (square_bb(reply.from()) | square_bb(reply.to()))) return false;
  }
  return true;
}

}  // namespace db::search
