// Making a Polyglot book from games: every position of the first plies of each game, with the moves
// played from it. A move's weight is the number of games that played it (or, weighting results as
// Polyglot's own generator does, 2 per win and 1 per draw of the side that played it), scaled
// down together to fit 16 bits when the largest does not.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "book/polyglot_book.h"
#include "chess/pgn.h"

namespace db::book {

struct BuildOptions {
  int max_ply = 30;             // positions up to this many plies into each game
  int min_games = 1;            // a move enters the book when at least this many games played it
  bool weight_results = false;  // weight 2 * wins + draws instead of the number of games
};

struct BuildStats {
  std::size_t games = 0;
  std::size_t bad_games = 0;  // a bad FEN tag or move: used up to the error
  std::size_t positions = 0;  // distinct keys in the book
  std::size_t entries = 0;
};

// Entries sorted as a book file must be: by key, then highest weight first, then by move.
std::vector<Entry> build_entries(const std::vector<PgnGame>& games, const BuildOptions& options,
                                 BuildStats* stats = nullptr);

// Writes entries (sorted already, as build_entries gives them). Throws BookError naming the file.
void write_book(const std::string& path, const std::vector<Entry>& entries);

}  // namespace db::book
