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

std::vector<WriteBlock> weight_writes(const EvalWeights& w) {
  std::vector<WriteBlock> out;
  WriteBlock placement{reg::PST_BASE, {}};
  for (std::int16_t v : w.placement) placement.data.push_back(std::uint16_t(v));
  out.push_back(std::move(placement));
  out.push_back({reg::PHASE_RAM_BASE, std::vector<std::uint32_t>(w.phase.begin(), w.phase.end())});
  WriteBlock regs{EVAL_REGS_BASE, {}};
  for (int i = 0; i < EVAL_REGS_COUNT; ++i) regs.data.push_back(w.slow.regs[i]);
  out.push_back(std::move(regs));
  for (int t = 0; t < EVAL_TABLES_COUNT; ++t) {
    WriteBlock table{EVAL_TABLES_BASE + std::uint32_t(t) * EVAL_TABLES_WINDOW, {}};
    for (int e = 0; e < EVAL_TABLE_ENTRIES[t]; ++e) table.data.push_back(w.slow.tables[t][e]);
    out.push_back(std::move(table));
  }
  out.push_back({reg::RUNNER_BONUS, {w.runner_bonus}});
  out.push_back({reg::SEP_BONUS, {w.sep_bonus}});
  out.push_back({reg::EVAL_CTRL, {w.eval_ctrl}});
  return out;
}

std::uint64_t weights_generation(const std::vector<WriteBlock>& writes) {
  std::uint64_t h = 0xCBF29CE484222325ull;  // FNV-1a, 64 bits
  auto mix = [&h](std::uint32_t word) {
    for (int b = 0; b < 4; ++b) {
      h ^= (word >> (8 * b)) & 0xFF;
      h *= 0x100000001B3ull;
    }
  };
  for (const WriteBlock& b : writes) {
    mix(b.addr);
    mix(std::uint32_t(b.data.size()));
    for (std::uint32_t word : b.data) mix(word);
  }
  return h == 0 ? 1 : h;
}

void download(ChipClient& chip, const EvalWeights& w) {
  for (const WriteBlock& b : weight_writes(w)) {
    for (std::size_t i = 0; i < b.data.size(); ++i) chip.write(b.addr + std::uint32_t(i), b.data[i]);
  }
}

}  // namespace db::chip
