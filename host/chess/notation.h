// Move notation: UCI (e2e4, e7e8q) and SAN (Nf3, exd5, O-O, e8=Q+), printing and parsing.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "chess/types.h"

namespace db {

class Position;

// A move text that is malformed or names no legal move. The message says which and why.
class NotationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

std::string square_name(Square s);
std::string move_to_uci(Move m);
std::string move_to_san(const Position& pos, Move m);

// Both return a legal move of pos or throw NotationError.
Move parse_uci(const Position& pos, std::string_view text);
// Accepts what real PGN files contain: check and mate marks, annotations (!, ?, !!, ?!),
// "0-0" for "O-O", "e8Q" and "e8=Q", over-disambiguation such as "Ng1f3", "e.p." suffixes.
Move parse_san(const Position& pos, std::string_view text);

}  // namespace db
