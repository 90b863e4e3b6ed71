// What the search's files share inside the library: scores in the transposition table (mates kept
// relative to the node that stores them) and the chips' "no answer". Not part of the search's API.
#pragma once

#include "search/score.h"
#include "search/tt.h"

namespace db::search {

inline constexpr int kMateBoundS = S(kMateBound);
// chip_leaf()'s "no answer": a hardware search passed the node limit (outside every score).
inline constexpr int kChipOverflow = kInf + S(1);

inline int score_to_tt(int s, int ply) { return s >= kMateBoundS ? s + S(ply) : s <= -kMateBoundS ? s - S(ply) : s; }
inline int score_from_tt(int s, int ply) { return s >= kMateBoundS ? s - S(ply) : s <= -kMateBoundS ? s + S(ply) : s; }
inline bool is_mate(int s) { return s >= kMateBoundS || s <= -kMateBoundS; }

// Whether a stored entry settles a node searched to depth with (alpha, beta) (a non-PV node).
inline bool tt_settles(const TTEntry& e, int depth, int alpha, int beta, int ply) {
  const int score = score_from_tt(e.score, ply);
  return e.depth_q >= depth * kCreditUnit && (e.bound == Bound::EXACT || (e.bound == Bound::LOWER && score >= beta) ||
                                              (e.bound == Bound::UPPER && score <= alpha));
}

}  // namespace db::search
