// The cluster's wire format: every message survives a round trip, and every malformed one (short,
// wrong magic, version, size, flags, field values, trailing bytes, random bytes) is a ClusterError
// naming what was wrong, never a crash.
#include <random>

#include <gtest/gtest.h>

#include "chess/notation.h"
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
  j.table.push_back({0xfedcba9876543210ull, Move(12, 28), 35, 16, 1, 2, 0});
  j.table.push_back({0x1111ull, Move::none(), -7, 8, 2, 0, 3});
  j.my_credit = 3;
  j.his_credit = 8;
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

// A root with history: Ra1-b1, Kg8-h8, Rb1-a1 from base_fen.
NewSearch sample_new_search() {
  return {
      3, "r1r1q1k1/6p1/3b1p1p/1p1PpP2/1Pp5/2P4P/R1B2QP1/R5K1 w - - 0 37", {Move(0, 1), Move(62, 63), Move(1, 0)}, true};
}

TEST(ClusterMessages, RoundTrips) {
  const NewSearch n = sample_new_search();
  const auto n2 = std::get<NewSearch>(decode(encode(n)));
  EXPECT_EQ(n2.search, 3u);
  EXPECT_EQ(n2.base_fen, n.base_fen);
  EXPECT_EQ(n2.history, n.history);
  EXPECT_TRUE(n2.strive_for_draw);
  const NewSearch castle{
      4, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 3 20", {Move(4, 6, CASTLE_KING), Move(60, 58, CASTLE_QUEEN)}};
  EXPECT_EQ(std::get<NewSearch>(decode(encode(castle))).history, castle.history);
  const NewSearch longest{5, "8/8/8/8/8/8/8/K1k5 w - - 0 1", std::vector<Move>(kMaxHistoryPlies, Move(0, 8))};
  EXPECT_EQ(std::get<NewSearch>(decode(encode(longest))).history.size(), std::size_t(kMaxHistoryPlies));

  const Job j = sample_job();
  const auto j2 = std::get<Job>(decode(encode(j)));
  EXPECT_EQ(j2.id, j.id);
  EXPECT_EQ(j2.path, j.path);
  EXPECT_EQ(j2.depth, 6);
  EXPECT_EQ(j2.test, -31000);
  EXPECT_EQ(j2.arrive, j.arrive);
  ASSERT_EQ(j2.table.size(), 2u);
  EXPECT_EQ(j2.table[0].key, j.table[0].key);
  EXPECT_EQ(j2.table[0].move, Move(12, 28));
  EXPECT_EQ(j2.table[1].score, -7);
  EXPECT_EQ(j2.table[1].bound, 2);
  EXPECT_EQ(j2.table[1].his_credit, 3);
  EXPECT_EQ(j2.my_credit, 3);
  EXPECT_EQ(j2.his_credit, 8);

  const auto c = std::get<Cancel>(decode(encode(Cancel{7, 42, 999})));
  EXPECT_EQ(c.id, 42u);
  EXPECT_EQ(c.at, 999u);
  const auto g = std::get<Grant>(decode(encode(Grant{7, 1ull << 50, false})));
  EXPECT_EQ(g.until, 1ull << 50);
  EXPECT_FALSE(g.stop_at_answer);
  EXPECT_TRUE(std::get<Grant>(decode(encode(Grant{7, 9, true}))).stop_at_answer);
  const auto k = std::get<Clock>(decode(encode(Clock{7, 31337, NodeChips{1, 2, 3, 4, 5, 6, 7}})));
  EXPECT_EQ(k.clock, 31337u);
  EXPECT_EQ(k.chips.busy_clocks, 1u);
  EXPECT_EQ(k.chips.searches, 2u);
  EXPECT_EQ(k.chips.nodes, 3u);
  EXPECT_EQ(k.chips.wasted_searches, 4u);
  EXPECT_EQ(k.chips.wasted_nodes, 5u);
  EXPECT_EQ(k.chips.overflows, 6u);
  EXPECT_EQ(k.chips.software_nodes, 7u);
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

// What must throw a ClusterError whose text has words.
template <class Action>
void expect_cluster_error(Action&& action, const std::string& words) {
  try {
    action();
    FAIL() << "no error; expected one with: " << words;
  } catch (const ClusterError& e) {
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

void expect_error(std::vector<std::uint8_t> bytes, const std::string& words) {
  expect_cluster_error([&] { decode(bytes); }, words);
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
  // A JOB's table entries: too many, a bound that is not one.
  // The job's root credits follow the table (2 bytes).
  std::vector<std::uint8_t> job = encode(sample_job());
  const std::size_t table_at = job.size() - 2 - 2 * 19 - 2;
  job[table_at] = 0x01;  // 257 entries
  job[table_at + 1] = 0x01;
  expect_error(job, "257 table entries (at most 256)");
  job = encode(sample_job());
  job[job.size() - 5] = 4;  // the last entry's bound
  expect_error(job, "table bound 4 unknown");
  job[job.size() - 5] = 0;  // Bound::NONE: no entry at all
  expect_error(job, "table bound 0 unknown");
  // Credits past the cash-in limit: the master cashes them in before it asks.
  job = encode(sample_job());
  job[job.size() - 1] = 9;
  expect_error(job, "credits 3 and 9 (quarter plies; at most 8 each)");
  job = encode(sample_job());
  job[job.size() - 2] = 200;
  expect_error(job, "credits 200 and 8");
  job = encode(sample_job());
  job.pop_back();  // a version 6 JOB's payload would end here; the header says one byte less
  std::uint32_t size = 0;
  for (int i = 0; i < 4; ++i) size |= std::uint32_t(job[8 + std::size_t(i)]) << (8 * i);
  --size;
  for (int i = 0; i < 4; ++i) job[8 + std::size_t(i)] = std::uint8_t(size >> (8 * i));
  expect_error(job, "truncated in his_credit");
  expect_error(with_payload(Type::NEW_SEARCH, {1, 0, 0, 0, 9, 0, 'x'}), "base_fen of 9 bytes");
  expect_error(with_payload(Type::NEW_SEARCH, {1, 0, 0, 0, 1, 0, 'x', 0, 0, 7}), "strive_for_draw is 7");
  // The history: too long, cut short, a null move, a capture (kind 4), a promotion (kind 11).
  expect_error(with_payload(Type::NEW_SEARCH, {1, 0, 0, 0, 1, 0, 'x', 0x01, 0x04}),
               "history of 1025 plies (at most 1024)");
  expect_error(with_payload(Type::NEW_SEARCH, {1, 0, 0, 0, 1, 0, 'x', 2, 0, 8, 0}), "truncated in history move");
  expect_error(with_payload(Type::NEW_SEARCH, {1, 0, 0, 0, 1, 0, 'x', 1, 0, 0, 0, 0}),
               "history move 0 (0000) is not a quiet move or castling");
  std::vector<std::uint8_t> capture = encode(sample_new_search());
  capture[capture.size() - 2] |= 0x40;  // the last history move (b1a1) as a capture: kind 4
  expect_error(capture, "history move 2 (b1a1) is not a quiet move or castling");
  NewSearch promotion = sample_new_search();
  promotion.history[0] = Move(48, 56, PROMO_Q);
  expect_error(encode(promotion), "history move 0 (a7a8q) is not a quiet move or castling");
  expect_error(with_payload(Type::QUIT, {0}), "extra bytes");
  // A version 4 CLOCK (search and clock only) lacks the chips' counters.
  expect_error(with_payload(Type::CLOCK, std::vector<std::uint8_t>(12, 0)), "truncated in busy_clocks");
  std::vector<std::uint8_t> answer = encode(sample_answer());
  answer[kHeaderBytes + 8] = 5;  // status
  expect_error(answer, "status 5 unknown");
  Answer backwards = sample_answer();
  backwards.start = 2;
  backwards.finish = 1;
  expect_error(encode(backwards), "finish 1 before start 2");
}

// The master's root and the worker's rebuilt one are the same position with the same repetitions.
TEST(ClusterMessages, NewSearchRebuildsTheRootWithItsHistory) {
  Position root = Position::from_fen("r3k2r/8/8/8/8/8/P7/R3K2R w KQkq - 0 30");
  for (const char* uci : {"a2a3", "a8b8", "e1g1", "b8a8", "f1f2", "a8b8", "f2f1", "b8a8", "f1f2"})
    root.make_move(parse_uci(root, uci));
  const NewSearch n = new_search_of(9, root, false);
  // From after the pawn move: the castle keeps its history (its keys differ from those before it).
  EXPECT_EQ(n.base_fen, "r3k2r/8/8/8/8/P7/8/R3K2R b KQkq - 0 30");
  EXPECT_EQ(n.history.size(), 8u);
  const Position rebuilt = root_of(std::get<NewSearch>(decode(encode(n))));
  EXPECT_EQ(rebuilt.fen(), root.fen());
  EXPECT_EQ(rebuilt.key(), root.key());
  EXPECT_EQ(rebuilt.repetition_count(), 1);  // as the master's root: it came four plies before
  EXPECT_EQ(rebuilt.reversible_moves(), root.reversible_moves());
  // A root set up from a FEN alone has no history.
  const NewSearch bare = new_search_of(1, Position::from_fen(n.base_fen), true);
  EXPECT_EQ(bare.base_fen, n.base_fen);
  EXPECT_TRUE(bare.history.empty());
}

// A history longer than a NEW_SEARCH carries is cut to its last moves; the rebuilt root is the
// master's but for a half-move clock past 1000 (what a FEN may say), the same to the search.
TEST(ClusterMessages, AnOverlongHistoryIsCut) {
  Position root = Position::from_fen("4k3/8/8/8/8/8/8/4K1N1 w - - 990 100");
  for (int i = 0; i < kMaxHistoryPlies / 4 + 4; ++i) {  // 16 moves too many
    for (const char* uci : {"g1f3", "e8d8", "f3g1", "d8e8"}) root.make_move(parse_uci(root, uci));
  }
  const NewSearch n = new_search_of(1, root, false);
  ASSERT_EQ(n.history.size(), std::size_t(kMaxHistoryPlies));
  EXPECT_EQ(n.history.back(), root.reversible_moves().back());
  EXPECT_EQ(n.base_fen, "4k3/8/8/8/8/8/8/4K1N1 w - - 1000 108");  // 1006 plies
  const Position rebuilt = root_of(std::get<NewSearch>(decode(encode(n))));
  EXPECT_EQ(rebuilt.key(), root.key());
  EXPECT_TRUE(rebuilt.is_repetition());
  EXPECT_GE(rebuilt.halfmove_clock(), 100);
}

void expect_root_error(const NewSearch& n, const std::string& words) {
  expect_cluster_error([&] { root_of(n); }, words);
}

TEST(ClusterMessages, ABadHistoryIsNamedWhenTheRootIsRebuilt) {
  NewSearch n = sample_new_search();
  n.history[1] = Move(62, 54);  // Kg8-g7: the pawn stands there
  expect_root_error(n, "NEW_SEARCH 3: history move 1 (g8g7) is not legal in");
  n = sample_new_search();
  n.history.insert(n.history.begin(), Move(23, 31));  // h3-h4: legal, but a pawn move ends a history
  expect_root_error(n, "history move 0 (h3h4) is irreversible");
  n = sample_new_search();
  n.base_fen = "r1r1q1k1/6p1/3b1p1p w - - 0 37";
  expect_root_error(n, "NEW_SEARCH 3: base_fen 'r1r1q1k1/6p1/3b1p1p w - - 0 37'");
}

// Random bytes and random damage to real messages: an error or a message, never a crash (a
// ClusterError is the only exception decode may throw).
TEST(ClusterMessages, RandomBytesNeverCrash) {
  std::mt19937 rng(20261125);
  const std::vector<std::vector<std::uint8_t>> seeds = {
      encode(sample_job()), encode(sample_answer()),   encode(sample_new_search()), encode(Cancel{1, 2, 3}),
      encode(Quit{}),       encode(Grant{1, 5, true}), encode(Clock{1, 6, {}})};
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
