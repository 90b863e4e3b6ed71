// SAN and UCI notation: printing with disambiguation and check marks, parsing of what real PGN files
// contain, and FEN/SAN round trips over every position and move of the 1997 Kasparov - Deep Blue games.
#include <gtest/gtest.h>

#include "chess/movegen.h"
#include "chess/notation.h"
#include "chess/pgn.h"
#include "chess/position.h"

namespace db {
namespace {

std::string san(const std::string& fen, const std::string& uci) {
  const Position pos = Position::from_fen(fen);
  return move_to_san(pos, parse_uci(pos, uci));
}

TEST(San, Disambiguation) {
  // Knights on b1 and f3 can both reach d2: by file.
  EXPECT_EQ(san("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "b1d2"), "Nbd2");
  // Rooks on a1 and a5 both reach a3: by rank.
  EXPECT_EQ(san("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3"), "R1a3");
  // Queens on h4, e4 and h1 all reach e1: the one on h4 shares its file with h1 and its rank with
  // e4, so it needs both.
  EXPECT_EQ(san("1k6/8/8/8/4Q2Q/8/8/1K5Q w - - 0 1", "h4e1"), "Qh4e1");
  // A pinned piece is no rival: the knight on f2 is pinned by the bishop on h4.
  EXPECT_EQ(san("4k3/8/8/8/7b/8/5N2/2N1K3 w - - 0 1", "c1d3"), "Nd3");
}

TEST(San, CapturesPromotionsCastlingAndMarks) {
  EXPECT_EQ(san("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5"), "exd5");
  EXPECT_EQ(san("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), "exd6");
  EXPECT_EQ(san("8/P6k/8/8/8/8/8/4K3 w - - 0 1", "a7a8q"), "a8=Q");
  EXPECT_EQ(san("8/P6k/8/8/8/8/8/4K3 w - - 0 1", "a7a8n"), "a8=N");
  EXPECT_EQ(san("1r5k/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8r"), "axb8=R+");
  EXPECT_EQ(san("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1"), "O-O");
  EXPECT_EQ(san("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8"), "O-O-O");
  EXPECT_EQ(san("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", "d8h4"), "Qh4#");
  EXPECT_EQ(san("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8"), "Ra8+");
}

TEST(San, ParsesWhatPgnFilesContain) {
  const Position start;
  EXPECT_EQ(move_to_uci(parse_san(start, "Nf3")), "g1f3");
  EXPECT_EQ(move_to_uci(parse_san(start, "Ng1f3")), "g1f3");   // over-disambiguated
  EXPECT_EQ(move_to_uci(parse_san(start, "Ng1-f3")), "g1f3");  // long algebraic
  EXPECT_EQ(move_to_uci(parse_san(start, "e4!?")), "e2e4");
  EXPECT_EQ(move_to_uci(parse_san(start, "e4!!")), "e2e4");
  const Position castle = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  EXPECT_EQ(move_to_uci(parse_san(castle, "O-O")), "e1g1");
  EXPECT_EQ(move_to_uci(parse_san(castle, "0-0-0")), "e1c1");
  EXPECT_EQ(move_to_uci(parse_san(castle, "O-O+")), "e1g1");
  const Position promo = Position::from_fen("1r5k/P7/8/8/8/8/8/4K3 w - - 0 1");
  EXPECT_EQ(move_to_uci(parse_san(promo, "a8=Q")), "a7a8q");
  EXPECT_EQ(move_to_uci(parse_san(promo, "a8Q")), "a7a8q");
  EXPECT_EQ(move_to_uci(parse_san(promo, "axb8=N")), "a7b8n");
  EXPECT_EQ(move_to_uci(parse_san(promo, "axb8(R)+")), "a7b8r");
  const Position ep = Position::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
  EXPECT_EQ(move_to_uci(parse_san(ep, "exd6 e.p.")), "e5d6");
  EXPECT_EQ(move_to_uci(parse_san(ep, "exd6e.p.")), "e5d6");
  const Position two_knights = Position::from_fen("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
  EXPECT_EQ(move_to_uci(parse_san(two_knights, "Nbd2")), "b1d2");
  EXPECT_EQ(move_to_uci(parse_san(two_knights, "Nfd2")), "f3d2");
}

TEST(San, BadMovesNameTheProblem) {
  const Position start;
  const Position two_knights = Position::from_fen("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
  auto message = [](const Position& pos, const char* text) {
    try {
      parse_san(pos, text);
    } catch (const NotationError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message(start, "").find("empty SAN move"), std::string::npos);
  EXPECT_NE(message(start, "Ke2").find("illegal move 'Ke2'"), std::string::npos);
  EXPECT_NE(message(start, "O-O").find("illegal castling"), std::string::npos);
  EXPECT_NE(message(two_knights, "Nd2").find("ambiguous move 'Nd2'"), std::string::npos);
  EXPECT_NE(message(start, "Zf3").find("bad SAN move"), std::string::npos);
  EXPECT_NE(message(start, "e9").find("bad SAN move"), std::string::npos);
  EXPECT_NE(message(start, "Nxf3").find("illegal"), std::string::npos) << message(start, "Nxf3");
}

TEST(Uci, ParsingErrors) {
  const Position start;
  EXPECT_EQ(move_to_uci(parse_uci(start, "e2e4")), "e2e4");
  EXPECT_THROW(parse_uci(start, "e2e5"), NotationError);
  EXPECT_THROW(parse_uci(start, "e2"), NotationError);
  EXPECT_THROW(parse_uci(start, "e2e4k"), NotationError);
  EXPECT_THROW(parse_uci(start, "z9e4"), NotationError);
  EXPECT_THROW(parse_uci(start, "e2e4qq"), NotationError);
  EXPECT_EQ(move_to_uci(Move::none()), "0000");
}

std::string strip_annotations(std::string s) {
  while (!s.empty() && (s.back() == '!' || s.back() == '?')) s.pop_back();
  return s;
}

TEST(Pgn, KasparovDeepBlue1997RoundTrips) {
  const auto games = read_pgn_file(std::string(DB_SHARED_DATA_DIR) + "/kasparov-deepblue-1997.pgn");
  ASSERT_EQ(games.size(), 6u);
  int positions = 0;
  double deep_blue_score = 0;  // the 1997 match ended 3.5-2.5 for Deep Blue
  bool saw_position_1 = false, saw_position_2 = false;
  for (const PgnGame& game : games) {
    Position pos = game.start_position();
    for (const std::string& text : game.san_moves) {
      // FEN round trip of every position, key included.
      const Position reparsed = Position::from_fen(pos.fen());
      ASSERT_EQ(reparsed.fen(), pos.fen());
      ASSERT_EQ(reparsed.key(), pos.key()) << pos.fen();
      saw_position_1 |= pos.fen().rfind("r1r1q1k1/6p1/3b1p1p/1p1PpP2/1Pp5/2P4P/R1B2QP1/R5K1 w", 0) == 0;
      saw_position_2 |= pos.fen().rfind("r2qk2r/pp3ppp/2p1pn2/4n3/1b6/3P2PP/PPPN1PB1/R1BQK2R b", 0) == 0;
      // SAN round trip: parse, print, parse again; the printed text equals the game's text.
      const Move m = parse_san(pos, text);
      const std::string printed = move_to_san(pos, m);
      ASSERT_EQ(printed, strip_annotations(text)) << pos.fen();
      ASSERT_EQ(parse_san(pos, printed), m);
      ASSERT_EQ(parse_uci(pos, move_to_uci(m)), m);
      pos.make_move(m);
      ++positions;
    }
    // The result tag agrees with the game text, and decisive games did not end in mate on the board
    // (all six ended by resignation or agreement), so the final position has legal moves.
    const std::string* result = game.tag("Result");
    ASSERT_NE(result, nullptr);
    EXPECT_EQ(*result, game.result);
    EXPECT_FALSE(pos.is_checkmate());
    const std::string* white = game.tag("White");
    ASSERT_NE(white, nullptr);
    const bool deep_blue_white = *white == "Deep Blue";
    if (*result == "1/2-1/2")
      deep_blue_score += 0.5;
    else if (*result == (deep_blue_white ? "1-0" : "0-1"))
      deep_blue_score += 1;
  }
  EXPECT_EQ(deep_blue_score, 3.5);
  EXPECT_GT(positions, 400);
  // AIJ 4.2's two sample positions occur in the games (game 2 before 37.Be4, game 5 before 11...h5).
  EXPECT_TRUE(saw_position_1);
  EXPECT_TRUE(saw_position_2);
}

TEST(Pgn, MalformedTextGivesLineNumbers) {
  EXPECT_THROW(parse_pgn("[Event \"x\"\n1. e4"), std::runtime_error);
  try {
    parse_pgn("[Event \"x\"]\n\n1. e4 {unclosed\n");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("PGN line 3"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_pgn("1. e4 (1... e5"), std::runtime_error);
  EXPECT_THROW(parse_pgn("1. e4 )"), std::runtime_error);
  const auto games = parse_pgn("[White \"a\"]\n1. e4 $1 {good} (1. d4 d5) e5 ; comment\n2. Nf3 1-0\n");
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].san_moves, (std::vector<std::string>{"e4", "e5", "Nf3"}));
  EXPECT_EQ(games[0].result, "1-0");
}

}  // namespace
}  // namespace db
