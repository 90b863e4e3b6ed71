// Perft: the number of leaf nodes of the legal move tree to a fixed depth, and its divide.
#pragma once

#include <cstdint>
#include <vector>

#include "chess/types.h"

namespace db {

class Position;

std::uint64_t perft(Position& pos, int depth);

struct DivideEntry {
  Move move;
  std::uint64_t nodes;
};
std::vector<DivideEntry> perft_divide(Position& pos, int depth);

}  // namespace db
