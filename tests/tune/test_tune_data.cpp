// deepblue tune data: the UCI info parsing, and the real command against Stockfish 15.1 with tiny
// settings: the file parses, every position is legal, quiet and labelled within bounds, the game
// ids run in order, the results are 0/0.5/1, and the same seed gives the same file for any --jobs.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "chess/position.h"
#include "tools/tune_data.h"

namespace db::tune {
namespace {

constexpr const char* kStockfish = "/usr/games/stockfish";

TEST(TuneInfo, ScoresBoundsMultipvAndPv) {
  auto s = parse_info("info depth 7 seldepth 9 multipv 1 score cp -18 nodes 5002 nps 625250 pv e7e5 g1f3 b8c6");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->multipv, 1);
  EXPECT_FALSE(s->mate);
  EXPECT_FALSE(s->bound);
  EXPECT_EQ(s->value, -18);
  EXPECT_EQ(s->move, "e7e5");

  s = parse_info("info depth 7 seldepth 5 multipv 2 score cp -39 upperbound nodes 5002 pv d7d5 e4d5");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->multipv, 2);
  EXPECT_TRUE(s->bound);
  EXPECT_EQ(s->move, "d7d5");

  s = parse_info("info depth 3 seldepth 4 multipv 1 score mate -2 nodes 90 pv h7h6 d1h5");
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->mate);
  EXPECT_EQ(s->value, -2);
  EXPECT_EQ(comparable(*s), -99998);
  EXPECT_GT(comparable({1, true, 5, false, "a1a8"}), comparable({1, true, 6, false, "a1a8"}));
  EXPECT_GT(comparable({1, false, 3000, false, "a1a8"}), comparable({1, true, -1, false, "a1a8"}));

  EXPECT_FALSE(parse_info("info depth 5 currmove e2e4 currmovenumber 1"));
  EXPECT_FALSE(parse_info("info string NNUE evaluation using nn-ad9b42354671.nnue enabled"));
  EXPECT_FALSE(parse_info("bestmove e2e4 ponder e7e5"));
  EXPECT_FALSE(parse_info("info score cp"));
}

struct RunResult {
  int code = -1;
  std::string output;  // standard output and error
};

RunResult run(const std::string& args) {
  RunResult r;
  FILE* p = popen((std::string(DB_DEEPBLUE) + " " + args + " 2>&1").c_str(), "r");
  if (!p) return r;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, p)) r.output += buf;
  const int st = pclose(p);
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

std::string temp_dir() {
  const auto dir = std::filesystem::path(testing::TempDir()) / ("tune_test_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  return dir.string();
}

struct Line {
  std::string fen;
  int score;
  std::string result;
  long game;
};

// The data lines of a file (comments skipped); fails the test on a malformed line.
std::vector<Line> read_data(const std::string& path, std::string* header = nullptr) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  std::vector<Line> lines;
  for (std::string text; std::getline(in, text);) {
    if (text.rfind("#", 0) == 0) {
      if (header && header->empty()) *header = text;
      continue;
    }
    std::vector<std::string> f;
    std::stringstream ss(text);
    for (std::string field; std::getline(ss, field, ';');) f.push_back(field);
    EXPECT_EQ(f.size(), 4u) << text;
    if (f.size() != 4) continue;
    Line l;
    l.fen = f[0];
    std::size_t used = 0;
    l.score = std::stoi(f[1], &used);
    EXPECT_EQ(used, f[1].size()) << "score is not an integer: " << text;
    l.result = f[2];
    l.game = std::stol(f[3], &used);
    EXPECT_EQ(used, f[3].size()) << "game id is not an integer: " << text;
    lines.push_back(l);
  }
  return lines;
}

void require_stockfish() {
  ASSERT_EQ(access(kStockfish, X_OK), 0) << "Stockfish 15.1 is missing: " << kStockfish
                                         << " (Debian's stockfish package, a required dependency: run scripts/deps)";
}

// Tiny settings: a few games of 200 nodes a move, well under a second.
std::string tiny(const std::string& seed = "1", const std::string& positions = "40") {
  return std::string(" --openings ") + DB_SHARED_DATA_DIR + "/openings-fastchess-99.epd --nodes 200 --seed " + seed +
         " --positions " + positions;
}

TEST(TuneData, PositionsAreLegalQuietAndLabelled) {
  require_stockfish();
  const std::string out = temp_dir() + "/a.csv";
  const RunResult r = run("tune data" + tiny() + " --out " + out + " --json");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("\"positions\":40"), std::string::npos) << r.output;
  std::string header;
  const auto lines = read_data(out, &header);
  EXPECT_EQ(header.rfind("# deepblue tune data: engine Stockfish 15.1", 0), 0u) << header;
  ASSERT_EQ(lines.size(), 40u);
  std::map<long, std::string> result_of_game;
  long last_game = 0;
  for (const Line& l : lines) {
    Position pos;
    ASSERT_NO_THROW(pos = Position::from_fen(l.fen)) << l.fen;
    EXPECT_EQ(pos.fen(), l.fen);
    EXPECT_FALSE(pos.in_check()) << l.fen;
    EXPECT_FALSE(pos.is_checkmate() || pos.is_stalemate()) << l.fen;
    EXPECT_LE(std::abs(l.score), 20000) << l.fen;  // cp only: mate scores are not recorded
    EXPECT_TRUE(l.result == "1" || l.result == "0.5" || l.result == "0") << l.result;
    EXPECT_GE(l.game, last_game) << "game ids out of order";
    last_game = l.game;
    auto [it, fresh] = result_of_game.emplace(l.game, l.result);
    EXPECT_TRUE(fresh || it->second == l.result) << "game " << l.game << " has two results";
  }
}

TEST(TuneData, SameSeedSameFileForAnyJobs) {
  require_stockfish();
  const std::string dir = temp_dir();
  ASSERT_EQ(run("tune data" + tiny() + " --out " + dir + "/one.csv").code, 0);
  ASSERT_EQ(run("tune data" + tiny() + " --out " + dir + "/two.csv").code, 0);
  // Two engines for a second: each game is played by one of them, the file is written in game order.
  ASSERT_EQ(run("tune data" + tiny() + " --jobs 2 --out " + dir + "/jobs.csv").code, 0);
  auto fens = [](const std::vector<Line>& lines) {
    std::string all;
    for (const Line& l : lines)
      all += l.fen + ";" + std::to_string(l.score) + ";" + l.result + ";" + std::to_string(l.game) + "\n";
    return all;
  };
  const std::string one = fens(read_data(dir + "/one.csv"));
  EXPECT_FALSE(one.empty());
  EXPECT_EQ(one, fens(read_data(dir + "/two.csv")));
  EXPECT_EQ(one, fens(read_data(dir + "/jobs.csv")));
  ASSERT_EQ(run("tune data" + tiny("2") + " --out " + dir + "/other.csv").code, 0);
  EXPECT_NE(one, fens(read_data(dir + "/other.csv")));
}

TEST(TuneData, GamesCap) {
  require_stockfish();
  const std::string out = temp_dir() + "/games.csv";
  const RunResult r = run("tune data" + tiny("1", "0") + " --games 1 --out " + out);
  ASSERT_EQ(r.code, 0) << r.output;
  const auto lines = read_data(out);
  ASSERT_FALSE(lines.empty());
  for (const Line& l : lines) EXPECT_EQ(l.game, 0);
}

TEST(TuneData, BadInputIsAClearError) {
  const std::string dir = temp_dir();
  RunResult r = run("tune data --engine /nonexistent/stockfish --positions 5 --out " + dir + "/x.csv");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("engine '/nonexistent/stockfish' not found"), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir + "/x.csv"));

  r = run("tune data --openings /nonexistent/openings.epd --positions 5 --out " + dir + "/x.csv");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("cannot read openings file '/nonexistent/openings.epd'"), std::string::npos) << r.output;

  r = run("tune data --nodes 0 --out " + dir + "/x.csv");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.output.find("--nodes"), std::string::npos) << r.output;
  r = run("tune data --positions abc --out " + dir + "/x.csv");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.output.find("--positions"), std::string::npos) << r.output;
  r = run("tune data --random 1.5 --out " + dir + "/x.csv");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.output.find("--random"), std::string::npos) << r.output;
  r = run("tune data --positions 0 --games 0 --out " + dir + "/x.csv");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("give a limit"), std::string::npos) << r.output;

  // Not a UCI engine: it exits at once. Whether that is seen writing "uci" to it (its input
  // closed) or reading its answer (no "uciok") depends on how soon it exits: either is an error
  // naming the engine (a clean-clone CI run saw the first).
  r = run("tune data --engine /bin/true --positions 5 --out " + dir + "/x.csv");
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(r.output.find("engine '/bin/true': no 'uciok'") != std::string::npos ||
              r.output.find("engine '/bin/true' closed its input") != std::string::npos)
      << r.output;
}

TEST(TuneData, AnEngineThatDiesIsAnErrorNamingIt) {
  const std::string dir = temp_dir();
  const std::string engine = dir + "/dying-engine";
  {
    std::ofstream s(engine);
    s << "#!/bin/sh\n"
         "while read -r line; do\n"
         "  case \"$line\" in\n"
         "    uci) echo 'id name Dying'; echo uciok ;;\n"
         "    isready) echo readyok ;;\n"
         "    go*) exit 3 ;;\n"
         "  esac\n"
         "done\n";
  }
  std::filesystem::permissions(engine, std::filesystem::perms::owner_all);
  const RunResult r = run("tune data --engine " + engine + " --positions 5 --out " + dir + "/dead.csv");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.output.find("engine '" + engine + "' died"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace db::tune
