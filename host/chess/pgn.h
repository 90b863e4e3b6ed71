// PGN reading: tag pairs, the main line's SAN moves and their NAGs (comments and variations skipped).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "chess/position.h"

namespace db {

struct PgnGame {
  std::vector<std::pair<std::string, std::string>> tags;
  std::vector<std::string> san_moves;  // main line, as written
  std::string result;                  // "1-0", "0-1", "1/2-1/2" or "*"
  // The main line's NAGs ($1 good move ... $6 dubious, and any other) as (index into san_moves, NAG).
  std::vector<std::pair<std::size_t, int>> nags;

  const std::string* tag(const std::string& name) const;
  Position start_position() const;  // from the FEN tag, or the standard start
};

// Throws std::runtime_error naming the line of a malformed tag or unbalanced comment.
std::vector<PgnGame> parse_pgn(const std::string& text);
std::vector<PgnGame> read_pgn_file(const std::string& path);

}  // namespace db
