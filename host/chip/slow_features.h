// The slow evaluation in two steps: the features a board shows (every table index the scan looks
// up, every flag a register is added for; independent of the weights), then their value under a
// set of weights in the chip's arithmetic. slow_evaluate is the two in a row, so the features
// reproduce the chip's value exactly for any weights: the evaluation tuner (deepblue tune fit)
// extracts a position's features once and sums them under thousands of weight sets.
#pragma once

#include <array>
#include <cstdint>

#include "chip/slow_eval.h"
#include "chip/slow_pawns.h"
#include "chip/slow_tactics.h"

namespace db::chip {

// The lookups of one file for one side (-1: none).
struct SlowFileFeatures {
  std::int16_t rook_files = 0;    // ROOK_FILES index (always looked up)
  bool rook_lever = false;        // looked up as half-open, at half the value
  bool near_enemy_king = false;   // the file counts for king safety against the enemy king
  std::int16_t multi_pawns = -1;  // MULTI_PAWNS
  std::int16_t bishops[2] = {-1, -1};
  std::int16_t self_block = -1, opp_block = -1, back_block = -1;
  std::int16_t minor_on_weak = -1;                        // MINOR_ON_WEAK
  std::int16_t passed = -1;                               // PASSED
  std::int16_t pinned = -1;                               // PINNED
  std::int16_t structure = -1, shelter = -1, storm = -1;  // PAWN_STRUCTURE, PAWN_SHELTER, PAWN_STORM
};

struct SlowFeatures {
  std::array<std::uint8_t, 64> control{};                  // control level of each square (MOBILITY index)
  std::array<std::array<SlowFileFeatures, 2>, 8> files{};  // [file][colour]
  bool opposite_wings = false;                             // the kings on opposite wings
  bool black_to_move = false;
  std::int8_t rook7[2] = {-1, -1};  // ROOK7 register of each side (0-5), -1 none
  bool hung[2] = {false, false};    // an enemy man attacked and undefended
  bool bishop_pair[2] = {false, false};
  std::int8_t trapped_bishop[2] = {-1, -1};  // TRAPPED_BISHOP index of each side
  int rooks_behind[2] = {0, 0};              // rooks behind a passed pawn
  MaterialIndices material;
  TacticsFlags tactics[2];
  PawnRegisterFeatures pawn_registers;
};

SlowFeatures slow_features(const std::array<std::uint8_t, 64>& board, bool black_to_move, std::uint8_t castling);
// phase, phase_swap as for slow_evaluate (words of the game phase RAM, which is a weight too).
SlowEvalResult slow_sum(const SlowFeatures& f, std::uint16_t phase, std::uint16_t phase_swap, const SlowEvalWeights& w);

}  // namespace db::chip
