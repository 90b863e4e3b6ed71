// The chip's reference model against data nobody here wrote: published perft counts, and the
// chess core's independent move lists for every generator mode.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

#include "chip/chip_client.h"
#include "chip/chip_model.h"
#include "chip/chip_regs.h"
#include "chip_data.h"
#include "support/core_reference.h"

namespace db::chip {
namespace {

#ifdef DB_CHIP_DEEP
constexpr int kMaxDepth = 4;
#else
constexpr int kMaxDepth = 3;
#endif

ChipClient model_client() { return ChipClient(std::make_unique<ChipModel>()); }

TEST(ChipModelPerft, PublishedCountsOfTheWholeFile) {
  const auto data = testdata::load_perft_file("perft-sf15-d1-d4.epd");
  ASSERT_GE(data.size(), 150u);
  ChipClient chip = model_client();
  for (const auto& p : data) {
    const Position pos = Position::from_fen(p.fen);
    for (int d = (kMaxDepth == 4 ? 4 : 1); d <= kMaxDepth && d <= int(p.counts.size()); ++d) {
      chip.load(pos);
      EXPECT_EQ(chip.perft(d), p.counts[d - 1]) << "line " << p.line << " depth " << d << ": " << p.fen;
    }
  }
}

#ifndef DB_CHIP_DEEP
void expect_modes_match_core(ChipClient& chip, const std::string& fen) {
  const Position pos = Position::from_fen(fen);
  chip.load(pos);
  for (GenMode mode : {GenMode::ALL, GenMode::CAPTURES, GenMode::CHECKS, GenMode::EVASIONS, GenMode::ATTACKS}) {
    std::vector<std::uint16_t> got = chip.generate(mode);
    const std::size_t n = got.size();
    std::sort(got.begin(), got.end());
    EXPECT_EQ(std::unique(got.begin(), got.end()) - got.begin(), std::ptrdiff_t(n)) << "duplicates: " << fen;
    EXPECT_EQ(got, reference::expected_moves(pos, mode)) << gen_mode_name(mode) << ": " << fen;
  }
  EXPECT_EQ(chip.in_check(), pos.in_check()) << fen;
  EXPECT_EQ(chip.hung(), reference::expected_hung(pos)) << fen;
  EXPECT_EQ(chip.pinned(), reference::expected_pinned(pos)) << fen;
}

// Absolute pins from first principles, square by square: from the king along each of the eight
// lines, the first man met is the side's own (not a king), the next one met an enemy bishop or
// queen (diagonal) or rook or queen (straight).
Bitboard pins_by_walking(const Position& pos) {
  const Color us = pos.side_to_move();
  const Square k = pos.king_square(us);
  Bitboard out = 0;
  for (int df = -1; df <= 1; ++df) {
    for (int dr = -1; dr <= 1; ++dr) {
      if (df == 0 && dr == 0) continue;
      const bool diagonal = df != 0 && dr != 0;
      int f = k % 8 + df, r = k / 8 + dr, own = -1;
      for (; f >= 0 && f < 8 && r >= 0 && r < 8; f += df, r += dr) {
        const Piece p = pos.piece_on(r * 8 + f);
        if (p == NO_PIECE) continue;
        if (own < 0) {
          if (color_of(p) != us || type_of(p) == KING) break;
          own = r * 8 + f;
          continue;
        }
        const PieceType t = type_of(p);
        if (color_of(p) != us && (t == QUEEN || t == (diagonal ? BISHOP : ROOK))) out |= square_bb(own);
        break;
      }
    }
  }
  return out;
}

TEST(ChipModelPins, PinnedMapMatchesTheCoreOnEveryPositionOfTheSharedData) {
  ChipClient chip = model_client();
  const std::vector<std::string> fens = testdata::shared_positions();
  ASSERT_GT(fens.size(), 1000u);
  std::size_t with_pins[2] = {0, 0};
  for (const std::string& fen : fens) {
    const Position pos = Position::from_fen(fen);
    chip.load(pos);
    const Bitboard got = chip.pinned();
    EXPECT_EQ(got, reference::expected_pinned(pos)) << fen;
    EXPECT_EQ(got, pins_by_walking(pos)) << fen;
    if (got) ++with_pins[pos.side_to_move()];
  }
  // The data has pins of both colours (otherwise the comparison would prove little).
  EXPECT_GT(with_pins[WHITE], 0u);
  EXPECT_GT(with_pins[BLACK], 0u);
}

TEST(ChipModelMovegen, EveryModeMatchesTheCoreOnPerftPositions) {
  ChipClient chip = model_client();
  for (const auto& p : testdata::load_perft_file("perft.epd")) expect_modes_match_core(chip, p.fen);
}

TEST(ChipModelMovegen, EveryModeMatchesTheCoreAlongRandomGames) {
  ChipClient chip = model_client();
  for (const auto& fen : testdata::random_game_positions(20261123, 12, 80)) expect_modes_match_core(chip, fen);
}

TEST(ChipModelMovegen, MakeAndUnmakeRestoreThePosition) {
  ChipClient chip = model_client();
  for (const auto& fen : testdata::random_game_positions(7, 6, 60)) {
    Position pos = Position::from_fen(fen);
    chip.load(pos);
    for (std::uint16_t m : chip.generate(GenMode::ALL)) {
      chip.make(m);
      const Move core = from_chip_move(pos, m);
      ASSERT_FALSE(core.is_none()) << chip_move_to_string(m) << " " << fen;
      pos.make_move(core);
      for (int s = 0; s < 64; ++s) ASSERT_EQ(chip.read(reg::BOARD_BASE + s), to_chip_piece(pos.piece_on(s))) << fen;
      EXPECT_EQ(chip.read(reg::STM), pos.side_to_move() == BLACK ? 1u : 0u);
      EXPECT_EQ(chip.read(reg::CASTLING), pos.castling_rights());
      EXPECT_EQ(chip.read(reg::HALFMOVE), std::uint32_t(pos.halfmove_clock()));
      EXPECT_EQ(chip.read(reg::FULLMOVE), std::uint32_t(pos.fullmove_number()));
      EXPECT_EQ(chip.read(reg::PLY), 1u);
      chip.unmake();
      pos.unmake_move(core);
      for (int s = 0; s < 64; ++s) ASSERT_EQ(chip.read(reg::BOARD_BASE + s), to_chip_piece(pos.piece_on(s))) << fen;
      EXPECT_EQ(chip.read(reg::PLY), 0u);
    }
  }
}
#endif

}  // namespace
}  // namespace db::chip
