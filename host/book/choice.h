// Picking the move to play from a position's book moves.
#pragma once

#include <random>
#include <string>
#include <vector>

#include "book/polyglot_book.h"

namespace db::book {

enum class Choice {
  Weighted,  // at random, each move with probability weight / sum of weights (Polyglot's random play)
  Best,      // the highest weight (the first of equals in book order)
};

// Throws std::invalid_argument for anything but "weighted" or "best".
Choice parse_choice(const std::string& text);

// Move::none() when there are no moves or every weight is zero (Polyglot: weight 0 = never play).
// Only rng's raw output is used, so a seed gives the same choices with every standard library.
Move choose(const std::vector<BookMove>& moves, Choice how, std::mt19937_64& rng);

}  // namespace db::book
