// The verilated link bridge (rtl/board/link_bridge.sv) in front of a model chip, spoken to through
// link::SimulatedBoard at the UART's bit timing with host/link's own frame and message code: every
// message, every error code the bridge sends, RUN clock for clock against the model, ABORT while a
// RUN runs, HELLO beginning a new session, resynchronisation after garbage, a frame cut by the
// inter-byte timeout or a BREAK, a framing error, and a fuzz after which HELLO still answers.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <vector>

#include "../link/chip_requests.h"
#include "bridge_board.h"
#include "chess/position.h"
#include "chip/chip_client.h"
#include "chip/chip_model.h"
#include "chip/chip_regs.h"
#include "chip/rtl_backend.h"
#include "link/cobs.h"
#include "link/crc32.h"
#include "link/frame.h"
#include "link/messages.h"
#include "link_reference.h"

namespace {

using namespace db::link;
using db::link::test::expect_same;
using db::link::test::reference_access;
using db::link::test::reference_run;
namespace reg = db::chip::reg;

constexpr std::uint32_t kDiv = 4;                    // the simulation's fast UART: 4 clocks a bit
constexpr std::uint64_t kTimeout = 400 * 10 * kDiv;  // 400 byte times
constexpr std::uint64_t kLimit = 20'000'000;         // clocks before a test calls the bridge hung

// The bridge with a model chip, or with another backend ("rtl": the verilated chip, the one the
// other tests verilate already, driven through its harness instead of the board top's gated clock).
db::rtl::BridgeBoardOptions options(const std::string& backend = "model", int chips = 1) {
  db::rtl::BridgeBoardOptions o;
  o.chips = chips;
  o.divisor = kDiv;
  o.timeout_clocks = kTimeout;
  o.make_chip = [backend] { return db::chip::make_backend(backend); };
  return o;
}

// The decoded (un-COBSed) bytes of a frame, CRC included, for tests that damage them.
std::vector<std::uint8_t> raw_frame(std::uint8_t type, std::uint16_t seq, const std::vector<std::uint8_t>& payload,
                                    std::uint16_t len_field) {
  std::vector<std::uint8_t> d;
  d.reserve(payload.size() + 10);
  for (std::uint8_t b : {type, std::uint8_t(0), std::uint8_t(seq), std::uint8_t(seq >> 8), std::uint8_t(len_field),
                         std::uint8_t(len_field >> 8)}) {
    d.push_back(b);
  }
  for (std::uint8_t b : payload) d.push_back(b);
  const std::uint32_t crc = crc32(d.data(), d.size());
  for (int i = 0; i < 4; ++i) d.push_back(std::uint8_t(crc >> (8 * i)));
  return d;
}

std::vector<std::uint8_t> wire(const std::vector<std::uint8_t>& decoded) {
  std::vector<std::uint8_t> w = cobs_encode(decoded);
  w.push_back(0);
  return w;
}

class Bridge : public ::testing::Test {
 protected:
  explicit Bridge(const std::string& backend = "model", int chips = 1) : board_(options(backend, chips)) {}

  std::uint16_t send(std::uint8_t type, const std::vector<std::uint8_t>& payload) {
    Frame f;
    f.type = type;
    f.seq = seq_;
    f.payload = payload;
    send_bytes(encode_frame(f));
    const std::uint16_t s = seq_;
    seq_ = std::uint16_t(seq_ + 1 == kNoSeq ? 0 : seq_ + 1);
    return s;
  }
  void send_bytes(const std::vector<std::uint8_t>& b) { board_.receive(b.data(), b.size()); }

  // Runs until the board is idle; the frames and errors decoded from what it sent.
  std::vector<DecodeResult> settle() {
    std::vector<std::uint8_t> out;
    const std::uint64_t n = board_.run(kLimit, out);
    EXPECT_LT(n, kLimit) << "the bridge never became idle";
    return decoder_.feed(out.data(), out.size());
  }
  // Runs until `count` frames came (the board need not become idle: a RUN may go on).
  std::vector<DecodeResult> collect(std::size_t count) {
    std::vector<DecodeResult> got;
    std::uint64_t clocks = 0;
    while (got.size() < count && clocks < kLimit) {
      std::vector<std::uint8_t> out;
      board_.advance(1000, out);
      clocks += 1000;
      for (auto& r : decoder_.feed(out.data(), out.size())) got.push_back(std::move(r));
    }
    EXPECT_EQ(got.size(), count) << "replies missing after " << clocks << " clocks";
    return got;
  }
  // One request, its one reply.
  Frame request(std::uint8_t type, const std::vector<std::uint8_t>& payload) {
    const std::uint16_t s = send(type, payload);
    auto r = settle();
    EXPECT_EQ(r.size(), 1u);
    if (r.empty()) return Frame{};
    EXPECT_TRUE(r[0].ok) << r[0].message;
    EXPECT_EQ(r[0].frame.seq, s);
    return r[0].frame;
  }
  ErrorReply expect_error(std::uint8_t type, const std::vector<std::uint8_t>& payload, ErrorCode code) {
    const Frame f = request(type, payload);
    EXPECT_EQ(f.type, type::ERROR) << type_name(f.type);
    if (f.type != type::ERROR) return ErrorReply{};
    const ErrorReply e = ErrorReply::decode(f.payload);
    EXPECT_EQ(int(e.code), int(code)) << error_name(e.code);
    return e;
  }
  void claim() {
    const Frame f = request(type::CLAIM, Claim{1}.encode());
    ASSERT_EQ(f.type, type::CLAIM_REPLY);
    ASSERT_EQ(ClaimReply::decode(f.payload).chips, std::vector<std::uint16_t>{0});
  }
  AccessReply access(const Access& a) {
    const Frame f = request(type::ACCESS, a.encode());
    EXPECT_EQ(f.type, type::ACCESS_REPLY) << type_name(f.type);
    return f.type == type::ACCESS_REPLY ? AccessReply::decode(f.payload) : AccessReply{};
  }
  void hello_answers() {
    const Frame f = request(type::HELLO, Hello{}.encode());
    ASSERT_EQ(f.type, type::HELLO_REPLY);
    EXPECT_EQ(HelloReply::decode(f.payload).backend, std::uint8_t(Backend::BOARD));
  }

  db::rtl::BridgeBoard board_;
  FrameDecoder decoder_;
  std::uint16_t seq_ = 0;
};

TEST_F(Bridge, HelloDescribesTheBoard) {
  Hello h;
  h.name = "test";
  const Frame f = request(type::HELLO, h.encode());
  ASSERT_EQ(f.type, type::HELLO_REPLY);
  const HelloReply r = HelloReply::decode(f.payload);
  EXPECT_EQ(r.version, 1);
  EXPECT_EQ(r.chips_total, 1);
  EXPECT_EQ(r.chips_free, 1);
  EXPECT_EQ(r.backend, std::uint8_t(Backend::BOARD));
  EXPECT_EQ(r.clock_hz, 24000000u);
  EXPECT_EQ(r.max_payload, 4096);
  EXPECT_EQ(r.name, "deepblue board");
  EXPECT_EQ(board_.baud(), 6000000u);
  EXPECT_EQ(board_.describe(), "bridge+model x1 @ 6000000 baud");
  EXPECT_TRUE(board_.idle());
}

// Runs of more than 254 bytes without a 0x00 (COBS blocks of code 0xFF, which imply no 0x00) in a
// request (a long client name) and in a reply (tags read many times).
TEST_F(Bridge, LongRunsWithoutZeros) {
  Hello h;
  h.name = std::string(255, 'x');
  const Frame f = request(type::HELLO, h.encode());
  ASSERT_EQ(f.type, type::HELLO_REPLY);
  claim();
  Access a;
  a.ops.push_back(AccessOp::set_tag(0x0102030405060708ull));
  for (int i = 0; i < 100; ++i) a.ops.push_back(AccessOp::get_tag());
  const AccessReply r = access(a);
  ASSERT_EQ(r.words.size(), 200u);
  for (std::size_t i = 0; i < r.words.size(); i += 2) {
    EXPECT_EQ(r.words[i], 0x05060708u);
    EXPECT_EQ(r.words[i + 1], 0x01020304u);
  }
}

TEST_F(Bridge, ClaimReleaseReset) {
  claim();
  expect_error(type::CLAIM, Claim{1}.encode(), ErrorCode::NO_CHIPS);
  Frame f = request(type::CLAIM, Claim{0}.encode());  // count 0: none, no error
  ASSERT_EQ(f.type, type::CLAIM_REPLY);
  EXPECT_TRUE(ClaimReply::decode(f.payload).chips.empty());
  // The clock runs with accesses; RESET puts it back to 0 and the tag too.
  Access a;
  a.ops = {AccessOp::tick(100), AccessOp::set_tag(42), AccessOp::read(reg::ID)};
  EXPECT_EQ(access(a).clock, 101u);
  EXPECT_EQ(request(type::RESET, ChipRef{0}.encode()).type, type::OK);
  a.ops = {AccessOp::get_tag()};
  AccessReply r = access(a);
  EXPECT_EQ(r.clock, 0u);
  EXPECT_EQ(r.words, (std::vector<std::uint32_t>{0, 0}));
  EXPECT_EQ(request(type::RELEASE, ChipRef{0}.encode()).type, type::OK);
  expect_error(type::DEBUG, ChipRef{0}.encode(), ErrorCode::NOT_CLAIMED);
  f = request(type::CLAIM, Claim{kAllChips}.encode());
  ASSERT_EQ(f.type, type::CLAIM_REPLY);
  EXPECT_EQ(ClaimReply::decode(f.payload).chips, std::vector<std::uint16_t>{0});
}

// Over a UART a HELLO begins a new session (docs/link.md, HELLO): what the previous host left ends
// as when a TCP connection goes. The running RUN never answers, the ACCESS waiting behind it is
// dropped without a reply, the chip is reset (clock and tag 0) and released; HELLO then reports it
// free and a CLAIM gets it. The receive banks the RUN and the waiting request held are free again.
TEST_F(Bridge, HelloEndsThePreviousSession) {
  claim();
  Access a;
  a.ops = {AccessOp::tick(100), AccessOp::set_tag(42), AccessOp::read(reg::ID)};
  EXPECT_EQ(access(a).clock, 101u);
  db::link::Run run;
  run.quantum = 100;
  run.poll_addr = reg::STATUS;
  run.poll_mask = 0;
  run.poll_value = 1;  // never met, no budget: runs until something ends it
  send(type::RUN, run.encode());
  std::vector<std::uint8_t> out;
  board_.advance(20000, out);
  EXPECT_TRUE(board_.run_busy());
  Access waits;
  waits.ops = {AccessOp::read(reg::ID)};
  send(type::ACCESS, waits.encode());  // waits for the RUN
  board_.advance(5000, out);
  EXPECT_TRUE(decoder_.feed(out.data(), out.size()).empty());
  EXPECT_TRUE(board_.run_busy());
  const std::uint64_t resets = board_.chip_resets();
  Hello h;
  h.name = "next host";
  const std::uint16_t hs = send(type::HELLO, h.encode());
  auto r = collect(1);
  ASSERT_EQ(r.size(), 1u);
  ASSERT_TRUE(r[0].ok);
  EXPECT_EQ(r[0].frame.seq, hs);
  ASSERT_EQ(r[0].frame.type, type::HELLO_REPLY);
  EXPECT_EQ(HelloReply::decode(r[0].frame.payload).chips_free, 1);
  EXPECT_FALSE(board_.run_busy());
  EXPECT_EQ(board_.chip_resets(), resets + 1);
  // Neither the RUN nor the waiting ACCESS ever answers.
  out.clear();
  board_.advance(200000, out);
  EXPECT_TRUE(decoder_.feed(out.data(), out.size()).empty());
  EXPECT_TRUE(board_.idle());
  // The chip was released: DEBUG is NOT_CLAIMED; a CLAIM gets it with its clock and tag at 0.
  expect_error(type::DEBUG, ChipRef{0}.encode(), ErrorCode::NOT_CLAIMED);
  claim();
  Frame f = request(type::DEBUG, ChipRef{0}.encode());
  ASSERT_EQ(f.type, type::DEBUG_REPLY);
  EXPECT_EQ(DebugReply::decode(f.payload).clock, 0u);
  a.ops = {AccessOp::get_tag()};
  const AccessReply t = access(a);
  EXPECT_EQ(t.clock, 0u);
  EXPECT_EQ(t.words, (std::vector<std::uint32_t>{0, 0}));
  // Every receive bank is free again: a long ACCESS and two requests queued behind it all get one
  // (with a bank still held by the dead RUN or the dropped request, the last one would be BUSY).
  a.ops = {AccessOp::tick(20000)};
  const std::uint16_t s0 = send(type::ACCESS, a.encode());
  const std::uint16_t s1 = send(type::DEBUG, ChipRef{0}.encode());
  const std::uint16_t s2 = send(type::DEBUG, ChipRef{0}.encode());
  r = settle();
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].frame.seq, s0);
  EXPECT_EQ(r[0].frame.type, type::ACCESS_REPLY);
  EXPECT_EQ(r[1].frame.seq, s1);
  EXPECT_EQ(r[1].frame.type, type::DEBUG_REPLY);
  EXPECT_EQ(r[2].frame.seq, s2);
  EXPECT_EQ(r[2].frame.type, type::DEBUG_REPLY);
  // And a RUN runs to its end on the new session's chip.
  run.max_quanta = 3;
  f = request(type::RUN, run.encode());
  ASSERT_EQ(f.type, type::RUN_REPLY);
  EXPECT_EQ(int(RunReply::decode(f.payload).outcome), int(RunOutcome::BUDGET));
  EXPECT_EQ(RunReply::decode(f.payload).clock, 20000u + 3u * 101u);
}

// HELLO may be resent: a second one with nothing between answers the same and resets nothing more.
TEST_F(Bridge, HelloTwiceDoesNothingMore) {
  claim();
  const std::uint64_t resets = board_.chip_resets();
  for (int i = 0; i < 2; ++i) {
    const Frame f = request(type::HELLO, Hello{}.encode());
    ASSERT_EQ(f.type, type::HELLO_REPLY) << i;
    EXPECT_EQ(HelloReply::decode(f.payload).chips_free, 1) << i;
    EXPECT_EQ(board_.chip_resets(), resets + 1) << i;  // the claimed chip's reset, once
  }
  claim();
  EXPECT_EQ(board_.chip_resets(), resets + 2);
  // A HELLO refused (no common version) still begins the session, as the stand-in board does.
  Hello h;
  h.min_version = 2;
  h.max_version = 3;
  expect_error(type::HELLO, h.encode(), ErrorCode::VERSION);
  EXPECT_EQ(board_.chip_resets(), resets + 3);
  claim();
}

TEST_F(Bridge, AccessMatchesTheModel) {
  claim();
  db::chip::ChipModel ref;
  std::uint64_t tag = 0;
  const db::Position pos = db::Position::from_fen(db::kStartFen);
  std::vector<std::uint32_t> board;
  for (int s = 0; s < 64; ++s) board.push_back(db::chip::to_chip_piece(pos.piece_on(db::Square(s))));
  std::vector<std::uint32_t> phase(1000);
  for (std::size_t i = 0; i < phase.size(); ++i) phase[i] = std::uint32_t((i * 7) & 0xFF);
  Access a;
  a.ops = {AccessOp::write(reg::HALFMOVE, 7),
           AccessOp::read(reg::HALFMOVE),
           AccessOp::read(reg::ID),
           AccessOp::read(reg::VERSION),
           AccessOp::block_write(reg::BOARD_BASE, board),
           AccessOp::block_read(reg::BOARD_BASE, 64),
           AccessOp::tick(1000),
           AccessOp::set_tag(0x1122334455667788ull),
           AccessOp::get_tag(),
           AccessOp::read(reg::STATUS)};
  AccessReply want = reference_access(ref, tag, a);
  ASSERT_EQ(want.failed_op, kNoFailedOp);
  expect_same(access(a), want);
  // A payload near the limit: 1,000 words written, then read back (a 4,018-byte reply).
  a.ops = {AccessOp::block_write(reg::PHASE_RAM_BASE, phase)};
  want = reference_access(ref, tag, a);
  ASSERT_EQ(want.failed_op, kNoFailedOp);
  expect_same(access(a), want);
  a.ops = {AccessOp::block_read(reg::PHASE_RAM_BASE, 1000)};
  want = reference_access(ref, tag, a);
  EXPECT_EQ(want.words, phase);
  expect_same(access(a), want);
  // A bus error stops the batch: the op's index, the address, the words read before it.
  a.ops = {AccessOp::read(reg::HALFMOVE), AccessOp::block_read(reg::BOARD_BASE, 2), AccessOp::write(reg::ID, 1),
           AccessOp::read(reg::STM)};
  want = reference_access(ref, tag, a);
  ASSERT_EQ(want.failed_op, 2);
  expect_same(access(a), want);
  // DEBUG: the chip's clock without a clock of its own.
  const Frame f = request(type::DEBUG, ChipRef{0}.encode());
  ASSERT_EQ(f.type, type::DEBUG_REPLY);
  const DebugReply d = DebugReply::decode(f.payload);
  EXPECT_EQ(d.clock, ref.clock());
  EXPECT_EQ(d.state, ref.debug().state);
  EXPECT_EQ(d.nodes, ref.debug().nodes);
}

TEST_F(Bridge, PerftRunMatchesTheModelClockForClock) {
  claim();
  db::chip::ChipModel ref;
  std::uint64_t tag = 0;
  const db::Position pos = db::Position::from_fen(db::kStartFen);
  const Access start = test::perft_start(0, pos, 3);
  expect_same(access(start), reference_access(ref, tag, start));
  const db::link::Run run = test::perft_wait(0, 16);
  const Frame f = request(type::RUN, run.encode());
  ASSERT_EQ(f.type, type::RUN_REPLY);
  const RunReply got = RunReply::decode(f.payload);
  const RunReply want = reference_run(ref, run);
  expect_same(got, want);
  EXPECT_EQ(int(got.outcome), int(RunOutcome::DONE));
  ASSERT_EQ(got.words.size(), 3u);
  EXPECT_EQ(got.words[0], 8902u);  // perft(3) of the start position
  EXPECT_EQ(board_.runs_done(), 1u);
  RecordProperty("chip_clocks", std::to_string(got.clock));
  RecordProperty("board_clocks", std::to_string(board_.clocks()));
}

TEST_F(Bridge, SearchJobRunMatchesTheModel) {
  claim();
  db::chip::ChipModel ref;
  std::uint64_t tag = 0;
  const db::Position pos = db::Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
  db::chip::SearchParams params;
  params.depth = 2;
  const Access a = test::search_job_start(0, pos, params);
  expect_same(access(a), reference_access(ref, tag, a));
  const db::link::Run run = test::search_wait(0, 16);
  const Frame f = request(type::RUN, run.encode());
  ASSERT_EQ(f.type, type::RUN_REPLY);
  const RunReply got = RunReply::decode(f.payload);
  expect_same(got, reference_run(ref, run));
  std::array<std::uint32_t, 7> words{};
  ASSERT_EQ(got.words.size(), words.size());
  std::copy(got.words.begin(), got.words.end(), words.begin());
  const db::chip::SearchResult r = db::chip::search_result_of(words);
  EXPECT_TRUE(r.finished);
  EXPECT_GT(r.nodes, 10u);
}

// The same with the verilated RTL chip behind the bridge: the words and the clocks of the model.
class BridgeRtl : public Bridge {
 protected:
  BridgeRtl() : Bridge("rtl") {}
};

TEST_F(BridgeRtl, PerftAndSearchJobLikeTheModel) {
  EXPECT_EQ(board_.describe(), "bridge+rtl x1 @ 6000000 baud");
  claim();
  db::chip::ChipModel ref;
  std::uint64_t tag = 0;
  const Access start = test::perft_start(0, db::Position::from_fen(db::kStartFen), 3);
  expect_same(access(start), reference_access(ref, tag, start));
  const db::link::Run perft = test::perft_wait(0, 16);
  Frame f = request(type::RUN, perft.encode());
  ASSERT_EQ(f.type, type::RUN_REPLY);
  RunReply got = RunReply::decode(f.payload);
  expect_same(got, reference_run(ref, perft));
  ASSERT_EQ(got.words.size(), 3u);
  EXPECT_EQ(got.words[0], 8902u);
  const db::Position mid = db::Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
  db::chip::SearchParams params;
  params.depth = 3;
  const Access a = test::search_job_start(0, mid, params);
  expect_same(access(a), reference_access(ref, tag, a));
  const db::link::Run run = test::search_wait(0, 16);
  f = request(type::RUN, run.encode());
  ASSERT_EQ(f.type, type::RUN_REPLY);
  got = RunReply::decode(f.payload);
  expect_same(got, reference_run(ref, run));
  RecordProperty("search_clocks", std::to_string(got.clock));
}

// The NCHIPS parameter: the bridge verilated with two chip ports, two model chips.
class Bridge2 : public Bridge {
 protected:
  Bridge2() : Bridge("model", 2) {}
};

TEST_F(Bridge2, TwoChipsServedApart) {
  EXPECT_EQ(board_.describe(), "bridge+model x2 @ 6000000 baud");
  Frame f = request(type::HELLO, Hello{}.encode());
  EXPECT_EQ(HelloReply::decode(f.payload).chips_total, 2);
  EXPECT_EQ(HelloReply::decode(f.payload).chips_free, 2);
  f = request(type::CLAIM, Claim{1}.encode());
  EXPECT_EQ(ClaimReply::decode(f.payload).chips, std::vector<std::uint16_t>{0});
  f = request(type::CLAIM, Claim{kAllChips}.encode());
  EXPECT_EQ(ClaimReply::decode(f.payload).chips, std::vector<std::uint16_t>{1});
  EXPECT_EQ(expect_error(type::DEBUG, ChipRef{2}.encode(), ErrorCode::BAD_CHIP).detail, 2);
  // Chip 0 runs (until aborted); chip 1 is served meanwhile, with its own clock.
  db::link::Run forever;
  forever.chip = 0;
  forever.quantum = 64;
  forever.poll_addr = reg::STATUS;
  forever.poll_mask = 0;
  forever.poll_value = 1;
  const std::uint16_t run0 = send(type::RUN, forever.encode());
  db::chip::ChipModel ref1;
  std::uint64_t tag = 0;
  const Access start = test::perft_start(1, db::Position::from_fen(db::kStartFen), 2);
  const std::uint16_t acc1 = send(type::ACCESS, start.encode());
  auto r = collect(1);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].frame.seq, acc1);
  expect_same(AccessReply::decode(r[0].frame.payload), reference_access(ref1, tag, start));
  EXPECT_TRUE(board_.run_busy());
  // A RUN on chip 1 waits for chip 0's (one RUN at a time), and runs once chip 0's is aborted.
  const db::link::Run perft = test::perft_wait(1, 16);
  const std::uint16_t run1 = send(type::RUN, perft.encode());
  std::vector<std::uint8_t> out;
  board_.advance(30000, out);
  EXPECT_TRUE(decoder_.feed(out.data(), out.size()).empty());
  const std::uint16_t ab = send(type::ABORT, ChipRef{0}.encode());
  r = collect(3);
  std::map<std::uint16_t, Frame> by_seq;
  for (const auto& x : r) by_seq[x.frame.seq] = x.frame;
  EXPECT_EQ(int(RunReply::decode(by_seq[run0].payload).outcome), int(RunOutcome::ABORTED));
  EXPECT_EQ(by_seq[ab].type, type::OK);
  ASSERT_EQ(by_seq[run1].type, type::RUN_REPLY);
  const RunReply got = RunReply::decode(by_seq[run1].payload);
  expect_same(got, reference_run(ref1, perft));
  ASSERT_EQ(got.words.size(), 3u);
  EXPECT_EQ(got.words[0], 400u);
  // RELEASE of chip 1 leaves chip 0 alone.
  settle();
  EXPECT_EQ(request(type::RELEASE, ChipRef{1}.encode()).type, type::OK);
  expect_error(type::DEBUG, ChipRef{1}.encode(), ErrorCode::NOT_CLAIMED);
  f = request(type::DEBUG, ChipRef{0}.encode());
  ASSERT_EQ(f.type, type::DEBUG_REPLY);
  EXPECT_EQ(DebugReply::decode(f.payload).clock, RunReply::decode(by_seq[run0].payload).clock);
}

TEST_F(Bridge, RunBudgetStopsAfterItsLastPoll) {
  claim();
  db::chip::ChipModel ref;
  db::link::Run run;
  run.quantum = 50;
  run.max_quanta = 5;
  run.poll_addr = reg::STATUS;
  run.poll_mask = 0;
  run.poll_value = 1;  // never met
  run.reads = {reg::ID};
  const Frame f = request(type::RUN, run.encode());
  ASSERT_EQ(f.type, type::RUN_REPLY);
  const RunReply got = RunReply::decode(f.payload);
  expect_same(got, reference_run(ref, run));
  EXPECT_EQ(int(got.outcome), int(RunOutcome::BUDGET));
  EXPECT_EQ(got.clock, 5u * 51u);
  EXPECT_TRUE(got.words.empty());
}

TEST_F(Bridge, AbortEndsARunningRunAndDebugAnswersMeanwhile) {
  claim();
  db::link::Run run;
  run.quantum = 100;
  run.poll_addr = reg::STATUS;
  run.poll_mask = 0;
  run.poll_value = 1;  // never met, no budget: runs until aborted
  const std::uint16_t run_seq = send(type::RUN, run.encode());
  std::vector<std::uint8_t> out;
  board_.advance(20000, out);
  EXPECT_TRUE(board_.run_busy());
  EXPECT_FALSE(board_.idle());
  // DEBUG while it runs: the clock moves on.
  const std::uint16_t d1 = send(type::DEBUG, ChipRef{0}.encode());
  auto r = collect(1);
  ASSERT_EQ(r.size(), 1u);
  ASSERT_TRUE(r[0].ok);
  EXPECT_EQ(r[0].frame.seq, d1);
  const std::uint64_t c1 = DebugReply::decode(r[0].frame.payload).clock;
  EXPECT_GT(c1, 10000u);
  // An ACCESS for the running chip waits; a second one is BUSY.
  Access a;
  a.ops = {AccessOp::read(reg::ID)};
  const std::uint16_t a1 = send(type::ACCESS, a.encode());
  const std::uint16_t a2 = send(type::ACCESS, a.encode());
  r = collect(1);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].frame.seq, a2);
  EXPECT_EQ(int(ErrorReply::decode(r[0].frame.payload).code), int(ErrorCode::BUSY));
  EXPECT_TRUE(board_.run_busy());
  // ABORT: the RUN's reply (outcome ABORTED, no words), the OK, then the waiting ACCESS.
  const std::uint16_t ab = send(type::ABORT, ChipRef{0}.encode());
  r = collect(3);
  ASSERT_EQ(r.size(), 3u);
  std::map<std::uint16_t, Frame> by_seq;
  for (const auto& x : r) {
    ASSERT_TRUE(x.ok);
    by_seq[x.frame.seq] = x.frame;
  }
  ASSERT_EQ(by_seq[run_seq].type, type::RUN_REPLY);
  const RunReply rr = RunReply::decode(by_seq[run_seq].payload);
  EXPECT_EQ(int(rr.outcome), int(RunOutcome::ABORTED));
  EXPECT_TRUE(rr.words.empty());
  EXPECT_GE(rr.clock, std::uint64_t(rr.quanta) * 101);
  EXPECT_LT(rr.clock, std::uint64_t(rr.quanta + 1) * 101);
  EXPECT_EQ(by_seq[ab].type, type::OK);
  ASSERT_EQ(by_seq[a1].type, type::ACCESS_REPLY);
  EXPECT_EQ(AccessReply::decode(by_seq[a1].payload).clock, rr.clock + 1);
  EXPECT_FALSE(board_.run_busy());
  settle();
  // ABORT with nothing running: just OK.
  EXPECT_EQ(request(type::ABORT, ChipRef{0}.encode()).type, type::OK);
}

TEST_F(Bridge, ResetDuringARunAbortsItAndCancelsTheWaitingRequest) {
  claim();
  db::link::Run run;
  run.quantum = 10;
  run.poll_addr = reg::STATUS;
  run.poll_mask = 0;
  run.poll_value = 1;
  const std::uint16_t run_seq = send(type::RUN, run.encode());
  Access a;
  a.ops = {AccessOp::read(reg::ID)};
  const std::uint16_t a1 = send(type::ACCESS, a.encode());
  const std::uint16_t rs = send(type::RESET, ChipRef{0}.encode());
  auto r = collect(3);
  std::map<std::uint16_t, Frame> by_seq;
  for (const auto& x : r) by_seq[x.frame.seq] = x.frame;
  ASSERT_EQ(by_seq[run_seq].type, type::RUN_REPLY);
  EXPECT_EQ(int(RunReply::decode(by_seq[run_seq].payload).outcome), int(RunOutcome::ABORTED));
  ASSERT_EQ(by_seq[a1].type, type::ERROR);
  EXPECT_EQ(int(ErrorReply::decode(by_seq[a1].payload).code), int(ErrorCode::BUSY));
  EXPECT_EQ(by_seq[rs].type, type::OK);
  settle();
  EXPECT_EQ(access(a).clock, 1u);  // a new chip
}

TEST_F(Bridge, RequestErrors) {
  expect_error(type::DEBUG, ChipRef{0}.encode(), ErrorCode::NOT_CLAIMED);
  EXPECT_EQ(expect_error(type::DEBUG, ChipRef{1}.encode(), ErrorCode::BAD_CHIP).detail, 1);
  EXPECT_EQ(expect_error(0x09, {}, ErrorCode::UNKNOWN_TYPE).detail, 0x09);
  EXPECT_EQ(expect_error(type::ACCESS_REPLY, {}, ErrorCode::UNKNOWN_TYPE).detail, type::ACCESS_REPLY);
  expect_error(type::HELLO, {1, 0}, ErrorCode::BAD_PAYLOAD);
  Hello h;
  h.min_version = 2;
  h.max_version = 3;
  expect_error(type::HELLO, h.encode(), ErrorCode::VERSION);
  claim();
  expect_error(type::DEBUG, {0, 0, 0}, ErrorCode::BAD_PAYLOAD);
  expect_error(type::RESET, {0}, ErrorCode::BAD_PAYLOAD);
  // ACCESS: an unknown op kind (its index), extra bytes, a truncated op.
  Access a;
  a.ops = {AccessOp::read(1), AccessOp::read(2)};
  std::vector<std::uint8_t> p = a.encode();
  p[4 + 5] = 7;  // the second op's kind
  EXPECT_EQ(expect_error(type::ACCESS, p, ErrorCode::BAD_PAYLOAD).detail, 1);
  p = a.encode();
  p.push_back(0);
  expect_error(type::ACCESS, p, ErrorCode::BAD_PAYLOAD);
  p = a.encode();
  p.pop_back();
  expect_error(type::ACCESS, p, ErrorCode::BAD_PAYLOAD);
  a.chip = 5;
  EXPECT_EQ(expect_error(type::ACCESS, a.encode(), ErrorCode::BAD_CHIP).detail, 5);
  // BAD_ADDRESS before anything runs: the clock does not move.
  a.chip = 0;
  a.ops = {AccessOp::tick(10), AccessOp::read(reg::ID), AccessOp::read(1u << 17)};
  EXPECT_EQ(expect_error(type::ACCESS, a.encode(), ErrorCode::BAD_ADDRESS).detail, 2);
  a.ops = {AccessOp::block_read(0x1FFFF, 2)};
  EXPECT_EQ(expect_error(type::ACCESS, a.encode(), ErrorCode::BAD_ADDRESS).detail, 0);
  a.ops = {AccessOp::block_write(0x1FFFF, {1, 2})};
  EXPECT_EQ(expect_error(type::ACCESS, a.encode(), ErrorCode::BAD_ADDRESS).detail, 0);
  // A reply over the payload limit: TOO_LONG with the op that crosses it.
  a.ops = {AccessOp::read(0), AccessOp::block_read(0x100, 1019)};
  EXPECT_EQ(expect_error(type::ACCESS, a.encode(), ErrorCode::TOO_LONG).detail, 1);
  a.ops = {AccessOp::get_tag()};
  EXPECT_EQ(access(a).clock, 0u);
  // RUN: quantum 0, the poll address, a list address.
  db::link::Run run;
  run.poll_addr = reg::STATUS;
  run.quantum = 0;
  expect_error(type::RUN, run.encode(), ErrorCode::BAD_PAYLOAD);
  run.quantum = 1;
  run.poll_addr = 1u << 17;
  EXPECT_EQ(expect_error(type::RUN, run.encode(), ErrorCode::BAD_ADDRESS).detail, 0xFFFF);
  run.poll_addr = reg::STATUS;
  run.reads = {reg::ID, 0x20000};
  EXPECT_EQ(expect_error(type::RUN, run.encode(), ErrorCode::BAD_ADDRESS).detail, 1);
  run.chip = 3;
  EXPECT_EQ(expect_error(type::RUN, run.encode(), ErrorCode::BAD_CHIP).detail, 3);
  EXPECT_EQ(access(a).clock, 0u);  // nothing ran
  EXPECT_GE(board_.link_errors(), 19u);
}

TEST_F(Bridge, FrameErrors) {
  // A COBS block running past the end.
  send_bytes({0x05, 0x11, 0x22, 0x00});
  // Fewer than 10 decoded bytes.
  send_bytes(wire({1, 2, 3, 4, 5}));
  // CRC wrong.
  std::vector<std::uint8_t> d = raw_frame(type::HELLO, 7, Hello{}.encode(), 5);
  d.back() ^= 0x40;
  send_bytes(wire(d));
  // The length field disagrees with the size (the CRC holds: the sequence number is known).
  send_bytes(wire(raw_frame(type::DEBUG, 8, {0, 0}, 3)));
  // The length field over 4096.
  send_bytes(wire(raw_frame(type::DEBUG, 9, {}, 5000)));
  // More than 4123 bytes without a 0x00: one TOO_LONG.
  send_bytes(std::vector<std::uint8_t>(5000, 0x01));
  send_bytes({0x00});
  const auto r = settle();
  ASSERT_EQ(r.size(), 6u);
  const std::vector<std::pair<ErrorCode, std::uint16_t>> want = {
      {ErrorCode::BAD_FRAME, kNoSeq}, {ErrorCode::BAD_FRAME, kNoSeq}, {ErrorCode::BAD_CRC, kNoSeq},
      {ErrorCode::BAD_FRAME, 8},      {ErrorCode::TOO_LONG, 9},       {ErrorCode::TOO_LONG, kNoSeq}};
  for (std::size_t i = 0; i < want.size(); ++i) {
    ASSERT_TRUE(r[i].ok) << i;
    ASSERT_EQ(r[i].frame.type, type::ERROR) << i;
    EXPECT_EQ(int(ErrorReply::decode(r[i].frame.payload).code), int(want[i].first)) << i;
    EXPECT_EQ(r[i].frame.seq, want[i].second) << i;
    EXPECT_TRUE(ErrorReply::decode(r[i].frame.payload).message.empty());
  }
  hello_answers();
}

TEST_F(Bridge, GarbageThenAGoodFrame) {
  std::mt19937 rng(7);
  std::vector<std::uint8_t> g(300);
  for (auto& b : g) b = std::uint8_t(1 + rng() % 255);
  send_bytes(g);
  send_bytes({0x00});
  send(type::HELLO, Hello{}.encode());
  const auto r = settle();
  ASSERT_EQ(r.size(), 2u);
  ASSERT_TRUE(r[0].ok);
  EXPECT_EQ(r[0].frame.type, type::ERROR);
  ASSERT_TRUE(r[1].ok);
  EXPECT_EQ(r[1].frame.type, type::HELLO_REPLY);
}

// The inter-byte timeout cuts a frame the host stopped sending: one ERROR BAD_FRAME with sequence
// 0xFFFF (docs/link.md "Receiving"), and the receiver is in step for the next frame.
TEST_F(Bridge, InterByteTimeoutCutsAFrame) {
  Frame f;
  f.type = type::HELLO;
  f.payload = Hello{}.encode();
  const std::vector<std::uint8_t> w = encode_frame(f);
  const std::vector<std::uint8_t> half(w.begin(), w.begin() + long(w.size() / 2));
  // Without a pause, half a frame and a whole one make one bad frame.
  send_bytes(half);
  send_bytes(w);
  auto r = settle();
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].frame.type, type::ERROR);
  // With a pause longer than the timeout, the half frame is cut. Once the line is quiet the board
  // is idle (waiting for the host), but run() clocks on through the timeout, as boardsim's quiet
  // rule needs (docs/tools.md): exactly what boardsim does, run(slice) while not idle, then
  // run(timeout + 1) once, then run(slice) while not idle.
  send_bytes(half);
  std::vector<std::uint8_t> out;
  const std::uint64_t slice = kTimeout / 4;
  while (!board_.idle()) board_.run(slice, out);
  EXPECT_TRUE(board_.in_frame());
  EXPECT_TRUE(out.empty());
  const std::uint64_t ran = board_.run(kTimeout + 1, out);
  EXPECT_GE(ran, kTimeout - slice);
  EXPECT_FALSE(board_.in_frame());
  while (!board_.idle()) board_.run(slice, out);
  r = decoder_.feed(out.data(), out.size());
  ASSERT_EQ(r.size(), 1u);
  ASSERT_TRUE(r[0].ok);
  ASSERT_EQ(r[0].frame.type, type::ERROR);
  EXPECT_EQ(r[0].frame.seq, kNoSeq);
  EXPECT_EQ(int(ErrorReply::decode(r[0].frame.payload).code), int(ErrorCode::BAD_FRAME));
  // Silence afterwards: nothing more, and run() stops at once.
  out.clear();
  EXPECT_EQ(board_.run(kTimeout + 1, out), 0u);
  board_.advance(2 * kTimeout, out);
  EXPECT_TRUE(out.empty());
  // The next frame is read normally, with or without a 0x00 before it.
  send_bytes(w);
  r = settle();
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].frame.type, type::HELLO_REPLY);
  send_bytes(half);
  r = settle();  // runs through the timeout: the cut frame's error
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].frame.seq, kNoSeq);
  send_bytes({0x00});
  send_bytes(w);
  r = settle();
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].frame.type, type::HELLO_REPLY);
  // A run too long for a frame is reported TOO_LONG once; the timeout ending its drop adds nothing.
  send_bytes(std::vector<std::uint8_t>(5000, 0x01));
  r = settle();
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(int(ErrorReply::decode(r[0].frame.payload).code), int(ErrorCode::TOO_LONG));
  EXPECT_FALSE(board_.in_frame());
  hello_answers();
}

// A BREAK cuts the frame being received as the timeout does (ERROR BAD_FRAME, sequence 0xFFFF);
// between frames it is no frame and gets no reply.
TEST_F(Bridge, BreakCutsAFrame) {
  Frame f;
  f.type = type::HELLO;
  f.payload = Hello{}.encode();
  const std::vector<std::uint8_t> w = encode_frame(f);
  send_bytes(std::vector<std::uint8_t>(w.begin(), w.begin() + 6));
  board_.send_break(20 * 10 * kDiv);
  send_bytes(w);
  auto r = settle();
  ASSERT_EQ(r.size(), 2u);
  ASSERT_TRUE(r[0].ok);
  ASSERT_EQ(r[0].frame.type, type::ERROR);
  EXPECT_EQ(r[0].frame.seq, kNoSeq);
  EXPECT_EQ(int(ErrorReply::decode(r[0].frame.payload).code), int(ErrorCode::BAD_FRAME));
  EXPECT_EQ(r[1].frame.type, type::HELLO_REPLY);
  EXPECT_GE(board_.link_errors(), 2u);  // the BREAK, the ERROR reply
  // A BREAK between frames: no reply.
  board_.send_break(20 * 10 * kDiv);
  EXPECT_TRUE(settle().empty());
  hello_answers();
}

TEST_F(Bridge, FramingErrorSpoilsOnlyItsFrame) {
  Frame f;
  f.type = type::HELLO;
  f.payload = Hello{}.encode();
  const std::vector<std::uint8_t> w = encode_frame(f);
  send_bytes(std::vector<std::uint8_t>(w.begin(), w.begin() + 5));
  board_.send_bad_stop(w[5]);
  send_bytes(std::vector<std::uint8_t>(w.begin() + 6, w.end()));
  send_bytes(w);
  const auto r = settle();
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].frame.type, type::ERROR);
  EXPECT_EQ(r[1].frame.type, type::HELLO_REPLY);
}

TEST_F(Bridge, PipelinedRequestsAllAnswered) {
  const std::uint16_t s0 = send(type::HELLO, Hello{}.encode());
  const std::uint16_t s1 = send(type::CLAIM, Claim{1}.encode());
  Access a;
  a.ops = {AccessOp::write(reg::HALFMOVE, 3), AccessOp::read(reg::HALFMOVE)};
  const std::uint16_t s2 = send(type::ACCESS, a.encode());
  const std::uint16_t s3 = send(type::DEBUG, ChipRef{0}.encode());
  const auto r = settle();
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[0].frame.seq, s0);
  EXPECT_EQ(r[1].frame.seq, s1);
  EXPECT_EQ(r[2].frame.seq, s2);
  EXPECT_EQ(r[3].frame.seq, s3);
  EXPECT_EQ(AccessReply::decode(r[2].frame.payload).words, std::vector<std::uint32_t>{3});
  EXPECT_EQ(DebugReply::decode(r[3].frame.payload).clock, 2u);
}

// While a long TICK keeps the executor, frames queue: two more get receive banks, the next ones
// are answered ERROR BUSY (no bank for them), and beyond the 8-entry queue frames are lost (the
// error LED's pulse); everything is answered in order when the TICK ends.
TEST_F(Bridge, FullBuffersAnswerBusyThenDrop) {
  claim();
  Access a;
  a.ops = {AccessOp::tick(20000)};
  const std::uint16_t acc = send(type::ACCESS, a.encode());
  std::vector<std::uint16_t> hellos;
  for (int i = 0; i < 12; ++i) hellos.push_back(send(type::HELLO, Hello{}.encode()));
  const std::uint64_t errors_before = board_.link_errors();
  const auto r = settle();
  ASSERT_EQ(r.size(), 9u);
  ASSERT_TRUE(r[0].ok);
  EXPECT_EQ(r[0].frame.seq, acc);
  EXPECT_EQ(AccessReply::decode(r[0].frame.payload).clock, 20000u);
  for (std::size_t i = 1; i < r.size(); ++i) {
    ASSERT_TRUE(r[i].ok);
    EXPECT_EQ(r[i].frame.seq, hellos[i - 1]);
    if (i <= 2) {
      EXPECT_EQ(r[i].frame.type, type::HELLO_REPLY) << i;
    } else {
      ASSERT_EQ(r[i].frame.type, type::ERROR) << i;
      EXPECT_EQ(int(ErrorReply::decode(r[i].frame.payload).code), int(ErrorCode::BUSY));
    }
  }
  EXPECT_GE(board_.link_errors() - errors_before, 4u + 6u);  // 4 lost, 6 BUSY replies
  hello_answers();
}

// The bridge's own time per frame: the clocks from a request's first bit to its reply's last, less
// the UART's time for both frames' bytes (ten bits a byte).
TEST_F(Bridge, ClocksPerFrame) {
  claim();
  auto overhead = [&](const Access& a) {
    Frame f;
    f.type = type::ACCESS;
    f.seq = 100;
    f.payload = a.encode();
    const std::vector<std::uint8_t> w = encode_frame(f);
    board_.receive(w.data(), w.size());
    std::vector<std::uint8_t> out;
    const std::uint64_t clocks = board_.run(kLimit, out);
    const auto r = decoder_.feed(out.data(), out.size());
    EXPECT_EQ(r.size(), 1u);
    const std::uint64_t uart = (w.size() + out.size()) * 10 * kDiv;
    EXPECT_GE(clocks, uart);
    return clocks - uart;
  };
  Access a;
  a.ops = {AccessOp::read(reg::ID)};
  const std::uint64_t one = overhead(a);
  a.ops = {AccessOp::block_read(reg::PHASE_RAM_BASE, 1000)};
  const std::uint64_t big = overhead(a);
  RecordProperty("one_read_overhead_clocks", std::to_string(one));
  RecordProperty("block_read_1000_overhead_clocks", std::to_string(big));
  EXPECT_LT(one, 200u);
  // About 10 clocks a word to build the reply, one a byte for its CRC and one for the COBS scan:
  // under 5 % of the reply's UART time at 3 Mbaud (8 clocks a bit), about 10 % at this test's 4.
  EXPECT_LT(big, 16000u);
}

// Random bytes, damaged and cut frames, random requests (no chip claimed, so none runs): the bridge
// answers only well-formed frames, never hangs, and HELLO still answers after it.
TEST_F(Bridge, FuzzNeverHangs) {
  std::mt19937 rng(2026);
  for (int it = 0; it < 150; ++it) {
    const int kind = int(rng() % 4);
    if (kind == 0) {
      std::vector<std::uint8_t> g(1 + rng() % 60);
      for (auto& b : g) b = std::uint8_t(rng() % 4 == 0 ? 0 : rng());
      send_bytes(g);
    } else {
      Frame f;
      f.type = std::uint8_t(rng() % 12);
      f.seq = std::uint16_t(rng() % 1000);
      f.payload.resize(rng() % 40);
      for (auto& b : f.payload) b = std::uint8_t(rng());
      std::vector<std::uint8_t> w = encode_frame(f);
      if (kind == 1) w[rng() % w.size()] ^= std::uint8_t(1 + rng() % 255);
      if (kind == 2) w.resize(1 + rng() % w.size());
      send_bytes(w);
    }
    if (it % 10 == 9) {
      for (const auto& r : settle()) EXPECT_TRUE(r.ok) << "the bridge sent a bad frame: " << r.message;
    }
  }
  send_bytes({0x00});
  for (const auto& r : settle()) EXPECT_TRUE(r.ok) << r.message;
  hello_answers();
}

}  // namespace
