// Position basics: FEN round trips, make/unmake, Zobrist keys, draw rules, mate and stalemate.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "chess/movegen.h"
#include "chess/notation.h"
#include "chess/position.h"

namespace db {
namespace {

TEST(Position, StartPositionFenRoundTrip) {
  Position pos;
  EXPECT_EQ(pos.fen(), kStartFen);
  EXPECT_EQ(count_legal(pos), 20u);
}

TEST(Position, FourFieldFenDefaultsCounters) {
  Position pos = Position::from_fen("8/8/8/8/8/8/8/K1k5 w - -");
  EXPECT_EQ(pos.fen(), "8/8/8/8/8/8/8/K1k5 w - - 0 1");
}

TEST(Position, MakeUnmakeRestoresEverythingAlongRandomGames) {
  std::mt19937 rng(12345);
  for (int game = 0; game < 50; ++game) {
    Position pos;
    std::vector<Move> played;
    std::vector<std::string> fens;
    for (int ply = 0; ply < 200; ++ply) {
      MoveList moves;
      generate_legal(pos, moves);
      if (moves.empty()) break;
      const Move m = moves[rng() % moves.size()];
      fens.push_back(pos.fen());
      pos.make_move(m);
      played.push_back(m);
      ASSERT_EQ(pos.key(), pos.compute_key()) << "incremental key differs after " << move_to_uci(m);
      // Parsing the printed FEN gives the same key (hash independent of history).
      ASSERT_EQ(Position::from_fen(pos.fen()).key(), pos.key()) << pos.fen();
    }
    while (!played.empty()) {
      pos.unmake_move(played.back());
      played.pop_back();
      ASSERT_EQ(pos.fen(), fens.back());
      fens.pop_back();
    }
  }
}

TEST(Position, EnPassantOnlyHashedWhenCapturable) {
  // After 1.e4 no black pawn can capture on e3: the key equals that of the same FEN without "e3".
  Position pos;
  pos.make_move(parse_uci(pos, "e2e4"));
  EXPECT_EQ(pos.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
  EXPECT_EQ(pos.key(), Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").key());
  Position capturable = Position::from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
  EXPECT_NE(capturable.key(), Position::from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1").key());
}

TEST(Position, RepetitionByKnightShuffle) {
  Position pos;
  EXPECT_EQ(pos.repetition_count(), 0);
  for (const char* uci : {"g1f3", "g8f6", "f3g1", "f6g8"}) pos.make_move(parse_uci(pos, uci));
  EXPECT_EQ(pos.repetition_count(), 1);
  for (const char* uci : {"g1f3", "g8f6", "f3g1", "f6g8"}) pos.make_move(parse_uci(pos, uci));
  EXPECT_EQ(pos.repetition_count(), 2);
  pos.make_move(parse_uci(pos, "e2e4"));  // an irreversible move ends the chain
  EXPECT_EQ(pos.repetition_count(), 0);
}

// The moves a repetition can look back over: since the last capture, pawn move, null move or the
// FEN. Replayed from the position before them, they give the same repetitions.
TEST(Position, ReversibleMovesRebuildTheRepetitionHistory) {
  Position pos;
  EXPECT_TRUE(pos.reversible_moves().empty());
  for (const char* uci : {"e2e4", "e7e5", "g1f3", "b8c6", "f3g1", "c6b8"}) pos.make_move(parse_uci(pos, uci));
  std::vector<std::string> moves;
  for (Move m : pos.reversible_moves()) moves.push_back(move_to_uci(m));
  EXPECT_EQ(moves, (std::vector<std::string>{"g1f3", "b8c6", "f3g1", "c6b8"}));
  Position base = pos;
  const std::vector<Move> history = pos.reversible_moves();
  for (auto it = history.rbegin(); it != history.rend(); ++it) base.unmake_move(*it);
  Position rebuilt = Position::from_fen(base.fen());
  for (Move m : history) rebuilt.make_move(m);
  EXPECT_EQ(rebuilt.key(), pos.key());
  EXPECT_EQ(rebuilt.fen(), pos.fen());
  EXPECT_EQ(rebuilt.repetition_count(), 1);
  // From the FEN alone the repetition is lost: that is what the moves are for.
  EXPECT_EQ(Position::from_fen(pos.fen()).repetition_count(), 0);
  // A FEN's half-move clock counts moves the position does not have: the window starts at the FEN.
  Position late = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w - - 40 60");
  late.make_move(parse_uci(late, "h1h2"));
  EXPECT_EQ(late.reversible_moves().size(), 1u);
  late.make_null();
  EXPECT_TRUE(late.reversible_moves().empty());  // a null move ends the window as repetition_count's
}

TEST(Position, FiftyMoveRule) {
  EXPECT_TRUE(Position::from_fen("4k3/8/8/8/8/8/8/4K2R w - - 100 80").is_fifty_move_draw());
  EXPECT_FALSE(Position::from_fen("4k3/8/8/8/8/8/8/4K2R w - - 99 80").is_fifty_move_draw());
  // Mate delivered on the hundredth half-move wins.
  EXPECT_FALSE(Position::from_fen("R3k3/8/4K3/8/8/8/8/8 b - - 100 80").is_fifty_move_draw());
}

TEST(Position, MateAndStalemate) {
  const Position mate = Position::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
  EXPECT_TRUE(mate.in_check());
  EXPECT_TRUE(mate.is_checkmate());
  EXPECT_FALSE(mate.is_stalemate());
  const Position stale = Position::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
  EXPECT_TRUE(stale.is_stalemate());
  EXPECT_FALSE(stale.is_checkmate());
}

TEST(Position, InsufficientMaterial) {
  EXPECT_TRUE(Position::from_fen("8/8/8/4k3/8/8/8/4K3 w - - 0 1").has_insufficient_material());
  EXPECT_TRUE(Position::from_fen("8/8/8/4k3/8/8/8/4KN2 w - - 0 1").has_insufficient_material());
  // Bishops on f1 and d3 both stand on light squares: no mate is possible; c3 is dark.
  EXPECT_TRUE(Position::from_fen("8/8/8/4k3/8/3b4/8/4KB2 w - - 0 1").has_insufficient_material());
  EXPECT_FALSE(Position::from_fen("8/8/8/4k3/8/2b5/8/4KB2 w - - 0 1").has_insufficient_material());
  EXPECT_FALSE(Position::from_fen("8/8/8/4k3/8/8/8/3NKN2 w - - 0 1").has_insufficient_material());
  EXPECT_FALSE(Position::from_fen("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1").has_insufficient_material());
}

TEST(Position, GeneratedMovesSplitIntoNoisyAndQuiet) {
  const Position pos = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  MoveList all, noisy, quiet;
  generate_legal(pos, all);
  generate_legal(pos, noisy, GenType::NOISY);
  generate_legal(pos, quiet, GenType::QUIET);
  EXPECT_EQ(all.size(), 48u);
  EXPECT_EQ(noisy.size() + quiet.size(), all.size());
  for (Move m : noisy) EXPECT_TRUE(m.is_capture() || m.is_promotion());
  for (Move m : quiet) EXPECT_TRUE(all.contains(m) && !m.is_capture() && !m.is_promotion());
}

}  // namespace
}  // namespace db
