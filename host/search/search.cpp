#include "search/search.h"

#include <algorithm>
#include <thread>

#include "chess/movegen.h"
#include "search/interim_eval.h"
#include "search/score.h"

namespace db::search {

namespace {

int score_to_tt(int s, int ply) { return s >= kMateBound ? s + ply : s <= -kMateBound ? s - ply : s; }
int score_from_tt(int s, int ply) { return s >= kMateBound ? s - ply : s <= -kMateBound ? s + ply : s; }

}  // namespace

void Searcher::clear_history() {
  for (auto& k : killers_) k[0] = k[1] = Move::none();
  for (auto& side : history_)
    for (auto& from : side)
      for (int& h : from) h = 0;
}

double Searcher::elapsed_seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

bool Searcher::should_stop() {
  if (stop_.load(std::memory_order_relaxed)) return true;
  if (limits_.nodes && nodes_ >= limits_.nodes) return stop_ = true;
  if ((nodes_ & 1023) == 0 && hard_limit_ms_ > 0 && !pondering_.load(std::memory_order_relaxed) &&
      elapsed_seconds() * 1000 >= double(hard_limit_ms_))
    return stop_ = true;
  return false;
}

void Searcher::order_moves(const Position& pos, MoveList& moves, Move tt_move, int ply) const {
  int keys[MoveList::kCapacity];
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const Move m = moves[i];
    int k;
    if (m == tt_move) {
      k = 1 << 30;
    } else if (m.is_capture() || m.is_promotion()) {
      // Most valuable victim, then least valuable attacker: the chip's capture order too.
      const PieceType victim = m.is_en_passant() ? PAWN : m.is_capture() ? type_of(pos.piece_on(m.to())) : PAWN;
      k = (1 << 28) + piece_value(victim) * 16 - int(type_of(pos.piece_on(m.from()))) +
          (m.promotion() == QUEEN ? 8000 : 0);
    } else if (ply < 128 && (m == killers_[ply][0] || m == killers_[ply][1])) {
      k = (1 << 27) + (m == killers_[ply][0]);
    } else {
      k = history_[pos.side_to_move()][m.from()][m.to()];
    }
    keys[i] = k;
  }
  // Insertion sort: move lists are short.
  for (std::size_t i = 1; i < moves.size(); ++i) {
    const Move m = moves[i];
    const int k = keys[i];
    std::size_t j = i;
    for (; j > 0 && keys[j - 1] < k; --j) {
      moves[j] = moves[j - 1];
      keys[j] = keys[j - 1];
    }
    moves[j] = m;
    keys[j] = k;
  }
}

int Searcher::quiescence(Position& pos, int alpha, int beta, int ply) {
  ++nodes_;
  seldepth_ = std::max(seldepth_, ply);
  if (should_stop()) return 0;
  if (ply >= kMaxPly - 1) return interim_evaluate(pos);
  const bool in_check = pos.in_check();
  MoveList moves;
  int best = -kInfinite;
  if (in_check) {
    generate_legal(pos, moves);  // check evasions: every legal move
    if (moves.empty()) return -kMate + ply;
  } else {
    best = interim_evaluate(pos);  // stand pat
    if (best >= beta) return best;
    alpha = std::max(alpha, best);
    generate_legal(pos, moves, GenType::NOISY);
  }
  order_moves(pos, moves, Move::none(), kMaxPly);
  for (Move m : moves) {
    pos.make_move(m);
    const int score = -quiescence(pos, -beta, -alpha, ply + 1);
    pos.unmake_move(m);
    if (stop_) return 0;
    if (score > best) {
      best = score;
      if (score > alpha) {
        alpha = score;
        if (score >= beta) break;
      }
    }
  }
  return best;
}

int Searcher::negascout(Position& pos, int alpha, int beta, int depth, int ply, bool pv_node) {
  if (depth <= 0) return quiescence(pos, alpha, beta, ply);
  ++nodes_;
  seldepth_ = std::max(seldepth_, ply);
  if (should_stop()) return 0;
  if (ply > 0 && (pos.is_repetition() || pos.halfmove_clock() >= 100 || pos.has_insufficient_material())) {
    if (pos.halfmove_clock() < 100 || !pos.is_checkmate()) return kDraw;
  }
  if (ply >= kMaxPly - 1) return interim_evaluate(pos);

  // Mate distance pruning: no score here can beat a mate found nearer the root.
  alpha = std::max(alpha, -kMate + ply);
  beta = std::min(beta, kMate - ply - 1);
  if (alpha >= beta) return alpha;

  const TTEntry* entry = tt_.probe(pos.key());
  Move tt_move = Move::none();
  if (entry) {
    tt_move = entry->move;
    const int tt_score = score_from_tt(entry->score, ply);
    if (!pv_node && entry->depth_q >= depth * 4 &&
        (entry->bound == Bound::EXACT || (entry->bound == Bound::LOWER && tt_score >= beta) ||
         (entry->bound == Bound::UPPER && tt_score <= alpha)))
      return tt_score;
  }

  MoveList moves;
  generate_legal(pos, moves);
  if (moves.empty()) return pos.in_check() ? -kMate + ply : kDraw;
  order_moves(pos, moves, tt_move, ply);

  const int original_alpha = alpha;
  int best = -kInfinite;
  Move best_move = Move::none();
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const Move m = moves[i];
    pos.make_move(m);
    const int new_depth = depth - 1 + (pos.in_check() ? 1 : 0);  // check extension
    int score;
    if (i == 0) {
      score = -negascout(pos, -beta, -alpha, new_depth, ply + 1, pv_node);
    } else {
      // NegaScout: prove the move is no better with a null window, re-search if it is.
      score = -negascout(pos, -alpha - 1, -alpha, new_depth, ply + 1, false);
      if (score > alpha && score < beta) score = -negascout(pos, -beta, -alpha, new_depth, ply + 1, true);
    }
    pos.unmake_move(m);
    if (stop_) return 0;
    if (score > best) {
      best = score;
      best_move = m;
      if (score > alpha) {
        alpha = score;
        if (score >= beta) {
          if (!m.is_capture() && !m.is_promotion()) {
            if (killers_[ply][0] != m) killers_[ply][1] = killers_[ply][0], killers_[ply][0] = m;
            history_[pos.side_to_move()][m.from()][m.to()] += depth * depth;
          }
          break;
        }
      }
    }
  }
  const Bound bound = best >= beta ? Bound::LOWER : best > original_alpha ? Bound::EXACT : Bound::UPPER;
  tt_.store(pos.key(), best_move, score_to_tt(best, ply), depth * 4, bound);
  return best;
}

std::vector<Move> Searcher::extract_pv(Position pos, Move first) const {
  std::vector<Move> pv;
  Move m = first;
  while (!m.is_none() && pv.size() < 64 && pos.is_legal(m)) {
    pv.push_back(m);
    pos.make_move(m);
    if (pos.repetition_count() > 0) break;
    const TTEntry* e = tt_.probe(pos.key());
    m = e ? e->move : Move::none();
  }
  return pv;
}

SearchResult Searcher::run(const Position& root_in, const Limits& limits, const IterationCallback& on_iteration) {
  start_ = std::chrono::steady_clock::now();
  limits_ = limits;
  stop_ = false;
  pondering_ = limits.ponder;
  nodes_ = 0;
  clear_history();
  tt_.new_search();

  std::int64_t soft_limit_ms = 0;
  hard_limit_ms_ = 0;
  if (limits.movetime_ms > 0) {
    soft_limit_ms = hard_limit_ms_ = limits.movetime_ms;
  } else if (limits.clock.time_left_ms >= 0 && !limits.infinite) {
    const TimeTargets t = compute_time_targets(limits.clock);
    soft_limit_ms = t.normal_ms;
    hard_limit_ms_ = t.panic_ms;
  }

  Position root = root_in;
  SearchResult result;
  MoveList root_moves;
  generate_legal(root, root_moves);
  if (root_moves.empty()) {
    result.score = root.in_check() ? -kMate : kDraw;
    return result;
  }
  result.best = root_moves[0];

  const int max_depth = limits.depth > 0 ? std::min(limits.depth, kMaxPly - 2) : kMaxPly - 2;
  int previous_score = 0;
  for (int depth = 1; depth <= max_depth; ++depth) {
    seldepth_ = 0;
    const int score = negascout(root, -kInfinite, kInfinite, depth, 0, true);
    if (stop_ && depth > 1) break;  // an interrupted iteration is not trusted
    const TTEntry* e = tt_.probe(root.key());
    const Move best = e && !e->move.is_none() ? e->move : result.best;
    result.best = best;
    result.score = score;
    result.depth = depth;
    result.pv = extract_pv(root, best);
    result.ponder = result.pv.size() > 1 ? result.pv[1] : Move::none();
    if (on_iteration) {
      IterationInfo info{depth, seldepth_, score, nodes_, elapsed_seconds(), tt_.hashfull(), result.pv};
      on_iteration(info);
    }
    if (stop_) break;
    if (is_mate_score(score) && limits.depth == 0 && mate_in_moves(score) > 0 && depth > 2 * mate_in_moves(score) + 2)
      break;  // a mate found, confirmed deeper: more depth will not change it
    // Normal target reached: stop unless in trouble (AIJ 8.4), in which case run on to the panic target.
    if (soft_limit_ms > 0 && !pondering_ && !limits.infinite) {
      const bool trouble = depth > 1 && in_trouble({previous_score, score, score < previous_score, false});
      if (!trouble && elapsed_seconds() * 1000 >= double(soft_limit_ms) * 0.6) break;
    }
    previous_score = score;
  }
  // In ponder or infinite mode the GUI expects no bestmove before stop/ponderhit.
  while ((limits.infinite || pondering_) && !stop_) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  result.nodes = nodes_;
  result.seconds = elapsed_seconds();
  return result;
}

}  // namespace db::search
