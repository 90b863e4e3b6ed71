// Bad input at the host interface gets a defined error status, never a hang or garbage, on the
// model and on the RTL (co-simulated, so both must give the same answer on every clock).
#include <gtest/gtest.h>

#include "chip/chip_client.h"
#include "chip/chip_regs.h"
#include "chip/model/ctrl_regs.h"
#include "chip/rtl_backend.h"

namespace db::chip {
namespace {

class ChipErrors : public ::testing::TestWithParam<std::string> {
 protected:
  ChipErrors() : chip_(make_backend(GetParam())) {
    chip_.load(Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
  }
  std::uint32_t error_code() { return field::error::CODE.get(chip_.read(reg::ERROR)); }
  std::uint32_t error_addr() { return field::error::ADDR.get(chip_.read(reg::ERROR)); }
  std::uint32_t status() { return chip_.read(reg::STATUS); }
  BusResponse raw(bool write, std::uint32_t addr, std::uint32_t data = 0) {
    return chip_.backend().access(write, addr, data);
  }
  void clear_error() { chip_.write(reg::ERROR, 0); }
  // Starts a command and expects it to end with the error code (no hang).
  void expect_command_error(std::uint32_t cmd, std::uint32_t code) {
    try {
      chip_.run(cmd);
      ADD_FAILURE() << "command 0x" << std::hex << cmd << " did not fail";
    } catch (const ChipError& e) {
      EXPECT_EQ(e.code(), code) << e.what();
    }
    EXPECT_EQ(status() & 1, 0u) << "chip left busy";
  }

  ChipClient chip_;
};

TEST_P(ChipErrors, UnmappedAddressesAreRefusedAndRecorded) {
  for (std::uint32_t addr : {0x00006u, 0x0003Fu, 0x00088u, 0x0010Au, 0x00210u, 0x011FFu, 0x01800u, 0x1FFFFu}) {
    const BusResponse r = raw(false, addr);
    EXPECT_TRUE(r.error) << std::hex << addr;
    EXPECT_EQ(r.data, 0u);
    EXPECT_EQ(error_code(), err::BAD_ADDRESS);
    EXPECT_EQ(error_addr(), addr);
    EXPECT_TRUE(status() & (1u << status_bit::ERROR));
    clear_error();
    EXPECT_EQ(error_code(), err::NONE);
    EXPECT_TRUE(raw(true, addr, 123).error);
    EXPECT_EQ(error_code(), err::BAD_ADDRESS);
    clear_error();
  }
  EXPECT_THROW(chip_.read(0x00007), ChipError);
}

TEST_P(ChipErrors, ReadOnlyRegistersRefuseWrites) {
  for (std::uint32_t addr : {reg::ID, reg::STATUS, reg::COUNT_LO, reg::HUNG_HI, reg::PLY}) {
    const std::uint32_t before = chip_.read(addr);
    EXPECT_TRUE(raw(true, addr, 0xFFFF).error);
    EXPECT_EQ(error_code(), err::READ_ONLY);
    clear_error();
    if (addr != reg::STATUS) {
      EXPECT_EQ(chip_.read(addr), before);
    }
  }
}

TEST_P(ChipErrors, SixteenBitRegistersRefuseWiderValues) {
  for (std::uint32_t addr : {reg::TEST_VALUE, reg::TEST_TIE, reg::SLOW_EST, reg::SEP_BONUS, reg::RUNNER_BONUS}) {
    SCOPED_TRACE(addr);
    chip_.write(addr, 0x8123);  // a valid 16-bit value (a negative score) reads back as written
    EXPECT_EQ(chip_.read(addr), 0x8123u);
    EXPECT_TRUE(raw(true, addr, 0x10000).error);
    EXPECT_EQ(error_code(), err::BAD_ARGUMENT);
    EXPECT_EQ(error_addr(), addr);
    clear_error();
    EXPECT_EQ(chip_.read(addr), 0x8123u);  // unchanged
  }
}

TEST_P(ChipErrors, BadPieceCodesAreRefused) {
  for (std::uint32_t code : {7u, 8u, 15u, 16u, 0x100u}) {
    EXPECT_TRUE(raw(true, reg::BOARD_BASE + 12, code).error) << code;
    EXPECT_EQ(error_code(), err::BAD_ARGUMENT);
    clear_error();
    EXPECT_EQ(chip_.read(reg::BOARD_BASE + 12), 1u);  // the white pawn on e2 is still there
  }
}

TEST_P(ChipErrors, BadCommandsModesAndDepths) {
  expect_command_error(0u, err::BAD_COMMAND);
  expect_command_error(11u, err::BAD_COMMAND);          // 10 is JOB
  expect_command_error(op::SEARCH, err::BAD_ARGUMENT);  // depth 0
  expect_command_error(op::JOB, err::BAD_ARGUMENT);     // depth 0
  expect_command_error(field::cmd::OP.put(op::GEN) | field::cmd::MODE.put(5), err::BAD_ARGUMENT);
  expect_command_error(op::PERFT, err::BAD_ARGUMENT);  // depth 0
  expect_command_error(op::UNMAKE, err::STACK);        // nothing made
  chip_.write(reg::MOVE, 0x8000 | 28 << 6 | 12);       // e2e4 is fine...
  chip_.run(op::MAKE);
  EXPECT_EQ(chip_.read(reg::PLY), 1u);
  chip_.write(reg::MOVE, 0x8000 | 35 << 6 | 51);  // d7d5 is legal for black
  chip_.run(op::MAKE);
  expect_command_error(field::cmd::OP.put(op::PERFT) | field::cmd::DEPTH.put(31),
                       err::BAD_ARGUMENT);       // no room for 2 + 31 plies
  chip_.write(reg::MOVE, 0x8000 | 36 << 6 | 4);  // e1e5: not a move
  expect_command_error(op::MAKE, err::BAD_MOVE);
  chip_.write(reg::MOVE, 0x8000 | 20 << 6 | 12);  // e2e3: the pawn left e2
  expect_command_error(op::MAKE, err::BAD_MOVE);
  chip_.write(reg::MOVE, 0x8000 | 0x4000 | 28 << 6 | 12);  // a promotion flag on a quiet move
  expect_command_error(op::GEN, err::BAD_MOVE);
  EXPECT_EQ(chip_.read(reg::PLY), 2u);  // failed commands leave the stack alone
}

TEST_P(ChipErrors, IllegalMoveIntoCheckIsRefused) {
  // The e-file is open: the king may not step onto it.
  chip_.load(Position::from_fen("4r2k/8/8/8/8/8/8/3K4 w - - 0 1"));
  chip_.write(reg::MOVE, 0x8000 | 4 << 6 | 3);  // d1e1
  expect_command_error(op::MAKE, err::BAD_MOVE);
  EXPECT_EQ(chip_.read(reg::BOARD_BASE + 3), 6u);  // the king is back on d1
}

TEST_P(ChipErrors, WritesWhileBusyAreRefusedAndAbortStops) {
  chip_.write(reg::CMD, field::cmd::OP.put(op::PERFT) | field::cmd::DEPTH.put(5));
  EXPECT_TRUE(status() & 1);
  EXPECT_TRUE(raw(true, reg::BOARD_BASE + 20, 2).error);
  EXPECT_EQ(error_code(), err::BUSY);
  EXPECT_EQ(error_addr(), reg::BOARD_BASE + 20);
  EXPECT_TRUE(raw(true, reg::CMD, field::cmd::OP.put(op::PERFT) | field::cmd::DEPTH.put(1)).error);
  EXPECT_EQ(error_code(), err::BUSY);
  clear_error();  // ERROR may be cleared while busy
  EXPECT_EQ(error_code(), err::NONE);
  chip_.backend().tick(1000);
  EXPECT_TRUE(status() & 1);
  chip_.write(reg::ABORT, 1);
  const std::uint32_t s = status();
  EXPECT_EQ(s & 1, 0u);
  EXPECT_TRUE(s & (1u << status_bit::ABORTED));
  EXPECT_TRUE(s & (1u << status_bit::DONE));
  EXPECT_EQ(chip_.read(reg::PLY), 0u);
  // Ready for the next command once the position is reloaded.
  chip_.load(Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
  EXPECT_EQ(chip_.perft(2), 400u);
  EXPECT_EQ(status() & (1u << status_bit::ABORTED), 0u);
}

TEST_P(ChipErrors, ClearEmptiesTheBoard) {
  chip_.run(op::CLEAR);
  for (int s = 0; s < 64; ++s) EXPECT_EQ(chip_.read(reg::BOARD_BASE + s), 0u);
  EXPECT_EQ(chip_.read(reg::FULLMOVE), 1u);
  EXPECT_TRUE(chip_.generate(GenMode::ALL).empty());
}

INSTANTIATE_TEST_SUITE_P(Backends, ChipErrors, ::testing::Values("model", "cosim"));

// The host write decode (rtl/ctrl_regs.sv) tests its own regions before the slow evaluation's,
// which is right only if no address belongs to two regions: checked here on every address of the
// 17-bit map (the RTL asserts it on every request it sees, a_regions_disjoint).
TEST(RegisterMap, EveryAddressBelongsToAtMostOneRegion) {
  int mapped = 0, tables = 0;
  for (std::uint32_t addr = 0; addr < (1u << 17); ++addr) {
    const CtrlRegs::Decode d = CtrlRegs::decode(addr);
    const int regions = d.is_board + d.is_pst + d.is_phase_ram + d.is_reg_ro + d.is_reg_rw + d.is_board_pack +
                        d.is_job_hist + d.se_reg_hit + d.se_tab_hit + d.se_grp_hit;
    ASSERT_LE(regions, 1) << "address 0x" << std::hex << addr;
    mapped += regions;
    tables += d.se_tab_hit;
  }
  // Every region is there: the board, the tables, a register of each kind.
  EXPECT_TRUE(CtrlRegs::decode(reg::BOARD_BASE + 63).is_board);
  EXPECT_TRUE(CtrlRegs::decode(reg::CMD).is_reg_rw);
  EXPECT_TRUE(CtrlRegs::decode(reg::STATUS).is_reg_ro);
  EXPECT_TRUE(CtrlRegs::decode(EVAL_REGS_BASE).se_reg_hit);
  EXPECT_TRUE(CtrlRegs::decode(EVAL_TABLES_BASE).se_tab_hit);
  EXPECT_GT(tables, 1000);
  EXPECT_GT(mapped, tables + int(reg::PHASE_RAM_COUNT + reg::PST_COUNT + reg::BOARD_COUNT));
}

}  // namespace
}  // namespace db::chip
