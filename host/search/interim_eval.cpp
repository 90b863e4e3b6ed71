#include "search/interim_eval.h"

#include <cstdlib>

#include "eval/king_pawn.h"
#include "eval/kpk.h"

namespace db::search {

namespace {

constexpr int kValue[PIECE_TYPE_NB] = {100, 320, 330, 500, 900, 0};

// Distance from the centre, 0 (d4, e4, d5, e5) to 3 (corners by file or rank).
int centre_distance(Square s) {
  const int f = file_of(s), r = rank_of(s);
  return std::max(f < 4 ? 3 - f : f - 4, r < 4 ? 3 - r : r - 4);
}

int placement(PieceType t, Color c, Square s, bool endgame) {
  const int rel_rank = relative_rank(c, rank_of(s));
  switch (t) {
    case PAWN: return rel_rank * (endgame ? 12 : 5) - (rel_rank == 1 && (file_of(s) == 3 || file_of(s) == 4) ? 15 : 0);
    case KNIGHT: return 12 - 8 * centre_distance(s);
    case BISHOP: return 6 - 4 * centre_distance(s);
    case ROOK: return rel_rank == 6 ? 15 : 0;
    case QUEEN: return 3 - centre_distance(s);
    case KING: return endgame ? 20 - 10 * centre_distance(s) : (rel_rank == 0 ? 10 : -15 * rel_rank);
    default: return 0;
  }
}

}  // namespace

int piece_value(PieceType t) { return t < PIECE_TYPE_NB ? kValue[t] : 0; }

int interim_evaluate(const Position& pos) {
  // King and pawn versus king: the chip's KPK ROM knows the answer.
  if (popcount(pos.pieces()) == 3 && popcount(pos.pieces(PAWN)) == 1) {
    const Square pawn = lsb(pos.pieces(PAWN));
    const Color strong = color_of(pos.piece_on(pawn));
    const bool win = eval::kpk_rom().pawn_side_wins(strong, pos.side_to_move(), pos.king_square(strong), pawn,
                                                     pos.king_square(~strong));
    const int value = win ? 800 + 20 * relative_rank(strong, rank_of(pawn)) : 0;
    return pos.side_to_move() == strong ? value : -value;
  }
  const int non_pawn = 3 * popcount(pos.pieces(KNIGHT) | pos.pieces(BISHOP)) + 5 * popcount(pos.pieces(ROOK)) +
                       9 * popcount(pos.pieces(QUEEN));
  const bool endgame = non_pawn <= 26;
  int score = 0;
  for (Color c : {WHITE, BLACK}) {
    int side = 0;
    for (int t = PAWN; t <= KING; ++t) {
      Bitboard b = pos.pieces(c, PieceType(t));
      while (b) {
        const Square s = pop_lsb(b);
        side += kValue[t] + placement(PieceType(t), c, s, endgame);
      }
    }
    if (popcount(pos.pieces(c, BISHOP)) >= 2) side += 30;
    score += c == WHITE ? side : -side;
  }
  // Pawn endings: a pawn the king cannot catch is nearly a queen, unless the other side promotes first.
  if (non_pawn == 0) {
    const int w = eval::fastest_runner(pos, WHITE), b = eval::fastest_runner(pos, BLACK);
    const bool white_first = pos.side_to_move() == WHITE;
    if (w >= 0 && (b < 0 || (white_first ? w <= b : w < b))) score += 500 - 20 * w;
    else if (b >= 0 && (w < 0 || (white_first ? b < w : b <= w))) score -= 500 - 20 * b;
  }
  return pos.side_to_move() == WHITE ? score : -score;
}

}  // namespace db::search
