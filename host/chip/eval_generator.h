// The evaluation function generator (AIJ 7.1): the complete weight set of a search, made from its
// root position and downloaded to the chip before the search: the piece placement table, the game
// phase RAM, the fast evaluation's bonuses and switches, and every register and table of the slow
// evaluation (AIJ Tables 4 and 5). Static values that depend on the root's context are set for it
// here; dynamic ones scale on the chip with the material at each position.
#pragma once

#include <cstdint>

#include "chess/position.h"
#include "chip/chip_client.h"
#include "chip/generator_params.h"
#include "chip/placement.h"
#include "chip/search_chip.h"
#include "chip/slow_eval.h"

namespace db::chip {

struct EvalWeights {
  PlacementTable placement{};
  PhaseTable phase{};
  SlowEvalWeights slow;
  std::uint16_t runner_bonus = 600;  // winning the pawn race: about a queen less the pawn and the tempo
  std::uint16_t sep_bonus = 150;     // widely separated passed pawns against a lone king
  std::uint8_t eval_ctrl = 3;        // endgame rules and ROMs on
};

// Non-pawn material of both sides, queen 4, rook 2, minor 1: 24 at the start, 0 in a pawn ending.
int game_stage(const Position& pos);

// What of the root position the generator uses: its game stage (game_stage(root)) and its
// fullmove number, nothing else. Two roots with the same context get the same weights.
struct RootContext {
  int stage;     // game_stage(root), 0..24
  int fullmove;  // root.fullmove_number()
};
RootContext root_context(const Position& root);

// The weights for a search from a root: the generator's tables made from the parameters p
// (chip/generator_params.h), with the king's placement values blended between the middlegame's
// (sheltered on the back rank) and the ending's (central) by the root's game stage, and the
// development table scaled down as the opening is left behind (by the root's move number).
// Every table field and register is saturated into its width.
EvalWeights generate_weights(const RootContext& ctx, const GeneratorParams& p);
EvalWeights generate_weights(const Position& root, const GeneratorParams& p);
// The same with GeneratorParams::defaults() (the hand values, overridden by the embedded tuned ones).
EvalWeights generate_weights(const Position& root);

// Every table and register of w as the register writes that download it, in download order.
std::vector<WriteBlock> weight_writes(const EvalWeights& w);
// A tag for a set of weights (a hash of every address and word; never 0): a chip that holds the
// weights with this tag is not sent them again (SearchChip::load_weights).
std::uint64_t weights_generation(const std::vector<WriteBlock>& writes);
// Writes every table and register of w to the chip.
void download(ChipClient& chip, const EvalWeights& w);

}  // namespace db::chip
