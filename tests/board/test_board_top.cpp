// The whole board simulated (`-L deep`): the verilated board top with its RTL chip behind the UART
// at the board's own 3 Mbaud, spoken to with host/link's frames and messages, against the
// reference model: the same words and the same chip clocks, RUN clock for clock, the LEDs, HELLO
// ending the previous session and a frame cut by the inter-byte timeout.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "../link/chip_requests.h"
#include "board_top_board.h"
#include "chess/position.h"
#include "chip/chip_client.h"
#include "chip/chip_model.h"
#include "chip/chip_regs.h"
#include "link/frame.h"
#include "link/messages.h"
#include "link_reference.h"

namespace {

using namespace db::link;
using db::link::test::expect_same;
using db::link::test::reference_access;
using db::link::test::reference_run;
namespace reg = db::chip::reg;

constexpr std::uint64_t kLimit = 200'000'000;

class BoardTop : public ::testing::Test {
 protected:
  Frame request(std::uint8_t t, const std::vector<std::uint8_t>& payload) {
    Frame f;
    f.type = t;
    f.seq = seq_++;
    f.payload = payload;
    const std::vector<std::uint8_t> w = encode_frame(f);
    board_.receive(w.data(), w.size());
    std::vector<std::uint8_t> out;
    EXPECT_LT(board_.run(kLimit, out), kLimit) << "the board never became idle";
    auto r = decoder_.feed(out.data(), out.size());
    EXPECT_EQ(r.size(), 1u);
    if (r.empty()) return Frame{};
    EXPECT_TRUE(r[0].ok) << r[0].message;
    EXPECT_EQ(r[0].frame.seq, f.seq);
    return r[0].frame;
  }
  AccessReply access(const Access& a) {
    const Frame f = request(type::ACCESS, a.encode());
    EXPECT_EQ(f.type, type::ACCESS_REPLY) << type_name(f.type);
    return f.type == type::ACCESS_REPLY ? AccessReply::decode(f.payload) : AccessReply{};
  }
  void hello_and_claim() {
    Frame f = request(type::HELLO, Hello{}.encode());
    ASSERT_EQ(f.type, type::HELLO_REPLY);
    const HelloReply h = HelloReply::decode(f.payload);
    EXPECT_EQ(h.backend, std::uint8_t(Backend::BOARD));
    EXPECT_EQ(h.chips_total, 1);
    f = request(type::CLAIM, Claim{1}.encode());
    ASSERT_EQ(f.type, type::CLAIM_REPLY);
    ASSERT_EQ(ClaimReply::decode(f.payload).chips, std::vector<std::uint16_t>{0});
  }

  db::rtl::BoardTopBoard board_;
  FrameDecoder decoder_;
  std::uint16_t seq_ = 0;
};

TEST_F(BoardTop, AccessMatchesTheModel) {
  EXPECT_EQ(board_.baud(), 3000000u);
  hello_and_claim();
  db::chip::ChipModel ref;
  std::uint64_t tag = 0;
  const db::Position pos = db::Position::from_fen(db::kStartFen);
  std::vector<std::uint32_t> board;
  for (int s = 0; s < 64; ++s) board.push_back(db::chip::to_chip_piece(pos.piece_on(db::Square(s))));
  Access a;
  a.ops = {AccessOp::read(reg::ID),
           AccessOp::read(reg::VERSION),
           AccessOp::write(reg::HALFMOVE, 9),
           AccessOp::read(reg::HALFMOVE),
           AccessOp::block_write(reg::BOARD_BASE, board),
           AccessOp::block_read(reg::BOARD_BASE, 64),
           AccessOp::tick(500),
           AccessOp::read(reg::STATUS),
           AccessOp::write(reg::ID, 1),
           AccessOp::read(reg::STM)};
  const AccessReply want = reference_access(ref, tag, a);
  EXPECT_EQ(want.failed_op, 8);
  expect_same(access(a), want);
  const Frame f = request(type::DEBUG, ChipRef{0}.encode());
  ASSERT_EQ(f.type, type::DEBUG_REPLY);
  EXPECT_EQ(DebugReply::decode(f.payload).clock, ref.clock());
}

TEST_F(BoardTop, PerftAndSearchRunClockForClock) {
  hello_and_claim();
  db::chip::ChipModel ref;
  std::uint64_t tag = 0;
  const db::Position pos = db::Position::from_fen(db::kStartFen);
  const Access start = test::perft_start(0, pos, 2);
  expect_same(access(start), reference_access(ref, tag, start));
  const db::link::Run perft = test::perft_wait(0, 16);
  Frame f = request(type::RUN, perft.encode());
  ASSERT_EQ(f.type, type::RUN_REPLY);
  RunReply got = RunReply::decode(f.payload);
  expect_same(got, reference_run(ref, perft));
  ASSERT_EQ(got.words.size(), 3u);
  EXPECT_EQ(got.words[0], 400u);
  EXPECT_TRUE(board_.led_done());
  EXPECT_FALSE(board_.led_err());
  // A search job on the same chip.
  const db::Position mid = db::Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
  db::chip::SearchParams params;
  params.depth = 2;
  Access a = test::search_job_start(0, mid, params);
  expect_same(access(a), reference_access(ref, tag, a));
  const db::link::Run run = test::search_wait(0, 16);
  f = request(type::RUN, run.encode());
  ASSERT_EQ(f.type, type::RUN_REPLY);
  got = RunReply::decode(f.payload);
  expect_same(got, reference_run(ref, run));
  // RESET gives a new chip at clock 0.
  EXPECT_EQ(request(type::RESET, ChipRef{0}.encode()).type, type::OK);
  a.ops = {AccessOp::read(reg::ID)};
  db::chip::ChipModel fresh;
  expect_same(access(a), reference_access(fresh, tag, a));
  // A damaged frame lights the error LED.
  const std::vector<std::uint8_t> bad = {0x05, 0x11, 0x00};
  board_.receive(bad.data(), bad.size());
  std::vector<std::uint8_t> out;
  board_.run(kLimit, out);
  EXPECT_TRUE(board_.led_err());
  RecordProperty("board_clocks", std::to_string(board_.clocks()));
}

// The UART rules of docs/link.md on the whole board: a HELLO ends the previous host's session (its
// RUN never answers, the busy LED goes out, the chip is free and restarts at clock 0 when claimed),
// and a frame the host stopped sending is cut by the 100 ms inter-byte timeout and answered ERROR
// BAD_FRAME 0xFFFF when boardsim's quiet rule clocks the board through it (`run(timeout + 1)`).
TEST_F(BoardTop, HelloEndsTheSessionAndACutFrameIsAnswered) {
  hello_and_claim();
  db::link::Run run;
  run.quantum = 64;
  run.poll_addr = reg::STATUS;
  run.poll_mask = 0;
  run.poll_value = 1;  // never met: runs until something ends it
  Frame f;
  f.type = type::RUN;
  f.seq = seq_++;
  f.payload = run.encode();
  std::vector<std::uint8_t> w = encode_frame(f);
  board_.receive(w.data(), w.size());
  std::vector<std::uint8_t> out;
  board_.advance(50000, out);
  EXPECT_TRUE(board_.led_busy());
  f = request(type::HELLO, Hello{}.encode());  // the RUN's reply would come before it
  ASSERT_EQ(f.type, type::HELLO_REPLY);
  EXPECT_EQ(HelloReply::decode(f.payload).chips_free, 1);
  EXPECT_FALSE(board_.led_busy());
  out.clear();
  board_.advance(100000, out);
  EXPECT_TRUE(out.empty());
  hello_and_claim();
  Access a;
  a.ops = {AccessOp::read(reg::ID)};
  EXPECT_EQ(access(a).clock, 1u);
  // Half a frame, then the host is quiet: the board waits (idle) until run(timeout + 1).
  f.type = type::DEBUG;
  f.seq = seq_++;
  f.payload = ChipRef{0}.encode();
  w = encode_frame(f);
  board_.receive(w.data(), w.size() / 2);
  while (!board_.idle()) board_.run(8192, out);
  EXPECT_TRUE(out.empty());
  EXPECT_GE(board_.run(db::rtl::BoardTopBoard::kTimeoutClocks + 1, out), db::rtl::BoardTopBoard::kTimeoutClocks - 8192);
  while (!board_.idle()) board_.run(8192, out);
  const auto r = decoder_.feed(out.data(), out.size());
  ASSERT_EQ(r.size(), 1u);
  ASSERT_TRUE(r[0].ok);
  ASSERT_EQ(r[0].frame.type, type::ERROR);
  EXPECT_EQ(r[0].frame.seq, kNoSeq);
  EXPECT_EQ(int(ErrorReply::decode(r[0].frame.payload).code), int(ErrorCode::BAD_FRAME));
  EXPECT_TRUE(board_.led_err());
  f = request(type::DEBUG, ChipRef{0}.encode());
  ASSERT_EQ(f.type, type::DEBUG_REPLY);
  EXPECT_EQ(DebugReply::decode(f.payload).clock, 1u);
}

}  // namespace
