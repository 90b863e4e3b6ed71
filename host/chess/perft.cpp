#include "chess/perft.h"

#include "chess/movegen.h"
#include "chess/position.h"

namespace db {

std::uint64_t perft(Position& pos, int depth) {
  if (depth <= 0) return 1;
  MoveList moves;
  generate_legal(pos, moves);
  // Bulk counting: the generator is legal, so the last ply needs no make/unmake.
  if (depth == 1) return moves.size();
  std::uint64_t nodes = 0;
  for (Move m : moves) {
    pos.make_move(m);
    nodes += perft(pos, depth - 1);
    pos.unmake_move(m);
  }
  return nodes;
}

std::vector<DivideEntry> perft_divide(Position& pos, int depth) {
  std::vector<DivideEntry> result;
  if (depth <= 0) return result;
  MoveList moves;
  generate_legal(pos, moves);
  for (Move m : moves) {
    pos.make_move(m);
    result.push_back({m, perft(pos, depth - 1)});
    pos.unmake_move(m);
  }
  return result;
}

}  // namespace db
