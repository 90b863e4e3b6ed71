// The quiescence check classes of the chip (AIJ 5, search parameters 5 and 6) in the reference
// model's array: king escape squares against the chess core's legal king moves on every position
// of the shared data files, and the class of hand-made checks.
#include <gtest/gtest.h>

#include "board_sets_of.h"
#include "chess/movegen.h"
#include "chess/position.h"
#include "chip/array_model.h"
#include "chip/chip_client.h"
#include "chip_data.h"

namespace db::chip {
namespace {

// Where the core lets the side to move's king go (castling aside).
Bitboard core_king_moves(Position& pos) {
  MoveList moves;
  generate_legal(pos, moves);
  const Square king = pos.king_square(pos.side_to_move());
  Bitboard out = 0;
  for (Move m : moves) {
    if (m.from() == king && !m.is_castle()) out |= Bitboard(1) << m.to();
  }
  return out;
}

TEST(ChipCheckClasses, EscapeSquaresAreTheCoresKingMovesOutsideChecks) {
  // Not in check, the attack maps are exact: the escape squares are the king's legal moves. In
  // check by a slider the maps do not look through the king, so the square behind it may count
  // as an escape it is not: the escapes then contain the legal king moves.
  int in_check = 0, checked = 0, xray = 0;
  for (const std::string& fen : testdata::shared_positions()) {
    Position pos = Position::from_fen(fen);
    const BoardSets sets = sets_of(pos);
    const ArrayModel array(sets, pos.side_to_move() == BLACK, 0, false, 0);
    const Bitboard escapes = array.king_escapes();
    const Bitboard legal = core_king_moves(pos);
    EXPECT_EQ(array.king_ring(), attacks::king[pos.king_square(pos.side_to_move())]) << fen;
    if (pos.in_check()) {
      ++in_check;
      EXPECT_EQ(escapes & legal, legal) << fen;
      xray += escapes != legal;
    } else {
      EXPECT_EQ(escapes, legal) << fen;
    }
    ++checked;
  }
  EXPECT_GT(checked, 900);
  EXPECT_GT(in_check, 20);
  EXPECT_GT(xray, 0);  // the approximation shows up in the data
}

// The class of the check the piece on `to` ("a8") gives (the checked side to move).
ArrayModel::CheckClass class_of(const char* fen, const char* square) {
  const Square to = make_square(square[0] - 'a', square[1] - '1');
  const Position pos = Position::from_fen(fen);
  EXPECT_TRUE(pos.in_check()) << fen;
  const BoardSets sets = sets_of(pos);
  return ArrayModel(sets, pos.side_to_move() == BLACK, 0, false, 0).check_class(to);
}

TEST(ChipCheckClasses, HandMadeChecks) {
  using C = ArrayModel::CheckClass;
  // Back-rank rook check, the king in the corner behind its pawns: no escape square.
  EXPECT_EQ(class_of("R6k/6pp/8/8/8/8/8/6K1 b - - 0 1", "a8"), C::kMating);
  // Queen contact check: mating whatever the escapes (here the king may take it).
  EXPECT_EQ(class_of("5Qk1/6pp/8/8/8/8/8/6K1 b - - 0 1", "f8"), C::kMating);
  // Rook contact check, the king may take: singular.
  EXPECT_EQ(class_of("5Rk1/6pp/8/8/8/8/8/6K1 b - - 0 1", "f8"), C::kSingular);
  // Knight check with exactly one escape square (g8): singular.
  EXPECT_EQ(class_of("7k/6pp/6N1/8/8/8/8/6K1 b - - 0 1", "g6"), C::kSingular);
  // Knight check with three escape squares: plain; the same with a hung black knight: singular.
  EXPECT_EQ(class_of("7k/8/6N1/8/8/8/8/6K1 b - - 0 1", "g6"), C::kPlain);
  EXPECT_EQ(class_of("7k/8/6N1/8/8/8/n7/R5K1 b - - 0 1", "g6"), C::kSingular);
  // Bishop check from afar with four escape squares: plain.
  EXPECT_EQ(class_of("6k1/8/8/3B4/8/8/8/6K1 b - - 0 1", "d5"), C::kPlain);
  // The x-ray approximation: the rook on a8 checks the king on g8; h8 is behind the king on the
  // rank, counted as an escape: one escape square, singular (a mate nonetheless).
  EXPECT_EQ(class_of("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", "a8"), C::kSingular);
}

// The model's fast paths against their plain definitions on every shared data position: the
// target arbiter (class, ring and square sets) against the key-by-key scan for every limit, the
// king-capture test from the king's square against the attack maps, and piece sets changed
// square by square against sets built from the whole board.
TEST(ChipArrayFastPaths, MatchTheirDefinitions) {
  int checked = 0;
  for (const std::string& fen : testdata::shared_positions()) {
    const Position pos = Position::from_fen(fen);
    const BoardSets sets = sets_of(pos);
    BoardSets changed;
    for (int s = 63; s >= 0; --s) changed.set(s, sets.board[std::size_t(s)]);
    changed.set(0, CHIP_QUEEN), changed.set(0, sets.board[0]);  // a square written and put back
    EXPECT_EQ(changed.occupied, sets.occupied) << fen;
    for (int c = 0; c < 2; ++c) EXPECT_EQ(changed.color[c], sets.color[c]) << fen;
    for (int t = 0; t < 7; ++t) EXPECT_EQ(changed.type[t], sets.type[t]) << fen;
    EXPECT_EQ(changed.hash, sets.hash) << fen;
    EXPECT_NE(sets.hash, BoardSets{}.hash) << fen;
    const bool ep_valid = pos.ep_square() != SQ_NONE;
    const ArrayModel array(sets, pos.side_to_move() == BLACK, pos.castling_rights(), ep_valid,
                           std::uint8_t(ep_valid ? pos.ep_square() : 0));
    for (int c = 0; c < 2; ++c) {
      for (int sq = 0; sq < 64; ++sq) {
        sets.attacks_ready = false;
        const bool direct = sets.square_attacked(sq, c);
        sets.compute_attacks();
        ASSERT_EQ(direct, (sets.attacked[c] >> sq & 1) != 0) << fen << " square " << sq;
      }
    }
    for (const GenFilter filter : {GenFilter::kAll, GenFilter::kCaptures, GenFilter::kChecks}) {
      EXPECT_EQ(array.arbitrate_target(filter, false, 0), array.arbitrate_target_reference(filter, false, 0)) << fen;
      for (int last = 0; last < 64; ++last) {
        ASSERT_EQ(array.arbitrate_target(filter, true, last), array.arbitrate_target_reference(filter, true, last))
            << fen << " last " << last;
      }
    }
    ++checked;
  }
  EXPECT_GT(checked, 900);
}

}  // namespace
}  // namespace db::chip
