// The verilated chip against the reference model (lock-step, every clock) and the published counts.
#include <gtest/gtest.h>

#include "chip/chip_client.h"
#include "chip/chip_regs.h"
#include "chip/rtl_backend.h"
#include "chip_data.h"

namespace db::chip {
namespace {

TEST(ChipRtl, IdentifiesItself) {
  ChipClient chip(make_backend("rtl"));
  EXPECT_EQ(chip.read(reg::ID), CHIP_ID);
  EXPECT_EQ(chip.read(reg::VERSION), CHIP_VERSION);
}

TEST(ChipRtl, StartPositionPerftInLockStep) {
  ChipClient chip(make_backend("cosim"));
  chip.load(Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
  EXPECT_EQ(chip.perft(1), 20u);
  EXPECT_EQ(chip.perft(2), 400u);
  EXPECT_EQ(chip.perft(3), 8902u);
}

}  // namespace
}  // namespace db::chip
