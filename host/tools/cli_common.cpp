#include "cli_common.h"

#include <unistd.h>

#include <iostream>
#include <sstream>

#include "chess/notation.h"

namespace db::cli {

Position parse_position_arg(const std::string& fen) {
  if (fen == "startpos") return Position();
  return Position::from_fen(fen);
}

std::vector<Move> parse_moves_arg(const Position& start, const std::string& moves) {
  Position pos = start;
  std::vector<Move> out;
  std::istringstream in(moves);
  for (std::string token; in >> token;) {
    try {
      out.push_back(parse_uci(pos, token));
    } catch (const NotationError& e) {
      throw NotationError(std::string("--moves: ") + e.what());
    }
    pos.make_move(out.back());
  }
  return out;
}

Position parse_position_arg(const std::string& fen, const std::string& moves) {
  Position pos = parse_position_arg(fen);
  for (Move m : parse_moves_arg(pos, moves)) pos.make_move(m);
  return pos;
}

void print_json(const nlohmann::json& j) { std::cout << j.dump() << std::endl; }

bool stderr_is_terminal() { return isatty(STDERR_FILENO) != 0; }

}  // namespace db::cli
