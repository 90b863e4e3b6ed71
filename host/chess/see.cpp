// See see.h. The swap algorithm: the running balance of the exchange is kept from the view of the
// side that made the last capture, and the exchange ends when the side to recapture would lose by
// it (a capture no one is forced to make).
#include "chess/see.h"

#include <array>

#include "chess/bitboard.h"
#include "chess/position.h"

namespace db {

int see_value(PieceType t) {
  static constexpr std::array<int, PIECE_TYPE_NB + 1> kValues = {100, 325, 325, 500, 975, 20000, 0};
  return kValues[t];
}

bool see_ge(const Position& pos, Move m, int threshold) {
  if (m.is_castle()) return threshold <= 0;
  const Square from = m.from(), to = m.to();
  const PieceType captured = m.is_en_passant() ? PAWN : m.is_capture() ? type_of(pos.piece_on(to)) : NO_PIECE_TYPE;
  const PieceType mover = m.is_promotion() ? m.promotion() : type_of(pos.piece_on(from));
  int swap = see_value(captured) - threshold;
  if (m.is_promotion()) swap += see_value(mover) - see_value(PAWN);
  if (swap < 0) return false;  // even unanswered, the capture wins too little
  swap = see_value(mover) - swap;
  if (swap <= 0) return true;  // even losing the mover, the side to move keeps the threshold
  Bitboard occupied = pos.pieces() ^ square_bb(from) ^ square_bb(to);
  if (m.is_en_passant()) occupied ^= square_bb(Square(to ^ 8));
  const Bitboard diagonal = pos.pieces(BISHOP) | pos.pieces(QUEEN);
  const Bitboard straight = pos.pieces(ROOK) | pos.pieces(QUEEN);
  Bitboard attackers = pos.attackers_to(to, occupied);
  Color side = pos.side_to_move();
  bool wins = true;  // whether the side to move at the root keeps the threshold so far
  for (;;) {
    side = ~side;
    attackers &= occupied;
    const Bitboard mine = attackers & pos.pieces(side);
    if (!mine) break;
    wins = !wins;
    PieceType next = PAWN;
    while (!(mine & pos.pieces(next))) next = PieceType(next + 1);
    if (next == KING)  // the king recaptures only onto a square the other side no longer attacks
      return (attackers & pos.pieces(~side)) ? !wins : wins;
    swap = see_value(next) - swap;
    if (swap < int(wins)) break;
    occupied ^= square_bb(lsb(mine & pos.pieces(next)));
    // The men behind the one that just captured join in.
    if (next == PAWN || next == BISHOP || next == QUEEN) attackers |= attacks::bishop(to, occupied) & diagonal;
    if (next == ROOK || next == QUEEN) attackers |= attacks::rook(to, occupied) & straight;
  }
  return wins;
}

}  // namespace db
