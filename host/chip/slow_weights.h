// Weights of the slow evaluation (AIJ Tables 4 and 5): the evaluation generator's values, random
// sets for tests, and the weights file's "slow" section.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "chip/generator_params.h"
#include "chip/slow_eval.h"

namespace db::chip {

// The generator's values (docs/evaluation.md): every group enabled, tables of the features the
// chip evaluates filled with chess values, the rest 0. Colour-symmetric.
SlowEvalWeights default_slow_weights();  // with GeneratorParams::defaults()
SlowEvalWeights default_slow_weights(const GeneratorParams& p);
// Random values within each register's and table's width, all groups enabled (for tests: RTL and
// model must agree whatever the weights).
SlowEvalWeights random_slow_weights(std::uint32_t seed);
// The same weights made colour-symmetric: black's tables and registers copy white's, mobility
// tables are negated under the mirror (rank 7-r, level 16-l). Mirrored positions then evaluate
// to the negated value.
SlowEvalWeights colour_symmetric(const SlowEvalWeights& w);

// {"registers": {"ROOK7": [12 values], ...}, "tables": {"MOBILITY": [[128 values] x 8], ...}}.
nlohmann::json slow_weights_to_json(const SlowEvalWeights& w);
// Throws std::invalid_argument naming the group, table and entry at fault.
SlowEvalWeights slow_weights_from_json(const nlohmann::json& j);

}  // namespace db::chip
