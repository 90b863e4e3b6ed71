// What the chess core computes, independently of the chip, for each move-generator mode and for
// the chip's status outputs: the expectations of the chip tests.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "chess/bitboard.h"
#include "chess/movegen.h"
#include "chess/position.h"
#include "chip/chip_client.h"

namespace db::chip::reference {

// The piece now on `to` (after the move) attacks a non-king piece of the side to move.
inline bool moved_piece_attacks(const Position& after, Square to) {
  const Piece p = after.piece_on(to);
  const Bitboard occ = after.pieces();
  Bitboard reach = 0;
  switch (type_of(p)) {
    case PAWN:
      reach = attacks::pawn[color_of(p)][to];
      break;
    case KNIGHT:
      reach = attacks::knight[to];
      break;
    case BISHOP:
      reach = attacks::bishop(to, occ);
      break;
    case ROOK:
      reach = attacks::rook(to, occ);
      break;
    case QUEEN:
      reach = attacks::queen(to, occ);
      break;
    default:
      reach = attacks::king[to];
      break;
  }
  const Color victim = after.side_to_move();
  return (reach & after.pieces(victim) & ~after.pieces(victim, KING)) != 0;
}

// Legal moves of the mode, as chip move words, sorted.
inline std::vector<std::uint16_t> expected_moves(const Position& start, GenMode mode) {
  Position pos = start;
  MoveList list;
  generate_legal(pos, list);
  std::vector<std::uint16_t> out;
  for (Move m : list) {
    bool keep = true;
    switch (mode) {
      case GenMode::ALL:
        break;
      case GenMode::CAPTURES:
        keep = m.is_capture();
        break;
      case GenMode::EVASIONS:
        keep = pos.in_check();
        break;
      case GenMode::CHECKS:
        pos.make_move(m);
        keep = pos.in_check();
        pos.unmake_move(m);
        break;
      case GenMode::ATTACKS:
        if (m.is_capture()) {
          keep = false;
          break;
        }
        pos.make_move(m);
        keep = moved_piece_attacks(pos, m.to());
        pos.unmake_move(m);
        break;
    }
    if (keep) out.push_back(to_chip_move(m));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Pieces of the side to move (kings excluded) attacked by the opponent and not defended.
inline Bitboard expected_hung(const Position& pos) {
  const Color us = pos.side_to_move();
  Bitboard men = pos.pieces(us) & ~pos.pieces(us, KING);
  Bitboard hung = 0;
  while (men) {
    const Square s = pop_lsb(men);
    const Bitboard att = pos.attackers_to(s, pos.pieces());
    if ((att & pos.pieces(~us)) && !(att & pos.pieces(us))) hung |= square_bb(s);
  }
  return hung;
}

// Men of the side to move (kings excluded) pinned to their own king: the chess core's pinned().
inline Bitboard expected_pinned(const Position& pos) { return pos.pinned(pos.side_to_move()); }

}  // namespace db::chip::reference
