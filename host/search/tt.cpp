#include "search/tt.h"

#include <algorithm>

namespace db::search {

void TranspositionTable::resize(std::size_t mib) {
  mib = std::max<std::size_t>(1, mib);
  // Largest power of two number of buckets that fits the size.
  std::size_t count = 1;
  while (count * 2 * sizeof(Bucket) <= mib * 1024 * 1024) count *= 2;
  std::vector<Bucket> fresh(count);  // allocated first: a failure leaves the old table intact
  buckets_.swap(fresh);
  mask_ = count - 1;
  mib_ = mib;
  age_ = 0;
}

void TranspositionTable::clear() {
  std::fill(buckets_.begin(), buckets_.end(), Bucket{});
  age_ = 0;
}

const TTEntry* TranspositionTable::probe(Key key) const {
  const std::uint32_t key32 = std::uint32_t(key >> 32);
  for (const TTEntry& e : bucket(key).entries)
    if (e.bound != Bound::NONE && e.key32 == key32) return &e;
  return nullptr;
}

void TranspositionTable::store(Key key, Move move, int score, int depth_q, Bound bound, int my_credit, int his_credit) {
  const std::uint32_t key32 = std::uint32_t(key >> 32);
  Bucket& b = bucket(key);
  TTEntry* victim = nullptr;
  for (TTEntry& e : b.entries) {
    if (e.bound != Bound::NONE && e.key32 == key32) {
      victim = &e;  // same position: overwrite, but keep a known move if the new one is none
      if (move.is_none()) move = e.move;
      break;
    }
  }
  if (!victim) {
    // Replace the entry of least worth: stale entries first, then the shallowest.
    auto worth = [this](const TTEntry& e) {
      if (e.bound == Bound::NONE) return -1000000;
      return int(e.depth_q) - (e.age == age_ ? 0 : 4 * 64);
    };
    victim = &b.entries[0];
    for (TTEntry& e : b.entries)
      if (worth(e) < worth(*victim)) victim = &e;
  }
  victim->key32 = key32;
  victim->move = move;
  victim->score = std::int32_t(score);
  victim->depth_q = std::int16_t(depth_q);
  victim->bound = bound;
  victim->age = age_;
  victim->my_credit = std::uint8_t(std::clamp(my_credit, 0, 255));
  victim->his_credit = std::uint8_t(std::clamp(his_credit, 0, 255));
}

int TranspositionTable::hashfull() const {
  const std::size_t n = std::min<std::size_t>(1000 / kBucketSize, buckets_.size());
  int used = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (const TTEntry& e : buckets_[i].entries) used += e.bound != Bound::NONE && e.age == age_;
  return n ? int(used * 1000 / (n * kBucketSize)) : 0;
}

}  // namespace db::search
