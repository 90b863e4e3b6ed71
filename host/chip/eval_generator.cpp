#include "chip/eval_generator.h"

#include <algorithm>

#include "chip/array_model.h"
#include "chip/chip_regs.h"
#include "chip/slow_weights.h"

namespace db::chip {

namespace {

int centrality(int sq) {  // 0 (edge) .. 3 (centre)
  const int f = sq & 7, r = sq >> 3;
  return std::min(std::min(f, 7 - f), std::min(r, 7 - r));
}

}  // namespace

int game_stage(const Position& pos) {
  int stage = 0;
  for (Color c : {WHITE, BLACK}) {
    stage += 4 * popcount(pos.pieces(c, QUEEN)) + 2 * popcount(pos.pieces(c, ROOK)) + popcount(pos.pieces(c, KNIGHT)) +
             popcount(pos.pieces(c, BISHOP));
  }
  return std::min(stage, 24);
}

EvalWeights generate_weights(const Position& root) {
  EvalWeights w;
  w.placement = default_placement();
  w.phase = default_phase();
  w.slow = default_slow_weights();
  const int stage = game_stage(root);
  // The king: sheltered in a corner of its first rank while the pieces are on, central in the
  // ending (relative squares: the table serves both colours).
  for (int sq = 0; sq < 64; ++sq) {
    const int middlegame = w.placement[CHIP_KING << 6 | sq];
    const int ending = 10 * centrality(sq) - 20;
    w.placement[CHIP_KING << 6 | sq] = std::int16_t((middlegame * stage + ending * (24 - stage)) / 24);
  }
  // Development counts in the opening only.
  const int move = root.fullmove_number();
  const int percent = move <= 10 ? 100 : move <= 20 ? 50 : 25;
  for (int i = 0; i < 256; ++i) {
    const std::uint32_t v = w.slow.tables[ET_DEVELOPMENT][i];
    const int value = int(v << 23) >> 23;  // 9-bit signed
    w.slow.tables[ET_DEVELOPMENT][i] = std::uint32_t(value * percent / 100) & 0x1FF;
  }
  return w;
}

void download(ChipClient& chip, const EvalWeights& w) {
  chip.load_placement(w.placement);
  chip.load_phase(w.phase);
  chip.load_slow_weights(w.slow);
  chip.write(reg::RUNNER_BONUS, w.runner_bonus);
  chip.write(reg::SEP_BONUS, w.sep_bonus);
  chip.write(reg::EVAL_CTRL, w.eval_ctrl);
}

}  // namespace db::chip
