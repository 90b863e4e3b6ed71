// MultiPV: the best k root moves, each with an exact score and its own principal variation.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "chess/movegen.h"
#include "chess/notation.h"
#include "search/score.h"
#include "search/search.h"

namespace db::search {
namespace {

struct MultiPvRun {
  SearchResult result;
  std::vector<IterationInfo> iterations;
};

MultiPvRun search_lines(const std::string& fen, int depth, int multipv, bool dual_credit = true) {
  TranspositionTable tt(8);
  SearchOptions options;
  options.multipv = multipv;
  options.dual_credit = dual_credit;
  Searcher searcher(tt, options);
  Limits limits;
  limits.depth = depth;
  MultiPvRun run;
  run.result =
      searcher.run(Position::from_fen(fen), limits, [&](const IterationInfo& info) { run.iterations.push_back(info); });
  return run;
}

// The moves that mate at once, found by the move generator and the mate test (not by the search).
std::set<std::string> mates_in_one(const std::string& fen) {
  Position pos = Position::from_fen(fen);
  MoveList moves;
  generate_legal(pos, moves);
  std::set<std::string> mates;
  for (Move m : moves) {
    pos.make_move(m);
    if (pos.is_checkmate()) mates.insert(move_to_uci(m));
    pos.unmake_move(m);
  }
  return mates;
}

std::size_t legal_move_count(const std::string& fen) {
  MoveList moves;
  generate_legal(Position::from_fen(fen), moves);
  return moves.size();
}

// Every line: a legal root move, distinct from the others, its PV a legal sequence starting with it;
// the scores do not increase from line to line.
void expect_well_formed(const std::string& fen, const std::vector<PvLine>& lines) {
  const Position root = Position::from_fen(fen);
  std::set<std::uint32_t> seen;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    SCOPED_TRACE("line " + std::to_string(i + 1));
    const PvLine& l = lines[i];
    EXPECT_TRUE(root.is_legal(l.move));
    EXPECT_TRUE(seen.insert(l.move.raw()).second) << "repeated move " << move_to_uci(l.move);
    ASSERT_FALSE(l.pv.empty());
    EXPECT_EQ(l.pv[0], l.move);
    Position pos = root;
    for (Move m : l.pv) {
      ASSERT_TRUE(pos.is_legal(m)) << move_to_uci(m);
      pos.make_move(m);
    }
    if (i > 0) {
      EXPECT_LE(l.score, lines[i - 1].score);
    }
  }
}

// Two rooks, two back-rank mates: a1a8 and b1b8 (Stockfish 15.1, MultiPV 4, depth 10: "multipv 1
// score mate 1 pv a1a8", "multipv 2 score mate 1 pv b1b8", then cp 738 and cp 722).
const char* const kTwoMates = "6k1/5ppp/8/8/8/8/8/RR4K1 w - - 0 1";

TEST(MultiPv, TwoMatesInOneAreTheFirstTwoLines) {
  const std::set<std::string> mates = mates_in_one(kTwoMates);
  ASSERT_EQ(mates, (std::set<std::string>{"a1a8", "b1b8"}));
  for (bool dual_credit : {true, false}) {
    SCOPED_TRACE(dual_credit ? "dual credit" : "plain NegaScout");
    const MultiPvRun run = search_lines(kTwoMates, 4, 3, dual_credit);
    const auto& lines = run.result.lines;
    ASSERT_EQ(lines.size(), 3u);
    expect_well_formed(kTwoMates, lines);
    EXPECT_EQ(lines[0].score, kMate - 1);
    EXPECT_EQ(lines[1].score, kMate - 1);
    EXPECT_EQ((std::set<std::string>{move_to_uci(lines[0].move), move_to_uci(lines[1].move)}), mates);
    EXPECT_FALSE(is_mate_score(lines[2].score)) << lines[2].score;
    EXPECT_EQ(mates.count(move_to_uci(lines[2].move)), 0u);
    // A rook up after the third-best move (Stockfish: +7).
    EXPECT_GT(lines[2].score, 300);
    EXPECT_EQ(run.result.best, lines[0].move);
    EXPECT_EQ(run.result.score, lines[0].score);
    EXPECT_EQ(run.result.pv, lines[0].pv);
  }
}

// King and rook against king, all 20 moves ranked: every line's score is exact, not only line 1's.
// Mate distances from Stockfish 15.1 (MultiPV 40 at depth 16 for mates in 1 and 2; for the others
// "go depth 22-24" after the move, since its MultiPV lines reported some longer mates than exist):
// h1h8 mates in 1; eleven moves mate in 2; five in 3; b6b5, b6a5, b6c5 in 5, 6 and 7.
TEST(MultiPv, AllMovesRankedWithExactMateDistances) {
  const char* fen = "k7/8/1K6/8/8/8/8/7R w - - 0 1";
  const std::set<std::string> in_two = {"h1d1", "b6c7", "h1g1", "h1h6", "h1h2", "h1h3",
                                        "h1h7", "h1h5", "h1e1", "h1h4", "h1f1"};
  const std::set<std::string> in_three = {"h1a1", "h1b1", "h1c1", "b6a6", "b6c6"};
  const std::set<std::string> longer = {"b6b5", "b6a5", "b6c5"};
  ASSERT_EQ(legal_move_count(fen), 20u);
  for (bool dual_credit : {true, false}) {
    SCOPED_TRACE(dual_credit ? "dual credit" : "plain NegaScout");
    const auto lines = search_lines(fen, 5, 20, dual_credit).result.lines;
    ASSERT_EQ(lines.size(), 20u);
    expect_well_formed(fen, lines);
    auto moves_of = [&](std::size_t from, std::size_t to) {
      std::set<std::string> out;
      for (std::size_t i = from; i < to; ++i) out.insert(move_to_uci(lines[i].move));
      return out;
    };
    EXPECT_EQ(move_to_uci(lines[0].move), "h1h8");
    EXPECT_EQ(lines[0].score, kMate - 1);
    EXPECT_EQ(moves_of(1, 12), in_two);
    for (std::size_t i = 1; i < 12; ++i) EXPECT_EQ(lines[i].score, kMate - 3) << move_to_uci(lines[i].move);
    EXPECT_EQ(moves_of(12, 17), in_three);
    for (std::size_t i = 12; i < 17; ++i) EXPECT_EQ(lines[i].score, kMate - 5) << move_to_uci(lines[i].move);
    EXPECT_EQ(moves_of(17, 20), longer);
    for (std::size_t i = 17; i < 20; ++i) EXPECT_LT(lines[i].score, kMate - 5) << move_to_uci(lines[i].move);
  }
}

TEST(MultiPv, EveryIterationReportsTheLines) {
  const char* fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10";
  const MultiPvRun run = search_lines(fen, 5, 4);
  ASSERT_EQ(run.iterations.size(), 5u);
  for (const IterationInfo& info : run.iterations) {
    SCOPED_TRACE("depth " + std::to_string(info.depth));
    ASSERT_EQ(info.lines.size(), 4u);
    expect_well_formed(fen, info.lines);
    EXPECT_EQ(info.lines[0].score, info.score);
    EXPECT_EQ(info.lines[0].pv, info.pv);
  }
  EXPECT_EQ(run.result.lines.size(), 4u);
  EXPECT_EQ(run.result.lines[3].move, run.iterations.back().lines[3].move);
}

// Line 1 of a MultiPV search is the move and score of the ordinary search at the same depth (on
// these positions: the extra lines change the table and the move order, so this is not a law).
TEST(MultiPv, LineOneIsTheSinglePvResult) {
  const char* const fens[] = {
      "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",  // mate in one: h5f7
      "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",    // mate in two: d5f6
      "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",          // WAC 2: Qg6
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
  };
  for (const char* fen : fens) {
    SCOPED_TRACE(fen);
    const SearchResult single = search_lines(fen, 5, 1).result;
    const SearchResult multi = search_lines(fen, 5, 3).result;
    ASSERT_EQ(multi.lines.size(), 3u);
    EXPECT_EQ(multi.best, single.best);
    EXPECT_EQ(multi.score, single.score);
    EXPECT_EQ(multi.lines[0].move, single.best);
    EXPECT_EQ(multi.lines[0].score, single.score);
    EXPECT_GT(multi.nodes, single.nodes);  // the extra lines were searched
    expect_well_formed(fen, multi.lines);
  }
}

TEST(MultiPv, MoreLinesThanMovesGivesEveryMove) {
  // White's king in the corner has three moves; black in check from the rook has two evasions.
  for (const char* fen : {"7k/8/8/8/8/8/8/K7 w - - 0 1", "k7/8/8/2K5/8/8/8/R7 b - - 0 1"}) {
    SCOPED_TRACE(fen);
    const std::size_t n = legal_move_count(fen);
    ASSERT_GE(n, 2u);
    ASSERT_LE(n, 3u);
    const MultiPvRun run = search_lines(fen, 4, 10);
    ASSERT_EQ(run.result.lines.size(), n);
    expect_well_formed(fen, run.result.lines);
    for (const IterationInfo& info : run.iterations) EXPECT_EQ(info.lines.size(), n);
  }
}

TEST(MultiPv, OneLineIsTheOrdinarySearch) {
  const char* fen = "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19";
  TranspositionTable tt(8);
  Searcher plain(tt);  // default options
  Limits limits;
  limits.depth = 5;
  const SearchResult a = plain.run(Position::from_fen(fen), limits);
  const SearchResult b = search_lines(fen, 5, 1).result;
  EXPECT_EQ(a.nodes, b.nodes);
  ASSERT_EQ(b.lines.size(), 1u);
  EXPECT_EQ(b.lines[0].move, b.best);
  EXPECT_EQ(b.lines[0].score, b.score);
  EXPECT_EQ(b.lines[0].pv, b.pv);
}

}  // namespace
}  // namespace db::search
