// Connection over a serial port (docs/link.md "Serial links"): against the real `deepblue boardsim`
// behind its pseudo-terminal (HELLO, ACCESS, sessions, and the test hooks that drop or damage its
// replies: a read-only batch is resent, a write drops the link), and against a scripted board on a
// pty of the test's own (a late reply to a resent request's old number is dropped, a RUN is never
// resent), and the errors naming the path and the baud.
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <thread>

#include "boardsim_process.h"
#include "chip/chip_regs.h"
#include "link/connection.h"

namespace db::link {
namespace {

namespace reg = db::chip::reg;
using namespace std::chrono_literals;

template <class F>
LinkError expect_error(ErrorCode code, F&& call) {
  try {
    call();
    ADD_FAILURE() << "no LinkError, expected " << error_name(code);
  } catch (const LinkError& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    return e;
  }
  return LinkError(ErrorCode::NONE, "");
}

Access read_test_value(std::uint16_t chip) { return {chip, {AccessOp::read(reg::TEST_VALUE)}}; }
Access write_test_value(std::uint16_t chip, std::uint32_t v) { return {chip, {AccessOp::write(reg::TEST_VALUE, v)}}; }

class SerialLink : public ::testing::Test {
 protected:
  void start(const std::vector<std::string>& args = {}) { board_ = std::make_unique<test::BoardsimProcess>(args); }
  std::unique_ptr<Connection> connect(std::chrono::milliseconds timeout = 10000ms) {
    return std::make_unique<Connection>(SerialPort{board_->path(), kDefaultBaud}, timeout, "link_tests");
  }
  void TearDown() override {
    if (!board_) return;
    const int code = board_->stop();
    EXPECT_EQ(code, 0) << "boardsim did not exit cleanly; its log:\n" << board_->log();
    EXPECT_FALSE(board_->pty_file_exists()) << "boardsim left its pty file";
  }
  std::unique_ptr<test::BoardsimProcess> board_;
};

TEST_F(SerialLink, HelloAccessDebugOverThePty) {
  start({"--chips", "2"});
  auto c = connect();
  EXPECT_TRUE(c->lossy());
  EXPECT_EQ(c->hello().chips_total, 2);
  EXPECT_EQ(c->hello().chips_free, 2);
  EXPECT_EQ(c->hello().name, "deepblue boardsim service");
  const auto chips = c->claim(kAllChips);
  ASSERT_EQ(chips.size(), 2u);
  const AccessReply r = c->access({chips[1],
                                   {AccessOp::write(reg::TEST_VALUE, 0xBEEF), AccessOp::read(reg::TEST_VALUE),
                                    AccessOp::block_read(reg::TEST_VALUE, 1), AccessOp::get_tag()}});
  EXPECT_EQ(r.failed_op, kNoFailedOp);
  ASSERT_EQ(r.words.size(), 4u);
  EXPECT_EQ(r.words[0], 0xBEEFu);
  EXPECT_EQ(r.words[1], 0xBEEFu);
  EXPECT_EQ(c->access(read_test_value(chips[0])).words.at(0), 0u);  // the other chip is untouched
  EXPECT_EQ(c->debug(chips[1]).clock, r.clock);
  EXPECT_EQ(c->stats().resends, 0u);
  EXPECT_EQ(c->stats().damaged_frames, 0u);
  EXPECT_NE(board_->log().find("no UART bit timing"), std::string::npos) << board_->log();
}

// Ctrl-C (SIGINT) stops boardsim as SIGTERM does: exit 0, the pty file removed (TearDown checks).
TEST_F(SerialLink, BoardsimStopsOnSigint) {
  start();
  { auto c = connect(); }
  EXPECT_EQ(board_->stop(SIGINT), 0) << board_->log();
  EXPECT_NE(board_->log().find("signal 2: stopping"), std::string::npos) << board_->log();
}

// A UART has no connection whose end the board would see: the next host's HELLO ends the session of
// the one before, whose chips are released (and reset).
TEST_F(SerialLink, HelloBeginsANewSession) {
  start();
  {
    auto first = connect();
    const std::uint16_t chip = first->claim(1).at(0);
    first->access(write_test_value(chip, 77));
    EXPECT_EQ(first->hello().chips_free, 1);
  }  // dropped without a RELEASE
  auto second = connect();
  EXPECT_EQ(second->hello().chips_free, 1);
  const std::uint16_t chip = second->claim(1).at(0);
  EXPECT_EQ(second->access(read_test_value(chip)).words.at(0), 0u);  // reset
}

// Every third reply is dropped: HELLO (1), CLAIM (2), then a read-only batch whose reply (3) is lost
// is sent again under a new number and answered (4); a read (5); then a batch with a write whose
// reply (6) is lost: never resent, the link is dropped.
TEST_F(SerialLink, LostReplyReadIsResentWriteDropsTheLink) {
  start({"--debug-drop-every", "3"});
  auto c = connect(5000ms);  // HELLO is not resent under load (that would shift the replies dropped)
  c->set_timeout(1500ms);    // how long the lost write's reply is waited for
  c->set_resend_after(300ms);
  const std::uint16_t chip = c->claim(1).at(0);
  EXPECT_EQ(c->access(read_test_value(chip)).words.at(0), 0u);
  EXPECT_EQ(c->stats().resends, 1u);
  EXPECT_EQ(c->access(read_test_value(chip)).words.at(0), 0u);
  EXPECT_EQ(c->stats().resends, 1u);
  expect_error(ErrorCode::TIMEOUT, [&] { c->access(write_test_value(chip, 5)); });
  EXPECT_EQ(c->stats().resends, 1u);
  EXPECT_FALSE(c->is_open());
  expect_error(ErrorCode::CLOSED, [&] { c->access(read_test_value(chip)); });
  EXPECT_NE(board_->log().find("test hook: reply 6"), std::string::npos) << board_->log();
}

// Every third reply is damaged: the read-only batch is resent at once (no timeout needed), the write
// drops the link as soon as the damaged reply arrives.
TEST_F(SerialLink, DamagedReplyReadIsResentWriteDropsTheLink) {
  start({"--debug-garble-every", "3"});
  auto c = connect(20000ms);  // a long timeout: nothing here may wait for it
  const auto started = std::chrono::steady_clock::now();
  const std::uint16_t chip = c->claim(1).at(0);
  EXPECT_EQ(c->access(read_test_value(chip)).words.at(0), 0u);
  EXPECT_GE(c->stats().resends, 1u);
  EXPECT_GE(c->stats().damaged_frames, 1u);
  const std::uint64_t resends = c->stats().resends;
  c->access(read_test_value(chip));  // reply 5
  try {
    c->access(write_test_value(chip, 5));
    ADD_FAILURE() << "a damaged reply to a write did not drop the link";
  } catch (const LinkError& e) {
    EXPECT_TRUE(e.code() == ErrorCode::BAD_CRC || e.code() == ErrorCode::BAD_FRAME) << e.what();
  }
  EXPECT_EQ(c->stats().resends, resends);
  EXPECT_FALSE(c->is_open());
  EXPECT_LT(std::chrono::steady_clock::now() - started, 10s);  // not by the timeout
}

// Round trip of a one-read ACCESS over the pty, pipelined requests, and throughput with full frames
// each way (450 WRITEs up, 800 READs up and 800 words down); printed, not asserted (shared machines vary),
// recorded as test properties.
TEST_F(SerialLink, RoundTripAndThroughput) {
  start();
  auto c = connect();
  const std::uint16_t chip = c->claim(1).at(0);
  const Access one = read_test_value(chip);
  using Clock = std::chrono::steady_clock;
  const auto micros = [](Clock::time_point t0) {
    return std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
  };
  constexpr int kCalls = 2000;
  auto t0 = Clock::now();
  for (int i = 0; i < kCalls; ++i) c->access(one);
  const double round_trip = micros(t0) / kCalls;
  t0 = Clock::now();
  std::vector<std::uint16_t> seqs;
  for (int i = 0; i < kCalls; ++i) seqs.push_back(c->send(type::ACCESS, one.encode()));
  for (std::uint16_t q : seqs) c->wait(q, type::ACCESS_REPLY);
  const double piped = micros(t0) / kCalls;
  const Access up_batch{chip, std::vector<AccessOp>(450, AccessOp::write(reg::TEST_VALUE, 0x1234))};
  const Access down_batch{chip, std::vector<AccessOp>(800, AccessOp::read(reg::TEST_VALUE))};
  constexpr int kFrames = 100;
  // Bytes both ways per second while full frames go one way and their replies the other.
  const auto rate = [&](const Access& a, std::size_t words) {
    const ConnectionStats before = c->stats();
    const auto t = Clock::now();
    for (int i = 0; i < kFrames; ++i) EXPECT_EQ(c->access(a).words.size(), words);
    const double us = micros(t);
    return double(c->stats().bytes_sent - before.bytes_sent + c->stats().bytes_received - before.bytes_received) / us;
  };
  const double up = rate(up_batch, 0);
  const double down = rate(down_batch, 800);
  std::printf(
      "pty ACCESS round trip: %.1f us (%.0f round trips/s); pipelined: %.1f us per request; full frames "
      "(bytes both ways): %.1f MB/s with 450 WRITEs a frame, %.1f MB/s with 800 READs\n",
      round_trip, 1e6 / round_trip, piped, up, down);
  RecordProperty("round_trip_us", int(round_trip));
  RecordProperty("pipelined_us", int(piped));
  RecordProperty("writes_kB_per_s", int(up * 1000));
  RecordProperty("reads_kB_per_s", int(down * 1000));
  EXPECT_EQ(c->stats().resends, 0u);
  EXPECT_EQ(c->stats().damaged_frames, 0u);
}

// A board of the test's own on a pty: answers what `script` says to each frame.
class ScriptedBoard {
 public:
  using Reply = std::function<void(const Frame&)>;
  using Script = std::function<void(const Frame&, const Reply&)>;
  explicit ScriptedBoard(Script script) : script_(std::move(script)) {
    if (openpty(&master_, &slave_, nullptr, nullptr, nullptr) != 0) throw std::runtime_error("openpty failed");
    std::array<char, 256> name{};
    ttyname_r(slave_, name.data(), name.size());
    path_ = name.data();
    thread_ = std::thread([this] { serve(); });
  }
  ~ScriptedBoard() {
    stop_ = true;
    thread_.join();
    close(master_);
    close(slave_);
  }
  const std::string& path() const { return path_; }
  int frames(std::uint8_t type) const { return counts_[type].load(); }

 private:
  void serve() {
    FrameDecoder decoder;
    const Reply reply = [this](const Frame& f) {
      const std::vector<std::uint8_t> bytes = encode_frame(f);
      if (write(master_, bytes.data(), bytes.size()) != ssize_t(bytes.size())) ADD_FAILURE() << "pty write";
    };
    std::array<std::uint8_t, 4096> buf{};
    while (!stop_) {
      pollfd p{master_, POLLIN, 0};
      if (poll(&p, 1, 20) <= 0) continue;
      const ssize_t n = read(master_, buf.data(), buf.size());
      if (n <= 0) continue;
      for (const DecodeResult& r : decoder.feed(buf.data(), std::size_t(n))) {
        if (!r.ok) continue;
        ++counts_[r.frame.type];
        script_(r.frame, reply);
      }
    }
  }
  Script script_;
  int master_ = -1, slave_ = -1;
  std::string path_;
  std::atomic<bool> stop_{false};
  std::array<std::atomic<int>, 256> counts_{};
  std::thread thread_;
};

Frame reply_to(const Frame& request, std::uint8_t type, std::vector<std::uint8_t> payload) {
  Frame f;
  f.type = type;
  f.seq = request.seq;
  f.payload = std::move(payload);
  return f;
}

void answer_hello(const Frame& f, const ScriptedBoard::Reply& reply) {
  HelloReply h;
  h.chips_total = h.chips_free = 1;
  h.name = "scripted";
  reply(reply_to(f, type::HELLO_REPLY, h.encode()));
}

// The first read batch goes unanswered; when it comes again (a new number), the board answers the old
// number first (111), then the new one (222): the client takes the new one and drops the late reply.
TEST(SerialLinkScripted, LateReplyToTheOldNumberIsDropped) {
  std::uint16_t first = kNoSeq;
  ScriptedBoard board([&](const Frame& f, const ScriptedBoard::Reply& reply) {
    if (f.type == type::HELLO) return answer_hello(f, reply);
    if (f.type != type::ACCESS) return;
    if (first == kNoSeq) {
      first = f.seq;
      return;
    }
    EXPECT_NE(f.seq, first);
    AccessReply r;
    r.words = {111};
    Frame late = reply_to(f, type::ACCESS_REPLY, r.encode());
    late.seq = first;
    reply(late);
    r.words = {222};
    reply(reply_to(f, type::ACCESS_REPLY, r.encode()));
  });
  Connection c(SerialPort{board.path(), kDefaultBaud}, 10000ms, "link_tests");
  c.set_resend_after(50ms);
  EXPECT_EQ(c.access(read_test_value(0)).words.at(0), 222u);
  EXPECT_EQ(c.stats().resends, 1u);
  EXPECT_EQ(c.stats().late_replies, 1u);
  EXPECT_EQ(board.frames(type::ACCESS), 2);
}

// A board that never answers a RUN or an ABORT: each is sent once, and the link is dropped.
TEST(SerialLinkScripted, RunAndAbortAreNeverResent) {
  ScriptedBoard board([&](const Frame& f, const ScriptedBoard::Reply& reply) {
    if (f.type == type::HELLO) answer_hello(f, reply);
  });
  {
    Connection c(SerialPort{board.path(), kDefaultBaud}, 10000ms, "link_tests");  // HELLO once, even under load
    c.set_timeout(600ms);
    c.set_resend_after(50ms);
    expect_error(ErrorCode::TIMEOUT, [&] { c.run(link::Run{0, 16, 0, reg::STATUS, 1, 0, {}}); });
    EXPECT_FALSE(c.is_open());
    EXPECT_EQ(c.stats().resends, 0u);
  }
  {
    Connection c(SerialPort{board.path(), kDefaultBaud}, 10000ms, "link_tests");
    c.set_timeout(600ms);
    c.set_resend_after(50ms);
    expect_error(ErrorCode::TIMEOUT, [&] { c.abort(0); });
    EXPECT_EQ(c.stats().resends, 0u);
  }
  EXPECT_EQ(board.frames(type::RUN), 1);
  EXPECT_EQ(board.frames(type::ABORT), 1);
  EXPECT_EQ(board.frames(type::HELLO), 2);
}

// A board that answers nothing: HELLO is resent (doubling the wait each time) until the timeout.
TEST(SerialLinkScripted, SilentBoardHelloResentThenTimeout) {
  ScriptedBoard board([](const Frame&, const ScriptedBoard::Reply&) {});
  const LinkError e = expect_error(ErrorCode::TIMEOUT, [&] {
    Connection c(SerialPort{board.path(), kDefaultBaud}, 1000ms, "link_tests");  // resends after 100, 200, 400 ms
  });
  EXPECT_NE(std::string(e.what()).find(board.path()), std::string::npos) << e.what();
  EXPECT_GE(board.frames(type::HELLO), 2);
  EXPECT_LE(board.frames(type::HELLO), 4);
}

TEST(SerialLinkErrors, NameThePathAndTheBaud) {
  LinkError e = expect_error(ErrorCode::CLOSED, [] { Connection c(SerialPort{"/nonexistent/ttyUSB7", 115200}); });
  EXPECT_NE(std::string(e.what()).find("cannot open /nonexistent/ttyUSB7"), std::string::npos) << e.what();
  ScriptedBoard board([](const Frame&, const ScriptedBoard::Reply&) {});
  e = expect_error(ErrorCode::CLOSED, [&] { Connection c(SerialPort{board.path(), 12345}); });
  EXPECT_NE(std::string(e.what()).find("to 12345 baud"), std::string::npos) << e.what();
  EXPECT_NE(std::string(e.what()).find(board.path()), std::string::npos) << e.what();
  e = expect_error(ErrorCode::CLOSED, [] { Connection c(SerialPort{"/dev/null", kDefaultBaud}); });
  EXPECT_NE(std::string(e.what()).find("/dev/null"), std::string::npos) << e.what();
}

}  // namespace
}  // namespace db::link
