// The chip server's handler without sockets: claims, ownership, ACCESS semantics (one bus access
// per word, stop at the first bus error), RUN in slices clock for clock, ABORT, the watchdog.
#include <gtest/gtest.h>

#include "chip/chip_client.h"
#include "chip/chip_model.h"
#include "chip_requests.h"
#include "tools/chipd_service.h"

namespace db::link {
namespace {

using chipd::ChipService;
using chipd::Outgoing;
using chipd::ServiceOptions;
namespace reg = db::chip::reg;

ServiceOptions options(int chips, std::uint64_t slice_clocks = 1u << 18) {
  ServiceOptions o;
  o.chips = chips;
  o.make_chip = [] { return std::make_unique<chip::ChipModel>(); };
  o.slice_clocks = slice_clocks;
  o.slice_time = std::chrono::seconds(10);  // slices end by clocks only: deterministic
  return o;
}

Frame frame(std::uint8_t t, std::uint16_t seq, std::vector<std::uint8_t> payload) {
  Frame f;
  f.type = t;
  f.seq = seq;
  f.payload = std::move(payload);
  return f;
}

// Handles one request, then steps until the service is idle; returns every reply.
std::vector<Outgoing> call(ChipService& s, chipd::ClientId c, const Frame& f, int max_steps = 1000000) {
  auto out = s.handle(c, f);
  for (int i = 0; i < max_steps && s.busy(); ++i) {
    for (auto& o : s.step()) out.push_back(std::move(o));
  }
  return out;
}

Frame only(const std::vector<Outgoing>& out) {
  EXPECT_EQ(out.size(), 1u);
  return out.empty() ? Frame{} : out[0].frame;
}

ErrorCode error_of(const Frame& f) {
  EXPECT_EQ(f.type, type::ERROR);
  return f.type == type::ERROR ? ErrorReply::decode(f.payload).code : ErrorCode::NONE;
}

std::uint16_t claim_one(ChipService& s, chipd::ClientId c) {
  const Frame f = only(call(s, c, frame(type::CLAIM, 1, Claim{1}.encode())));
  EXPECT_EQ(f.type, type::CLAIM_REPLY);
  const auto chips = ClaimReply::decode(f.payload).chips;
  EXPECT_EQ(chips.size(), 1u);
  return chips.empty() ? 0xFFFF : chips[0];
}

TEST(LinkService, HelloClaimRelease) {
  ChipService s(options(3));
  Frame f = only(call(s, 1, frame(type::HELLO, 7, Hello{}.encode())));
  ASSERT_EQ(f.type, type::HELLO_REPLY);
  EXPECT_EQ(f.seq, 7);
  EXPECT_EQ(HelloReply::decode(f.payload).chips_free, 3);
  EXPECT_EQ(error_of(only(call(s, 1, frame(type::HELLO, 8, Hello{2, 5, "new"}.encode())))), ErrorCode::VERSION);
  f = only(call(s, 1, frame(type::CLAIM, 9, Claim{2}.encode())));
  EXPECT_EQ(ClaimReply::decode(f.payload).chips, (std::vector<std::uint16_t>{0, 1}));
  f = only(call(s, 2, frame(type::CLAIM, 1, Claim{kAllChips}.encode())));
  EXPECT_EQ(ClaimReply::decode(f.payload).chips, (std::vector<std::uint16_t>{2}));
  EXPECT_EQ(error_of(only(call(s, 2, frame(type::CLAIM, 2, Claim{1}.encode())))), ErrorCode::NO_CHIPS);
  EXPECT_EQ(error_of(only(call(s, 2, frame(type::RELEASE, 3, ChipRef{0}.encode())))), ErrorCode::NOT_CLAIMED);
  EXPECT_EQ(error_of(only(call(s, 2, frame(type::RELEASE, 3, ChipRef{3}.encode())))), ErrorCode::BAD_CHIP);
  EXPECT_EQ(only(call(s, 1, frame(type::RELEASE, 4, ChipRef{0}.encode()))).type, type::OK);
  EXPECT_EQ(s.free_chips(), 1);
  s.disconnect(1);
  EXPECT_EQ(s.free_chips(), 2);
  EXPECT_EQ(error_of(only(call(s, 1, frame(0x42, 5, {})))), ErrorCode::UNKNOWN_TYPE);
  EXPECT_EQ(error_of(only(call(s, 1, frame(type::OK, 5, {})))), ErrorCode::UNKNOWN_TYPE);
  EXPECT_EQ(error_of(only(call(s, 1, frame(type::CLAIM, 5, {1})))), ErrorCode::BAD_PAYLOAD);
}

TEST(LinkService, AccessReadsWritesTagsAndErrors) {
  ChipService s(options(2));
  const std::uint16_t c = claim_one(s, 1);
  Access a{c,
           {AccessOp::write(reg::TEST_VALUE, 1234), AccessOp::read(reg::TEST_VALUE), AccessOp::tick(1000),
            AccessOp::set_tag(0x1122334455667788ull), AccessOp::get_tag(), AccessOp::block_read(reg::ID, 2)}};
  Frame f = only(call(s, 1, frame(type::ACCESS, 1, a.encode())));
  ASSERT_EQ(f.type, type::ACCESS_REPLY);
  AccessReply r = AccessReply::decode(f.payload);
  EXPECT_EQ(r.failed_op, kNoFailedOp);
  ASSERT_EQ(r.words.size(), 5u);
  EXPECT_EQ(r.words[0], 1234u);
  EXPECT_EQ(r.words[1], 0x55667788u);
  EXPECT_EQ(r.words[2], 0x11223344u);
  EXPECT_EQ(r.words[3], 0x44424331u);   // ID: 'DBC1'
  EXPECT_EQ(r.clock, 2u + 1000u + 2u);  // one clock per bus access, the idle clocks
  // A write to a read-only register: the chip's own error stops the batch there.
  a = Access{c, {AccessOp::read(reg::ID), AccessOp::write(reg::STATUS, 1), AccessOp::read(reg::ID)}};
  r = AccessReply::decode(only(call(s, 1, frame(type::ACCESS, 2, a.encode()))).payload);
  EXPECT_EQ(r.failed_op, 1);
  EXPECT_EQ(r.failed_addr, reg::STATUS);
  EXPECT_EQ(r.words.size(), 1u);
  // An address over 17 bits: nothing runs.
  const std::uint64_t before = r.clock;
  a = Access{c, {AccessOp::read(reg::ID), AccessOp::block_read(0x1FFFF, 2)}};
  f = only(call(s, 1, frame(type::ACCESS, 3, a.encode())));
  EXPECT_EQ(error_of(f), ErrorCode::BAD_ADDRESS);
  EXPECT_EQ(ErrorReply::decode(f.payload).detail, 1);
  a = Access{c, {AccessOp::read(reg::ID)}};
  EXPECT_EQ(AccessReply::decode(only(call(s, 1, frame(type::ACCESS, 4, a.encode()))).payload).clock, before + 1);
  // A reply over the payload limit is refused up front.
  a = Access{c, {AccessOp::block_read(0, 1020)}};
  EXPECT_EQ(error_of(only(call(s, 1, frame(type::ACCESS, 5, a.encode())))), ErrorCode::TOO_LONG);
  // RESET: power-on state, tag 0.
  EXPECT_EQ(only(call(s, 1, frame(type::RESET, 6, ChipRef{c}.encode()))).type, type::OK);
  a = Access{c, {AccessOp::get_tag(), AccessOp::read(reg::TEST_VALUE)}};
  r = AccessReply::decode(only(call(s, 1, frame(type::ACCESS, 7, a.encode()))).payload);
  EXPECT_EQ(r.words, (std::vector<std::uint32_t>{0, 0, 0}));
  EXPECT_EQ(r.clock, 1u);
}

// The server's RUN loop, done locally on a model: the clock the link must reproduce.
std::uint64_t local_run_clock(const Access& start, const Run& run, std::uint64_t& count) {
  chip::ChipModel m;
  for (const AccessOp& o : start.ops) {
    if (o.kind == AccessOp::WRITE) m.access(true, o.addr, o.data);
    for (std::size_t i = 0; i < o.words.size(); ++i) m.access(true, o.addr + std::uint32_t(i), o.words[i]);
  }
  for (;;) {
    m.tick(run.quantum);
    if ((m.access(false, run.poll_addr, 0).data & run.poll_mask) == run.poll_value) break;
  }
  count = m.access(false, reg::COUNT_LO, 0).data;
  m.access(false, reg::COUNT_HI, 0);
  m.access(false, reg::STATUS, 0);
  return m.clock();
}

TEST(LinkService, RunInSlicesIsClockExact) {
  const Access start = test::perft_start(0, Position(), 3);
  const link::Run run = test::perft_wait(0, 1000);
  std::uint64_t local_count = 0;
  const std::uint64_t local_clock = local_run_clock(start, run, local_count);
  EXPECT_EQ(local_count, 8902u);
  for (std::uint64_t slice : {std::uint64_t(1) << 20, std::uint64_t(777), std::uint64_t(1)}) {
    ChipService s(options(1, slice));
    ASSERT_EQ(claim_one(s, 1), 0);
    only(call(s, 1, frame(type::ACCESS, 1, start.encode())));
    const auto out = call(s, 1, frame(type::RUN, 2, run.encode()));
    const Frame f = only(out);
    ASSERT_EQ(f.type, type::RUN_REPLY);
    EXPECT_EQ(f.seq, 2);
    const RunReply r = RunReply::decode(f.payload);
    EXPECT_EQ(r.outcome, RunOutcome::DONE);
    ASSERT_EQ(r.words.size(), 3u);
    EXPECT_EQ(r.words[0], 8902u) << "slice " << slice;
    EXPECT_EQ(r.clock, local_clock) << "slice " << slice;
  }
}

TEST(LinkService, RunBudgetBusyAbortAndWatchdog) {
  auto now = std::chrono::steady_clock::now();
  ServiceOptions o = options(2, 5000);
  o.now = [&now] { return now; };
  o.run_timeout = std::chrono::seconds(5);
  ChipService s(o);
  const std::uint16_t c = claim_one(s, 1);
  link::Run never;  // STATUS & 0 == 1 never holds
  never.chip = c;
  never.quantum = 100;
  never.poll_addr = reg::STATUS;
  never.poll_mask = 0;
  never.poll_value = 1;
  // Budget: exactly max quanta.
  never.max_quanta = 7;
  RunReply r = RunReply::decode(only(call(s, 1, frame(type::RUN, 1, never.encode()))).payload);
  EXPECT_EQ(r.outcome, RunOutcome::BUDGET);
  EXPECT_EQ(r.quanta, 7u);
  EXPECT_EQ(r.clock, 7u * 101u);
  // A second RUN and an ACCESS while one runs wait behind it, in order; DEBUG answers at once.
  never.max_quanta = 0;
  EXPECT_TRUE(s.handle(1, frame(type::RUN, 2, never.encode())).empty());
  EXPECT_TRUE(s.busy());
  EXPECT_TRUE(s.has_job(1));
  link::Run two = never;
  two.max_quanta = 2;
  EXPECT_TRUE(s.handle(1, frame(type::RUN, 3, two.encode())).empty());
  EXPECT_TRUE(s.handle(1, frame(type::ACCESS, 4, Access{c, {AccessOp::read(reg::ID)}}.encode())).empty());
  EXPECT_EQ(only(s.handle(1, frame(type::DEBUG, 5, ChipRef{c}.encode()))).type, type::DEBUG_REPLY);
  s.step();
  // ABORT: the RUN's reply (outcome ABORTED), OK, then the queued RUN and ACCESS, in order.
  auto out = s.handle(1, frame(type::ABORT, 6, ChipRef{c}.encode()));
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0].frame.seq, 2);
  r = RunReply::decode(out[0].frame.payload);
  EXPECT_EQ(r.outcome, RunOutcome::ABORTED);
  EXPECT_GT(r.quanta, 0u);
  EXPECT_EQ(out[1].frame.type, type::OK);
  EXPECT_EQ(out[2].frame.seq, 3);
  r = RunReply::decode(out[2].frame.payload);
  EXPECT_EQ(r.outcome, RunOutcome::BUDGET);
  EXPECT_EQ(r.quanta, 2u);
  EXPECT_EQ(out[3].frame.seq, 4);
  EXPECT_EQ(out[3].frame.type, type::ACCESS_REPLY);
  EXPECT_FALSE(s.busy());
  EXPECT_EQ(only(s.handle(1, frame(type::ABORT, 7, ChipRef{c}.encode()))).type, type::OK);  // idempotent
  // Watchdog: TIMEOUT, the chip reset and usable.
  EXPECT_TRUE(s.handle(1, frame(type::RUN, 8, never.encode())).empty());
  s.step();
  now += std::chrono::seconds(6);
  out = s.step();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(RunReply::decode(out[0].frame.payload).outcome, RunOutcome::TIMEOUT);
  const AccessReply a = AccessReply::decode(
      only(call(s, 1, frame(type::ACCESS, 9, Access{c, {AccessOp::read(reg::ID)}}.encode()))).payload);
  EXPECT_EQ(a.clock, 1u);
  // A long ACCESS is sliced too, and the watchdog ends it with ERROR TIMEOUT.
  EXPECT_TRUE(s.handle(1, frame(type::ACCESS, 10, Access{c, {AccessOp::tick(4000000000u)}}.encode())).empty());
  now += std::chrono::seconds(6);
  EXPECT_EQ(error_of(only(s.step())), ErrorCode::TIMEOUT);
  // RESET during a RUN: the RUN ends ABORTED, then OK; disconnect drops a RUN without a reply.
  EXPECT_TRUE(s.handle(1, frame(type::RUN, 11, never.encode())).empty());
  out = s.handle(1, frame(type::RESET, 12, ChipRef{c}.encode()));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(RunReply::decode(out[0].frame.payload).outcome, RunOutcome::ABORTED);
  EXPECT_TRUE(s.handle(1, frame(type::RUN, 13, never.encode())).empty());
  s.disconnect(1);
  EXPECT_FALSE(s.busy());
  EXPECT_EQ(s.free_chips(), 2);
}

}  // namespace
}  // namespace db::link

namespace db::link {
namespace {

// A backend that throws on one address, as a co-simulation mismatch does.
class ThrowingChip final : public chip::ChipBackend {
 public:
  chip::BusResponse access(bool, std::uint32_t addr, std::uint32_t data) override {
    ++clock_;
    if (addr == 0x1234) throw std::runtime_error("mismatch at 0x1234");
    return {data, false};
  }
  void tick(std::uint64_t n) override { clock_ += n; }
  chip::DebugPort debug() const override { return {}; }
  std::uint64_t clock() const override { return clock_; }
  std::string name() const override { return "throwing"; }

 private:
  std::uint64_t clock_ = 0;
};

TEST(LinkService, BackendExceptionIsInternalErrorAndReset) {
  ServiceOptions o = options(1);
  o.make_chip = [] { return std::make_unique<ThrowingChip>(); };
  ChipService s(o);
  const std::uint16_t c = claim_one(s, 1);
  only(call(s, 1, frame(type::ACCESS, 1, Access{c, {AccessOp::tick(50)}}.encode())));
  const Frame f = only(call(s, 1, frame(type::ACCESS, 2, Access{c, {AccessOp::read(0x1234)}}.encode())));
  EXPECT_EQ(error_of(f), ErrorCode::INTERNAL);
  EXPECT_NE(ErrorReply::decode(f.payload).message.find("mismatch"), std::string::npos);
  link::Run r;
  r.chip = c;
  r.poll_addr = 0x1234;
  EXPECT_EQ(error_of(only(call(s, 1, frame(type::RUN, 3, r.encode())))), ErrorCode::INTERNAL);
  EXPECT_FALSE(s.busy());
  const AccessReply a =
      AccessReply::decode(only(call(s, 1, frame(type::ACCESS, 4, Access{c, {AccessOp::read(1)}}.encode()))).payload);
  EXPECT_EQ(a.clock, 1u);  // a new chip
}

}  // namespace
}  // namespace db::link
