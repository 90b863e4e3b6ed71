// The Polyglot position key: the Zobrist hash every Polyglot opening book is indexed by. It is not
// our own Position::key() (different random numbers and piece order), so books from other programs
// can be read and ours can be read by them.
#pragma once

#include <array>
#include <cstddef>

#include "chess/position.h"
#include "chess/types.h"

namespace db::book {

constexpr std::size_t kRandom64Size = 781;
constexpr std::size_t kRandomCastle = 768;     // 4 entries: white short, white long, black short, black long
constexpr std::size_t kRandomEnPassant = 772;  // 8 entries, by file
constexpr std::size_t kRandomTurn = 780;       // xored in when white is to move
extern const std::array<Key, kRandom64Size> kRandom64;

// The key of pos. En passant counts only when a pawn of the side to move stands beside the pawn that
// just made its double push (pseudo-legal: a pinned capturer still counts), as the format says.
Key polyglot_key(const Position& pos);

}  // namespace db::book
