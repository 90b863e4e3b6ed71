// The slow evaluation's memo: slow_evaluate() is a function of the board, the side to move, the
// castling rights, the two game phase words and the weights, and a search evaluates the same
// positions again and again (each iteration, and in a cluster every node's chips the same
// subtrees). The memo is a cache, not chip state: one for the whole process, shared by every chip
// model, so that 480 simulated chips (30 nodes of 16) share one 21 MB table instead of 10 MB each:
// a 30-node run's hit rate went from 7 % to 84 %, its memory from 6 GB to under 1 GB.
//
// Chips share entries only when their weights are the same: every distinct content of the weights
// gets a number (weights_id), entries carry it, and a lookup matches it exactly, so an entry is
// never used for weights other than those it was computed with. Safe from several threads (the
// chips on threads, `--threads`): entries are guarded by striped locks.
#pragma once

#include <array>
#include <cstdint>

#include "chip/slow_eval.h"

namespace db::chip {

// What the slow evaluation reads, packed as the memo's key.
struct SlowMemoKey {
  std::array<std::uint64_t, 4> board{};  // the 64 4-bit piece codes
  std::uint64_t rest = 0;                // {phase_swap, phase, castling, stm}
  std::uint32_t weights = 0;             // weights_id() of the weights
};

SlowMemoKey slow_memo_key(const std::array<std::uint8_t, 64>& board, bool stm, std::uint8_t castling,
                          std::uint16_t phase, std::uint16_t phase_swap, std::uint32_t weights_id);

// The number of this content of the weights, at least 1: equal contents get equal numbers while the
// process remembers the content (the last kRememberedWeights distinct ones), and a number is never
// given to another content. Compares the whole weights (82 KB): call it once after the weights
// change, not per evaluation.
std::uint32_t weights_id(const SlowEvalWeights& weights);
constexpr int kRememberedWeights = 16;

// The result stored for key, if any.
bool slow_memo_find(const SlowMemoKey& key, SlowEvalResult& out);
void slow_memo_store(const SlowMemoKey& key, const SlowEvalResult& result);

}  // namespace db::chip
