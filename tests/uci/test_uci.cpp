// The UCI protocol: handshake, positions with moves, searches, and errors that keep the engine alive.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <sstream>

#include "uci/uci.h"
#include "uci_session.h"

namespace db::uci {
namespace {

using test::run_session;

TEST(Uci, Handshake) {
  const std::string out = run_session("uci\nisready\nquit\n");
  EXPECT_NE(out.find("id name"), std::string::npos);
  EXPECT_NE(out.find("option name Hash type spin"), std::string::npos);
  EXPECT_NE(out.find("uciok"), std::string::npos);
  EXPECT_NE(out.find("readyok"), std::string::npos);
}

TEST(Uci, SearchesAfterPositionWithMoves) {
  // OwnBook off: this position is in the default book, and the test is of the search.
  const std::string out = run_session(
      "setoption name OwnBook value false\nposition startpos moves e2e4 e7e5 g1f3\ngo depth 3\nisready\nquit\n");
  EXPECT_NE(out.find("info depth 3"), std::string::npos);
  EXPECT_NE(out.find(" pv "), std::string::npos);
  EXPECT_NE(out.find("bestmove "), std::string::npos);
}

TEST(Uci, FindsMateAndReportsMateScore) {
  const std::string out = run_session(
      "position fen r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4\ngo depth 3\nquit\n");
  EXPECT_NE(out.find("score mate 1"), std::string::npos) << out;
  EXPECT_NE(out.find("bestmove h5f7"), std::string::npos) << out;
}

TEST(Uci, GarbageAndIllegalInputGiveErrorsAndTheEngineLivesOn) {
  const std::string out = run_session(
      "hello\n"
      "position startpos moves e2e5\n"
      "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1\n"
      "go wtime abc\n"
      "go depth\n"
      "setoption name Hash value lots\n"
      "setoption name NoSuchOption value 1\n"
      "setoption name Contempt value 999\n"
      "setoption name DualCredit value maybe\n"
      "setoption name ChipDepth value 3\n"
      "setoption name ChipDepth value -1\n"
      "setoption name Backend value fpga\n"
      "setoption name Workers value 0\n"
      "setoption name Workers value 4\n"
      "setoption name Threads value 0\n"
      "setoption name Threads value 2\n"
      "setoption name RemoteChips value localhost\n"
      "setoption name RemoteChips value 127.0.0.1:99999\n"
      "setoption name RemoteChips value 127.0.0.1:7997,b:7997\n"
      "setoption name RemoteChips value serial:\n"
      "setoption name RemoteChips value serial:/dev/ttyUSB0@115200\n"
      "setoption name RemoteChips value <empty>\n"
      "position startpos moves e2e4\n"
      "go depth 2\n"
      "isready\n"
      "quit\n");
  EXPECT_NE(out.find("info string error unknown command 'hello'"), std::string::npos) << out;
  EXPECT_NE(out.find("illegal move 'e2e5'"), std::string::npos) << out;
  EXPECT_NE(out.find("FEN field 1 (placement)"), std::string::npos) << out;
  EXPECT_NE(out.find("'wtime' needs a number"), std::string::npos) << out;
  EXPECT_NE(out.find("'depth' needs a value"), std::string::npos) << out;
  EXPECT_NE(out.find("'Hash' needs a number"), std::string::npos) << out;
  EXPECT_NE(out.find("unknown option 'NoSuchOption'"), std::string::npos) << out;
  EXPECT_NE(out.find("Contempt must be a number from -200 to 200, got '999'"), std::string::npos) << out;
  EXPECT_NE(out.find("DualCredit must be true or false"), std::string::npos) << out;
  // This engine has no chips (the test builds it without a leaf factory).
  EXPECT_NE(out.find("ChipDepth: this engine was built without chips"), std::string::npos) << out;
  EXPECT_NE(out.find("ChipDepth must be 0..8"), std::string::npos) << out;
  EXPECT_NE(out.find("Backend must be model, rtl, cosim or mca, got 'fpga'"), std::string::npos) << out;
  EXPECT_NE(out.find("Workers must be 1..480"), std::string::npos) << out;
  EXPECT_NE(out.find("Threads must be 1..512"), std::string::npos) << out;
  EXPECT_NE(out.find("RemoteChips must be HOST:PORT[,HOST:PORT...], got 'localhost'"), std::string::npos) << out;
  EXPECT_NE(out.find("got '127.0.0.1:99999'"), std::string::npos) << out;
  EXPECT_EQ(out.find("got '127.0.0.1:7997"), std::string::npos) << out;  // a good list is taken
  EXPECT_NE(out.find("RemoteChips: serial: needs a device path"), std::string::npos) << out;
  EXPECT_EQ(out.find("ttyUSB0"), std::string::npos) << out;  // a board's port is taken
  // After all that, a valid position (black to move after 1.e4) is searched.
  EXPECT_NE(out.find("bestmove "), std::string::npos) << out;
  EXPECT_NE(out.find("readyok"), std::string::npos);
}

// The lines of the last "info depth <depth> ..." block, in order.
std::vector<std::string> info_lines_at_depth(const std::string& out, int depth) {
  std::vector<std::string> lines;
  std::istringstream in(out);
  const std::string prefix = "info depth " + std::to_string(depth) + " ";
  for (std::string line; std::getline(in, line);)
    if (line.rfind(prefix, 0) == 0) lines.push_back(line);
  return lines;
}

TEST(Uci, MultiPvReportsEachLineBestFirst) {
  // Two back-rank mates (a1a8, b1b8; Stockfish 15.1 agrees), then a rook-up line.
  const std::string out = run_session(
      "uci\n"
      "setoption name MultiPV value 3\n"
      "position fen 6k1/5ppp/8/8/8/8/8/RR4K1 w - - 0 1\n"
      "go depth 4\n"
      "isready\n"
      "quit\n");
  EXPECT_NE(out.find("option name MultiPV type spin default 1 min 1 max 256"), std::string::npos) << out;
  EXPECT_EQ(out.find("info string error"), std::string::npos) << out;
  const std::vector<std::string> lines = info_lines_at_depth(out, 4);
  ASSERT_EQ(lines.size(), 3u) << out;
  std::set<std::string> first_moves;
  for (int i = 0; i < 3; ++i) {
    SCOPED_TRACE(lines[std::size_t(i)]);
    EXPECT_NE(lines[std::size_t(i)].find(" multipv " + std::to_string(i + 1) + " score "), std::string::npos);
    const std::size_t pv = lines[std::size_t(i)].find(" pv ");
    ASSERT_NE(pv, std::string::npos);
    first_moves.insert(lines[std::size_t(i)].substr(pv + 4, 4));
  }
  EXPECT_NE(lines[0].find("score mate 1 "), std::string::npos);
  EXPECT_NE(lines[1].find("score mate 1 "), std::string::npos);
  EXPECT_NE(lines[2].find("score cp "), std::string::npos);
  EXPECT_EQ(first_moves.size(), 3u);  // three different moves
  EXPECT_TRUE(first_moves.count("a1a8") && first_moves.count("b1b8"));
  // bestmove is line 1's move.
  const std::string line1_move = lines[0].substr(lines[0].find(" pv ") + 4, 4);
  EXPECT_NE(out.find("bestmove " + line1_move), std::string::npos) << out;
}

TEST(Uci, BadMultiPvValuesGiveErrorsAndKeepTheLastGoodValue) {
  const std::string out = run_session(
      "setoption name MultiPV value 2\n"
      "setoption name MultiPV value 0\n"
      "setoption name MultiPV value lots\n"
      "setoption name MultiPV value 257\n"
      "setoption name MultiPV value -3\n"
      "setoption name OwnBook value false\n"  // the start position is in the default book
      "position startpos\n"
      "go depth 3\n"
      "isready\n"
      "quit\n");
  EXPECT_NE(out.find("info string error MultiPV must be 1..256, got '0'"), std::string::npos) << out;
  EXPECT_NE(out.find("info string error 'MultiPV' needs a number, got 'lots'"), std::string::npos) << out;
  EXPECT_NE(out.find("info string error MultiPV must be 1..256, got '257'"), std::string::npos) << out;
  EXPECT_NE(out.find("info string error MultiPV must be 1..256, got '-3'"), std::string::npos) << out;
  // Still alive, still on MultiPV 2.
  const std::vector<std::string> lines = info_lines_at_depth(out, 3);
  ASSERT_EQ(lines.size(), 2u) << out;
  EXPECT_NE(lines[0].find(" multipv 1 "), std::string::npos);
  EXPECT_NE(lines[1].find(" multipv 2 "), std::string::npos);
  EXPECT_NE(out.find("bestmove "), std::string::npos) << out;
  EXPECT_NE(out.find("readyok"), std::string::npos) << out;
}

TEST(Uci, StopEndsAnInfiniteSearchWithABestMove) {
  std::istringstream in;
  std::ostringstream out;
  UciEngine engine(in, out);
  engine.handle("position startpos");
  engine.handle("go infinite");
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  engine.handle("stop");
  EXPECT_NE(out.str().find("bestmove "), std::string::npos);
  EXPECT_FALSE(engine.handle("quit"));
}

TEST(Uci, PonderWaitsForPonderhit) {
  std::istringstream in;
  std::ostringstream out;
  UciEngine engine(in, out);
  engine.handle("position startpos");
  engine.handle("go ponder depth 2");
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(out.str().find("bestmove "), std::string::npos) << "no bestmove while pondering";
  engine.handle("ponderhit");
  engine.handle("isready");
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  engine.handle("stop");
  EXPECT_NE(out.str().find("bestmove "), std::string::npos);
}

}  // namespace
}  // namespace db::uci

namespace db::uci {
namespace {

TEST(Uci, RandomGarbageNeverCrashesOrHangs) {
  // Random tokens from the protocol's vocabulary mixed with noise; every line gets handled and the
  // engine still answers isready at the end.
  const char* words[] = {"uci",
                         "isready",
                         "position",
                         "startpos",
                         "fen",
                         "moves",
                         "go",
                         "depth",
                         "nodes",
                         "movetime",
                         "wtime",
                         "btime",
                         "winc",
                         "binc",
                         "movestogo",
                         "infinite",
                         "stop",
                         "ponderhit",
                         "setoption",
                         "name",
                         "value",
                         "Hash",
                         "Contempt",
                         "e2e4",
                         "e7e5",
                         "g1f3",
                         "1",
                         "0",
                         "-5",
                         "99999999999999999999",
                         "8/8/8/8/8/8/8/8",
                         "w",
                         "b",
                         "KQkq",
                         "-",
                         "\x01\xff",
                         "ucinewgame",
                         "d",
                         "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"};
  std::mt19937 rng(7);
  std::istringstream in;
  std::ostringstream out;
  UciEngine engine(in, out);
  for (int i = 0; i < 3000; ++i) {
    std::string line;
    const int n = 1 + int(rng() % 8);
    for (int k = 0; k < n; ++k) line += std::string(k ? " " : "") + words[rng() % std::size(words)];
    if (line.rfind("go", 0) == 0) line = "go depth 1";  // keep searches short
    engine.handle(line);
  }
  engine.handle("stop");
  engine.handle("isready");
  EXPECT_NE(out.str().rfind("readyok"), std::string::npos);
}

}  // namespace
}  // namespace db::uci
