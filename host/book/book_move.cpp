#include "book/book_move.h"

#include "chess/movegen.h"

namespace db::book {

std::uint16_t encode_move(Move m) {
  Square to = m.to();
  // The rook's square, on the king's rank: file h for the short side, a for the long one.
  if (m.kind() == CASTLE_KING) to = make_square(7, rank_of(m.from()));
  if (m.kind() == CASTLE_QUEEN) to = make_square(0, rank_of(m.from()));
  const int promo = m.is_promotion() ? int(m.promotion()) : 0;  // KNIGHT = 1 .. QUEEN = 4, as Polyglot counts
  return std::uint16_t(to | (m.from() << 6) | (promo << 12));
}

Move decode_move(const Position& pos, std::uint16_t field) {
  field &= 0x7fff;  // bit 15 is unused
  if ((field & 0xfff) == 0) return Move::none();
  // Matching against the encodings of the legal moves covers castling (only where the king is on
  // e1/e8 and castling is legal) and promotions, and refuses anything else.
  MoveList moves;
  generate_legal(pos, moves);
  for (Move m : moves)
    if (encode_move(m) == field) return m;
  return Move::none();
}

}  // namespace db::book
