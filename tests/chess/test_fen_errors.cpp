// Malformed FENs: each gives a FenError naming the field and the reason; nothing crashes.
#include <gtest/gtest.h>

#include "chess/position.h"

namespace db {
namespace {

struct BadFen {
  const char* fen;
  const char* field;   // FenError::field()
  const char* reason;  // a substring of the message
};

const BadFen kBadFens[] = {
    {"", "", "expected 6 fields (or 4 without the counters), got 0"},
    {"   ", "", "got 0"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", "", "got 3"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0", "", "got 5"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", "", "got 7"},
    // Garbage bytes: non-ASCII and control characters are named, printed as '?'.
    {"\xff\xfe garbage", "", "got 2"},
    {"\xc3\x28/8/8/8/8/8/8/8 w - - 0 1", "field 1 (placement)", "bad piece letter '?' on rank 8"},
    {"4k3/8/8/8/8/8/8/4K3 w - - 0\x01 1", "field 5 (half-move clock)", "expected a number, got '0?'"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "field 1 (placement)",
     "bad piece letter 'X' on rank 1"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN0 w KQkq - 0 1", "field 1 (placement)",
     "bad empty-square count '0' on rank 1 (expected 1-8)"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN9 w KQkq - 0 1", "field 1 (placement)", "bad empty-square count '9'"},
    {"rnbqkbnr/pppppppp/71/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "field 1 (placement)",
     "two digits in a row on rank 6"},
    {"rnbqkbnr/pppppppp/7p1/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "field 1 (placement)",
     "rank 6 is longer than 8 squares"},
    {"rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "field 1 (placement)",
     "rank 8 is longer than 8 squares"},
    {"rnbqkbn/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "field 1 (placement)",
     "rank 8 has 7 squares, expected 8"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", "field 1 (placement)",
     "rank 1 has 7 squares, expected 8"},
    {"rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "field 1 (placement)", "has 7 ranks, expected 8"},
    {"rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "field 1 (placement)", "more than 8 ranks"},
    {"rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "field 1 (placement)", "missing black king"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1", "field 1 (placement)", "missing white king"},
    {"rnbqkbnr/pppppppp/8/8/8/4K3/PPPPPPPP/RNBQKBNR w kq - 0 1", "field 1 (placement)", "more than one white king"},
    {"4k3/8/8/8/8/8/PPPPPPPP/1PPPK3 w - - 0 1", "field 1 (placement)", "more than 8 white pawns"},
    {"4k3/8/8/8/8/8/8/NNNNKNNN/ w - - 0 1", "field 1 (placement)", "more than 8 ranks"},
    {"4k3/8/8/8/QQQQQQQQ/QQQQQQQQ/8/4K3 w - - 0 1", "field 1 (placement)", "more than 16 white pieces"},
    {"4k2P/8/8/8/8/8/8/4K3 w - - 0 1", "field 1 (placement)", "a pawn stands on the first or eighth rank"},
    {"4k3/8/8/8/8/8/8/p3K3 b - - 0 1", "field 1 (placement)", "a pawn stands on the first or eighth rank"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "field 2 (side to move)",
     "expected 'w' or 'b', got 'x'"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1", "field 2 (side to move)", "got 'W'"},
    // Black is in check from the rook and it is white's turn: white could take the king.
    {"4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "field 2 (side to move)", "white to move could capture the opponent's king"},
    {"4k3/8/8/8/8/8/4r3/4K3 b - - 0 1", "field 2 (side to move)", "black to move could capture the opponent's king"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1", "field 3 (castling)", "bad letter 'x'"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKq - 0 1", "field 3 (castling)", "letter 'K' repeated"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "field 3 (castling)",
     "right 'K' but no rook on its original square"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1KNR w KQkq - 0 1", "field 3 (castling)",
     "right 'K' but the king is not on its original square"},
    {"r2q1rk1/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", "field 3 (castling)",
     "right 'k' but the king is not on its original square"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4 0 1", "field 4 (en passant)",
     "e4 is not on the sixth rank"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e6 0 1", "field 4 (en passant)",
     "e6 is not on the third rank"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1", "field 4 (en passant)",
     "no enemy pawn in front of it"},
    {"rnbqkbnr/pppppppp/8/8/4P3/4N3/PPPP1PPP/RNBQKB1R b KQkq e3 0 1", "field 4 (en passant)",
     "square or the pawn's starting square is occupied"},
    {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e9 0 1", "field 4 (en passant)",
     "expected a square like e3 or '-', got 'e9'"},
    {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq i3 0 1", "field 4 (en passant)", "got 'i3'"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "field 5 (half-move clock)",
     "expected a number, got 'x'"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", "field 5 (half-move clock)",
     "must be at least 0, got '-1'"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99999999999 1", "field 5 (half-move clock)",
     "expected a number"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 5000 1", "field 5 (half-move clock)", "implausibly large"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", "field 6 (full-move number)",
     "must be at least 1, got '0'"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1x", "field 6 (full-move number)",
     "expected a number, got '1x'"},
};

TEST(FenErrors, EachMalformedFenNamesItsFieldAndReason) {
  for (const BadFen& bad : kBadFens) {
    try {
      Position::from_fen(bad.fen);
      ADD_FAILURE() << "accepted: " << bad.fen;
    } catch (const FenError& e) {
      EXPECT_EQ(e.field(), bad.field) << bad.fen << " -> " << e.what();
      EXPECT_NE(std::string(e.what()).find(bad.reason), std::string::npos) << bad.fen << " -> " << e.what();
    }
  }
}

TEST(FenErrors, ControlRowsAreLegal) {
  EXPECT_NO_THROW(Position::from_fen("4k3/8/8/8/8/8/8/4K2R w - - 0 1"));
  EXPECT_NO_THROW(Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1"));
  EXPECT_NO_THROW(Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"));
  EXPECT_NO_THROW(Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3"));  // 4 fields
}

TEST(FenErrors, LenientModeDropsStaleRightsButKeepsOtherChecks) {
  const Position p = Position::from_fen("r2r3k/p7/3p4/8/8/P6P/8/R3K2R b KQq - 0 1", FenMode::Lenient);
  EXPECT_EQ(p.castling_rights(), WHITE_OO | WHITE_OOO);
  const Position q = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1", FenMode::Lenient);
  EXPECT_EQ(q.ep_square(), SQ_NONE);
  EXPECT_THROW(Position::from_fen("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", FenMode::Lenient),
               FenError);
}

TEST(FenErrors, RandomBytesNeverCrash) {
  // Deterministic noise over the FEN alphabet; the parser must either accept or throw FenError.
  const std::string alphabet = "pnbrqkPNBRQK12345678/ wb-KQkqabcdefgh0123456789\t\x01\xff";
  std::uint64_t s = 88172645463325252ULL;
  int accepted = 0;
  for (int i = 0; i < 200000; ++i) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    std::string fen;
    const int len = int(s % 90);
    for (int k = 0; k < len; ++k) {
      s ^= s << 13, s ^= s >> 7, s ^= s << 17;
      fen += alphabet[s % alphabet.size()];
    }
    try {
      const Position p = Position::from_fen(fen);
      ++accepted;
      EXPECT_EQ(Position::from_fen(p.fen()).fen(), p.fen());
    } catch (const FenError&) {}
  }
  (void)accepted;  // most noise is rejected; what is accepted must round-trip (checked above)
}

}  // namespace
}  // namespace db
