// The hardware/software boundary of the software search: a node handed to the chips (null-window
// questions, a PV node's value by bisection) and the questions asked of idle chips ahead of the
// move loop (docs/search.md).
#include <algorithm>
#include <cstdint>
#include <deque>
#include <utility>

#include "search/search.h"
#include "search/search_internal.h"

namespace db::search {

namespace {

// How many times more nodes a hardware search takes one ply deeper (AIJ 4.2 #1, chip depth 4:
// the one-chip iterations 5, 6 and 7 grew 3.3x and 2.9x). 8 (predicting more overflows) made one
// chip 1-18 % and 16 chips 2-11 % faster on three of four positions, and 16 chips 4 % slower on
// the fourth, with lower efficiency everywhere but AIJ 4.2 #1 (docs/search.md).
constexpr std::uint64_t kChipGrowth = 3;

// The next question of a PV leaf's bisection of [lo, hi) (lo <= score < hi), in two-part scores:
// a value boundary while the interval spans several values, so that the tie-breaker costs no
// questions where it is 0. The chip's tie-breakers are nonzero only on draw scores (value 0); in a
// single other value whose tie-breaker 0 is inside the interval, the search is settled: returns lo.
int bisection_mid(int lo, int hi) {
  const int vlo = value_of(lo), vhi = value_of(hi - 1);
  if (vlo < vhi) return value_floor(vlo + (vhi - vlo + 1) / 2);
  if (vlo != 0 && lo <= S(vlo) && S(vlo) < hi) return lo;
  return lo + (hi - lo) / 2;
}

}  // namespace

// A node at the hardware/software boundary: the chips answer null-window questions; a wider (PV)
// window gets the exact value by bisection, as Deep Blue's host did. Fail hard: beta or alpha for
// the bounds.
int Searcher::chip_leaf(Position& pos, int alpha, int beta, int depth, int ply, int my_credit, int his_credit) {
  tell_software_nodes();
  const std::uint64_t chip_nodes = leaf_->stats().nodes;
  bool overflow = false;
  std::uint64_t biggest = 0;  // the most nodes a question here took
  // What the table knows of this node at this depth or deeper (an earlier answer here, such as the
  // null window a PV node's re-search follows): known_lo <= value < known_hi. Questions those
  // bounds answer are not asked again.
  int known_lo = -kInf, known_hi = kInf + S(2);
  if (const TTEntry* e = tt_.probe(pos.key()); e && e->depth_q >= depth * kCreditUnit) {
    const int s = score_from_tt(e->score, ply);
    if (e->bound == Bound::LOWER || e->bound == Bound::EXACT) known_lo = s;
    if (e->bound == Bound::UPPER || e->bound == Bound::EXACT) known_hi = s + 1;
  }
  // And what the chips said here before at this depth, which the table may no longer hold.
  ChipAnswers* const answers = chip_answers();
  if (answers) answers->narrow(pos.key(), depth, known_lo, known_hi);
  auto known = [&](int t) { return t <= known_lo || t >= known_hi; };
  auto at_least = [&](int t) {
    if (t <= known_lo) return true;
    if (t >= known_hi) return false;
    leaf_->set_credits(my_credit, his_credit);
    const bool high = leaf_->test(pos, path_, ply, depth, t);
    overflow |= leaf_->overflowed();
    // Kept only where the chip's answer does not depend on the ply: not in the mate range (the
    // chip's test moves by the ply there: chip_test_value), nor on a draw's tie-breakers (the
    // chip's repetition tie-breakers count from the software's root: ChipLeafSearch::add_job).
    if (answers && !leaf_->overflowed() && !is_mate_score(value_of(t)) && value_of(t) != 0)
      answers->record(pos.key(), depth, t, high);
    biggest = std::max(biggest, leaf_->last_nodes());
    return high;
  };
  // With idle chips, a bisection asks ahead the questions it may ask next (both midpoints, as many
  // levels as there are chips); it uses the same answers as alone, so the result and the node
  // counts do not depend on the number of chips. Each value asked ahead is its own owner.
  constexpr int kAheadOwner = 100000;
  std::vector<int> ahead;
  auto ask_ahead = [&](int t) {
    if (known(t)) return;
    leaf_->set_credits(my_credit, his_credit);
    leaf_->prefetch(pos, path_, ply, depth, t, kAheadOwner + t);
    ahead.push_back(t);
  };
  auto speculate = [&](int lo, int hi) {
    std::deque<std::pair<int, int>> intervals{{lo, hi}};
    while (!intervals.empty() && leaf_->idle_chips() > 0) {
      const auto [l, h] = intervals.front();
      intervals.pop_front();
      if (h - l <= 1) continue;
      const int mid = bisection_mid(l, h);
      if (mid == l) continue;
      ask_ahead(mid);
      intervals.push_back({l, mid});
      intervals.push_back({mid, h});
    }
  };
  auto drop_ahead_outside = [&](int lo, int hi) {
    for (int t : ahead) {
      if (t <= lo || t >= hi) leaf_->cancel(kAheadOwner + t);
    }
    ahead.erase(std::remove_if(ahead.begin(), ahead.end(), [&](int t) { return t <= lo || t >= hi; }), ahead.end());
  };
  const bool parallel = leaf_->chips() > 1 && beta - alpha > 1;
  if (parallel) {
    ask_ahead(beta);
    ask_ahead(alpha + 1);
    speculate(std::max(alpha + 1, known_lo), std::min(beta, known_hi));
  }
  auto give_up = [&] {  // a question passed the node limit: the software searches this node
    drop_ahead_outside(kInf, -kInf);
    nodes_ += leaf_->stats().nodes - chip_nodes;
    return kChipOverflow;
  };
  int score;
  const bool high = at_least(beta);
  if (overflow) return give_up();
  const bool above_alpha = !high && beta - alpha > 1 && at_least(alpha + 1);
  if (overflow) return give_up();
  if (high) {
    score = beta;
  } else if (!above_alpha) {
    score = alpha;
  } else {
    int lo = std::max(alpha + 1, known_lo);  // value >= lo
    int hi = std::min(beta, known_hi);       // value < hi
    while (hi - lo > 1) {
      if (parallel) {
        drop_ahead_outside(lo, hi);
        speculate(lo, hi);
      }
      const int mid = bisection_mid(lo, hi);
      if (mid == lo) {  // one value left, not a draw's: its tie-breaker is 0
        lo = S(value_of(lo));
        break;
      }
      const bool at_mid = at_least(mid);
      if (overflow) return give_up();
      (at_mid ? lo : hi) = mid;
    }
    score = lo;
  }
  drop_ahead_outside(kInf, -kInf);  // all of them
  nodes_ += leaf_->stats().nodes - chip_nodes;
  // A search one ply deeper here would pass the node limit (the chips' trees grow about
  // kChipGrowth times a ply): the next iteration searches this node in software at once instead
  // of spending the limit first (on a PV, that abort was on the critical path).
  const std::uint64_t limit = leaf_->node_limit();
  if (limit > 0 && depth + 1 >= 2 && biggest * kChipGrowth > limit) too_big_for_chips_from(pos.key(), depth + 1);
  const Bound bound = score >= beta ? Bound::LOWER : score <= alpha ? Bound::UPPER : Bound::EXACT;
  tt_.store(pos.key(), Move::none(), score_to_tt(score, ply), depth * kCreditUnit, bound, 0, 0);
  return score;
}

CashIn Searcher::child_cash_in(const Position& child, int my_credit, int his_credit) const {
  int child_my = his_credit, child_his = my_credit;
  if (!options_.dual_credit) return {0, child_my, child_his};
  if (const TTEntry* entry = tt_.probe(child.key())) {
    child_my = std::max<int>(child_my, entry->my_credit);
    child_his = std::max<int>(child_his, entry->his_credit);
  }
  return cash_in(child_my, child_his);
}

int Searcher::child_depth_after(const Position& child, int depth, int my_credit, int his_credit) const {
  return depth - 1 + child_cash_in(child, my_credit, his_credit).extension_plies;
}

bool Searcher::child_in_software(Position& pos, Move m, int depth, int my_credit, int his_credit) {
  pos.make_move(m);
  const int child_depth = child_depth_after(pos, depth, my_credit, his_credit);
  const bool software = child_depth > leaf_->depth() || too_big_for_chips(pos.key(), std::max(child_depth, 1));
  pos.unmake_move(m);
  return software;
}

// Starts the question the child after m will put to the chips, if it will put one: this follows
// the first steps of dual_credit() for the child (credit cash-in, draws, mate distance, the
// transposition table) without their side effects. A wrong guess only wastes a chip's time.
void Searcher::prefetch_child(Position& pos, Move m, int alpha, int beta, int depth, int my_credit, int his_credit,
                              int ply, int owner) {
  path_[ply] = m;
  pos.make_move(m);
  const int child_ply = ply + 1;
  const CashIn child = child_cash_in(pos, my_credit, his_credit);
  const int child_depth = depth - 1 + child.extension_plies;
  int child_alpha = std::max(-beta, S(-kMate + child_ply));
  int child_beta = std::min(-alpha, S(kMate - child_ply - 1));
  const TTEntry* entry = tt_.probe(pos.key());
  bool asks = child_depth <= leaf_->depth() && child_beta - child_alpha == 1 && !pos.is_repetition() &&
              !pos.has_insufficient_material() && pos.halfmove_clock() < 100 && child_ply < kMaxPly - 2;
  if (asks && entry) asks = !tt_settles(*entry, child_depth, child_alpha, child_beta, child_ply);
  if (ChipAnswers* answers = chip_answers(); asks && answers) {
    // The chips' earlier answers may settle it too (chip_leaf asks "value >= child_beta?").
    int lo = -kInf, hi = kInf + S(2);
    answers->narrow(pos.key(), std::max(child_depth, 1), lo, hi);
    asks = child_beta > lo && child_beta < hi;
  }
  if (asks) asks = !too_big_for_chips(pos.key(), std::max(child_depth, 1));
  if (int tb; asks && probe_tablebases(pos, child_ply, tb)) asks = false;  // the databases answer it
  if (asks) {
    tell_software_nodes();
    leaf_->set_credits(child.my_credit, child.his_credit);
    leaf_->prefetch(pos, path_, child_ply, std::max(child_depth, 1), child_beta, owner < 0 ? ply : owner);
  }
  pos.unmake_move(m);
}

}  // namespace db::search
