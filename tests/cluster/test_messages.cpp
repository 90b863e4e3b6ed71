// The cluster's wire format: every message survives a round trip, and every malformed one (short,
// wrong magic, version, size, flags, field values, trailing bytes, random bytes) is a ClusterError
// naming what was wrong, never a crash.
#include <random>

#include <gtest/gtest.h>

#include "cluster/messages.h"

namespace db::cluster {
namespace {

Job sample_job() {
  Job j;
  j.search = 7;
  j.id = 123456;
  j.path = {Move(12, 28), Move::none(), Move(52, 36)};  // e2e4, a null move, e7e5
  j.depth = 6;
  j.test = -31000;
  j.arrive = 123456789012ull;
  return j;
}

Answer sample_answer() {
  Answer a;
  a.search = 7;
  a.id = 99;
  a.status = Answer::Status::TOO_BIG;
  a.fail_high = true;
  a.nodes = 1ull << 40;
  a.software_nodes = 12345;
  a.start = 1000;
  a.finish = 987654321;
  a.table.push_back({0x0123456789abcdefull, Move(6, 21), -500, 24, 3, 4, 5});
  return a;
}

TEST(ClusterMessages, RoundTrips) {
  const NewSearch n{3, "r1r1q1k1/6p1/3b1p1p/1p1PpP2/1Pp5/2P4P/R1B2QP1/R5K1 w - - 0 37", true};
  const auto n2 = std::get<NewSearch>(decode(encode(n)));
  EXPECT_EQ(n2.search, 3u);
  EXPECT_EQ(n2.root_fen, n.root_fen);
  EXPECT_TRUE(n2.strive_for_draw);

  const Job j = sample_job();
  const auto j2 = std::get<Job>(decode(encode(j)));
  EXPECT_EQ(j2.id, j.id);
  EXPECT_EQ(j2.path, j.path);
  EXPECT_EQ(j2.depth, 6);
  EXPECT_EQ(j2.test, -31000);
  EXPECT_EQ(j2.arrive, j.arrive);

  const auto c = std::get<Cancel>(decode(encode(Cancel{7, 42, 999})));
  EXPECT_EQ(c.id, 42u);
  EXPECT_EQ(c.at, 999u);
  const auto g = std::get<Grant>(decode(encode(Grant{7, 1ull << 50})));
  EXPECT_EQ(g.until, 1ull << 50);
  const auto k = std::get<Clock>(decode(encode(Clock{7, 31337})));
  EXPECT_EQ(k.clock, 31337u);
  EXPECT_TRUE(std::holds_alternative<Quit>(decode(encode(Quit{}))));

  const Answer a = sample_answer();
  const auto a2 = std::get<Answer>(decode(encode(a)));
  EXPECT_EQ(a2.status, Answer::Status::TOO_BIG);
  EXPECT_TRUE(a2.fail_high);
  EXPECT_EQ(a2.nodes, a.nodes);
  EXPECT_EQ(a2.start, 1000u);
  EXPECT_EQ(a2.finish, a.finish);
  ASSERT_EQ(a2.table.size(), 1u);
  EXPECT_EQ(a2.table[0].key, a.table[0].key);
  EXPECT_EQ(a2.table[0].score, -500);
  EXPECT_EQ(a2.table[0].move, Move(6, 21));
}

void expect_error(std::vector<std::uint8_t> bytes, const std::string& words) {
  try {
    decode(bytes);
    FAIL() << "decoded a malformed message; expected an error with: " << words;
  } catch (const ClusterError& e) {
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

TEST(ClusterMessages, MalformedHeadersAreNamed) {
  const std::vector<std::uint8_t> job = encode(sample_job());
  expect_error({1, 2, 3}, "shorter than its 12-byte header");
  auto bad = job;
  bad[0] ^= 0xFF;
  expect_error(bad, "magic");
  bad = job;
  bad[4] = 9;
  expect_error(bad, "version 9");
  bad = job;
  bad[7] = 1;
  expect_error(bad, "flags");
  bad = job;
  bad.push_back(0);
  expect_error(bad, "payload bytes");
  bad = job;
  bad[6] = 0x55;
  expect_error(bad, "unknown");
}

TEST(ClusterMessages, MalformedFieldsAreNamed) {
  auto with_payload = [](Type t, std::vector<std::uint8_t> payload) {
    std::vector<std::uint8_t> out = encode(Quit{});
    out[6] = std::uint8_t(t);
    const auto n = std::uint32_t(payload.size());
    for (int i = 0; i < 4; ++i) out[8 + std::size_t(i)] = std::uint8_t(n >> (8 * i));
    out.insert(out.end(), payload.begin(), payload.end());
    return out;
  };
  expect_error(with_payload(Type::JOB, {1, 0, 0}), "truncated in search");
  expect_error(with_payload(Type::JOB, {1, 0, 0, 0, 2, 0, 0, 0, 200}), "path of 200 plies");
  expect_error(with_payload(Type::JOB, {1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0}), "depth 0 out of range");
  expect_error(with_payload(Type::NEW_SEARCH, {1, 0, 0, 0, 9, 0, 'x'}), "root_fen of 9 bytes");
  expect_error(with_payload(Type::NEW_SEARCH, {1, 0, 0, 0, 1, 0, 'x', 7}), "strive_for_draw is 7");
  expect_error(with_payload(Type::QUIT, {0}), "extra bytes");
  std::vector<std::uint8_t> answer = encode(sample_answer());
  answer[kHeaderBytes + 8] = 5;  // status
  expect_error(answer, "status 5 unknown");
  Answer backwards = sample_answer();
  backwards.start = 2;
  backwards.finish = 1;
  expect_error(encode(backwards), "finish 1 before start 2");
}

// Random bytes and random damage to real messages: an error or a message, never a crash (a
// ClusterError is the only exception decode may throw).
TEST(ClusterMessages, RandomBytesNeverCrash) {
  std::mt19937 rng(20261125);
  const std::vector<std::vector<std::uint8_t>> seeds = {
      encode(sample_job()),    encode(sample_answer()), encode(NewSearch{1, "8/8/8/8/8/8/8/K1k5 w - - 0 1", false}),
      encode(Cancel{1, 2, 3}), encode(Quit{}),          encode(Grant{1, 5}),
      encode(Clock{1, 6})};
  int errors = 0, decoded = 0;
  for (int i = 0; i < 20000; ++i) {
    std::vector<std::uint8_t> bytes;
    if (i % 4 == 0) {
      bytes.resize(rng() % 64);
      for (auto& b : bytes) b = std::uint8_t(rng());
    } else {
      bytes = seeds[std::size_t(i) % seeds.size()];
      const int flips = 1 + int(rng() % 4);
      for (int f = 0; f < flips && !bytes.empty(); ++f) bytes[rng() % bytes.size()] = std::uint8_t(rng());
      if (rng() % 8 == 0) bytes.resize(rng() % (bytes.size() + 1));
    }
    try {
      decode(bytes);
      ++decoded;
    } catch (const ClusterError&) {
      ++errors;
    }
  }
  EXPECT_GT(errors, 10000);  // most damage is caught by the header and field checks
  EXPECT_GT(decoded, 0);     // damage to free fields (scores, counts) still decodes
}

}  // namespace
}  // namespace db::cluster
