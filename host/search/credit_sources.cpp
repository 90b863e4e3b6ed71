// The dual credit's sources (AIJ 4.1, figure 1 lines 27-31): the offset searches (singular,
// binary, trinary), the null-move threat test and the credit a move above expectation earns.
// dual_credit() (search.cpp) cashes the credit in.
#include <algorithm>

#include "search/search.h"
#include "search/search_internal.h"

namespace db::search {

namespace {

// The prefetch owner of a node's offset searches (a node's own prefetches are owned by its ply).
constexpr int kOffsetOwner = -(1 << 30);  // below every chip_leaf owner (100000 + a two-part score)

bool is_passed_pawn_push(const Position& after, Move m) {
  const Piece p = after.piece_on(m.to());
  if (m.is_none() || type_of(p) != PAWN) return false;
  const Color us = color_of(p);
  const int rel = relative_rank(us, rank_of(m.to()));
  if (rel < 5) return false;  // pushes to the 6th and 7th ranks
  // No enemy pawn ahead on this or the adjacent files.
  Bitboard front = 0;
  for (int r = rank_of(m.to()) + (us == WHITE ? 1 : -1); r >= 0 && r < 8; r += (us == WHITE ? 1 : -1))
    for (int f = std::max(0, file_of(m.to()) - 1); f <= std::min(7, file_of(m.to()) + 1); ++f)
      front |= square_bb(make_square(f, r));
  return (front & after.pieces(~us, PAWN)) == 0;
}

}  // namespace

// Offset searches (AIJ 4.1, singular/binary/trinary): how many moves other than moves[index] reach
// the threshold in a reduced-depth null-window search; counting stops at limit.
int Searcher::count_good_alternatives(Position& pos, const MoveList& moves, std::size_t index, int threshold, int depth,
                                      int ply, int limit) {
  int good = 0;
  const int offset_depth = std::max(1, depth - 3);
  // AIJ 6.1: the offset searches run in parallel. Where they are chip questions, those not yet
  // asked go to the idle chips ahead of their turn (same questions, so the same answers and
  // counts); the ones a reached limit leaves unasked are aborted.
  const bool prefetching = leaf_ && leaf_->chips() > 1 && offset_depth <= leaf_->depth();
  const int owner = kOffsetOwner + ply;
  struct CancelPrefetches {
    LeafSearch* leaf;
    int owner;
    ~CancelPrefetches() {
      if (leaf) leaf->cancel(owner);
    }
  } cancel_prefetches{prefetching ? leaf_ : nullptr, owner};
  std::size_t next_prefetch = 0;
  for (std::size_t i = 0; i < moves.size() && good < limit; ++i) {
    if (i == index) continue;
    // Parallel search: the offset searches are shared out once one is a software search (the chips
    // answer the others ahead; a software one would keep the other workers waiting).
    if (parallel_ && offset_splits_here(pos, moves[i], offset_depth)) {
      good = search_offset_split(pos, moves, i, index, threshold, offset_depth, ply, limit, good);
      return stop_ ? limit : good;
    }
    for (next_prefetch = std::max(next_prefetch, i);
         prefetching && next_prefetch < moves.size() && leaf_->idle_chips() > 0; ++next_prefetch) {
      if (next_prefetch != index)
        prefetch_child(pos, moves[next_prefetch], threshold - 1, threshold, offset_depth + 1, 0, 0, ply, owner);
    }
    pos.make_move(moves[i]);
    path_[ply] = moves[i];
    const int v = -dual_credit(pos, -threshold, -threshold + 1, offset_depth, 0, 0, ply + 1, false);
    pos.unmake_move(moves[i]);
    if (stop_) return limit;
    good += v >= threshold;
  }
  return good;
}

// Null-move threat test (AIJ 4.1): if the side to move passed, would it lose material or be mated?
int Searcher::threat_credit(Position& pos, int alpha, int depth, int ply) {
  if (options_.credit.threat == 0 && options_.credit.mate_threat == 0) return 0;
  if (pos.in_check() || depth < options_.credit.threat_min_depth || ply < 1) return 0;
  // Only where the path has been forcing lately: the opponent's last move captured or checked,
  // or one of ours two plies up did (AIJ: recent ancestors need forcing characteristics).
  const Move last = path_[ply - 1];
  const Move before = ply >= 3 ? path_[ply - 3] : Move::none();
  if (!(last.is_capture() || before.is_capture())) return 0;
  const int threshold = alpha - S(options_.credit.threat_margin);
  if (threshold <= -kMateBoundS) return 0;
  pos.make_null();
  path_[ply] = Move::none();
  const int v = -dual_credit(pos, -threshold, -threshold + 1, depth - 2, 0, 0, ply + 1, false);
  pos.unmake_null();
  if (stop_ || v >= threshold) return 0;
  return v <= -kMateBoundS ? options_.credit.mate_threat : options_.credit.threat;
}

int Searcher::generate_credit(Position& pos, const MoveList& moves, std::size_t index, int score, int depth, int ply,
                              int threat) {
  const CreditTable& ct = options_.credit;
  const Move m = moves[index];
  int credit = 0;
  if (moves.size() == 1) {
    credit = ct.absolute_singular;
  } else {
    if (pos.in_check()) credit += moves.size() <= 2 ? ct.few_evasions : ct.check_evasion;
    if (depth >= options_.credit.offset_min_depth && !is_mate(score) && (ct.singular | ct.binary | ct.trinary) != 0) {
      const int good = count_good_alternatives(pos, moves, index, score - S(ct.singular_margin), depth, ply, 3);
      credit += good == 0 ? ct.singular : good == 1 ? ct.binary : good == 2 ? ct.trinary : 0;
    }
    credit += threat;
    if (ply >= 1 && is_passed_pawn_push(pos, path_[ply - 1])) credit += ct.passed_pawn;
    if (m.is_capture() && ply >= 2 && lists_[ply - 2] && !lists_[ply - 2]->contains(m)) credit += ct.influence;
  }
  if (credit > 0 && ply < ct.near_root_plies) credit += ct.near_root_bonus;
  return std::min(credit, kMaxCreditPerMove);
}

}  // namespace db::search
