// The reference model's board sets of a chess-core position (the array tests' starting point).
#pragma once

#include <array>
#include <cstdint>

#include "chess/position.h"
#include "chip/array_model.h"
#include "chip/chip_client.h"

namespace db::chip {

inline BoardSets sets_of(const Position& pos) {
  std::array<std::uint8_t, 64> board{};
  for (int s = 0; s < 64; ++s) board[std::size_t(s)] = to_chip_piece(pos.piece_on(Square(s)));
  BoardSets sets;
  sets.update(board);
  return sets;
}

}  // namespace db::chip
