// The stand-in board of `deepblue boardsim --board service`, in process: frames answered by the link
// service, HELLO beginning a new session, the inter-byte timeout dropping a cut frame, the test hooks
// that drop or damage replies; and the board registry.
#include <gtest/gtest.h>

#include <stdexcept>

#include "chip/chip_regs.h"
#include "link/frame.h"
#include "link/messages.h"
#include "tools/board_registry.h"
#include "tools/service_board.h"

namespace db::boardsim {
namespace {

namespace reg = db::chip::reg;
using link::AccessOp;
using link::Frame;

std::vector<std::uint8_t> frame_bytes(std::uint8_t type, std::uint16_t seq, std::vector<std::uint8_t> payload) {
  Frame f;
  f.type = type;
  f.seq = seq;
  f.payload = std::move(payload);
  return link::encode_frame(f);
}

std::vector<std::uint8_t> hello(std::uint16_t seq) {
  return frame_bytes(link::type::HELLO, seq, link::Hello{}.encode());
}

// Feeds bytes, runs the board until it is idle, returns the frames it sent (and counts the bad ones).
struct Host {
  explicit Host(ServiceBoard& b) : board(b) {}
  ServiceBoard& board;
  link::FrameDecoder decoder;
  int bad = 0;
  std::vector<Frame> exchange(const std::vector<std::uint8_t>& bytes, std::uint64_t clocks = 1000) {
    board.receive(bytes.data(), bytes.size());
    std::vector<std::uint8_t> out;
    do {
      board.run(clocks, out);
    } while (!board.idle());
    std::vector<Frame> frames;
    for (link::DecodeResult& r : decoder.feed(out.data(), out.size())) {
      if (r.ok) {
        frames.push_back(std::move(r.frame));
      } else {
        ++bad;
      }
    }
    return frames;
  }
};

TEST(ServiceBoard, AnswersFramesAtOnce) {
  ServiceBoard board(BoardOptions{});
  Host host{board};
  EXPECT_TRUE(board.idle());
  std::vector<std::uint8_t> bytes = hello(7);
  const auto claim = frame_bytes(link::type::CLAIM, 8, link::Claim{1}.encode());
  bytes.insert(bytes.end(), claim.begin(), claim.end());
  const std::vector<Frame> replies = host.exchange(bytes);
  ASSERT_EQ(replies.size(), 2u);
  EXPECT_EQ(replies[0].type, link::type::HELLO_REPLY);
  EXPECT_EQ(replies[0].seq, 7);
  EXPECT_EQ(link::HelloReply::decode(replies[0].payload).name, "deepblue boardsim service");
  EXPECT_EQ(replies[1].type, link::type::CLAIM_REPLY);
  EXPECT_EQ(board.baud(), 3000000u);
  EXPECT_NE(board.describe().find("no UART bit timing"), std::string::npos);
}

TEST(ServiceBoard, HelloBeginsANewSession) {
  ServiceBoard board(BoardOptions{});
  Host host{board};
  host.exchange(hello(0));
  auto r = host.exchange(frame_bytes(link::type::CLAIM, 1, link::Claim{1}.encode()));
  ASSERT_EQ(r.at(0).type, link::type::CLAIM_REPLY);
  r = host.exchange(frame_bytes(link::type::CLAIM, 2, link::Claim{1}.encode()));
  EXPECT_EQ(link::ErrorReply::decode(r.at(0).payload).code, link::ErrorCode::NO_CHIPS);
  r = host.exchange(hello(3));
  EXPECT_EQ(link::HelloReply::decode(r.at(0).payload).chips_free, 1);
  r = host.exchange(frame_bytes(link::type::CLAIM, 4, link::Claim{1}.encode()));
  EXPECT_EQ(r.at(0).type, link::type::CLAIM_REPLY);
}

// A frame cut short and a whole one after it: without the timeout they would run together into one
// bad frame and the whole one would be lost; with the board clocked through its timeout in between,
// the cut one is dropped (ERROR BAD_FRAME, sequence number 0xFFFF) and the whole one answered.
TEST(ServiceBoard, InterbyteTimeoutDropsACutFrame) {
  const std::vector<std::uint8_t> whole = hello(5);
  const std::vector<std::uint8_t> cut(whole.begin(), whole.begin() + 6);
  {
    ServiceBoard board(BoardOptions{});
    Host host{board};
    EXPECT_TRUE(host.exchange(cut).empty());
    std::vector<std::uint8_t> out;
    board.run(board.interbyte_timeout_clocks() - 1, out);
    EXPECT_TRUE(out.empty());
    board.run(1, out);  // the timeout's last clock
    link::FrameDecoder d;
    const auto results = d.feed(out.data(), out.size());
    ASSERT_EQ(results.size(), 1u);
    ASSERT_TRUE(results[0].ok);
    EXPECT_EQ(results[0].frame.seq, link::kNoSeq);
    EXPECT_EQ(link::ErrorReply::decode(results[0].frame.payload).code, link::ErrorCode::BAD_FRAME);
    EXPECT_NE(link::ErrorReply::decode(results[0].frame.payload).message.find("inter-byte timeout"), std::string::npos);
    const std::vector<Frame> replies = host.exchange(whole);
    ASSERT_EQ(replies.size(), 1u);
    EXPECT_EQ(replies[0].type, link::type::HELLO_REPLY);
    EXPECT_EQ(board.counters().timeouts, 1u);
  }
  {
    ServiceBoard board(BoardOptions{});
    Host host{board};
    host.exchange(cut);
    const std::vector<Frame> replies = host.exchange(whole);
    ASSERT_EQ(replies.size(), 1u);
    EXPECT_EQ(replies[0].type, link::type::ERROR);  // the two ran together
    EXPECT_EQ(board.counters().timeouts, 0u);
  }
}

TEST(ServiceBoard, TestHooksDropAndDamageReplies) {
  BoardOptions o;
  o.debug_drop_every = 2;
  ServiceBoard dropping(o);
  Host a{dropping};
  EXPECT_EQ(a.exchange(hello(1)).size(), 1u);
  EXPECT_EQ(a.exchange(hello(2)).size(), 0u);
  EXPECT_EQ(a.exchange(hello(3)).size(), 1u);
  EXPECT_EQ(dropping.counters().dropped, 1u);
  o = BoardOptions{};
  o.debug_garble_every = 2;
  ServiceBoard garbling(o);
  Host b{garbling};
  EXPECT_EQ(b.exchange(hello(1)).size(), 1u);
  b.exchange(hello(2));
  EXPECT_GE(b.bad, 1);
  EXPECT_EQ(garbling.counters().garbled, 1u);
}

// A RUN keeps the board busy (not idle) until it ends; the reply comes from a later run().
TEST(ServiceBoard, RunKeepsTheBoardBusy) {
  ServiceBoard board(BoardOptions{});
  Host host{board};
  host.exchange(hello(0));
  host.exchange(frame_bytes(link::type::CLAIM, 1, link::Claim{1}.encode()));
  // Poll TEST_VALUE for a value it never has, 3 quanta of 1,000,000 clocks: longer than the two
  // service slices (at most 2^18 clocks each) one run() does.
  const link::Run run{0, 1000000, 3, reg::TEST_VALUE, 0xFFFFFFFF, 1, {}};
  const auto bytes = frame_bytes(link::type::RUN, 2, run.encode());
  board.receive(bytes.data(), bytes.size());
  std::vector<std::uint8_t> out;
  board.run(1, out);
  EXPECT_TRUE(out.empty());
  EXPECT_FALSE(board.idle());
  const std::vector<Frame> replies = host.exchange({});
  ASSERT_EQ(replies.size(), 1u);
  const link::RunReply r = link::RunReply::decode(replies[0].payload);
  EXPECT_EQ(r.outcome, link::RunOutcome::BUDGET);
  EXPECT_EQ(r.quanta, 3u);
}

TEST(BoardRegistry, UnknownBoardNamesTheBoards) {
  try {
    make_board("ulx3s-12f", BoardOptions{});
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("unknown board 'ulx3s-12f' (boards: service"), std::string::npos) << e.what();
  }
  EXPECT_NE(make_board("service", BoardOptions{}), nullptr);
  BoardOptions o;
  o.chip_backend = "fpga";
  EXPECT_THROW(make_board("service", o), std::invalid_argument);
}

}  // namespace
}  // namespace db::boardsim
