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

RootContext root_context(const Position& root) { return {game_stage(root), root.fullmove_number()}; }

EvalWeights generate_weights(const RootContext& ctx, const GeneratorParams& p) {
  using namespace gp;
  EvalWeights w;
  w.placement = default_placement(p);
  w.phase = default_phase(p);
  w.slow = default_slow_weights(p);
  w.runner_bonus = std::uint16_t(unsigned_field(p.get(RACE_RUNNER_BONUS), 15));
  w.sep_bonus = std::uint16_t(unsigned_field(p.get(RACE_SEP_BONUS), 15));
  const int stage = std::clamp(ctx.stage, 0, 24);
  // The king: sheltered in a corner of its first rank while the pieces are on, central in the
  // ending (relative squares: the table serves both colours).
  const int ending_centre = p.get(KING_ENDING_CENTRE), ending_base = p.get(KING_ENDING_BASE);
  for (int sq = 0; sq < 64; ++sq) {
    const int middlegame = w.placement[CHIP_KING << 6 | sq];
    const int ending = ending_centre * centrality(sq) + ending_base;
    w.placement[CHIP_KING << 6 | sq] =
        std::int16_t(saturate_signed((middlegame * stage + ending * (24 - stage)) / 24, 16));
  }
  // Development counts in the opening only.
  const int move = ctx.fullmove;
  const int percent = move <= p.get(DEVELOPMENT_UNTIL)       ? p.get(DEVELOPMENT_PERCENT)
                      : move <= p.get(DEVELOPMENT_UNTIL + 1) ? p.get(DEVELOPMENT_PERCENT + 1)
                                                             : p.get(DEVELOPMENT_PERCENT + 2);
  for (int i = 0; i < 256; ++i) {
    const std::uint32_t v = w.slow.tables[ET_DEVELOPMENT][i];
    const int value = int(v << 23) >> 23;                                          // 9-bit signed
    w.slow.tables[ET_DEVELOPMENT][i] = symmetric_field(value * percent / 100, 9);  // -x stays exact
  }
  return w;
}

EvalWeights generate_weights(const Position& root, const GeneratorParams& p) {
  return generate_weights(root_context(root), p);
}

EvalWeights generate_weights(const Position& root) { return generate_weights(root, GeneratorParams::defaults()); }

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
