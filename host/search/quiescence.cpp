// The software's leaves: the static value (the chip's evaluation or the interim one), the lazy
// stand pat, and the quiescence search below the software's depth (docs/search.md).
#include <algorithm>

#include "chess/see.h"
#include "search/interim_eval.h"
#include "search/score.h"
#include "search/search.h"

namespace db::search {

// The software's static value: the interim evaluation, with the static evaluation of a
// theoretically drawn ending (KPK by the ROM) as the tie-breaker of its draw score.
int Searcher::static_score(const Position& pos) const {
  if (evaluator_) return two_part(evaluator_->evaluate(pos), evaluator_->draw_tie(pos));
  return two_part(interim_evaluate(pos), interim_draw_tie(pos));
}

int Searcher::draw_tie(const Position& pos) const {
  return evaluator_ ? evaluator_->draw_tie(pos) : interim_draw_tie(pos);
}

void Searcher::set_evaluator(const Position& root) {
  evaluator_ = options_.evaluator ? options_.evaluator(root) : nullptr;
  lazy_ = evaluator_ ? evaluator_->lazy_control() : StaticEvaluator::LazyControl{};
  if (lazy_.margin > 0) lazy_.margin = std::max(0, options_.lazy_margin);
  slow_estimate_ = 0;
}

// As the chip decides "value >= test" without its slow evaluation when the fast value plus the
// low-pass filter's estimate clears the margin, the stand pat is that bound when it lies outside
// the window by the margin: the slow features, most of the evaluation's cost, are found only for
// positions whose value matters.
int Searcher::stand_pat(const Position& pos, int alpha, int beta) {
  if (lazy_.margin <= 0) return static_score(pos);
  const StaticEvaluator::FastPart f = evaluator_->fast_part(pos);
  if (!f.exact && f.pieces >= lazy_.min_pieces) {
    const int estimate = f.fast + (pos.side_to_move() == WHITE ? slow_estimate_ : -slow_estimate_);
    const int low = S(estimate - lazy_.margin), high = S(estimate + lazy_.margin);
    if (low >= beta || high <= alpha) {
      ++lazy_cuts_;
      return low >= beta ? low : high;
    }
  }
  const int score = static_score(pos);
  slow_estimate_ += (evaluator_->slow_part_white(pos) - slow_estimate_) >> lazy_.shift;
  return score;
}

int Searcher::quiescence(Position& pos, int alpha, int beta, int ply, int checks) {
  ++nodes_;
  ++software_nodes_;
  seldepth_ = std::max(seldepth_, ply);
  if (should_stop()) return 0;
  if (ply >= kMaxPly - 1) return static_score(pos);
  if (int tb; probe_tablebases(pos, ply, tb)) return tb;
  const bool in_check = pos.in_check();
  MoveList moves;
  int best = -kInf;
  if (in_check) {
    generate_legal(pos, moves);  // check evasions: every legal move
    if (moves.empty()) return S(-kMate + ply);
  } else {
    best = stand_pat(pos, alpha, beta);
    if (best >= beta) return best;
    alpha = std::max(alpha, best);
    generate_legal(pos, moves, GenType::NOISY);
  }
  order_moves(pos, moves, Move::none(), kMaxPly);
  // The quiet checks come after the captures.
  if (checks > 0 && !in_check) {
    MoveList quiet;
    generate_legal(pos, quiet, GenType::QUIET);
    for (Move m : quiet) {
      if (pos.gives_check(m)) moves.push(m);
    }
  }
  for (Move m : moves) {
    // A capture that loses material on its square is not searched out of check, unless it checks
    // (a sacrifice for a mating attack): standing pat is the better choice than giving the man away.
    if (options_.static_exchange && !in_check && m.is_capture() && !m.is_promotion() && !see_ge(pos, m, 0) &&
        (checks <= 0 || !pos.gives_check(m)))
      continue;
    pos.make_move(m);
    const int score = -quiescence(pos, -beta, -alpha, ply + 1, checks - 1);
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

}  // namespace db::search
