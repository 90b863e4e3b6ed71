// Transposition table: buckets of four entries, replacement by depth and age.
// Depth is stored in quarter plies, the unit of Deep Blue's fractional extensions (AIJ 4.1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "chess/types.h"

namespace db::search {

enum class Bound : std::uint8_t { NONE = 0, UPPER = 1, LOWER = 2, EXACT = 3 };

struct TTEntry {
  std::uint32_t key32 = 0;  // upper half of the Zobrist key (the lower half picks the bucket)
  std::int32_t score = 0;   // a two-part score (score.h)
  Move move;
  std::int16_t depth_q = 0;  // search depth (credit) in quarter plies
  Bound bound = Bound::NONE;
  std::uint8_t age = 0;
  // The dual credit (quarter plies) the node was searched with: a re-search uses at least as much,
  // which preserves the search envelope (AIJ 4).
  std::uint8_t my_credit = 0;
  std::uint8_t his_credit = 0;
};
static_assert(sizeof(TTEntry) == 16, "four entries fill a 64-byte bucket");

class TranspositionTable {
 public:
  explicit TranspositionTable(std::size_t mib = 16) { resize(mib); }
  void resize(std::size_t mib);
  void clear();
  void new_search() { ++age_; }

  // Returns the entry for key, or nullptr.
  const TTEntry* probe(Key key) const;
  void store(Key key, Move move, int score, int depth_q, Bound bound, int my_credit = 0, int his_credit = 0);
  // Permille of the first thousand buckets' entries written in the current search (UCI hashfull).
  int hashfull() const;
  std::size_t size_mib() const { return mib_; }

 private:
  static constexpr int kBucketSize = 4;
  struct alignas(64) Bucket {
    TTEntry entries[kBucketSize];
  };
  Bucket& bucket(Key key) { return buckets_[key & mask_]; }
  const Bucket& bucket(Key key) const { return buckets_[key & mask_]; }

  std::vector<Bucket> buckets_;
  std::size_t mask_ = 0;
  std::size_t mib_ = 0;
  std::uint8_t age_ = 0;
};

}  // namespace db::search
