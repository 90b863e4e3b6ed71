// The software search: iterative deepening, NegaScout (principal variation search) with a
// transposition table, check extensions and a quiescence search at the leaves.
// The leaves use interim_evaluate() until the chip's hardware search replaces them (issue 6).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

#include "chess/position.h"
#include "chess/movegen.h"
#include "search/timeman.h"
#include "search/tt.h"

namespace db::search {

struct Limits {
  int depth = 0;             // 0: no depth limit
  std::uint64_t nodes = 0;   // 0: no node limit
  std::int64_t movetime_ms = 0;
  ClockState clock;          // time_left_ms < 0: no clock
  bool infinite = false;     // search until stop()
  bool ponder = false;       // do not stop on time until ponderhit()
};

struct IterationInfo {
  int depth = 0;
  int seldepth = 0;
  int score = 0;
  std::uint64_t nodes = 0;
  double seconds = 0;
  int hashfull = 0;
  std::vector<Move> pv;
};

struct SearchResult {
  Move best = Move::none();
  Move ponder = Move::none();
  int score = 0;
  int depth = 0;
  std::uint64_t nodes = 0;
  double seconds = 0;
  std::vector<Move> pv;
};

class Searcher {
 public:
  explicit Searcher(TranspositionTable& tt) : tt_(tt) {}
  using IterationCallback = std::function<void(const IterationInfo&)>;

  SearchResult run(const Position& root, const Limits& limits, const IterationCallback& on_iteration = {});
  void stop() { stop_.store(true); }              // from any thread
  void ponderhit() { pondering_.store(false); }   // from any thread: the clock now runs
  void clear_history();

 private:
  int negascout(Position& pos, int alpha, int beta, int depth, int ply, bool pv_node);
  int quiescence(Position& pos, int alpha, int beta, int ply);
  void order_moves(const Position& pos, MoveList& moves, Move tt_move, int ply) const;
  bool should_stop();
  double elapsed_seconds() const;
  std::vector<Move> extract_pv(Position pos, Move first) const;

  TranspositionTable& tt_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> pondering_{false};
  Limits limits_;
  std::chrono::steady_clock::time_point start_;
  std::int64_t hard_limit_ms_ = 0;  // 0: none
  std::uint64_t nodes_ = 0;
  int seldepth_ = 0;
  Move killers_[128][2];
  int history_[2][64][64] = {};
};

}  // namespace db::search
