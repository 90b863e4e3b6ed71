// Deep Blue's evaluation for the software search's own leaves: the chip's EVAL_TOTAL computed
// directly (chip/chip_eval.h) with the weights the host generates for the search's root, the same
// values the chips give their leaves. With it, every configuration plays the chip's evaluation,
// chips or none (issue 23; docs/evaluation.md).
#pragma once

#include <memory>
#include <string>

#include "chip/generator_params.h"

#include "search/evaluator.h"

namespace db::search {

// "interim" or "chip" (the --evaluation and UCI Evaluation values).
enum class EvaluationKind { Interim, Chip };
const char* evaluation_name(EvaluationKind kind);
// Throws std::invalid_argument naming the value when it is neither.
EvaluationKind parse_evaluation(const std::string& name);

// The factory SearchOptions::evaluator takes: empty for Interim, Deep Blue's for Chip, with the
// weights generate_weights(root, params) (nullptr: GeneratorParams::defaults()).
EvaluatorFactory evaluator_factory(EvaluationKind kind, std::shared_ptr<const chip::GeneratorParams> params = nullptr);

}  // namespace db::search
