// Deep Blue's extended book (AIJ 8.2): from a database of games, a summary of the moves played in
// each position of the opening (how often, by whom, how recently, with what results, with what
// annotations), turned into a bonus of up to half a pawn for each root move. The bonus offsets
// that move's search window at the root, so the search prefers what strong players played when
// its own values are close, and can still overrule the book; when one move's bonus dominates, the
// move is played at once without a search. Built from any PGN (`deepblue book extend`).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "book/polyglot_book.h"
#include "chess/pgn.h"
#include "chess/position.h"

namespace db::book {

// What the games did with one move in one position (counts from the mover's side).
struct MoveSummary {
  std::uint64_t key = 0;    // Polyglot key of the position
  std::uint16_t move = 0;   // Polyglot move encoding
  std::uint32_t games = 0;  // games that played it here
  std::uint32_t wins = 0;   // ... and were won, drawn, lost by the side that played it
  std::uint32_t draws = 0;
  std::uint32_t losses = 0;
  std::uint32_t rated = 0;      // games with the mover's Elo known
  std::uint64_t elo_sum = 0;    // sum of the mover's Elo over those
  std::uint16_t last_year = 0;  // the latest game's year (0: no Date tag)
  std::uint16_t good = 0;       // annotated ! !! !? ($1 $3 $5)
  std::uint16_t bad = 0;        // annotated ? ?? ?! ($2 $4 $6)

  double score() const;     // (wins + draws / 2) / games, 0.5 with no games
  int average_elo() const;  // 0 when no game was rated
};

struct ExtendedBuildOptions {
  int max_ply = 40;   // positions up to this many plies into each game
  int min_games = 1;  // a move enters when at least this many games played it
};

struct ExtendedBuildStats {
  std::size_t games = 0;
  std::size_t bad_games = 0;  // a bad FEN tag or move: used up to the error
  std::size_t positions = 0;
  std::size_t moves = 0;
};

// The bonus of a root move, in centipawns (|bonus| <= kMaxBonus), with the summary it came from.
struct RootBonus {
  Move move = Move::none();
  int bonus = 0;
  MoveSummary summary;
};

constexpr int kMaxBonus = 50;  // half a pawn (AIJ 8.2)

class ExtendedBook {
 public:
  static ExtendedBook build(const std::vector<PgnGame>& games, const ExtendedBuildOptions& options = {},
                            ExtendedBuildStats* stats = nullptr);
  // Throws BookError naming the file and what is wrong (missing, not an extended book, damaged).
  static ExtendedBook read(const std::string& path);
  void write(const std::string& path) const;

  // The summaries of the legal moves played from pos (most played first); empty when out of book.
  std::vector<MoveSummary> moves(const Position& pos) const;
  // Each book move's bonus in pos (most played first). `year`: the current year, for recency
  // (0: the latest year in the book).
  std::vector<RootBonus> bonuses(const Position& pos, int year = 0) const;
  // The move to play without a search, when one move dominates (docs/tools.md "Extended book"):
  // played at least 10 times here, 70 % of the games or more, a bonus of 30 or more, and 20 more
  // than any other move's.
  std::optional<Move> immediate(const Position& pos, int year = 0) const;

  std::size_t size() const { return entries_.size(); }
  int latest_year() const { return latest_year_; }

 private:
  std::vector<MoveSummary> entries_;  // sorted by key, then most played first
  int latest_year_ = 0;
};

// The bonus of one move given all the moves of its position (AIJ 8.2's nonlinear combination; the
// formula is in docs/tools.md): popularity, results, players' strength, recency and annotations,
// damped when few games played it.
int move_bonus(const MoveSummary& m, std::uint32_t position_games, int year);

}  // namespace db::book
