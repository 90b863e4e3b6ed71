// Search scores: centipawns, with mate scores near +-kMate (mate in n plies = kMate - n).
//
// AIJ 4.3: Deep Blue's scores are two signed 16-bit numbers, the score and a tie-breaker, compared
// lexicographically. For a draw the score is the draw value and the tie-breaker holds the static
// evaluation of a theoretically drawn position or the count of moves until a repetition. Inside
// the software search such a pair travels as one int, value * kTieScale + tie with the tie-breaker
// clamped to +-kMaxTie, which orders pairs the same way and keeps alpha-beta's arithmetic (a null
// window is one tie-breaker unit wide). The search's results and the UCI output carry the value.
#pragma once

#include <algorithm>

namespace db::search {

constexpr int kInfinite = 32000;
constexpr int kMate = 31000;
constexpr int kMaxPly = 128;
constexpr int kMateBound = kMate - kMaxPly;  // |score| >= this is a mate score
constexpr int kDraw = 0;
// A position the endgame databases call won (AIJ 8.3): this value plus the static evaluation,
// clamped to +-kTbEvalRange, as the tie-breaker among wins; lost ones the negative. Above every
// evaluation, below every mate.
constexpr int kTbWin = 20000;
constexpr int kTbEvalRange = 2000;

constexpr bool is_mate_score(int s) { return s >= kMateBound || s <= -kMateBound; }
// Moves (not plies) to mate, positive when we mate, negative when we are mated.
constexpr int mate_in_moves(int s) { return s > 0 ? (kMate - s + 1) / 2 : -(kMate + s) / 2; }

// ---- Two-part scores (score, tie-breaker) packed into one int.
constexpr int kTieScale = 256;
constexpr int kMaxTie = 127;

constexpr int two_part(int value, int tie) { return value * kTieScale + std::clamp(tie, -kMaxTie, kMaxTie); }
// The value (score) part: rounds to the nearest multiple of kTieScale, so ties of -128..127 belong
// to it (-128 is never a score's tie-breaker: it is the bottom of the value's range, "value >= v").
constexpr int value_of(int s) {
  const int shifted = s + kTieScale / 2;
  return shifted >= 0 ? shifted / kTieScale : -((-shifted + kTieScale - 1) / kTieScale);
}
constexpr int tie_of(int s) { return s - value_of(s) * kTieScale; }
// The smallest packed score with value v: "score >= value_floor(v)" asks "value >= v".
constexpr int value_floor(int v) { return v * kTieScale - kTieScale / 2; }
// Inside the search: S(v) is the value v with tie-breaker 0; kInf lies above every packed score.
constexpr int S(int v) { return v * kTieScale; }
constexpr int kInf = S(kInfinite);

}  // namespace db::search
