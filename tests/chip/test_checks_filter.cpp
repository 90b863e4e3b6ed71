// The array's checks filter (GEN's CHECKS mode and the quiescence search's checks) against the
// chess core on every position of the shared data: it passes every checking non-capture, and
// passes a non-capture that does not check only where it cannot tell (a discoverer moving, a
// promotion, castling); and GEN's CHECKS mode through the filter yields the core's checking moves.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

#include "board_sets_of.h"
#include "chess/movegen.h"
#include "chess/position.h"
#include "chip/array_model.h"
#include "chip/chip_client.h"
#include "chip/chip_model.h"
#include "chip_data.h"
#include "support/core_reference.h"

namespace db::chip {
namespace {

// The filter passes the non-capture m: its target is a candidate under it and its mover bids.
bool filter_passes(const ArrayModel& array, Move m) {
  const bool target = (array.target_candidates(GenFilter::kChecks) >> m.to() & 1) != 0;
  Bitboard movers = array.attackers_of(m.to()) & array.check_attackers(m.to());
  return target && (movers >> m.from() & 1) != 0;
}

TEST(ChipChecksFilter, EveryCheckPassesAndDirectChecksExactly) {
  long checks = 0, quiet = 0, passed_quiet = 0, loose = 0;
  int positions = 0, with_discoverers = 0;
  for (const std::string& fen : testdata::shared_positions()) {
    Position pos = Position::from_fen(fen);
    const BoardSets sets = sets_of(pos);
    const bool ep_valid = pos.ep_square() != SQ_NONE;
    const ArrayModel array(sets, pos.side_to_move() == BLACK, pos.castling_rights(), ep_valid,
                           std::uint8_t(ep_valid ? pos.ep_square() : 0));
    const Bitboard discoverers = array.discoverers();
    with_discoverers += discoverers != 0;
    // Every capture passes the target filter as it is.
    EXPECT_EQ(array.target_candidates(GenFilter::kChecks) & pos.pieces(),
              array.target_candidates(GenFilter::kAll) & pos.pieces())
        << fen;
    MoveList list;
    generate_legal(pos, list);
    for (Move m : list) {
      if (m.is_capture()) continue;
      ++quiet;
      pos.make_move(m);
      const bool gives_check = pos.in_check();
      pos.unmake_move(m);
      const bool passes = filter_passes(array, m);
      passed_quiet += passes;
      if (gives_check) {
        ++checks;
        ASSERT_TRUE(passes) << fen << " " << int(m.from()) << "-" << int(m.to());
      } else if (passes) {
        // Passed without checking: only where the filter cannot tell.
        const bool unknown = (discoverers >> m.from() & 1) || m.is_promotion() || m.is_castle();
        ASSERT_TRUE(unknown) << fen << " " << int(m.from()) << "-" << int(m.to());
        ++loose;
      }
    }
    ++positions;
  }
  EXPECT_GT(positions, 900);
  EXPECT_GT(checks, 500);
  EXPECT_GT(with_discoverers, 10);
  // The filter leaves out most non-captures (the point of it).
  EXPECT_LT(passed_quiet * 5, quiet) << passed_quiet << " of " << quiet << " non-captures passed, " << loose
                                     << " of them without check";
}

TEST(ChipChecksFilter, DiscoverersAreTheMenBetweenAFriendlySliderAndTheOtherKing) {
  // White to move: the knight on e4 stands alone between the rook on e1 and the king on e8; the
  // queen, bishop and pawn on the b3-g8 diagonal are on no line to the king.
  const Position pos = Position::from_fen("4k3/8/8/3P4/2B1N3/1Q6/8/4RK2 w - - 0 1");
  const BoardSets sets = sets_of(pos);
  const ArrayModel array(sets, false, 0, false, 0);
  EXPECT_EQ(array.discoverers(), square_bb(make_square(4, 3)));
  // Every empty square is then a candidate target (the knight's reach is not known).
  EXPECT_EQ(array.check_targets(), ~pos.pieces());
}

TEST(ChipChecksFilter, CheckingMovesOfTheGenModeOnTheModel) {
  // GEN's CHECKS mode runs through the filter (and GENATT's no-attacker path): the moves it yields
  // are the core's checking moves on every shared data position.
  ChipClient chip(std::make_unique<ChipModel>());
  int positions = 0;
  for (const std::string& fen : testdata::shared_positions()) {
    const Position pos = Position::from_fen(fen);
    chip.load(pos);
    std::vector<std::uint16_t> got = chip.generate(GenMode::CHECKS);
    std::sort(got.begin(), got.end());
    ASSERT_EQ(got, reference::expected_moves(pos, GenMode::CHECKS)) << fen;
    ++positions;
  }
  EXPECT_GT(positions, 900);
}

}  // namespace
}  // namespace db::chip
