// The search with endgame databases (AIJ 8.3, docs/egtb.md): a won root is played by distance to
// mate, line by line down to the mate; captures into a won ending score the databases' high part;
// a drawn root is searched and scores the draw.
#include <gtest/gtest.h>

#include "chess/movegen.h"
#include "chess/notation.h"
#include "egtb/generator.h"
#include "egtb/tablebases.h"
#include "egtb/verify.h"
#include "search/search.h"

namespace db::search {
namespace {

const egtb::Tablebases& three_pieces() {
  static const egtb::Tablebases* tbs = [] {
    auto* t = new egtb::Tablebases;  // lives as long as the test program
    for (const egtb::Material& m : egtb::all_materials(3)) t->add(egtb::generate(m, *t));
    return t;
  }();
  return *tbs;
}

SearchResult search(const Position& pos, int depth, const egtb::Tablebases* tbs) {
  TranspositionTable tt(8);
  SearchOptions options;
  options.tablebases = tbs;
  Searcher searcher(tt, options);
  Limits limits;
  limits.depth = depth;
  return searcher.run(pos, limits);
}

TEST(SearchEgtb, AWonRootIsPlayedOutByDistanceToMate) {
  const egtb::Tablebases& tbs = three_pieces();
  for (const char* name : {"KQvK", "KRvK", "KPvK"}) {
    int played = 0;
    const egtb::Table& t = *tbs.find(egtb::Material::parse(name));
    egtb::Board b;
    for (std::uint64_t i = 0; played < 15 && i < t.layout.size(); i += t.layout.size() / 997) {
      if (!t.layout.decode(i, b) || egtb::Value::from_code(t.entries[i]).wdl != egtb::Wdl::Win) continue;
      ++played;
      Position pos = Position::from_fen(egtb::board_fen(b));
      const egtb::Value start = *tbs.probe(pos);
      const SearchResult r = search(pos, 4, &tbs);
      ASSERT_TRUE(r.tb_root) << pos.fen();
      EXPECT_EQ(r.score, kMate - start.plies) << pos.fen();
      ASSERT_EQ(int(r.pv.size()), start.plies) << pos.fen();
      // Each move of the line keeps the value and takes one ply off the distance; it ends in mate.
      for (int ply = 0; ply < start.plies; ++ply) {
        ASSERT_TRUE(pos.is_legal(r.pv[std::size_t(ply)])) << pos.fen();
        pos.make_move(r.pv[std::size_t(ply)]);
        const egtb::Value v = *tbs.probe(pos);
        ASSERT_EQ(v.plies, start.plies - ply - 1) << pos.fen();
      }
      EXPECT_TRUE(pos.is_checkmate()) << pos.fen();
    }
    EXPECT_EQ(played, 15) << name << ": won positions found";
  }
}

TEST(SearchEgtb, ACaptureIntoAWonEndingScoresTheHighPart) {
  const egtb::Tablebases& tbs = three_pieces();
  const Position pos = Position::from_fen("8/8/8/3k4/8/2n5/8/Q3K3 w - - 0 1");  // KQvKN: Qxc3 leaves KQvK
  const SearchResult with = search(pos, 3, &tbs);
  EXPECT_FALSE(with.tb_root);
  EXPECT_GT(with.tb_hits, 0u);
  EXPECT_EQ(move_to_uci(with.best), "a1c3");
  EXPECT_GE(with.score, kTbWin - kTbEvalRange);
  const SearchResult without = search(pos, 3, nullptr);
  EXPECT_EQ(without.tb_hits, 0u);
  EXPECT_LT(without.score, kTbWin - kTbEvalRange);
}

TEST(SearchEgtb, ADrawnRootIsSearchedAndScoresTheDraw) {
  const egtb::Tablebases& tbs = three_pieces();
  const Position pos = Position::from_fen("k7/8/1K6/P7/8/8/8/8 w - - 0 1");  // a rook's pawn: drawn
  ASSERT_EQ(tbs.probe(pos)->wdl, egtb::Wdl::Draw);
  const SearchResult r = search(pos, 6, &tbs);
  EXPECT_FALSE(r.tb_root);
  EXPECT_GT(r.tb_hits, 0u);
  EXPECT_EQ(r.score, 0);
  EXPECT_GT(r.tie, 0);  // the pawn's side stands better in its draw: the evaluation is the tie-breaker
}

}  // namespace
}  // namespace db::search
