// Legal move generation.
#pragma once

#include <cstddef>

#include "chess/types.h"

namespace db {

class Position;

class MoveList {
 public:
  static constexpr std::size_t kCapacity = 256;  // more than the most moves in any legal position (218)
  MoveList() {}                                  // leaves the storage uninitialised: a list is built at every node
  void push(Move m) { moves_[size_++] = m; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  void clear() { size_ = 0; }
  Move operator[](std::size_t i) const { return moves_[i]; }
  Move& operator[](std::size_t i) { return moves_[i]; }
  const Move* begin() const { return moves_; }
  const Move* end() const { return moves_ + size_; }
  Move* begin() { return moves_; }
  Move* end() { return moves_ + size_; }
  bool contains(Move m) const {
    for (Move x : *this)
      if (x == m) return true;
    return false;
  }

 private:
  // A union so that constructing a list does not zero 256 moves (Move's default constructor does).
  union {
    Move moves_[kCapacity];
  };
  std::size_t size_ = 0;
};

enum class GenType { ALL, NOISY, QUIET };  // NOISY = captures and promotions; QUIET = the rest

// Appends the legal moves of the given kind.
void generate_legal(const Position& pos, MoveList& moves, GenType type = GenType::ALL);

// Number of legal moves (faster than generating them when only the count is needed).
std::size_t count_legal(const Position& pos);

}  // namespace db
