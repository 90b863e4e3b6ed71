// deepblue tune data: positions labelled by a UCI engine (Stockfish 15.1) for a Texel-style fit of
// the chip's evaluation. The engine plays itself at fixed nodes from the openings of an EPD file,
// with seeded random moves among its near-best MultiPV lines for diversity; every quiet position it
// searched is written as "fen;score_cp_stm;result_white;game_id" (docs/tools.md, "tune data").
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace db::tune {

struct DataOptions {
  std::string engine = "/usr/games/stockfish";
  std::string openings;        // EPD file; every game starts from one of its positions (game i: opening i mod count)
  std::uint64_t nodes = 5000;  // "go nodes" per move, both sides
  int threads = 1;             // the engine's Threads option
  int hash_mib = 16;           // the engine's Hash option
  double random = 0.1;         // probability that a ply (after the first random_plies) is a random move
  int random_plies = 4;        // the first plies after the opening are always random
  int random_margin = 60;      // a random move is one of the MultiPV lines within this many cp of the best
  int multipv = 4;             // MultiPV of the searches of random plies (the others search one line)
  int skip_plies = 8;          // no position of the first plies after the opening is recorded
  int max_plies = 200;         // a game that reaches this many plies is a draw
  int adjudicate_cp = 1000;    // |score| >= this on adjudicate_plies consecutive plies: the side ahead wins
  int adjudicate_plies = 4;
  std::int64_t positions = 60000;  // stop when this many positions are written (0: no limit)
  std::int64_t games = 0;          // stop after this many games (0: no limit)
  std::uint64_t seed = 1;
  int jobs = 1;  // games in parallel, one engine process each
  std::string out = "build/tune/positions.csv";
  std::string command_line;  // for the header comment
  bool progress = false;     // progress line on standard error
};

struct DataSummary {
  std::int64_t positions = 0;  // lines written
  std::int64_t games = 0;      // games whose positions were written (the last one possibly in part)
  std::int64_t white_wins = 0, draws = 0, black_wins = 0;
  std::int64_t searches = 0;  // engine searches of the written games
  double seconds = 0;
  std::string engine_name;  // "id name" of the engine
};

// Plays the games and writes the file; throws std::runtime_error naming the engine if it cannot be
// started, dies, stops answering or plays an illegal move, std::invalid_argument on bad options or
// openings.
DataSummary generate_data(const DataOptions& opt);

// One UCI "info" line's score, principal variation's first move and MultiPV index; nothing when the
// line has no score (currmove lines, strings).
struct InfoScore {
  int multipv = 1;
  bool mate = false;
  int value = 0;       // cp, or moves to mate (negative: the side to move is mated)
  bool bound = false;  // "lowerbound" or "upperbound": a failed aspiration search
  std::string move;    // first move of the PV, UCI text ("" if no pv)
};
std::optional<InfoScore> parse_info(const std::string& line);

// A single comparable number for a score: cp, or +-(100000 - moves) for a mate.
int comparable(const InfoScore& s);

}  // namespace db::tune
