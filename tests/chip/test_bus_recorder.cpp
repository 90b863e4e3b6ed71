// The bus record (chip/bus_recorder.h), the workload of the gate-level check: a record made on the
// reference model must replay answer for answer on the verilated RTL, and a replay must notice a
// changed answer and refuse a damaged file.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "chip/bus_recorder.h"
#include "chip/chip_client.h"
#include "chip/rtl_backend.h"

namespace db::chip {
namespace {

class BusRecord : public ::testing::Test {
 protected:
  // A file for each test: CTest runs the fixture's tests side by side.
  std::string path_ =
      ::testing::TempDir() + "bus_record_" + ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".bus";
  ~BusRecord() override { std::remove(path_.c_str()); }

  // A perft at depth 2 and a depth-2 hardware search, recorded on the model.
  void record() {
    ChipClient chip(std::make_unique<BusRecorder>(make_backend("model"), path_));
    chip.load(Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"));
    EXPECT_EQ(chip.perft(2), 2039u);
    chip.load(Position::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"));
    SearchParams params;
    params.depth = 2;
    chip.search(params);
  }
  std::string text() {
    std::ifstream in(path_);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  void rewrite(const std::string& t) { std::ofstream(path_) << t; }
};

TEST_F(BusRecord, ReplaysOnTheRtlAnswerForAnswer) {
  record();
  auto rtl = make_backend("rtl");
  const ReplayResult r = replay_bus_record(path_, *rtl);
  EXPECT_GT(r.events, 100u);
  EXPECT_EQ(r.mismatches, 0u) << r.first_mismatch;
}

TEST_F(BusRecord, ReplayNoticesAChangedAnswer) {
  record();
  std::string t = text();
  // Make the record claim another answer for its first read.
  const auto at = t.find("\nR ");
  ASSERT_NE(at, std::string::npos);
  const auto data = at + 9;  // "\nR " + 5 address digits + ' '
  t[data] = t[data] == 'f' ? 'e' : 'f';
  rewrite(t);
  auto model = make_backend("model");
  const ReplayResult r = replay_bus_record(path_, *model);
  EXPECT_EQ(r.mismatches, 1u);
  EXPECT_NE(r.first_mismatch.find("read"), std::string::npos) << r.first_mismatch;
}

TEST_F(BusRecord, MalformedLinesAreErrorsNamingTheLine) {
  for (const std::string bad : {"W 00040\n", "R 40000 00000000 0\n", "T x\n", "X 1 2 3\n", "W 00040 1 2\n"}) {
    rewrite("# deepblue bus record v1 model\n" + bad);
    auto model = make_backend("model");
    try {
      replay_bus_record(path_, *model);
      ADD_FAILURE() << "accepted: " << bad;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
    }
  }
}

TEST(BusRecorder, UnwritablePathIsAnError) {
  EXPECT_THROW(BusRecorder(make_backend("model"), "/nonexistent-dir/x.bus"), std::runtime_error);
}

}  // namespace
}  // namespace db::chip
