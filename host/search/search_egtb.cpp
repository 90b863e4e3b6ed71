// The endgame databases in the search (AIJ 8.3). Deep Blue scored a database position with its
// game-theoretic value as the high-order part and the evaluation as the low-order part, so that
// among won positions the search still prefers the better-looking one; we do the same (score.h,
// kTbWin). Inside the tree that is enough to keep a win, but not to make progress towards mate,
// so a won (or lost) root is played by the databases' distance to mate instead of a search.
#include <algorithm>

#include "chess/bitboard.h"
#include "egtb/tablebases.h"
#include "search/search.h"

namespace db::search {

bool Searcher::probe_tablebases(const Position& pos, int ply, int& score) {
  const egtb::Tablebases* tbs = options_.tablebases;
  if (!tbs || pos.castling_rights() != NO_CASTLING || popcount(pos.pieces()) > tbs->max_pieces()) return false;
  std::optional<egtb::Value> v;
  try {
    v = tbs->probe(pos);
  } catch (const egtb::EgtbError&) {
    return false;  // a damaged file: the search goes on without it (find() remembers the error)
  }
  if (!v) return false;
  ++tb_hits_;
  // The evaluation as the tie-breaker: where the static score is a known draw already (a KPK the
  // ROM calls drawn), its own tie-breaker holds the evaluation without that knowledge.
  const int s = static_score(pos);
  const int e = std::clamp(value_of(s) + tie_of(s), -kTbEvalRange, kTbEvalRange);
  switch (v->wdl) {
    case egtb::Wdl::Win:
      score = (kTbWin + e) * kTieScale;
      break;
    case egtb::Wdl::Loss:
      score = (-kTbWin + e) * kTieScale;
      break;
    default:
      score = two_part(value_of(draw_score(ply)), e);
  }
  return true;
}

bool Searcher::play_tablebase_root(const Position& root, SearchResult& result, const IterationCallback& on_iteration) {
  const egtb::Tablebases* tbs = options_.tablebases;
  if (!tbs || options_.multipv > 1 || root.castling_rights() != NO_CASTLING ||
      popcount(root.pieces()) > tbs->max_pieces())
    return false;
  std::optional<egtb::Tablebases::Choice> choice;
  try {
    choice = tbs->best_move(root);
  } catch (const egtb::EgtbError&) {
    return false;
  }
  if (!choice || choice->value.wdl == egtb::Wdl::Draw) return false;  // a draw is searched: the evaluation picks
  // The principal variation: both sides' database moves down to mate.
  std::vector<Move> pv;
  Position p = root;
  for (int i = 0; i < choice->value.plies && i < kMaxPly; ++i) {
    const auto c = tbs->best_move(p);
    if (!c) break;
    pv.push_back(c->move);
    p.make_move(c->move);
  }
  const int plies = choice->value.plies;
  const int score = choice->value.wdl == egtb::Wdl::Win ? kMate - plies : -kMate + plies;
  result.best = choice->move;
  result.score = score;
  result.tie = 0;
  result.depth = 1;
  result.pv = pv.empty() ? std::vector<Move>{choice->move} : pv;
  result.ponder = result.pv.size() > 1 ? result.pv[1] : Move::none();
  result.lines = {PvLine{result.best, score, result.pv, 0}};
  ++tb_hits_;
  if (on_iteration)
    on_iteration({1, 1, 0, score, nodes_, 0, elapsed_ms() / 1000, tt_.hashfull(), result.pv, result.lines});
  return true;
}

}  // namespace db::search
