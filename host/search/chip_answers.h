// What the chips have answered in this search: for a position and a hardware search depth, the
// bounds that their null-window answers put on its value (lo <= value < hi).
//
// The transposition table keeps one entry a position, so a chip's answer there is replaced by the
// next search of that position at any depth: a deeper software search, or the same depth with
// another test. The search then asked the chips the same question again (an offset test repeated
// after the node's own search, a bisection after a null window): on one quiet opening at depth 7 on
// one chip, 7 % of the questions and 9 % of the chips' nodes were questions already answered.
// Here every answer at a depth narrows that depth's interval, so a question its earlier answers
// settle is not asked again.
//
// A fixed number of slots, direct-mapped (a collision replaces the older position), so that a long
// search does not grow it without end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "chess/types.h"

namespace db::search {

class ChipAnswers {
 public:
  explicit ChipAnswers(std::size_t slots_log2 = 17) : slots_(std::size_t(1) << slots_log2) {}

  void clear() {
    for (Slot& s : slots_) s = Slot{};
  }

  // Narrows [lo, hi) (lo <= value < hi) with what the chips have said of key at depth, where that
  // agrees with it; leaves them as they are otherwise.
  void narrow(Key key, int depth, int& lo, int& hi) const {
    const Slot& s = slot(key, depth);
    if (s.key != key || s.depth != depth) return;
    const int new_lo = lo > s.lo ? lo : s.lo;
    const int new_hi = hi < s.hi ? hi : s.hi;
    if (new_lo >= new_hi) return;  // a search unstable across tests: the caller's bounds stand
    lo = new_lo;
    hi = new_hi;
  }

  // The chips answered "value >= test?" for key at depth. A new answer that contradicts an earlier
  // one (the search is not monotonic in its test everywhere) replaces the bound it contradicts.
  void record(Key key, int depth, int test, bool at_least) {
    Slot& s = slot(key, depth);
    if (s.key != key || s.depth != depth) s = Slot{key, depth, kMin, kMax};
    if (at_least) {
      if (test > s.lo) s.lo = test;
      if (s.hi <= test) s.hi = kMax;
    } else {
      if (test < s.hi) s.hi = test;
      if (s.lo >= test) s.lo = kMin;
    }
  }

 private:
  static constexpr int kMin = -(1 << 30), kMax = 1 << 30;
  struct Slot {
    Key key = 0;
    int depth = 0;  // 0: empty (a hardware search is at least one ply)
    int lo = kMin, hi = kMax;
  };
  Slot& slot(Key key, int depth) { return slots_[index(key, depth)]; }
  const Slot& slot(Key key, int depth) const { return slots_[index(key, depth)]; }
  std::size_t index(Key key, int depth) const {
    return std::size_t((key ^ (std::uint64_t(depth) * 0x9E3779B97F4A7C15ull)) & (slots_.size() - 1));
  }
  std::vector<Slot> slots_;
};

}  // namespace db::search
