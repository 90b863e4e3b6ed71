#include "chip/slow_memo.h"

#include <cstring>
#include <deque>
#include <memory>
#include <mutex>

#include "chip/zeroed_pages.h"

namespace db::chip {

namespace {

struct Entry {  // trivial, so that the table can be zeroed pages: weights 0 is an empty entry
  std::uint64_t board[4];
  std::uint64_t rest;
  std::uint32_t weights;
  std::uint16_t white, draw_score;
  std::array<std::uint16_t, SLOW_GROUPS> group;
};

constexpr int kBits = 18;                               // 262,144 entries
constexpr std::size_t kBytes = sizeof(Entry) << kBits;  // 21 MB
constexpr std::size_t kStripes = 1024;                  // locks, each for every 1024th entry

struct Table {
  Entry* entries = nullptr;  // mapped on the first use: a process that never evaluates pays nothing
  std::array<std::mutex, kStripes> locks;
  std::once_flag mapped;
  Entry* get() {
    std::call_once(mapped, [this] { entries = static_cast<Entry*>(map_zeroed_pages(kBytes)); });
    return entries;
  }
};

// Never destroyed: a thread still evaluating while the process exits must not find it unmapped.
Table& table() {
  static Table* t = new Table;
  return *t;
}

std::size_t slot(const SlowMemoKey& k) {
  std::uint64_t h = (k.rest ^ std::uint64_t(k.weights) << 40) * 0x9E3779B97F4A7C15ULL;
  for (std::uint64_t w : k.board) h = (h ^ w) * 0xFF51AFD7ED558CCDULL;
  return std::size_t((h ^ (h >> 29)) >> (64 - kBits));
}

bool same_key(const Entry& e, const SlowMemoKey& k) {
  return e.weights == k.weights && e.rest == k.rest && std::memcmp(e.board, k.board.data(), sizeof e.board) == 0;
}

// The weights' contents remembered, newest last, with their numbers.
struct Remembered {
  std::mutex lock;
  std::deque<std::pair<std::unique_ptr<SlowEvalWeights>, std::uint32_t>> contents;
  std::uint32_t next = 1;
};

}  // namespace

SlowMemoKey slow_memo_key(const std::array<std::uint8_t, 64>& board, bool stm, std::uint8_t castling,
                          std::uint16_t phase, std::uint16_t phase_swap, std::uint32_t weights_id) {
  SlowMemoKey k;
  // The board's codes are 4 bits: two squares a byte, 32 bytes.
  for (int i = 0; i < 4; ++i) {
    std::uint64_t lo, hi;
    std::memcpy(&lo, board.data() + 16 * i, 8);
    std::memcpy(&hi, board.data() + 16 * i + 8, 8);
    auto pack = [](std::uint64_t w) {
      w &= 0x0F0F0F0F0F0F0F0FULL;
      w = (w | (w >> 4)) & 0x00FF00FF00FF00FFULL;
      w = (w | (w >> 8)) & 0x0000FFFF0000FFFFULL;
      return (w | (w >> 16)) & 0xFFFFFFFFULL;
    };
    k.board[std::size_t(i)] = pack(lo) | pack(hi) << 32;
  }
  k.rest = std::uint64_t(phase_swap) << 21 | std::uint64_t(phase) << 5 | std::uint64_t(castling & 15) << 1 |
           std::uint64_t(stm);
  k.weights = weights_id;
  return k;
}

std::uint32_t weights_id(const SlowEvalWeights& weights) {
  static Remembered& r = *new Remembered;  // never destroyed, as the table
  std::lock_guard<std::mutex> hold(r.lock);
  for (const auto& [content, id] : r.contents) {
    if (content->regs == weights.regs && content->tables == weights.tables) return id;
  }
  if (r.contents.size() == kRememberedWeights) r.contents.pop_front();  // its number is not given again
  r.contents.emplace_back(std::make_unique<SlowEvalWeights>(weights), r.next);
  return r.next++;
}

bool slow_memo_find(const SlowMemoKey& key, SlowEvalResult& out) {
  Table& t = table();
  const std::size_t i = slot(key);
  const Entry& e = t.get()[i];
  std::lock_guard<std::mutex> hold(t.locks[i % kStripes]);
  if (!same_key(e, key)) return false;
  out.group = e.group;
  out.white = e.white;
  out.draw_score = e.draw_score;
  return true;
}

void slow_memo_store(const SlowMemoKey& key, const SlowEvalResult& result) {
  Table& t = table();
  const std::size_t i = slot(key);
  Entry& e = t.get()[i];
  std::lock_guard<std::mutex> hold(t.locks[i % kStripes]);
  std::memcpy(e.board, key.board.data(), sizeof e.board);
  e.rest = key.rest;
  e.weights = key.weights;
  e.group = result.group;
  e.white = result.white;
  e.draw_score = result.draw_score;
}

}  // namespace db::chip
