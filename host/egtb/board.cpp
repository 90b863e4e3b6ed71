#include "egtb/board.h"

#include <stdexcept>
#include <string>

namespace db::egtb {

Bitboard piece_attacks(Piece p, Square s, Bitboard occupied) {
  switch (type_of(p)) {
    case PAWN:
      return attacks::pawn[color_of(p)][s];
    case KNIGHT:
      return attacks::knight[s];
    case BISHOP:
      return attacks::bishop(s, occupied);
    case ROOK:
      return attacks::rook(s, occupied);
    case QUEEN:
      return attacks::queen(s, occupied);
    default:
      return attacks::king[s];
  }
}

void Board::remove(int i) {
  for (int j = i; j + 1 < n; ++j) {
    pc[j] = pc[j + 1];
    sq[j] = sq[j + 1];
  }
  --n;
}

Bitboard Board::occupied() const {
  Bitboard b = 0;
  for (int i = 0; i < n; ++i) b |= square_bb(sq[i]);
  return b;
}

Square Board::king(Color c) const {
  const Piece k = make_piece(c, KING);
  for (int i = 0; i < n; ++i)
    if (pc[i] == k) return sq[i];
  return SQ_NONE;
}

bool Board::attacked(Square s, Color by) const {
  const Bitboard occ = occupied();
  for (int i = 0; i < n; ++i)
    if (color_of(pc[i]) == by && (piece_attacks(pc[i], sq[i], occ) & square_bb(s))) return true;
  return false;
}

Material Board::material() const {
  Material m;
  for (int i = 0; i < n; ++i)
    if (type_of(pc[i]) != KING) ++m.counts[color_of(pc[i])][type_of(pc[i])];
  return m;
}

Board Board::flipped() const {
  Board f = *this;
  for (int i = 0; i < n; ++i) {
    f.pc[i] = make_piece(~color_of(pc[i]), type_of(pc[i]));
    f.sq[i] = sq[i] ^ 56;
  }
  f.stm = ~stm;
  f.ep = ep == SQ_NONE ? SQ_NONE : ep ^ 56;
  return f;
}

Board Board::of(const Position& pos) {
  Board b;
  const int count = popcount(pos.pieces());
  if (count > kMaxPieces)
    throw EgtbError("position: " + std::to_string(count) + " pieces, the databases hold at most " +
                    std::to_string(kMaxPieces));
  Bitboard all = pos.pieces();
  while (all) {
    const Square s = pop_lsb(all);
    b.add(pos.piece_on(s), s);
  }
  b.stm = pos.side_to_move();
  return b;
}

}  // namespace db::egtb
