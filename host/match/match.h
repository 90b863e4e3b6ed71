// Games between two players with a clock, adjudicated by our chess core; match statistics.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "chess/position.h"
#include "match/player.h"

namespace db::match {

struct TimeControl {
  std::int64_t base_ms = 10000;
  std::int64_t inc_ms = 100;
  std::uint64_t nodes = 0;       // > 0: every move is a search of this many nodes and the clock is not kept
  std::int64_t margin_ms = 200;  // a clock may go this far below zero before the game is lost on time
};
// "10+0.1" (seconds + increment seconds); throws std::invalid_argument naming the text.
TimeControl parse_time_control(const std::string& text);

struct GameRecord {
  std::string white, black;
  Position start;
  std::vector<Move> moves;
  std::string result;  // "1-0", "0-1", "1/2-1/2"
  std::string reason;  // "checkmate", "stalemate", "time forfeit", "illegal move e2e5", ...
  // A game lost by an engine's failure or illegal move: the position and the engine's last lines.
  std::string failure_report;
};

GameRecord play_game(Player& white, Player& black, const Position& start, const TimeControl& tc, int max_plies = 400);
std::string to_pgn(const GameRecord& game, int round);

struct MatchScore {
  int wins = 0, draws = 0, losses = 0;  // from the first player's point of view
  double score() const;                 // fraction of points, 0..1
  double elo() const;                   // Elo difference estimate
  double elo_error95() const;           // half-width of the 95% interval
};

}  // namespace db::match
