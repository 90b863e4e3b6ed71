// Match runner: adjudication by the chess core, time controls, Elo arithmetic.
#include <gtest/gtest.h>

#include <cmath>

#include "match/match.h"

namespace db::match {
namespace {

// A player that plays a fixed list of moves (UCI text), then "resign".
class ScriptedPlayer : public Player {
 public:
  ScriptedPlayer(std::string name, std::vector<std::string> moves) : moves_(std::move(moves)) {
    name_ = std::move(name);
  }
  void new_game(const Position&) override { next_ = 0; }
  std::string think(const Position&, const std::vector<Move>&, const ClockView&) override {
    return next_ < moves_.size() ? moves_[next_++] : "resign";
  }

 private:
  std::vector<std::string> moves_;
  std::size_t next_ = 0;
};

TEST(Match, FoolsMateIsCheckmate) {
  ScriptedPlayer white("w", {"f2f3", "g2g4"}), black("b", {"e7e5", "d8h4"});
  const GameRecord g = play_game(white, black, Position(), {10000, 0});
  EXPECT_EQ(g.result, "0-1");
  EXPECT_EQ(g.reason, "checkmate");
  EXPECT_EQ(g.moves.size(), 4u);
  const std::string pgn = to_pgn(g, 1);
  EXPECT_NE(pgn.find("1. f3 e5 2. g4 Qh4# 0-1"), std::string::npos) << pgn;
}

TEST(Match, IllegalMoveLoses) {
  ScriptedPlayer white("w", {"e2e5"}), black("b", {});
  const GameRecord g = play_game(white, black, Position(), {10000, 0});
  EXPECT_EQ(g.result, "0-1");
  EXPECT_EQ(g.reason, "illegal move e2e5");
  // The report names the position the move was illegal in, and the player.
  EXPECT_EQ(g.failure_report.rfind("position " + Position().fen() + "\nw's last lines:", 0), 0u) << g.failure_report;
}

TEST(Match, EngineProcessKeepsTheLastLinesBothWays) {
  EngineProcess cat({"/bin/cat"});
  for (int i = 0; i < 50; ++i) {
    cat.send("line " + std::to_string(i));
    ASSERT_EQ(cat.read_line(std::chrono::milliseconds(5000)), "line " + std::to_string(i));
  }
  const std::string t = cat.transcript();
  EXPECT_EQ(t.find("line 29\n"), std::string::npos) << t;  // 40 lines kept: the last 20 exchanges
  EXPECT_NE(t.find("> line 30\n< line 30\n"), std::string::npos) << t;
  EXPECT_EQ(t.substr(t.size() - 10), "< line 49\n") << t;
}

TEST(Match, SanFromAnEngineIsAccepted) {
  ScriptedPlayer white("w", {"f3", "g4"}), black("b", {"e5", "Qh4#"});
  EXPECT_EQ(play_game(white, black, Position(), {10000, 0}).reason, "checkmate");
}

TEST(Match, ThreefoldRepetitionIsADraw) {
  ScriptedPlayer white("w", {"g1f3", "f3g1", "g1f3", "f3g1"}), black("b", {"g8f6", "f6g8", "g8f6", "f6g8"});
  const GameRecord g = play_game(white, black, Position(), {10000, 0});
  EXPECT_EQ(g.result, "1/2-1/2");
  EXPECT_EQ(g.reason, "threefold repetition");
  EXPECT_EQ(g.moves.size(), 8u);
}

TEST(Match, ResignationAndMoveLimit) {
  ScriptedPlayer white("w", {"e2e4"}), black("b", {});
  EXPECT_EQ(play_game(white, black, Position(), {10000, 0}).reason, "resignation");
  ScriptedPlayer w2("w", {"g1f3", "f3g1"}), b2("b", {"g8f6", "f6g8"});
  const GameRecord g = play_game(w2, b2, Position(), {10000, 0}, 3);
  EXPECT_EQ(g.reason, "adjudicated: move limit");
}

TEST(Match, TimeControlParsing) {
  EXPECT_EQ(parse_time_control("10+0.1").base_ms, 10000);
  EXPECT_EQ(parse_time_control("10+0.1").inc_ms, 100);
  EXPECT_EQ(parse_time_control("60").inc_ms, 0);
  for (const char* bad : {"", "abc", "10+", "+1", "-5", "10+x", "10+1+1"}) {
    EXPECT_THROW(parse_time_control(bad), std::invalid_argument) << bad;
  }
}

TEST(Match, EloFromScore) {
  MatchScore even{5, 0, 5};
  EXPECT_NEAR(even.elo(), 0.0, 1e-9);
  MatchScore three_quarters{3, 0, 1};
  EXPECT_NEAR(three_quarters.elo(), 190.85, 0.1);  // -400 log10(1/0.75 - 1)
  EXPECT_TRUE(std::isfinite(MatchScore{6, 2, 2}.elo_error95()));
  EXPECT_TRUE(std::isinf(MatchScore{4, 0, 0}.elo_error95()));
}

// 60 % with 40 draws in 100 games: +70.4 Elo; the 95 % bar worked by hand (trinomial variance of a
// game's score 0.14, standard error 0.0374, scores 0.5267..0.6733): +70.4 - 51.9, +70.4 + 55.2,
// half the interval 53.6.
TEST(Match, EloErrorBarWithDraws) {
  MatchScore s{40, 40, 20};
  EXPECT_NEAR(s.elo(), 70.44, 0.01);
  const double se = std::sqrt(0.14 / 100), lo = 0.6 - 1.96 * se, hi = 0.6 + 1.96 * se;
  const double half = (400 * std::log10(hi / (1 - hi)) - 400 * std::log10(lo / (1 - lo))) / 2;
  EXPECT_NEAR(s.elo_error95(), half, 1e-9);
  EXPECT_NEAR(half, 53.55, 0.01);
}

TEST(Match, XboardLevelCommand) {
  EXPECT_EQ(xboard_level(5000, 50), "level 0 0:05 0.05");
  EXPECT_EQ(xboard_level(10000, 100), "level 0 0:10 0.1");
  EXPECT_EQ(xboard_level(60000, 0), "level 0 1 0");
  EXPECT_EQ(xboard_level(90000, 2000), "level 0 1:30 2");
  EXPECT_EQ(xboard_level(1000, 10), "level 0 0:01 0.01");
  EXPECT_EQ(xboard_level(200, 1500), "level 0 0:01 1.5");  // at least a second
}

TEST(Match, DebianPresetsTurnTheirBooksOff) {
  for (const std::string& name : preset_names()) {
    const PlayerSpec s = preset(name, 0);
    EXPECT_FALSE(s.package.empty()) << name;
    for (const auto& [option, value] : s.uci_options)
      if (option == "OwnBook") {
        EXPECT_EQ(value, "false") << name;
      }
  }
  EXPECT_EQ(preset("ethereal", 0).package, "ethereal-chess");
  EXPECT_EQ(preset("gnuchess", 0).xboard_commands, std::vector<std::string>{"book off"});
  EXPECT_EQ(preset("toga2", 0).protocol, "uci");
  EXPECT_EQ(preset("sjeng", 0).protocol, "xboard");
}

TEST(Match, MissingEngineNamesItsPackage) {
  PlayerSpec s{"Nobody", {"/nonexistent/engine"}, "uci", {}};
  s.package = "nobody-chess";
  try {
    make_player(s);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("Debian package nobody-chess"), std::string::npos) << e.what();
  }
}

TEST(Match, UnknownOpponentIsAnError) {
  EXPECT_THROW(preset("crafty", 0), std::invalid_argument);
  EXPECT_EQ(preset("stockfish", 1500).uci_options.back().second, "1500");
}

}  // namespace
}  // namespace db::match
