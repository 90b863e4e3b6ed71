// Static exchange evaluation (chess/see.h): exchanges any player can check by hand, and on the
// positions of perft.epd and Win At Chess the bounds every exchange must keep and the symmetry of
// colours.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <string>
#include <vector>

#include "chess/epd.h"
#include "chess/movegen.h"
#include "chess/notation.h"
#include "chess/position.h"
#include "chess/see.h"

namespace db {
namespace {

// The exchange's value: the largest threshold see_ge accepts (bisection; see_ge is monotone).
int see_of(const Position& pos, Move m) {
  int lo = -30000, hi = 30000;  // see_ge(lo) holds, see_ge(hi + 1) does not
  while (lo < hi) {
    const int mid = lo + (hi - lo + 1) / 2;
    if (see_ge(pos, m, mid))
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

int see_of(const std::string& fen, const std::string& uci) {
  const Position pos = Position::from_fen(fen);
  return see_of(pos, parse_uci(pos, uci));
}

TEST(StaticExchange, ExchangesCheckedByHand) {
  // An undefended pawn: won.
  EXPECT_EQ(see_of("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5"), 100);
  // A pawn defended by a pawn: pawn for pawn.
  EXPECT_EQ(see_of("4k3/8/2p5/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5"), 0);
  // The queen takes a pawn a pawn defends: the queen for a pawn.
  EXPECT_EQ(see_of("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"), 100 - 975);
  // Doubled rooks on both sides: the first rook is lost for the pawn, and going on loses more.
  EXPECT_EQ(see_of("3rk3/3r4/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"), 100 - 500);
  // The bishop behind the capturing pawn joins in: knight and pawn for a pawn.
  EXPECT_EQ(see_of("4k3/8/4p3/3n4/2P5/1B6/8/4K3 w - - 0 1", "c4d5"), 325);
  // En passant wins the pawn that passed.
  EXPECT_EQ(see_of("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), 100);
  // A promotion gains the queen over the pawn; taking a rook as well, the rook too.
  EXPECT_EQ(see_of("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q"), 875);
  EXPECT_EQ(see_of("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7a8q"), 500 + 875);
  // A promotion the rook recaptures: the pawn is lost.
  EXPECT_EQ(see_of("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q"), -100);
  // The king recaptures a rook only when nothing else defends the square.
  EXPECT_EQ(see_of("8/4k3/3p4/8/8/8/8/3RK3 w - - 0 1", "d1d6"), 100 - 500);
  EXPECT_EQ(see_of("8/4k3/3p4/8/8/8/3R4/3RK3 w - - 0 1", "d2d6"), 100);
  // A quiet move to a square a pawn attacks loses the man; to a safe square, nothing.
  EXPECT_EQ(see_of("4k3/8/2p5/8/8/4N3/8/4K3 w - - 0 1", "e3d5"), -325);
  EXPECT_EQ(see_of("4k3/8/2p5/8/8/4N3/8/4K3 w - - 0 1", "e3f5"), 0);
  // Castling exchanges nothing.
  EXPECT_EQ(see_of("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1"), 0);
  // Black's side of the board works the same way.
  EXPECT_EQ(see_of("4k3/8/8/4p3/3P4/2P5/8/4K3 b - - 0 1", "e5d4"), 0);
}

// The position with colours exchanged and the board turned upside down.
std::string mirrored_fen(const std::string& fen) {
  std::vector<std::string> fields;
  for (std::size_t i = 0, j; i < fen.size(); i = j + 1) {
    j = fen.find(' ', i);
    if (j == std::string::npos) j = fen.size();
    fields.push_back(fen.substr(i, j - i));
  }
  auto swap_case = [](std::string s) {
    for (char& c : s) c = std::isupper(static_cast<unsigned char>(c)) ? char(std::tolower(c)) : char(std::toupper(c));
    return s;
  };
  std::vector<std::string> ranks;
  for (std::size_t i = 0, j; i <= fields[0].size(); i = j + 1) {
    j = fields[0].find('/', i);
    if (j == std::string::npos) j = fields[0].size();
    ranks.push_back(fields[0].substr(i, j - i));
  }
  std::reverse(ranks.begin(), ranks.end());
  std::string board;
  for (const std::string& r : ranks) board += (board.empty() ? "" : "/") + swap_case(r);
  std::string castling = fields[2] == "-" ? "-" : swap_case(fields[2]);
  std::sort(castling.begin(), castling.end());  // "KQkq" order: upper case first
  std::string ep = fields[3];
  if (ep != "-") ep[1] = ep[1] == '3' ? '6' : '3';
  return board + " " + (fields[1] == "w" ? "b" : "w") + " " + castling + " " + ep + " " + fields[4] + " " + fields[5];
}

Move mirrored(Move m, const Position& mirror) {
  const std::string text = move_to_uci(m);
  std::string flipped = text;
  flipped[1] = char('1' + ('8' - text[1]));
  flipped[3] = char('1' + ('8' - text[3]));
  return parse_uci(mirror, flipped);
}

std::vector<std::string> test_fens() {
  std::vector<std::string> fens;
  for (const char* file : {"/perft.epd", "/wac.epd"}) {
    std::ifstream in(std::string(DB_SHARED_DATA_DIR) + file);
    std::string line;
    while (std::getline(in, line)) {
      try {
        fens.push_back(Position::from_fen(parse_epd(line).position_fen).fen());
      } catch (const std::exception&) {
        // Records our strict parser rejects are the perft suite's business (test_perft.cpp).
      }
    }
  }
  return fens;
}

TEST(StaticExchange, KeepsItsBoundsAndIsTheSameForEitherColour) {
  const std::vector<std::string> fens = test_fens();
  ASSERT_GT(fens.size(), 400u);
  std::size_t captures = 0, losing = 0;
  for (const std::string& fen : fens) {
    const Position pos = Position::from_fen(fen);
    const Position mirror = Position::from_fen(mirrored_fen(fen));
    MoveList moves;
    generate_legal(pos, moves);
    for (Move m : moves) {
      const int value = see_of(pos, m);
      const PieceType victim = m.is_en_passant() ? PAWN
                               : m.is_capture()  ? type_of(pos.piece_on(m.to()))
                                                 : NO_PIECE_TYPE;
      const PieceType mover = m.is_promotion() ? m.promotion() : type_of(pos.piece_on(m.from()));
      const int gain = see_value(victim) + (m.is_promotion() ? see_value(mover) - see_value(PAWN) : 0);
      // The first capture is forced, the rest chosen: it gains at most what it takes, and loses at
      // most the man that made it.
      if (!m.is_castle()) {
        EXPECT_LE(value, gain) << fen << " " << move_to_uci(m);
        EXPECT_GE(value, gain - see_value(mover)) << fen << " " << move_to_uci(m);
      }
      EXPECT_EQ(see_of(mirror, mirrored(m, mirror)), value) << fen << " " << move_to_uci(m);
      if (m.is_capture()) ++captures, losing += value < 0;
    }
  }
  // The suites hold both kinds of capture.
  EXPECT_GT(captures, 1000u);
  EXPECT_GT(losing, 100u);
}

}  // namespace
}  // namespace db
