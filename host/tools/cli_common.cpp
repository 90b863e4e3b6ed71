#include "cli_common.h"

#include <unistd.h>

#include <iostream>

namespace db::cli {

Position parse_position_arg(const std::string& fen) {
  if (fen == "startpos") return Position();
  return Position::from_fen(fen);
}

void print_json(const nlohmann::json& j) { std::cout << j.dump() << std::endl; }

bool stderr_is_terminal() { return isatty(STDERR_FILENO) != 0; }

}  // namespace db::cli
