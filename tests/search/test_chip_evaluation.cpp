// Deep Blue's evaluation for the software's own leaves (search/chip_evaluation.h): the evaluator is
// the chip's evaluation with the root's weights, the search plays with it (and finds what a search
// must find), and UCI's Evaluation option switches to it.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "chess/movegen.h"
#include "chess/notation.h"
#include "chip/chip_eval.h"
#include "search/chip_evaluation.h"
#include "search/interim_eval.h"
#include "search/search.h"
#include "uci/uci.h"

namespace db::search {
namespace {

TEST(ChipEvaluation, TheEvaluatorIsTheChipsWithTheRootsWeights) {
  const Position root = Position::from_fen("r1r1q1k1/6p1/3b1p1p/1p1PpP2/1Pp5/2P4P/R1B2QP1/R5K1 w - - 0 37");
  const auto evaluator = evaluator_factory(EvaluationKind::Chip)(root);
  ASSERT_NE(evaluator, nullptr);
  const chip::ChipEvaluator chip(chip::generate_weights(root));
  MoveList moves;
  generate_legal(root, moves);
  int differ_from_interim = 0;
  for (Move m : moves) {
    Position p = root;
    p.make_move(m);
    EXPECT_EQ(evaluator->evaluate(p), chip.evaluate(p).total) << move_to_uci(m);
    differ_from_interim += evaluator->evaluate(p) != interim_evaluate(p);
  }
  EXPECT_GT(differ_from_interim, 0);
  EXPECT_FALSE(evaluator_factory(EvaluationKind::Interim));
  EXPECT_EQ(parse_evaluation("chip"), EvaluationKind::Chip);
  EXPECT_THROW(parse_evaluation("stockfish"), std::invalid_argument);
}

TEST(ChipEvaluation, TheSearchOnTheChipEvaluationFindsTacticsAndMates) {
  TranspositionTable tt(16);
  SearchOptions so;
  so.evaluator = evaluator_factory(EvaluationKind::Chip);
  Searcher searcher(tt, so);
  Limits limits;
  limits.depth = 5;
  // WAC 1 (Qg6), WAC 4 (Rxb2: a pawn, then the d-pawn) and a mate in one.
  EXPECT_EQ(
      move_to_uci(
          searcher.run(Position::from_fen("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1"), limits).best),
      "g3g6");
  const SearchResult mate =
      searcher.run(Position::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"), limits);
  EXPECT_EQ(move_to_uci(mate.best), "h5f7");
  EXPECT_TRUE(is_mate_score(mate.score));
}

// The lazy stand pat (search.cpp, Searcher::stand_pat): the evaluator's fast part is the chip's
// FAST_EVAL and its control the generator's EVAL_CONTROL word 1; with it, the search decides many
// stand pats without the slow part and still finds what it must; without it, none.
TEST(ChipEvaluation, TheLazyStandPatUsesTheChipsFastPartAndControl) {
  const Position root = Position::from_fen("r1r1q1k1/6p1/3b1p1p/1p1PpP2/1Pp5/2P4P/R1B2QP1/R5K1 w - - 0 37");
  const auto evaluator = evaluator_factory(EvaluationKind::Chip)(root);
  const chip::EvalWeights w = chip::generate_weights(root);
  const chip::ChipEvaluator chip(w);
  const chip::LazyControl reg = chip::LazyControl::of(w);
  const StaticEvaluator::LazyControl lazy = evaluator->lazy_control();
  EXPECT_TRUE(reg.on);
  EXPECT_EQ(lazy.margin, reg.margin);
  EXPECT_GT(lazy.margin, 0);
  EXPECT_EQ(lazy.shift, reg.shift);
  EXPECT_EQ(lazy.min_pieces, reg.min_pieces);
  MoveList moves;
  generate_legal(root, moves);
  for (Move m : moves) {
    Position p = root;
    p.make_move(m);
    const chip::ChipEvaluation full = chip.evaluate(p);
    const StaticEvaluator::FastPart f = evaluator->fast_part(p);
    ASSERT_FALSE(f.exact) << move_to_uci(m);  // not evaluated yet: not in the cache
    EXPECT_EQ(f.fast, full.fast) << move_to_uci(m);
    const int pieces = __builtin_popcountll(p.pieces(KNIGHT) | p.pieces(BISHOP) | p.pieces(ROOK) | p.pieces(QUEEN));
    EXPECT_EQ(f.pieces, pieces) << move_to_uci(m);
    const int slow_white = p.side_to_move() == WHITE ? full.slow : -full.slow;
    EXPECT_EQ(evaluator->slow_part_white(p), slow_white) << move_to_uci(m);
    // Now cached: the fast part is the whole value.
    const StaticEvaluator::FastPart cached = evaluator->fast_part(p);
    EXPECT_TRUE(cached.exact);
    EXPECT_EQ(cached.fast, full.total);
  }

  TranspositionTable tt(16);
  SearchOptions so;
  so.evaluator = evaluator_factory(EvaluationKind::Chip);
  Limits limits;
  limits.depth = 5;
  const Position wac1 = Position::from_fen("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1");
  Searcher lazy_searcher(tt, so);
  const SearchResult with = lazy_searcher.run(wac1, limits);
  EXPECT_EQ(move_to_uci(with.best), "g3g6");
  EXPECT_GT(with.lazy_stand_pats, with.nodes / 20);
  so.lazy_margin = 0;
  tt.clear();
  Searcher full_searcher(tt, so);
  const SearchResult without = full_searcher.run(wac1, limits);
  EXPECT_EQ(move_to_uci(without.best), "g3g6");
  EXPECT_EQ(without.lazy_stand_pats, 0u);
}

std::string session(const std::string& input, EvaluatorFactory chip) {
  std::istringstream in;
  std::ostringstream out;
  {
    uci::UciEngine engine(in, out, {}, std::move(chip));
    std::istringstream lines(input);
    std::string line;
    while (std::getline(lines, line)) {
      if (!engine.handle(line)) break;
      if (line.rfind("go", 0) == 0) engine.wait_for_search();
    }
  }
  return out.str();
}

TEST(ChipEvaluation, UciEvaluationOption) {
  const std::string with = session(
      "uci\nsetoption name OwnBook value false\nsetoption name Evaluation value chip\n"
      "position fen r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4\ngo depth 3\n"
      "setoption name Evaluation value shiny\nquit\n",
      evaluator_factory(EvaluationKind::Chip));
  EXPECT_NE(with.find("option name Evaluation type combo default chip var chip var interim"), std::string::npos);
  EXPECT_NE(with.find("bestmove h5f7"), std::string::npos) << with;
  EXPECT_NE(with.find("Evaluation must be interim or chip, got 'shiny'"), std::string::npos) << with;
  // An engine built without the chip library offers only the interim evaluation.
  const std::string without = session("uci\nsetoption name Evaluation value chip\nquit\n", {});
  EXPECT_EQ(without.find("var chip"), std::string::npos);
  EXPECT_NE(without.find("Evaluation chip is not available"), std::string::npos) << without;
}

// The last "info depth 4 ..." line's score of a session, "" if none.
std::string depth4_score(const std::string& out) {
  std::string score;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("info depth 4 ", 0) != 0) continue;
    const std::size_t at = line.find(" score ");
    if (at != std::string::npos) score = line.substr(at, line.find(" nodes", at) - at);
  }
  return score;
}

TEST(ChipEvaluation, UciPlaysDeepBluesEvaluationByDefault) {
  const std::string go =
      "position fen r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4\ngo depth 4\nquit\n";
  const std::string setup = "uci\nsetoption name OwnBook value false\nsetoption name Threads value 1\n";
  const std::string by_default = depth4_score(session(setup + go, evaluator_factory(EvaluationKind::Chip)));
  const std::string chip = depth4_score(
      session(setup + "setoption name Evaluation value chip\n" + go, evaluator_factory(EvaluationKind::Chip)));
  const std::string interim = depth4_score(
      session(setup + "setoption name Evaluation value interim\n" + go, evaluator_factory(EvaluationKind::Chip)));
  ASSERT_FALSE(by_default.empty());
  EXPECT_EQ(by_default, chip);
  EXPECT_NE(by_default, interim);
  // Without the chip library the default is the interim evaluation.
  EXPECT_EQ(depth4_score(session(setup + go, {})), interim);
}

}  // namespace
}  // namespace db::search
