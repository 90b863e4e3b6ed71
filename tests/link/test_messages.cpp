// Every message's payload: encode/decode round trip, and every truncation (and an extra byte)
// rejected with BAD_PAYLOAD.
#include <gtest/gtest.h>

#include "link/messages.h"

namespace db::link {
namespace {

// Every strict prefix of the payload, and the payload plus one byte, must fail to decode.
template <class T>
void expect_strict(const std::vector<std::uint8_t>& p) {
  for (std::size_t n = 0; n < p.size(); ++n) {
    const std::vector<std::uint8_t> cut(p.begin(), p.begin() + std::ptrdiff_t(n));
    try {
      T::decode(cut);
      ADD_FAILURE() << "a payload cut to " << n << " of " << p.size() << " bytes was accepted";
    } catch (const LinkError& e) {
      EXPECT_EQ(e.code(), ErrorCode::BAD_PAYLOAD) << e.what();
    }
  }
  auto longer = p;
  longer.push_back(0);
  EXPECT_THROW(T::decode(longer), LinkError);
}

TEST(LinkMessages, Hello) {
  Hello h{1, 3, "search"};
  const Hello d = Hello::decode(h.encode());
  EXPECT_EQ(d.min_version, 1);
  EXPECT_EQ(d.max_version, 3);
  EXPECT_EQ(d.name, "search");
  expect_strict<Hello>(h.encode());
  Hello longname;
  longname.name = std::string(300, 'x');
  EXPECT_EQ(Hello::decode(longname.encode()).name.size(), 255u);

  HelloReply r;
  r.chips_total = 16;
  r.chips_free = 12;
  r.backend = 2;
  r.name = "chipd";
  const HelloReply dr = HelloReply::decode(r.encode());
  EXPECT_EQ(dr.version, 1);
  EXPECT_EQ(dr.chips_total, 16);
  EXPECT_EQ(dr.chips_free, 12);
  EXPECT_EQ(dr.backend, 2);
  EXPECT_EQ(dr.clock_hz, 24000000u);
  EXPECT_EQ(dr.max_payload, 4096);
  EXPECT_EQ(dr.name, "chipd");
  expect_strict<HelloReply>(r.encode());
}

TEST(LinkMessages, ClaimAndChipRequests) {
  EXPECT_EQ(Claim::decode(Claim{kAllChips}.encode()).count, 0xFFFF);
  expect_strict<Claim>(Claim{3}.encode());
  ClaimReply c{{0, 5, 7}};
  EXPECT_EQ(ClaimReply::decode(c.encode()).chips, c.chips);
  expect_strict<ClaimReply>(c.encode());
  EXPECT_EQ(ChipRef::decode(Release{9}.encode()).chip, 9);
  expect_strict<ChipRef>(ChipRef{9}.encode());
}

Access sample_access() {
  Access a;
  a.chip = 3;
  a.ops = {AccessOp::write(0x1010, 0xDEADBEEF),
           AccessOp::read(0x1FFFF),
           AccessOp::block_write(0x40, {1, 2, 3, 0}),
           AccessOp::block_read(0x1200, 512),
           AccessOp::tick(123456),
           AccessOp::set_tag(0x0123456789ABCDEFull),
           AccessOp::get_tag()};
  return a;
}

TEST(LinkMessages, Access) {
  const Access a = sample_access();
  const Access d = Access::decode(a.encode());
  EXPECT_EQ(d.chip, 3);
  ASSERT_EQ(d.ops.size(), a.ops.size());
  for (std::size_t i = 0; i < a.ops.size(); ++i) EXPECT_TRUE(d.ops[i] == a.ops[i]) << "op " << i;
  EXPECT_EQ(a.reads(), 1u + 512u + 2u);
  EXPECT_FALSE(a.read_only());
  EXPECT_TRUE((Access{1, {AccessOp::read(1), AccessOp::block_read(2, 3), AccessOp::get_tag()}}.read_only()));
  expect_strict<Access>(a.encode());
  // An unknown op kind names the op.
  auto p = Access{1, {AccessOp::read(1), AccessOp::read(2)}}.encode();
  p[4 + 5] = 9;
  try {
    Access::decode(p);
    FAIL();
  } catch (const LinkError& e) {
    EXPECT_EQ(e.code(), ErrorCode::BAD_PAYLOAD);
    EXPECT_EQ(e.detail(), 1);
    EXPECT_NE(std::string(e.what()).find("op 1"), std::string::npos) << e.what();
  }
  // A huge op count or block count fails at once, without allocating for it.
  EXPECT_THROW(Access::decode({1, 0, 0xFF, 0xFF, 1}), LinkError);
  EXPECT_THROW(Access::decode({1, 0, 1, 0, 2, 0, 0, 0, 0, 0xFF, 0xFF}), LinkError);

  AccessReply r;
  r.chip = 3;
  r.failed_op = 4;
  r.failed_addr = 0x1FFFF;
  r.clock = 0x123456789ull;
  r.words = {1, 2, 0xFFFFFFFF};
  const AccessReply dr = AccessReply::decode(r.encode());
  EXPECT_EQ(dr.failed_op, 4);
  EXPECT_EQ(dr.failed_addr, 0x1FFFFu);
  EXPECT_EQ(dr.clock, r.clock);
  EXPECT_EQ(dr.words, r.words);
  EXPECT_EQ(r.encode().size(), AccessReply::size_for(3));
  expect_strict<AccessReply>(r.encode());
}

TEST(LinkMessages, Run) {
  link::Run r;
  r.chip = 2;
  r.quantum = 4096;
  r.max_quanta = 10;
  r.poll_addr = 3;
  r.poll_mask = 1;
  r.poll_value = 0;
  r.reads = {0x10, 0x11};
  const link::Run d = link::Run::decode(r.encode());
  EXPECT_EQ(d.chip, 2);
  EXPECT_EQ(d.quantum, 4096u);
  EXPECT_EQ(d.max_quanta, 10u);
  EXPECT_EQ(d.poll_addr, 3u);
  EXPECT_EQ(d.poll_mask, 1u);
  EXPECT_EQ(d.poll_value, 0u);
  EXPECT_EQ(d.reads, r.reads);
  expect_strict<link::Run>(r.encode());
  r.quantum = 0;
  EXPECT_THROW(link::Run::decode(r.encode()), LinkError);

  RunReply x;
  x.chip = 2;
  x.outcome = RunOutcome::BUDGET;
  x.quanta = 10;
  x.clock = 99;
  x.words = {5, 6};
  const RunReply dx = RunReply::decode(x.encode());
  EXPECT_EQ(dx.outcome, RunOutcome::BUDGET);
  EXPECT_EQ(dx.quanta, 10u);
  EXPECT_EQ(dx.clock, 99u);
  EXPECT_EQ(dx.words, x.words);
  EXPECT_EQ(x.encode().size(), RunReply::size_for(2));
  expect_strict<RunReply>(x.encode());
  auto bad = x.encode();
  bad[2] = 4;  // outcome
  EXPECT_THROW(RunReply::decode(bad), LinkError);
}

TEST(LinkMessages, DebugAndError) {
  DebugReply d{123456789012ull, 3, 4, 0x8123, 99999, 0xFFFE, 0x15};
  const DebugReply dd = DebugReply::decode(d.encode());
  EXPECT_EQ(dd.clock, d.clock);
  EXPECT_EQ(dd.state, 3);
  EXPECT_EQ(dd.ply, 4);
  EXPECT_EQ(dd.move, 0x8123);
  EXPECT_EQ(dd.nodes, 99999u);
  EXPECT_EQ(dd.leaf, 0xFFFE);
  EXPECT_EQ(dd.flags, 0x15);
  EXPECT_EQ(d.encode().size(), 19u);
  expect_strict<DebugReply>(d.encode());

  ErrorReply e{ErrorCode::BAD_ADDRESS, 7, "op 7 address over 17 bits"};
  const ErrorReply de = ErrorReply::decode(e.encode());
  EXPECT_EQ(de.code, ErrorCode::BAD_ADDRESS);
  EXPECT_EQ(de.detail, 7);
  EXPECT_EQ(de.message, e.message);
  expect_strict<ErrorReply>(e.encode());
  const Frame f = error_frame(kNoSeq, ErrorCode::BAD_CRC, 0, "x");
  EXPECT_EQ(f.type, type::ERROR);
  EXPECT_EQ(f.seq, 0xFFFF);
  EXPECT_EQ(error_name(ErrorCode::SERVER_FULL), "SERVER_FULL");
  EXPECT_EQ(type_name(0x85), "ACCESS_REPLY");
}

}  // namespace
}  // namespace db::link
