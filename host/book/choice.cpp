#include "book/choice.h"

#include <cstdint>
#include <stdexcept>

namespace db::book {

Choice parse_choice(const std::string& text) {
  if (text == "weighted") return Choice::Weighted;
  if (text == "best") return Choice::Best;
  throw std::invalid_argument("book choice must be weighted or best, got '" + text + "'");
}

Move choose(const std::vector<BookMove>& moves, Choice how, std::mt19937_64& rng) {
  std::uint64_t total = 0;
  const BookMove* best = nullptr;
  for (const BookMove& m : moves) {
    total += m.weight;
    if (m.weight > 0 && (!best || m.weight > best->weight)) best = &m;
  }
  if (total == 0) return Move::none();
  if (how == Choice::Best) return best->move;
  // Not std::uniform_int_distribution: its algorithm differs between libraries. The modulo bias is
  // below 2^-30 (total < 2^32 for any real book position).
  std::uint64_t r = rng() % total;
  for (const BookMove& m : moves) {
    if (r < m.weight) return m.move;
    r -= m.weight;
  }
  return best->move;  // not reached
}

}  // namespace db::book
