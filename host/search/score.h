// Search scores: centipawns, with mate scores near +-kMate (mate in n plies = kMate - n).
#pragma once

namespace db::search {

constexpr int kInfinite = 32000;
constexpr int kMate = 31000;
constexpr int kMaxPly = 128;
constexpr int kMateBound = kMate - kMaxPly;  // |score| >= this is a mate score
constexpr int kDraw = 0;

constexpr bool is_mate_score(int s) { return s >= kMateBound || s <= -kMateBound; }
// Moves (not plies) to mate, positive when we mate, negative when we are mated.
constexpr int mate_in_moves(int s) { return s > 0 ? (kMate - s + 1) / 2 : -(kMate + s) / 2; }

}  // namespace db::search
