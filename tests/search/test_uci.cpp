// The UCI protocol: handshake, positions with moves, searches, and errors that keep the engine alive.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "uci/uci.h"

namespace db::uci {
namespace {

// Feeds the lines one by one and, like a GUI, waits for the "bestmove" of a finite "go".
std::string run_session(const std::string& input) {
  std::istringstream in;
  std::ostringstream out;
  {
    UciEngine engine(in, out);
    std::istringstream lines(input);
    std::string line;
    while (std::getline(lines, line)) {
      if (!engine.handle(line)) break;
      if (line.rfind("go", 0) == 0 && line.find("infinite") == std::string::npos &&
          line.find("ponder") == std::string::npos)
        engine.wait_for_search();
    }
  }
  return out.str();
}

TEST(Uci, Handshake) {
  const std::string out = run_session("uci\nisready\nquit\n");
  EXPECT_NE(out.find("id name"), std::string::npos);
  EXPECT_NE(out.find("option name Hash type spin"), std::string::npos);
  EXPECT_NE(out.find("uciok"), std::string::npos);
  EXPECT_NE(out.find("readyok"), std::string::npos);
}

TEST(Uci, SearchesAfterPositionWithMoves) {
  const std::string out = run_session("position startpos moves e2e4 e7e5 g1f3\ngo depth 3\nisready\nquit\n");
  EXPECT_NE(out.find("info depth 3"), std::string::npos);
  EXPECT_NE(out.find(" pv "), std::string::npos);
  EXPECT_NE(out.find("bestmove "), std::string::npos);
}

TEST(Uci, FindsMateAndReportsMateScore) {
  const std::string out =
      run_session("position fen r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4\ngo depth 3\nquit\n");
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
  EXPECT_NE(out.find("Backend must be model, rtl or cosim, got 'fpga'"), std::string::npos) << out;
  // After all that, a valid position (black to move after 1.e4) is searched.
  EXPECT_NE(out.find("bestmove "), std::string::npos) << out;
  EXPECT_NE(out.find("readyok"), std::string::npos);
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
  const char* words[] = {"uci", "isready", "position", "startpos", "fen", "moves", "go", "depth", "nodes",
                         "movetime", "wtime", "btime", "winc", "binc", "movestogo", "infinite", "stop",
                         "ponderhit", "setoption", "name", "value", "Hash", "Contempt", "e2e4", "e7e5", "g1f3",
                         "1", "0", "-5", "99999999999999999999", "8/8/8/8/8/8/8/8", "w", "b", "KQkq", "-", "\x01\xff",
                         "ucinewgame", "d", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"};
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
