#include "book/polyglot_key.h"

#include "chess/bitboard.h"

namespace db::book {

namespace {

// Polyglot's "kind of piece": black pawn 0, white pawn 1, black knight 2, ... white king 11.
std::size_t kind_of(Piece p) { return 2 * std::size_t(type_of(p)) + (color_of(p) == WHITE ? 1 : 0); }

}  // namespace

Key polyglot_key(const Position& pos) {
  Key key = 0;
  for (Bitboard b = pos.pieces(); b;) {
    const Square s = pop_lsb(b);
    key ^= kRandom64[64 * kind_of(pos.piece_on(s)) + std::size_t(8 * rank_of(s) + file_of(s))];
  }
  const std::uint8_t rights = pos.castling_rights();
  if (rights & WHITE_OO) key ^= kRandom64[kRandomCastle + 0];
  if (rights & WHITE_OOO) key ^= kRandom64[kRandomCastle + 1];
  if (rights & BLACK_OO) key ^= kRandom64[kRandomCastle + 2];
  if (rights & BLACK_OOO) key ^= kRandom64[kRandomCastle + 3];
  // A FEN's en passant square is set after every double push; Polyglot's only when the side to move
  // has a pawn that attacks it (a pawn beside the pushed one).
  const Square ep = pos.ep_square();
  const Color us = pos.side_to_move();
  if (ep != SQ_NONE && (attacks::pawn[~us][ep] & pos.pieces(us, PAWN)))
    key ^= kRandom64[kRandomEnPassant + std::size_t(file_of(ep))];
  if (us == WHITE) key ^= kRandom64[kRandomTurn];
  return key;
}

}  // namespace db::book
