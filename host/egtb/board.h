// A small board for endgame databases: at most kMaxPieces pieces in a list, the side to move and an
// en passant square. Generation walks millions of these, so moves and unmoves are made here on the
// attack tables directly rather than through Position (its history and keys cost more than the work).
#pragma once

#include "chess/bitboard.h"
#include "chess/position.h"
#include "egtb/material.h"

namespace db::egtb {

struct Board {
  int n = 0;
  Piece pc[kMaxPieces] = {};
  Square sq[kMaxPieces] = {};
  Color stm = WHITE;
  Square ep = SQ_NONE;  // set after a double push when an enemy pawn stands beside the pawn

  void add(Piece p, Square s) {
    pc[n] = p;
    sq[n++] = s;
  }
  void remove(int i);  // keeps the order of the others
  Bitboard occupied() const;
  Square king(Color c) const;
  // Whether a piece of colour `by` attacks s with the board's occupancy.
  bool attacked(Square s, Color by) const;
  bool in_check(Color c) const { return attacked(king(c), ~c); }
  Material material() const;
  // Colours swapped and the board mirrored top to bottom (the same position for the other side).
  Board flipped() const;

  static Board of(const Position& pos);  // throws std::invalid_argument when it has too many pieces
};

// Calls f(child) for every legal move of b.stm (children have the other side to move; a double
// push that an enemy pawn could take en passant sets the child's ep square). Returns the number
// of legal moves.
template <class F>
int for_each_child(const Board& b, F&& f);

// Calls f(parent) for every position from which a move of the side not to move, neither a
// capture nor a promotion, leads to b (the parents may be illegal; the caller checks).
template <class F>
void for_each_parent(const Board& b, F&& f);

// ---- implementation

Bitboard piece_attacks(Piece p, Square s, Bitboard occupied);

template <class F>
int for_each_child(const Board& b, F&& f) {
  const Color us = b.stm, them = ~us;
  const Bitboard occ = b.occupied();
  Bitboard own = 0, enemy = 0;
  for (int i = 0; i < b.n; ++i) (color_of(b.pc[i]) == us ? own : enemy) |= square_bb(b.sq[i]);
  int count = 0;
  auto play = [&](int i, Square to, PieceType promo, bool ep_capture) {
    Board c = b;
    c.stm = them;
    c.ep = SQ_NONE;
    int capture = -1;
    const Square victim = ep_capture ? (us == WHITE ? to - 8 : to + 8) : to;
    for (int j = 0; j < c.n; ++j)
      if (j != i && c.sq[j] == victim) capture = j;
    c.sq[i] = to;
    if (promo != NO_PIECE_TYPE) c.pc[i] = make_piece(us, promo);
    if (capture >= 0) c.remove(capture);
    if (c.in_check(us)) return;
    if (type_of(b.pc[i]) == PAWN && (to ^ b.sq[i]) == 16) {  // a double push: can they take en passant?
      const Square passed = (b.sq[i] + to) / 2;
      for (int j = 0; j < c.n; ++j)
        if (c.pc[j] == make_piece(them, PAWN) && (attacks::pawn[them][c.sq[j]] & square_bb(passed))) {
          Board t = c;  // the capture must be legal too
          t.sq[j] = passed;
          for (int k = 0; k < t.n; ++k)
            if (t.sq[k] == to && k != j) {
              t.remove(k);
              break;
            }
          if (!t.in_check(them)) c.ep = passed;
        }
    }
    ++count;
    f(static_cast<const Board&>(c));
  };
  for (int i = 0; i < b.n; ++i) {
    if (color_of(b.pc[i]) != us) continue;
    const Square from = b.sq[i];
    if (type_of(b.pc[i]) == PAWN) {
      const int up = us == WHITE ? 8 : -8;
      const bool promotes = relative_rank(us, rank_of(from)) == 6;
      auto add = [&](Square to, bool ep_capture) {
        if (promotes) {
          for (PieceType t : {QUEEN, ROOK, BISHOP, KNIGHT}) play(i, to, t, false);
        } else {
          play(i, to, NO_PIECE_TYPE, ep_capture);
        }
      };
      const Square one = from + up;
      if (!(occ & square_bb(one))) {
        add(one, false);
        if (relative_rank(us, rank_of(from)) == 1 && !(occ & square_bb(one + up))) add(one + up, false);
      }
      Bitboard caps = attacks::pawn[us][from] & enemy;
      while (caps) add(pop_lsb(caps), false);
      if (b.ep != SQ_NONE && (attacks::pawn[us][from] & square_bb(b.ep))) add(b.ep, true);
    } else {
      Bitboard targets = piece_attacks(b.pc[i], from, occ) & ~own;
      while (targets) play(i, pop_lsb(targets), NO_PIECE_TYPE, false);
    }
  }
  return count;
}

template <class F>
void for_each_parent(const Board& b, F&& f) {
  const Color mover = ~b.stm;
  const Bitboard occ = b.occupied();
  for (int i = 0; i < b.n; ++i) {
    if (color_of(b.pc[i]) != mover) continue;
    const Square to = b.sq[i];
    auto emit = [&](Square from) {
      Board p = b;
      p.stm = mover;
      p.ep = SQ_NONE;
      p.sq[i] = from;
      f(static_cast<const Board&>(p));
    };
    if (type_of(b.pc[i]) == PAWN) {
      const int up = mover == WHITE ? 8 : -8;
      const int rel = relative_rank(mover, rank_of(to));
      if (rel < 2) continue;  // a pawn on its second rank has not moved
      const Square one = to - up;
      if (occ & square_bb(one)) continue;
      emit(one);
      if (rel == 3 && !(occ & square_bb(one - up))) emit(one - up);
    } else {
      Bitboard from = piece_attacks(b.pc[i], to, occ) & ~occ;
      while (from) emit(pop_lsb(from));
    }
  }
}

}  // namespace db::egtb
