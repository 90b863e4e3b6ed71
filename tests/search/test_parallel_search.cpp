// The parallel software search (AIJ 6, parallel_split.cpp): K workers sharing the root's moves and
// the chips, scheduled one at a time in simulated time. It must find the right moves, repeat
// exactly run to run, leave the 1-worker search unchanged, and take less simulated time than one
// worker on the same chips (a count of chip clocks, not a timing).
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "chess/notation.h"
#include "chip/rtl_backend.h"
#include "search/chip_leaf_search.h"
#include "search/score.h"
#include "search/search.h"

namespace db::search {
namespace {

struct Outcome {
  SearchResult result;
  LeafStats chips;
};

Outcome search(const std::string& fen, int depth, int chips, int chip_depth, int workers, int multipv = 1,
               std::uint32_t node_limit = 0, bool overlap_iterations = false) {
  TranspositionTable tt(8);
  SearchOptions options;
  options.workers = workers;
  options.multipv = multipv;
  options.overlap_iterations = overlap_iterations;
  Searcher searcher(tt, options);
  std::vector<std::unique_ptr<chip::ChipClient>> clients;
  for (int i = 0; i < chips; ++i) clients.push_back(std::make_unique<chip::ChipClient>(chip::make_backend("model")));
  ChipLeafSearch leaf(std::move(clients), chip_depth);
  leaf.set_node_limit(node_limit);
  searcher.set_leaf_search(&leaf);
  Limits limits;
  limits.depth = depth;
  Outcome out{searcher.run(Position::from_fen(fen), limits), leaf.stats()};
  return out;
}

const char* const kMiddlegame = "r1r1q1k1/6p1/3b1p1p/1p1PpP2/1Pp5/2P4P/R1B2QP1/R5K1 w - - 0 37";  // AIJ 4.2, 1

TEST(ParallelSearch, WorkersFindTheMates) {
  for (int workers : {2, 4}) {
    const Outcome m1 = search("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 3, 4, 2, workers);
    EXPECT_EQ(move_to_uci(m1.result.best), "h5f7") << workers;
    EXPECT_EQ(m1.result.score, kMate - 1) << workers;
    // Mate in two (Stockfish 15.1: mate 2, d5f6 g7f6 c4f7).
    const Outcome m2 = search("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", 4, 4, 2, workers);
    EXPECT_EQ(move_to_uci(m2.result.best), "d5f6") << workers;
    EXPECT_EQ(m2.result.score, kMate - 3) << workers;
  }
}

TEST(ParallelSearch, FourWorkersRepeatExactly) {
  const Outcome a = search(kMiddlegame, 6, 8, 3, 4);
  const Outcome b = search(kMiddlegame, 6, 8, 3, 4);
  EXPECT_FALSE(a.result.best.is_none());
  EXPECT_EQ(a.result.best, b.result.best);
  EXPECT_EQ(a.result.score, b.result.score);
  EXPECT_EQ(a.result.nodes, b.result.nodes);
  EXPECT_EQ(a.chips.searches, b.chips.searches);
  EXPECT_EQ(a.chips.parallel_clocks, b.chips.parallel_clocks);
  EXPECT_LT(std::abs(a.result.score), 1000);  // a sane score in a balanced middlegame
}

TEST(ParallelSearch, ARootMoveFailingHighHoldsBackTheOthers) {
  // At depth 6 the best move changes within an iteration: a root move after the first fails high.
  // The helpers searching other root moves against the old alpha stop and give them back, to be
  // searched against the alpha its re-search sets, as the sequential loop searches them; the
  // answer is the sequential search's, and the run repeats exactly.
  const Outcome one = search(kMiddlegame, 6, 8, 3, 1);
  const Outcome four = search(kMiddlegame, 6, 8, 3, 4);
  EXPECT_EQ(one.result.root_moves_given_back, 0u);
  EXPECT_GT(four.result.root_moves_given_back, 0u);
  EXPECT_EQ(four.result.best, one.result.best);
  EXPECT_EQ(four.result.score, one.result.score);
  const Outcome again = search(kMiddlegame, 6, 8, 3, 4);
  EXPECT_EQ(again.result.root_moves_given_back, four.result.root_moves_given_back);
  EXPECT_EQ(again.result.nodes, four.result.nodes);
}

TEST(ParallelSearch, TheNextIterationsFirstMoveStartsInTheLastOnesTail) {
  // Overlapped iterations: once an iteration's root has handed out its last move, a free worker
  // searches the best move so far one ply deeper with the full window; the next iteration takes
  // that score when its first move is the same (and stops the search when it is not). The answer
  // is the one without overlap, and the run repeats exactly.
  const Outcome with = search(kMiddlegame, 5, 8, 3, 8, 1, 0, true);
  const Outcome without = search(kMiddlegame, 5, 8, 3, 8);
  EXPECT_GT(with.result.early_first_moves, 0u);
  // Here the best move changes after its early search began (a root move failing high in the
  // tail, or the next iteration's first move another): that search is dropped, its score unused.
  EXPECT_GT(with.result.early_first_moves_dropped, 0u);
  EXPECT_EQ(without.result.early_first_moves + without.result.early_first_moves_dropped, 0u);
  EXPECT_EQ(with.result.best, without.result.best);
  EXPECT_EQ(with.result.score, without.result.score);
  const Outcome again = search(kMiddlegame, 5, 8, 3, 8, 1, 0, true);
  EXPECT_EQ(again.result.early_first_moves, with.result.early_first_moves);
  EXPECT_EQ(again.result.early_first_moves_dropped, with.result.early_first_moves_dropped);
  EXPECT_EQ(again.result.nodes, with.result.nodes);
  EXPECT_EQ(again.chips.parallel_clocks, with.chips.parallel_clocks);
  // One worker has no helper to search ahead.
  EXPECT_EQ(search(kMiddlegame, 5, 8, 3, 1, 1, 0, true).result.early_first_moves, 0u);
}

TEST(ParallelSearch, OneWorkerIsTheSequentialSearch) {
  // workers = 1 takes no part of the parallel code: same tree as a search that never heard of it.
  const Outcome a = search(kMiddlegame, 6, 4, 3, 1);
  TranspositionTable tt(8);
  Searcher searcher(tt);  // default options
  std::vector<std::unique_ptr<chip::ChipClient>> clients;
  for (int i = 0; i < 4; ++i) clients.push_back(std::make_unique<chip::ChipClient>(chip::make_backend("model")));
  ChipLeafSearch leaf(std::move(clients), 3);
  searcher.set_leaf_search(&leaf);
  Limits limits;
  limits.depth = 6;
  const SearchResult b = searcher.run(Position::from_fen(kMiddlegame), limits);
  EXPECT_EQ(a.result.best, b.best);
  EXPECT_EQ(a.result.score, b.score);
  EXPECT_EQ(a.result.nodes, b.nodes);
  EXPECT_EQ(a.chips.parallel_clocks, leaf.stats().parallel_clocks);
  // More workers than chips: as many workers as chips.
  EXPECT_EQ(search(kMiddlegame, 4, 1, 3, 4).result.nodes, search(kMiddlegame, 4, 1, 3, 1).result.nodes);
}

TEST(ParallelSearch, MultiPvLinesWithWorkers) {
  // Each MultiPV line splits its root moves too: three distinct lines, best first, line 1 played.
  const Outcome out = search(kMiddlegame, 6, 8, 3, 4, 3);
  ASSERT_EQ(out.result.lines.size(), 3u);
  EXPECT_EQ(out.result.lines[0].move, out.result.best);
  EXPECT_NE(out.result.lines[0].move, out.result.lines[1].move);
  EXPECT_NE(out.result.lines[1].move, out.result.lines[2].move);
  EXPECT_NE(out.result.lines[0].move, out.result.lines[2].move);
  EXPECT_GE(out.result.lines[0].score, out.result.lines[1].score);
  EXPECT_GE(out.result.lines[1].score, out.result.lines[2].score);
}

TEST(ParallelSearch, MoreWorkersTakeLessSimulatedTimeOnSixteenChips) {
  const Outcome one = search(kMiddlegame, 7, 16, 4, 1);
  const Outcome four = search(kMiddlegame, 7, 16, 4, 4);
  EXPECT_LT(four.chips.parallel_clocks, one.chips.parallel_clocks);
  EXPECT_GT(four.chips.busy_clocks / double(four.chips.parallel_clocks),
            one.chips.busy_clocks / double(one.chips.parallel_clocks));
  EXPECT_FALSE(four.result.best.is_none());
}

TEST(ParallelSearch, HelpersSplitTheirOwnNodes) {
  // The job engine (AIJ 6.1): not only the master's PV nodes split. With two software plies above
  // the chips' (depth 6, chip depth 2) a helper's node whose first move did not cut off shares its
  // other moves with the free workers, and the search still finds the sequential search's move.
  const Outcome one = search(kMiddlegame, 6, 8, 2, 1);
  const Outcome four = search(kMiddlegame, 6, 8, 2, 4);
  EXPECT_EQ(one.result.splits, 0u);
  EXPECT_GT(four.result.splits, four.result.helper_splits);
  EXPECT_GT(four.result.helper_splits, 0u);
  EXPECT_EQ(four.result.best, one.result.best);
  EXPECT_LT(four.chips.parallel_clocks, one.chips.parallel_clocks);
  // Where the workers' time went: the sequential search never waits on other workers; four workers
  // wait (for answers, work, helpers), never more than four at a time.
  EXPECT_EQ(one.result.wait_work_clocks + one.result.wait_helpers_clocks, 0u);
  const std::uint64_t waited =
      four.result.wait_answer_clocks + four.result.wait_work_clocks + four.result.wait_helpers_clocks;
  EXPECT_GT(four.result.wait_work_clocks, 0u);
  EXPECT_LE(waited, 4 * four.chips.parallel_clocks);
  const Outcome again = search(kMiddlegame, 6, 8, 2, 4);  // and it repeats exactly
  EXPECT_EQ(again.result.nodes, four.result.nodes);
  EXPECT_EQ(again.result.helper_splits, four.result.helper_splits);
}

TEST(ParallelSearch, HardwareSearchesPastTheNodeLimitAreSplitInSoftware) {
  // AIJ 6.1: a chip search over the limit is aborted and its node searched one ply deeper in
  // software. The overflows are counted, their nodes wasted, and the answers stay right.
  const Outcome plain = search(kMiddlegame, 6, 4, 3, 1);
  const Outcome limited = search(kMiddlegame, 6, 4, 3, 1, 1, 400);
  EXPECT_EQ(plain.chips.overflows, 0u);
  EXPECT_GT(limited.chips.overflows, 0u);
  EXPECT_GE(limited.chips.wasted_searches, limited.chips.overflows);
  EXPECT_EQ(limited.result.best, plain.result.best);
  // A node known to pass the limit (it did, or one ply less took a third of it) is searched in
  // software at once when it comes again (a re-search, the next iteration).
  EXPECT_EQ(plain.result.too_big_for_chips, 0u);
  EXPECT_GT(limited.result.too_big_for_chips, 0u);
  for (int workers : {1, 4}) {
    const Outcome m2 =
        search("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", 4, 4, 3, workers, 1, 50);
    EXPECT_GT(m2.chips.overflows, 0u) << workers;
    EXPECT_EQ(move_to_uci(m2.result.best), "d5f6") << workers;
    EXPECT_EQ(m2.result.score, kMate - 3) << workers;
  }
}

TEST(ParallelSearch, AChildPastTheNodeLimitIsSharedOut) {
  // A node whose children go to the chips asks them ahead on idle chips and does not split; but a
  // child whose hardware search passed the node limit is a software search of its own, which the
  // node's owner would search alone while the other workers wait. Depth 6 on chip depth 4: the
  // only nodes with software children are the root (shared out, but not counted as a node split)
  // and, through overflows, the nodes at one ply.
  const Outcome plain = search(kMiddlegame, 6, 8, 4, 4);
  const Outcome limited = search(kMiddlegame, 6, 8, 4, 4, 1, 400);
  const Outcome sequential = search(kMiddlegame, 6, 8, 4, 1, 1, 400);
  EXPECT_EQ(plain.result.splits, 0u);
  EXPECT_GT(limited.chips.overflows, 0u);
  EXPECT_GT(limited.result.splits, 0u);
  EXPECT_EQ(limited.result.best, sequential.result.best);
  EXPECT_LT(limited.chips.parallel_clocks, sequential.chips.parallel_clocks);
  const Outcome again = search(kMiddlegame, 6, 8, 4, 4, 1, 400);  // and it repeats exactly
  EXPECT_EQ(again.result.nodes, limited.result.nodes);
  EXPECT_EQ(again.result.splits, limited.result.splits);
}

TEST(ParallelSearch, OffsetSearchesInSoftwareAreSharedOut) {
  // AIJ 6.1: the credit's offset searches run in parallel. Where they are software searches
  // (depth - 3 above the chips' depth: depth 6 on chip depth 2 at the root and one ply down) the
  // workers share them, and the count that decides the credit does not depend on their order.
  const Outcome one = search(kMiddlegame, 6, 8, 2, 1);
  const Outcome four = search(kMiddlegame, 6, 8, 2, 4);
  EXPECT_EQ(one.result.offset_splits, 0u);
  EXPECT_GT(four.result.offset_splits, 0u);
  EXPECT_LE(four.result.offset_splits, four.result.splits);
  EXPECT_EQ(four.result.best, one.result.best);
}

}  // namespace
}  // namespace db::search
