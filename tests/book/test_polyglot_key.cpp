// The Polyglot key against the test vectors of the published format (book_format.html, "Test data":
// keys computed with Toga II), reached both from the FEN and by playing the moves.
#include <gtest/gtest.h>

#include "book/polyglot_key.h"
#include "book_fixture.h"

namespace db::book {
namespace {

struct Vector {
  const char* moves;
  const char* fen;
  Key key;
};

// The spec's last line plays a1a3 (its FEN has the rook on a3), not a1a2.
const Vector kVectors[] = {
    {"", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0x463b96181691fc9cULL},
    {"e2e4", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 0x823c9b50fd114196ULL},
    {"e2e4 d7d5", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", 0x0756b94461c50fb0ULL},
    {"e2e4 d7d5 e4e5", "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", 0x662fafb965db29d4ULL},
    {"e2e4 d7d5 e4e5 f7f5", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 0x22a48b5a8e47ff78ULL},
    {"e2e4 d7d5 e4e5 f7f5 e1e2", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3", 0x652a607ca3f242c1ULL},
    {"e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4",
     0x00fdd303c946bdd9ULL},
    {"a2a4 b7b5 h2h4 b5b4 c2c4", "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3",
     0x3c8123ea7b067637ULL},
    {"a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4",
     0x5c3f9b829b279560ULL},
};

TEST(PolyglotKey, PublishedVectorsFromFen) {
  for (const Vector& v : kVectors) {
    SCOPED_TRACE(v.fen);
    EXPECT_EQ(polyglot_key(Position::from_fen(v.fen)), v.key);
  }
}

TEST(PolyglotKey, PublishedVectorsByPlayingTheMoves) {
  for (const Vector& v : kVectors) {
    SCOPED_TRACE(v.moves);
    const Position pos = testing::after(v.moves);
    EXPECT_EQ(polyglot_key(pos), v.key);
    // The spec's FENs keep some halfmove clocks at 0 after quiet moves: compare the four position fields.
    const auto fields = [](const std::string& fen) { return fen.substr(0, fen.rfind(' ', fen.rfind(' ') - 1)); };
    EXPECT_EQ(fields(pos.fen()), fields(v.fen));
  }
}

TEST(PolyglotKey, EnPassantCountsOnlyWithACapturer) {
  // After e2e4 no black pawn can take on e3: the key equals the one without the square.
  EXPECT_EQ(polyglot_key(Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")),
            polyglot_key(Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")));
  // With a black pawn on d4 it does, even where dxe3 is illegal (it would open the fourth rank to
  // the rook on h4): the format asks only for a pawn beside the pushed one.
  const Key with = polyglot_key(Position::from_fen("8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1"));
  const Key without = polyglot_key(Position::from_fen("8/8/8/8/k2pP2R/8/8/4K3 b - - 0 1"));
  EXPECT_EQ(with ^ without, kRandom64[kRandomEnPassant + 4]);
}

TEST(PolyglotKey, TableIsThePublishedOne) {
  EXPECT_EQ(kRandom64[0], 0x9D39247E33776D41ULL);
  EXPECT_EQ(kRandom64[kRandomCastle], 0x31D71DCE64B2C310ULL);
  EXPECT_EQ(kRandom64[kRandomEnPassant], 0x70CC73D90BC26E24ULL);
  EXPECT_EQ(kRandom64[kRandomTurn], 0xF8D626AAAF278509ULL);
}

}  // namespace
}  // namespace db::book
