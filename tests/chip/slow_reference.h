// The slow evaluation's reference answers for the chip tests: the reference function with the
// phase words the chip would use, and a check of a chip's SLOW_EVAL against it.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cstdint>

#include "chess/position.h"
#include "chip/chip_client.h"
#include "chip/chip_regs.h"
#include "chip/placement.h"
#include "chip/slow_eval.h"
#include "chip_data.h"

namespace db::chip {

inline std::array<std::uint8_t, 64> chip_board(const Position& pos) {
  std::array<std::uint8_t, 64> b{};
  for (int sq = 0; sq < 64; ++sq) b[sq] = to_chip_piece(pos.piece_on(Square(sq)));
  return b;
}

// The reference function's answer for a position, with the phase words the chip would use.
inline SlowEvalResult reference(const Position& pos, const PhaseTable& phase, const SlowEvalWeights& w) {
  const std::uint16_t word = phase_word(phase, pos);
  const Position swapped = Position::from_fen(testdata::mirror_fen(pos));
  // The chip's castling bits are the core's (docs/chip.md).
  return slow_evaluate(chip_board(pos), pos.side_to_move() == BLACK, pos.castling_rights(), word,
                       phase_word(phase, swapped), w);
}

// Loads, runs SLOW_EVAL and checks every group and the total against the reference function.
inline void expect_chip_matches_reference(ChipClient& chip, const Position& pos, const PhaseTable& phase,
                                          const SlowEvalWeights& w) {
  chip.load(pos);
  chip.eval_init();
  CommandStats stats;
  const ChipClient::SlowEval got = chip.slow_eval(&stats);
  const SlowEvalResult want = reference(pos, phase, w);
  ASSERT_EQ(stats.cycles, SLOW_EVAL_CLOCKS) << pos.fen();
  for (int g = 0; g < SLOW_GROUPS; ++g)
    ASSERT_EQ(got.group[g], std::int16_t(want.group[g])) << slow_group_name(g) << " " << pos.fen();
  ASSERT_EQ(chip.read(reg::DRAW_SCORE), want.draw_score) << pos.fen();
  const std::int16_t white = std::int16_t(want.white);
  ASSERT_EQ(got.value, pos.side_to_move() == WHITE ? white : std::int16_t(-white)) << pos.fen();
  const std::uint32_t eg = chip.read(reg::ENDGAME);  // [0] KPK, [1] pawn side wins, [4:2] draw rules
  const bool endgame_draw = ((eg & 1) && !(eg & 2)) || (eg & 0x1C);
  ASSERT_EQ(got.total, endgame_draw ? 0 : std::int16_t(chip.fast_eval() + got.value)) << pos.fen();
}

}  // namespace db::chip
