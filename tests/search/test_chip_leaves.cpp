// The software search with the chips as its leaf searcher (AIJ 5): the answers, node counts and
// moves must not depend on the backend (model or verilated RTL) or on the number of chips, and the
// chips must find mates at the boundary with scores counted from the software's root.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <set>
#include <stdexcept>
#include <vector>

#include "chess/notation.h"
#include "chip/rtl_backend.h"
#include "search/chip_leaf_search.h"
#include "search/score.h"
#include "search/search.h"

namespace db::search {
namespace {

std::unique_ptr<ChipLeafSearch> make_chips(const std::string& backend, int chips, int depth) {
  std::vector<std::unique_ptr<chip::ChipClient>> clients;
  for (int i = 0; i < chips; ++i) clients.push_back(std::make_unique<chip::ChipClient>(chip::make_backend(backend)));
  return std::make_unique<ChipLeafSearch>(std::move(clients), depth);
}

struct ChipRun {
  SearchResult result;
  LeafStats chips;
};

ChipRun search_on_chips(const std::string& fen, int depth, const std::string& backend, int chips, int chip_depth,
                        int multipv = 1, bool keep_chip_answers = true) {
  TranspositionTable tt(8);
  SearchOptions options;
  options.multipv = multipv;
  options.keep_chip_answers = keep_chip_answers;
  Searcher searcher(tt, options);
  auto leaf = make_chips(backend, chips, chip_depth);
  searcher.set_leaf_search(leaf.get());
  Limits limits;
  limits.depth = depth;
  ChipRun run{searcher.run(Position::from_fen(fen), limits), leaf->stats()};
  return run;
}

// The software saw the same tree: same move, score, node counts and chip questions used.
void expect_same_tree(const ChipRun& a, const ChipRun& b) {
  EXPECT_EQ(a.result.best, b.result.best);
  EXPECT_EQ(a.result.score, b.result.score);
  EXPECT_EQ(a.result.nodes, b.result.nodes);
  EXPECT_EQ(a.chips.searches, b.chips.searches);
  EXPECT_EQ(a.chips.nodes, b.chips.nodes);
}

// Middlegame positions from the AIJ paper's section 4.2 and WAC.
const char* const kPositions[] = {
    "r1r1q1k1/6p1/3b1p1p/1p1PpP2/1Pp5/2P4P/R1B2QP1/R5K1 w - - 0 37",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w KQkq - 0 1",
};

TEST(ChipLeaves, SameTreeOnOneChipAndOnSeveral) {
  for (const char* fen : kPositions) {
    SCOPED_TRACE(fen);
    const ChipRun one = search_on_chips(fen, 5, "model", 1, 2);
    const ChipRun four = search_on_chips(fen, 5, "model", 4, 2);
    expect_same_tree(one, four);
    EXPECT_GT(one.chips.searches, 100u);
    // One chip never wastes a search; four run ahead and overlap in simulated time.
    EXPECT_EQ(one.chips.wasted_searches, 0u);
    EXPECT_GT(four.chips.wasted_searches, 0u);
    EXPECT_LE(one.chips.busy_clocks, one.chips.parallel_clocks);
    EXPECT_GT(four.chips.busy_clocks, four.chips.parallel_clocks);
  }
}

// The chips' answers kept for the search (search/chip_answers.h) spare questions the chips have
// already answered, whose answers the transposition table had lost, and change no result.
TEST(ChipLeaves, KeptAnswersSpareRepeatedQuestionsAndChangeNoResult) {
  std::uint64_t asked_with = 0, asked_without = 0;
  for (const char* fen : kPositions) {
    SCOPED_TRACE(fen);
    const ChipRun with = search_on_chips(fen, 6, "model", 1, 3);
    const ChipRun without = search_on_chips(fen, 6, "model", 1, 3, 1, false);
    EXPECT_EQ(with.result.best, without.result.best);
    EXPECT_EQ(with.result.score, without.result.score);
    EXPECT_LE(with.chips.searches, without.chips.searches);
    asked_with += with.chips.searches;
    asked_without += without.chips.searches;
  }
  EXPECT_LT(asked_with, asked_without);
}

TEST(ChipLeaves, SameMoveScoreAndNodesOnTheModelAndTheRtl) {
  for (const char* fen : {kPositions[0], kPositions[1]}) {
    SCOPED_TRACE(fen);
    const ChipRun model = search_on_chips(fen, 3, "model", 2, 2);
    const ChipRun rtl = search_on_chips(fen, 3, "rtl", 2, 2);
    expect_same_tree(model, rtl);
    EXPECT_EQ(model.chips.busy_clocks, rtl.chips.busy_clocks);  // and the same clocks
  }
}

TEST(ChipLeaves, MatesFoundByTheChipsScoreFromTheSoftwareRoot) {
  // Mate in one: the chip at ply 1 finds black without a legal move.
  const ChipRun m1 =
      search_on_chips("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 2, "model", 1, 2);
  EXPECT_EQ(move_to_uci(m1.result.best), "h5f7");
  EXPECT_EQ(m1.result.score, kMate - 1);
  // Mate in two (Stockfish 15.1: mate 2, d5f6 g7f6 c4f7): the mate lies inside the chip's search
  // two plies below its root at software ply 1, so kMate - 3 at the software's root.
  const ChipRun m2 =
      search_on_chips("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", 3, "model", 2, 2);
  EXPECT_EQ(move_to_uci(m2.result.best), "d5f6");
  EXPECT_EQ(m2.result.score, kMate - 3);
  EXPECT_EQ(mate_in_moves(m2.result.score), 2);
}

TEST(ChipLeaves, MultiPvLinesWithTheChipsAsLeaves) {
  // Two back-rank mates (a1a8, b1b8; Stockfish 15.1: mate 1, mate 1, then cp 738): with the last two
  // plies on the chips, lines 1 and 2 are the mates and line 3 is not.
  const ChipRun mates = search_on_chips("6k1/5ppp/8/8/8/8/8/RR4K1 w - - 0 1", 4, "model", 1, 2, 3);
  const auto& lines = mates.result.lines;
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0].score, kMate - 1);
  EXPECT_EQ(lines[1].score, kMate - 1);
  EXPECT_EQ((std::set<std::string>{move_to_uci(lines[0].move), move_to_uci(lines[1].move)}),
            (std::set<std::string>{"a1a8", "b1b8"}));
  EXPECT_FALSE(is_mate_score(lines[2].score));
  EXPECT_GT(lines[2].score, 300);
  EXPECT_GT(mates.chips.searches, 0u);
  // Three lines on one chip and on four: the same tree, and the same lines.
  for (const char* fen : {kPositions[0], kPositions[2]}) {
    SCOPED_TRACE(fen);
    const ChipRun one = search_on_chips(fen, 4, "model", 1, 2, 3);
    const ChipRun four = search_on_chips(fen, 4, "model", 4, 2, 3);
    expect_same_tree(one, four);
    ASSERT_EQ(one.result.lines.size(), 3u);
    ASSERT_EQ(four.result.lines.size(), 3u);
    std::set<std::uint16_t> moves;
    for (std::size_t i = 0; i < 3; ++i) {
      EXPECT_EQ(one.result.lines[i].move, four.result.lines[i].move);
      EXPECT_EQ(one.result.lines[i].score, four.result.lines[i].score);
      EXPECT_EQ(one.result.lines[i].pv, four.result.lines[i].pv);
      moves.insert(one.result.lines[i].move.raw());
      if (i > 0) {
        EXPECT_LE(one.result.lines[i].score, one.result.lines[i - 1].score);
      }
    }
    EXPECT_EQ(moves.size(), 3u);
    // More work than one line.
    EXPECT_GT(one.result.nodes, search_on_chips(fen, 4, "model", 1, 2).result.nodes);
  }
}

TEST(ChipLeaves, HistoryReachesTheChipsRepetitionDetector) {
  // Black without a queen: after 1.Nf3 Nf6 2.Ng1 (the software's path), 2...Ng8 repeats the start
  // and saves black with a draw, which the chip sees only if the host loaded the path as history.
  Position pos = Position::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  std::vector<Move> path;
  for (const char* uci : {"g1f3", "g8f6", "f3g1"}) {
    path.push_back(parse_uci(pos, uci));
    pos.make_move(path.back());
  }
  const std::vector<Move> cut(path.size(), Move::none());  // the same position after null moves
  auto chips = make_chips("model", 1, 2);
  chips->new_search(pos, false);
  for (int depth : {1, 2}) {
    SCOPED_TRACE(depth);
    EXPECT_TRUE(chips->test(pos, path.data(), 3, depth, 0));                  // the draw
    EXPECT_FALSE(chips->test(pos, cut.data(), 3, depth, two_part(-500, 0)));  // a queen down
  }
}

TEST(ChipLeaves, RepetitionsScoreOnTheSoftwaresScale) {
  // The same draw as above, asked at software ply 3 (black to move): 2...Ng8 repeats the start at
  // ply 4. The software gives that draw the tie-breaker 128 - 4 = 124 from its root side's (white's)
  // view, + when it strives for draws, - when it avoids them; black at ply 3 sees it negated. The
  // chips must give the same pair, so the question's test tie-breaker decides exactly there.
  Position pos = Position::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  std::vector<Move> path;
  for (const char* uci : {"g1f3", "g8f6", "f3g1"}) {
    path.push_back(parse_uci(pos, uci));
    pos.make_move(path.back());
  }
  const int tie = kMaxTie + 1 - 4;
  for (const std::string backend : {"model", "rtl"}) {
    for (bool strive : {false, true}) {
      SCOPED_TRACE(backend + (strive ? " strive" : " avoid"));
      auto chips = make_chips(backend, 1, 2);
      chips->new_search(pos, strive);
      const int black_tie = strive ? -tie : tie;  // the draw from black's view
      EXPECT_TRUE(chips->test(pos, path.data(), 3, 2, two_part(0, black_tie)));
      EXPECT_FALSE(chips->test(pos, path.data(), 3, 2, two_part(0, black_tie + 1)));
    }
  }
}

TEST(ChipLeaves, SimulatedChipTimeLimitsTheSearch) {
  // 20 ms of the 1997 chip's time (480,000 clocks at 24 MHz) on two chips: the search stops once
  // the chips' timeline passes it, a chip question at most later, and repeats exactly.
  auto run = [] {
    TranspositionTable tt(8);
    Searcher searcher(tt);
    auto leaf = make_chips("model", 2, 2);
    searcher.set_leaf_search(leaf.get());
    Limits limits;
    limits.chip_movetime_ms = 20;
    return searcher.run(Position::from_fen(kPositions[0]), limits);
  };
  const SearchResult a = run();
  const double budget = 20 * kChipClockHz / 1000;
  EXPECT_GE(double(a.leaf.parallel_clocks), budget);
  EXPECT_LT(double(a.leaf.parallel_clocks), 2 * budget);
  EXPECT_GE(a.depth, 1);
  EXPECT_FALSE(a.best.is_none());
  const SearchResult b = run();
  EXPECT_EQ(a.best, b.best);
  EXPECT_EQ(a.nodes, b.nodes);
  EXPECT_EQ(a.leaf.parallel_clocks, b.leaf.parallel_clocks);
}

TEST(ChipLeaves, HardwareSearchParametersReachTheChips) {
  // Quiescence checks and root offset tests on the chips change what they search; the answers
  // still do not depend on the number of chips.
  auto run = [](int chips, bool offsets) {
    std::vector<std::unique_ptr<chip::ChipClient>> clients;
    for (int i = 0; i < chips; ++i) clients.push_back(std::make_unique<chip::ChipClient>(chip::make_backend("model")));
    chip::SearchParams params;
    params.mating_checks = params.singular_checks = offsets ? 1 : 0;
    params.offset_singular = params.offset_binary = offsets;
    ChipLeafSearch leaf(std::move(clients), 2, params);
    TranspositionTable tt(8);
    Searcher searcher(tt);
    searcher.set_leaf_search(&leaf);
    Limits limits;
    limits.depth = 5;
    return ChipRun{searcher.run(Position::from_fen(kPositions[0]), limits), leaf.stats()};
  };
  const ChipRun plain = run(1, false);
  const ChipRun one = run(1, true);
  const ChipRun three = run(3, true);
  EXPECT_NE(plain.chips.nodes, one.chips.nodes);
  expect_same_tree(one, three);
}

TEST(ChipLeaves, BadConfigurationsAreRejected) {
  EXPECT_THROW(ChipLeafSearch(std::vector<std::unique_ptr<chip::ChipClient>>{}, 2), std::invalid_argument);
  EXPECT_THROW(make_chips("model", 1, 0), std::invalid_argument);
  EXPECT_THROW(make_chips("model", 1, 9), std::invalid_argument);
  EXPECT_THROW(make_chips("fpga", 1, 2), std::invalid_argument);
  // A timeline's status masks have a bit per chip: at most ChipTimeline::kMaxChips chips.
  struct Clockless final : ChipTimeline {
    std::uint64_t now_clocks() const override { return 0; }
    void host_computes(std::uint64_t /*clocks*/) override {}
  };
  auto clients = [](std::size_t n) {
    std::vector<std::unique_ptr<chip::ChipClient>> c;
    for (std::size_t i = 0; i < n; ++i) c.push_back(std::make_unique<chip::ChipClient>(chip::make_backend("model")));
    return c;
  };
  const auto timeline = std::make_shared<Clockless>();
  EXPECT_NO_THROW(ChipLeafSearch(clients(ChipTimeline::kMaxChips), 2, chip::SearchParams{}, timeline));
  EXPECT_THROW(ChipLeafSearch(clients(ChipTimeline::kMaxChips + 1), 2, chip::SearchParams{}, timeline),
               std::invalid_argument);
}

}  // namespace
}  // namespace db::search
