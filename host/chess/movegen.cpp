// Legal move generation: pins and checks are resolved while generating, so every move is legal
// without making it (en passant, the one awkward case, is tested by its effect on the king's lines).
#include "chess/movegen.h"

#include "chess/position.h"

namespace db {

namespace {

template <GenType T>
constexpr bool want_captures() {
  return T != GenType::QUIET;
}
template <GenType T>
constexpr bool want_quiets() {
  return T != GenType::NOISY;
}

template <GenType T>
void add_promotions(MoveList& moves, Square from, Square to, bool capture) {
  const int base = capture ? PROMO_CAPTURE_N : PROMO_N;
  // A promotion is "noisy" whether or not it captures.
  if constexpr (T == GenType::QUIET) return;
  for (int k = 3; k >= 0; --k) moves.push(Move(from, to, MoveKind(base + k)));  // queen first
}

template <Color Us, GenType T>
void generate_pawn_moves(const Position& pos, MoveList& moves, Bitboard target, Bitboard pinned, Square ksq) {
  constexpr Color Them = ~Us;
  constexpr int Up = Us == WHITE ? 8 : -8;
  constexpr int UpLeft = Us == WHITE ? 7 : -9;
  constexpr int UpRight = Us == WHITE ? 9 : -7;
  constexpr Bitboard Rank7 = Us == WHITE ? rank_bb(6) : rank_bb(1);
  constexpr Bitboard Rank3 = Us == WHITE ? rank_bb(2) : rank_bb(5);

  const Bitboard empty = ~pos.pieces();
  const Bitboard enemies = pos.pieces(Them) & target;
  const Bitboard pawns = pos.pieces(Us, PAWN);
  // Pinned pawns may move only along the pin line; handle them square by square.
  const Bitboard free_pawns = pawns & ~pinned;

  auto allowed = [&](Square from, Square to) {
    return !(pinned & square_bb(from)) || (attacks::line[ksq][from] & square_bb(to));
  };

  for (Bitboard set : {free_pawns, pawns & pinned}) {
    const bool is_pinned_set = set != free_pawns;
    if (!set) continue;
    const Bitboard promoters = set & Rank7, others = set & ~Rank7;

    Bitboard single = shift<Up>(others) & empty;
    Bitboard dbl = shift<Up>(single & Rank3) & empty & target;
    single &= target;
    if constexpr (want_quiets<T>()) {
      while (single) {
        Square to = pop_lsb(single);
        if (!is_pinned_set || allowed(to - Up, to)) moves.push(Move(to - Up, to));
      }
      while (dbl) {
        Square to = pop_lsb(dbl);
        if (!is_pinned_set || allowed(to - 2 * Up, to)) moves.push(Move(to - 2 * Up, to, DOUBLE_PUSH));
      }
    }
    if constexpr (want_captures<T>()) {
      Bitboard left = shift<UpLeft>(others) & enemies, right = shift<UpRight>(others) & enemies;
      while (left) {
        Square to = pop_lsb(left);
        if (!is_pinned_set || allowed(to - UpLeft, to)) moves.push(Move(to - UpLeft, to, CAPTURE));
      }
      while (right) {
        Square to = pop_lsb(right);
        if (!is_pinned_set || allowed(to - UpRight, to)) moves.push(Move(to - UpRight, to, CAPTURE));
      }
      if (promoters) {
        Bitboard push = shift<Up>(promoters) & empty & target;
        Bitboard pl = shift<UpLeft>(promoters) & enemies, pr = shift<UpRight>(promoters) & enemies;
        while (pl) {
          Square to = pop_lsb(pl);
          if (!is_pinned_set || allowed(to - UpLeft, to)) add_promotions<T>(moves, to - UpLeft, to, true);
        }
        while (pr) {
          Square to = pop_lsb(pr);
          if (!is_pinned_set || allowed(to - UpRight, to)) add_promotions<T>(moves, to - UpRight, to, true);
        }
        while (push) {
          Square to = pop_lsb(push);
          if (!is_pinned_set || allowed(to - Up, to)) add_promotions<T>(moves, to - Up, to, false);
        }
      }
    }
  }

  // En passant: verified by removing both pawns and looking along the king's lines.
  if constexpr (want_captures<T>()) {
    const Square ep = pos.ep_square();
    if (ep != SQ_NONE) {
      const Square victim = ep - Up;
      // In check, the capture must remove the checker or block (the latter is impossible for ep
      // except by landing on the checking line, which target covers).
      if ((target & (square_bb(victim) | square_bb(ep))) == 0) return;
      Bitboard from_set = attacks::pawn[Them][ep] & pawns;
      while (from_set) {
        const Square from = pop_lsb(from_set);
        const Bitboard occ = (pos.pieces() ^ square_bb(from) ^ square_bb(victim)) | square_bb(ep);
        const Bitboard sliders_r = pos.pieces(Them, ROOK) | pos.pieces(Them, QUEEN);
        const Bitboard sliders_b = pos.pieces(Them, BISHOP) | pos.pieces(Them, QUEEN);
        if ((attacks::rook(ksq, occ) & sliders_r) || (attacks::bishop(ksq, occ) & sliders_b)) continue;
        // A checking knight or pawn other than the victim cannot be resolved by en passant.
        if (pos.checkers() & ~square_bb(victim) & ~(sliders_r | sliders_b)) continue;
        moves.push(Move(from, ep, EN_PASSANT));
      }
    }
  }
}

template <Color Us, GenType T>
void generate_all(const Position& pos, MoveList& moves) {
  constexpr Color Them = ~Us;
  const Square ksq = pos.king_square(Us);
  const Bitboard checkers = pos.checkers();
  const Bitboard occupied = pos.pieces();
  const Bitboard own = pos.pieces(Us);
  const Bitboard enemies = pos.pieces(Them);

  Bitboard kind_mask = 0;
  if constexpr (want_captures<T>()) kind_mask |= enemies;
  if constexpr (want_quiets<T>()) kind_mask |= ~occupied;

  // Every square the enemy attacks, seen through our king (it must not step back along a checking ray).
  const Bitboard occ_without_king = occupied ^ square_bb(ksq);
  Bitboard danger = Them == WHITE ? shift<9>(pos.pieces(Them, PAWN)) | shift<7>(pos.pieces(Them, PAWN))
                                  : shift<-7>(pos.pieces(Them, PAWN)) | shift<-9>(pos.pieces(Them, PAWN));
  danger |= attacks::king[pos.king_square(Them)];
  for (Bitboard b = pos.pieces(Them, KNIGHT); b;) danger |= attacks::knight[pop_lsb(b)];
  for (Bitboard b = pos.pieces(Them, BISHOP) | pos.pieces(Them, QUEEN); b;)
    danger |= attacks::bishop(pop_lsb(b), occ_without_king);
  for (Bitboard b = pos.pieces(Them, ROOK) | pos.pieces(Them, QUEEN); b;)
    danger |= attacks::rook(pop_lsb(b), occ_without_king);

  for (Bitboard targets = attacks::king[ksq] & ~own & ~danger & kind_mask; targets;) {
    const Square to = pop_lsb(targets);
    moves.push(Move(ksq, to, (enemies & square_bb(to)) ? CAPTURE : QUIET));
  }
  if (more_than_one(checkers)) return;  // double check: only the king may move

  // Squares that resolve a single check (capture the checker or block), or the whole board.
  const Bitboard check_mask = checkers ? attacks::between[ksq][lsb(checkers)] : ~Bitboard(0);
  const Bitboard pinned = pos.pinned(Us);

  generate_pawn_moves<Us, T>(pos, moves, check_mask, pinned, ksq);

  const Bitboard target = check_mask & ~own & kind_mask;
  auto add_piece_moves = [&](Bitboard pieces, auto attack_fn) {
    while (pieces) {
      const Square from = pop_lsb(pieces);
      Bitboard to_set = attack_fn(from) & target;
      if (pinned & square_bb(from)) to_set &= attacks::line[ksq][from];
      while (to_set) {
        const Square to = pop_lsb(to_set);
        moves.push(Move(from, to, (enemies & square_bb(to)) ? CAPTURE : QUIET));
      }
    }
  };
  add_piece_moves(pos.pieces(Us, KNIGHT) & ~pinned,
                  [](Square s) { return attacks::knight[s]; });  // pinned knights never move
  add_piece_moves(pos.pieces(Us, BISHOP), [occupied](Square s) { return attacks::bishop(s, occupied); });
  add_piece_moves(pos.pieces(Us, ROOK), [occupied](Square s) { return attacks::rook(s, occupied); });
  add_piece_moves(pos.pieces(Us, QUEEN), [occupied](Square s) { return attacks::queen(s, occupied); });

  // Castling: not out of, through or into check; squares between king and rook empty.
  if constexpr (want_quiets<T>()) {
    if (checkers) return;
    const std::uint8_t rights = pos.castling_rights();
    const std::uint8_t oo = Us == WHITE ? WHITE_OO : BLACK_OO;
    const std::uint8_t ooo = Us == WHITE ? WHITE_OOO : BLACK_OOO;
    const Square e1 = relative_square(Us, SQ_E1);
    auto safe = [&](Square s) { return !(danger & square_bb(s)); };
    if ((rights & oo) && !(occupied & (square_bb(e1 + 1) | square_bb(e1 + 2))) && safe(e1 + 1) && safe(e1 + 2))
      moves.push(Move(e1, e1 + 2, CASTLE_KING));
    if ((rights & ooo) && !(occupied & (square_bb(e1 - 1) | square_bb(e1 - 2) | square_bb(e1 - 3))) && safe(e1 - 1) &&
        safe(e1 - 2))
      moves.push(Move(e1, e1 - 2, CASTLE_QUEEN));
  }
}

}  // namespace

void generate_legal(const Position& pos, MoveList& moves, GenType type) {
  const bool white = pos.side_to_move() == WHITE;
  switch (type) {
    case GenType::ALL:
      white ? generate_all<WHITE, GenType::ALL>(pos, moves) : generate_all<BLACK, GenType::ALL>(pos, moves);
      break;
    case GenType::NOISY:
      white ? generate_all<WHITE, GenType::NOISY>(pos, moves) : generate_all<BLACK, GenType::NOISY>(pos, moves);
      break;
    case GenType::QUIET:
      white ? generate_all<WHITE, GenType::QUIET>(pos, moves) : generate_all<BLACK, GenType::QUIET>(pos, moves);
      break;
  }
}

std::size_t count_legal(const Position& pos) {
  MoveList moves;
  generate_legal(pos, moves);
  return moves.size();
}

}  // namespace db
