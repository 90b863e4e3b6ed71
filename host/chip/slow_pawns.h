// The pawn family of the slow evaluation (groups pawn_structure, pawn_shelter, pawn_registers;
// docs/evaluation.md): the per-file indices the array's es_pawns cells form, and the Table 4
// pawn registers' term computed from the whole board in the last clock. Reference for
// rtl/es_pawns.sv and the pawn parts of rtl/eval_slow.sv.
#pragma once

#include <cstdint>

#include "chip/generator_params.h"
#include "chip/slow_eval.h"

namespace db::chip {

// The pawn-family indices one file yields for one side; -1 = no lookup.
struct PawnFileIndices {
  int structure = -1;        // PAWN_STRUCTURE: the rearmost own pawn of the file
  int shelter = -1;          // PAWN_SHELTER: the file is next to the own king (or its file)
  int storm = -1;            // PAWN_STORM: same files, the enemy pawns coming at the own king
  bool rook_behind = false;  // an own rook behind the most advanced own passed pawn of the file
};
PawnFileIndices pawn_file_indices(const SlowBoard& b, int colour, int file);

// Own pawns with no enemy pawn ahead on their file or the files beside them.
std::uint64_t slow_passed_pawns(const SlowBoard& b, int colour);

// One side's pawn shelter entry plus storm entry value (before the king's relevance).
std::int32_t shelter_storm_value(std::uint32_t shelter_entry, std::uint32_t storm_entry, bool opposite_wings);

// The pawn_registers group (white's view, before the 16-bit wrap) without ROOK_BEHIND_PASSED,
// which the scan counts per file. ps_scale: PHASE[15:12].
std::int32_t pawn_registers_value(const SlowBoard& b, int ps_scale, const SlowEvalWeights& w);
// The same in two steps: what the board shows (independent of the weights), then its value under
// a set of weights. The tuner evaluates one board under many weights this way.
struct PawnRegisterFeatures {
  int wasted_wings[2] = {0, 0};           // wings where a side's majority cannot make a passed pawn
  bool separated[2] = {false, false};     // passed pawns three or more files apart
  bool missing_wing[2] = {false, false};  // ahead in material with all pawns on one wing
  bool boc = false, majors = false;       // opposite-colour bishops; rooks or queens on the board
  int pawn_difference = 0;                // white's pawns less black's
};
PawnRegisterFeatures pawn_register_features(const SlowBoard& b);
std::int32_t pawn_registers_sum(const PawnRegisterFeatures& f, int ps_scale, const SlowEvalWeights& w);

// The evaluation generator's values for the pawn family's tables and registers (colour-symmetric).
void set_default_pawn_weights(SlowEvalWeights& w);  // with GeneratorParams::defaults()
void set_default_pawn_weights(SlowEvalWeights& w, const GeneratorParams& p);

}  // namespace db::chip
