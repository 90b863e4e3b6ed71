// Labelled positions for the evaluation tuner: the lines `deepblue tune data` writes
// (`fen;score_cp_side_to_move;result_white;game_id`, '#' comments), each kept as the chip
// evaluation's feature trace (so the tuner re-evaluates it under new weights without looking at
// the board again) with its label and its root context, split into a training and a held-out
// set by game (a game's positions are all on one side of the split).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "chip/chip_eval.h"

namespace db::tune {

struct Sample {
  chip::EvalTrace trace;
  std::int16_t score = 0;      // the label: Stockfish's score, centipawns, side to move's view
  float result = 0.5f;         // the game's result from the side to move's view (1, 0.5, 0)
  std::uint8_t stage = 0;      // game_stage of the position (it is its own root)
  std::uint16_t fullmove = 1;  // its move number
};

struct Dataset {
  std::vector<Sample> train, test;
  std::size_t lines = 0;  // positions read
  std::size_t games = 0;  // distinct game ids
};

// Reads a positions file. Games whose id is a multiple of test_every go to the held-out set
// (test_every 0: none). limit > 0 keeps the first limit positions. Throws std::invalid_argument
// naming the file, the line and the field at fault.
Dataset load_dataset(const std::string& path, int test_every = 10, std::size_t limit = 0);

}  // namespace db::tune
