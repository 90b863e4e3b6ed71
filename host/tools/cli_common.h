// Helpers shared by the subcommands: position options, JSON output.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "chess/position.h"

namespace db::cli {

// "startpos" or a FEN; throws FenError naming the bad field.
Position parse_position_arg(const std::string& fen);
// The position after the game moves (UCI, space separated) played from that FEN, with their
// history: the search sees repetitions of the positions they passed through (as after UCI's
// "position ... moves ..."). Throws NotationError naming a bad or illegal move.
Position parse_position_arg(const std::string& fen, const std::string& moves);
// The game moves (UCI, space separated, as --moves gives them) played from start; throws
// NotationError naming a bad or illegal move.
std::vector<Move> parse_moves_arg(const Position& start, const std::string& moves);

// Prints one JSON object on one line (the --json contract of every subcommand).
void print_json(const nlohmann::json& j);

// True when standard error is a terminal: progress lines go there, never into CI logs.
bool stderr_is_terminal();

}  // namespace db::cli
