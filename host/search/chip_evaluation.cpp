// See chip_evaluation.h.
#include "search/chip_evaluation.h"

#include <stdexcept>
#include <string>

#include "chip/chip_eval.h"

namespace db::search {

namespace {

class ChipStaticEvaluator : public StaticEvaluator {
 public:
  explicit ChipStaticEvaluator(const Position& root) : chip_(chip::generate_weights(root)) {}
  int evaluate(const Position& pos) const override { return chip_.evaluate(pos).total; }
  // The chip scores a drawn king-and-pawn ending (KPK ROM) or a rule's draw 0; its tie-breaker is
  // the value the chip would give without that knowledge.
  int draw_tie(const Position& pos) const override {
    const chip::ChipEvaluation e = chip_.evaluate(pos);
    return e.draw ? e.undrawn : 0;
  }

 private:
  chip::ChipEvaluator chip_;
};

}  // namespace

const char* evaluation_name(EvaluationKind kind) { return kind == EvaluationKind::Chip ? "chip" : "interim"; }

EvaluationKind parse_evaluation(const std::string& name) {
  if (name == "chip") return EvaluationKind::Chip;
  if (name == "interim") return EvaluationKind::Interim;
  throw std::invalid_argument("evaluation '" + name + "' is neither 'chip' nor 'interim'");
}

EvaluatorFactory evaluator_factory(EvaluationKind kind) {
  if (kind == EvaluationKind::Interim) return {};
  return [](const Position& root) -> std::shared_ptr<const StaticEvaluator> {
    return std::make_shared<const ChipStaticEvaluator>(root);
  };
}

}  // namespace db::search
