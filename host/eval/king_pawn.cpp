#include "eval/king_pawn.h"

#include <algorithm>
#include <cstdlib>

namespace db::eval {

namespace {

int distance(Square a, Square b) {
  return std::max(std::abs(file_of(a) - file_of(b)), std::abs(rank_of(a) - rank_of(b)));
}

// Squares ahead of s (towards promotion) on the given file mask.
Bitboard ahead(Color c, Square s, Bitboard files) {
  Bitboard ranks = 0;
  for (int r = rank_of(s) + (c == WHITE ? 1 : -1); r >= 0 && r < 8; r += (c == WHITE ? 1 : -1)) ranks |= rank_bb(r);
  return ranks & files;
}

Bitboard file_and_neighbours(int f) {
  Bitboard b = file_bb(f);
  if (f > 0) b |= file_bb(f - 1);
  if (f < 7) b |= file_bb(f + 1);
  return b;
}

}  // namespace

Bitboard passed_pawns(const Position& pos, Color c) {
  Bitboard result = 0;
  for (Bitboard b = pos.pieces(c, PAWN); b;) {
    const Square s = pop_lsb(b);
    if (!(ahead(c, s, file_and_neighbours(file_of(s))) & pos.pieces(~c, PAWN))) result |= square_bb(s);
  }
  return result;
}

int moves_to_promote(Color c, Square s) {
  const int rel = relative_rank(c, rank_of(s));
  return 7 - rel - (rel == 1 ? 1 : 0);
}

bool pawn_can_run(const Position& pos, Square s) {
  const Piece p = pos.piece_on(s);
  if (p == NO_PIECE || type_of(p) != PAWN) return false;
  const Color us = color_of(p), them = ~us;
  if (pos.pieces(them) != (pos.pieces(them, KING) | pos.pieces(them, PAWN))) return false;
  if (!(passed_pawns(pos, us) & square_bb(s))) return false;
  const Bitboard path = ahead(us, s, file_bb(file_of(s)));
  if (path & pos.pieces()) return false;  // anything on the way (our king included) stops the run
  // A king beside the pawn, to move, takes it unless our king guards it.
  if (pos.side_to_move() == them && (attacks::king[pos.king_square(them)] & square_bb(s)) &&
      !(attacks::king[pos.king_square(us)] & square_bb(s)))
    return false;
  const Square promotion = make_square(file_of(s), us == WHITE ? 7 : 0);
  const int defender_moves = distance(pos.king_square(them), promotion) - (pos.side_to_move() == them ? 1 : 0);
  return defender_moves > moves_to_promote(us, s);
}

int fastest_runner(const Position& pos, Color c) {
  int best = -1;
  for (Bitboard b = passed_pawns(pos, c); b;) {
    const Square s = pop_lsb(b);
    if (!pawn_can_run(pos, s)) continue;
    const int m = moves_to_promote(c, s);
    if (best < 0 || m < best) best = m;
  }
  return best;
}

bool widely_separated_passers(const Position& pos, Color c) {
  const Color them = ~c;
  if (pos.pieces(them) != (pos.pieces(them, PAWN) | pos.pieces(them, KING))) return false;
  int lo = 8, hi = -1;
  for (Bitboard b = passed_pawns(pos, c); b;) {
    const int f = file_of(pop_lsb(b));
    lo = std::min(lo, f);
    hi = std::max(hi, f);
  }
  return hi - lo >= 4;
}

}  // namespace db::eval
