// The software search finds forced mates and wins material in positions from outside sources.
#include <gtest/gtest.h>

#include "chess/epd.h"
#include "chess/notation.h"
#include "search/score.h"
#include "search/search.h"

namespace db::search {
namespace {

SearchResult search_depth(const std::string& fen, int depth) {
  TranspositionTable tt(8);
  Searcher searcher(tt);
  Limits limits;
  limits.depth = depth;
  return searcher.run(Position::from_fen(fen), limits);
}

TEST(Search, FindsMateInOne) {
  const auto r = search_depth("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 3);
  EXPECT_EQ(move_to_uci(r.best), "h5f7");
  EXPECT_EQ(mate_in_moves(r.score), 1);
}

TEST(Search, FindsMateInTwo) {
  // 1.Nf6+ gxf6 2.Bxf7# (Stockfish 15.1: "score mate 2 ... pv d5f6 g7f6 c4f7").
  const auto r = search_depth("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", 5);
  EXPECT_EQ(move_to_uci(r.best), "d5f6");
  EXPECT_EQ(mate_in_moves(r.score), 2);
}

TEST(Search, QuietChecksInTheQuiescenceSearchSeeAMateBeyondTheHorizon) {
  // White to move has only a2-a3 and a2-a4; black then mates with a quiet queen check (Qc1# or
  // Qc6#). At depth 1 only the quiescence search can see it, and only with its quiet checks.
  const Position pos = Position::from_fen("8/2q5/8/8/8/7p/P4k1P/7K w - - 0 1");
  for (bool dual : {false, true}) {
    TranspositionTable tt(8);
    SearchOptions options;
    options.dual_credit = dual;
    Limits limits;
    limits.depth = 1;
    options.quiescence_checks = 1;
    const SearchResult with = Searcher(tt, options).run(pos, limits);
    EXPECT_EQ(with.score, -kMate + 2) << dual;  // mated at ply 2
    tt.clear();
    options.quiescence_checks = 0;
    const SearchResult without = Searcher(tt, options).run(pos, limits);
    EXPECT_FALSE(is_mate_score(without.score)) << dual;
    EXPECT_LT(without.score, -500) << dual;  // a queen down
  }
}

TEST(Search, RecognisesBeingMatedAndStalemate) {
  const auto mated = search_depth("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", 3);
  EXPECT_TRUE(mated.best.is_none());
  EXPECT_EQ(mated.score, -kMate);
  const auto stale = search_depth("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 3);
  EXPECT_TRUE(stale.best.is_none());
  EXPECT_EQ(stale.score, 0);
}

TEST(Search, RookPawnWithTheDefenderInTheCornerIsADraw) {
  // k7/8/8/P1K5/8/8/8/8 w: a textbook draw (Stockfish 15.1: cp 0). The defender must shuffle; with
  // "no progress" pruning on, those waiting moves are pruned and the search reports a win.
  const auto r = search_depth("k7/8/8/P1K5/8/8/8/8 w - - 0 1", 14);
  EXPECT_EQ(r.score, 0);
  TranspositionTable tt(8);
  SearchOptions pruning;
  pruning.no_progress = true;
  Searcher searcher(tt, pruning);
  Limits limits;
  limits.depth = 14;
  EXPECT_GT(searcher.run(Position::from_fen("k7/8/8/P1K5/8/8/8/8 w - - 0 1"), limits).score, 500);
}

TEST(Search, ContemptMakesADrawLookBadForTheRootSide) {
  // King against king is a draw by the rules; contempt 30 makes the root side score it -30.
  TranspositionTable tt(8);
  SearchOptions options;
  options.contempt = 30;
  Searcher searcher(tt, options);
  Limits limits;
  limits.depth = 12;
  EXPECT_EQ(searcher.run(Position::from_fen("8/8/8/4k3/8/8/8/4K3 w - - 0 1"), limits).score, -30);
  EXPECT_EQ(searcher.run(Position::from_fen("8/8/8/4k3/8/8/8/4K3 b - - 0 1"), limits).score, -30);
}

TEST(Search, RespectsNodeLimit) {
  TranspositionTable tt(8);
  Searcher searcher(tt);
  Limits limits;
  limits.nodes = 20000;
  const auto r = searcher.run(Position(), limits);
  EXPECT_LE(r.nodes, 20000u + 1);
  EXPECT_FALSE(r.best.is_none());
}

TEST(Search, SolvesEasyWinAtChessPositions) {
  // The first ten positions of Win At Chess (Reinfeld, revised by Arasan): a depth-6 software search
  // with the interim evaluation solves most of them; we require at least six.
  const auto records = read_epd_file(std::string(DB_SHARED_DATA_DIR) + "/wac.epd", FenMode::Lenient);
  ASSERT_GE(records.size(), 10u);
  int solved = 0;
  for (int i = 0; i < 10; ++i) {
    const EpdRecord& rec = records[i];
    const std::string* bm = rec.find("bm");
    ASSERT_NE(bm, nullptr);
    const auto r = search_depth(rec.position.fen(), 6);
    const std::string san = move_to_san(rec.position, r.best);
    const bool ok = bm->find(san.substr(0, san.find_first_of("+#"))) != std::string::npos;
    solved += ok;
  }
  EXPECT_GE(solved, 6);
}

TEST(Search, StaticExchangeSavesNodesAndSolvesAsMuch) {
  // Win At Chess 1-20 at depth 5: skipping the losing captures and checks in the quiescence search
  // (and trying losing captures late) must not cost solutions, and must save nodes.
  const auto records = read_epd_file(std::string(DB_SHARED_DATA_DIR) + "/wac.epd", FenMode::Lenient);
  ASSERT_GE(records.size(), 20u);
  int solved[2] = {0, 0};
  std::uint64_t nodes[2] = {0, 0};
  for (int see = 0; see < 2; ++see) {
    SearchOptions options;
    options.static_exchange = see == 1;
    for (int i = 0; i < 20; ++i) {
      const EpdRecord& rec = records[std::size_t(i)];
      TranspositionTable tt(8);
      Limits limits;
      limits.depth = 5;
      const SearchResult r = Searcher(tt, options).run(rec.position, limits);
      const std::string san = move_to_san(rec.position, r.best);
      solved[see] += rec.find("bm")->find(san.substr(0, san.find_first_of("+#"))) != std::string::npos;
      nodes[see] += r.nodes;
    }
  }
  EXPECT_GE(solved[1], solved[0]);
  EXPECT_LT(double(nodes[1]), 0.85 * double(nodes[0])) << nodes[1] << " against " << nodes[0];
}

}  // namespace
}  // namespace db::search
