// FEN of a king-and-pawn versus king placement, shared by the evaluation tests.
#pragma once

#include <string>

#include "chess/types.h"

namespace db::eval {

inline std::string kpk_fen(Color pawn_side, Color stm, Square sk, Square p, Square wk) {
  std::string rows[8] = {"........", "........", "........", "........",
                         "........", "........", "........", "........"};
  rows[rank_of(sk)][std::size_t(file_of(sk))] = pawn_side == WHITE ? 'K' : 'k';
  rows[rank_of(wk)][std::size_t(file_of(wk))] = pawn_side == WHITE ? 'k' : 'K';
  rows[rank_of(p)][std::size_t(file_of(p))] = pawn_side == WHITE ? 'P' : 'p';
  std::string fen;
  for (int r = 7; r >= 0; --r) {
    int empty = 0;
    for (char c : rows[r]) {
      if (c == '.') {
        ++empty;
        continue;
      }
      if (empty) fen += char('0' + empty);
      empty = 0;
      fen += c;
    }
    if (empty) fen += char('0' + empty);
    if (r) fen += '/';
  }
  return fen + (stm == WHITE ? " w - - 0 1" : " b - - 0 1");
}

}  // namespace db::eval
