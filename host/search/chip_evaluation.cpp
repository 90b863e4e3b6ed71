// See chip_evaluation.h.
#include "search/chip_evaluation.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "chip/chip_eval.h"

namespace db::search {

namespace {

// The chip's evaluation costs about 2.6 us in software, most of it the slow evaluation, and the
// quiescence search meets the same positions again and again (transpositions, and the tie-breaker
// asked right after the value): a cache keyed by the position's Zobrist key, shared by the
// threads without locks. An entry is two words, key ^ data and data; a torn or overwritten
// entry fails the check and is recomputed.
class ChipStaticEvaluator : public StaticEvaluator {
 public:
  ChipStaticEvaluator(const Position& root, const chip::GeneratorParams& params)
      : chip_(chip::generate_weights(root, params)),
        lazy_(chip::LazyControl::of(chip_.weights())),
        cache_(std::make_unique<Entry[]>(kEntries)) {}
  int evaluate(const Position& pos) const override { return lookup(pos).total; }
  LazyControl lazy_control() const override {
    return lazy_.on ? LazyControl{lazy_.margin, lazy_.shift, lazy_.min_pieces} : LazyControl{};
  }
  // A position already in the cache costs less than its fast part: the whole value, exactly.
  FastPart fast_part(const Position& pos) const override {
    Values v;
    if (cached(pos, v)) return {v.total, true, 0};
    const chip::FastEvaluation f = chip_.fast(pos);
    return {f.fast, f.draw, f.pieces};
  }
  int slow_part_white(const Position& pos) const override {
    const int slow = lookup(pos).slow;
    return pos.side_to_move() == WHITE ? slow : -slow;
  }
  // The chip scores a drawn king-and-pawn ending (KPK ROM) or a rule's draw 0; its tie-breaker is
  // the value the chip would give without that knowledge.
  int draw_tie(const Position& pos) const override {
    const Values v = lookup(pos);
    return v.draw ? v.undrawn : 0;
  }

 private:
  struct Values {
    int total = 0, undrawn = 0, slow = 0;  // slow: the side to move's view
    bool draw = false;
  };
  struct Entry {
    std::atomic<std::uint64_t> check{0}, data{0};
  };
  static constexpr std::size_t kEntries = std::size_t(1) << 16;  // 1 MiB

  static std::uint64_t pack(const Values& v) {
    // Bit 48 marks a filled entry, so that an empty one (0, 0) never matches key 0.
    return std::uint64_t(std::uint16_t(v.total)) | std::uint64_t(std::uint16_t(v.undrawn)) << 16 |
           std::uint64_t(std::uint16_t(v.slow)) << 32 | std::uint64_t(1) << 48 | std::uint64_t(v.draw) << 49;
  }
  bool cached(const Position& pos, Values& v) const {
    const std::uint64_t key = pos.key();
    const Entry& e = cache_[key & (kEntries - 1)];
    const std::uint64_t data = e.data.load(std::memory_order_relaxed);
    if (!(data >> 48 & 1) || (e.check.load(std::memory_order_relaxed) ^ data) != key) return false;
    v = {std::int16_t(data & 0xFFFF), std::int16_t(data >> 16 & 0xFFFF), std::int16_t(data >> 32 & 0xFFFF),
         bool(data >> 49 & 1)};
    return true;
  }
  Values lookup(const Position& pos) const {
    Values v;
    if (cached(pos, v)) return v;
    const std::uint64_t key = pos.key();
    Entry& e = cache_[key & (kEntries - 1)];
    const chip::ChipEvaluation c = chip_.evaluate(pos);
    v = {c.total, c.undrawn, c.slow, c.draw};
    const std::uint64_t packed = pack(v);
    e.data.store(packed, std::memory_order_relaxed);
    e.check.store(key ^ packed, std::memory_order_relaxed);
    return v;
  }

  chip::ChipEvaluator chip_;
  chip::LazyControl lazy_;
  std::unique_ptr<Entry[]> cache_;
};

}  // namespace

const char* evaluation_name(EvaluationKind kind) { return kind == EvaluationKind::Chip ? "chip" : "interim"; }

EvaluationKind parse_evaluation(const std::string& name) {
  if (name == "chip") return EvaluationKind::Chip;
  if (name == "interim") return EvaluationKind::Interim;
  throw std::invalid_argument("evaluation '" + name + "' is neither 'chip' nor 'interim'");
}

EvaluatorFactory evaluator_factory(EvaluationKind kind, std::shared_ptr<const chip::GeneratorParams> params) {
  if (kind == EvaluationKind::Interim) return {};
  return [params](const Position& root) -> std::shared_ptr<const StaticEvaluator> {
    return std::make_shared<const ChipStaticEvaluator>(root, params ? *params : chip::GeneratorParams::defaults());
  };
}

}  // namespace db::search
