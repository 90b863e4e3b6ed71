#include "match/match.h"

#include <chrono>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "chess/movegen.h"
#include "chess/notation.h"

namespace db::match {

TimeControl parse_time_control(const std::string& text) {
  const std::size_t plus = text.find('+');
  try {
    std::size_t used = 0;
    const double base = std::stod(text.substr(0, plus), &used);
    if (used != (plus == std::string::npos ? text.size() : plus) || base <= 0) throw std::invalid_argument(text);
    double inc = 0;
    if (plus != std::string::npos) {
      inc = std::stod(text.substr(plus + 1), &used);
      if (used != text.size() - plus - 1 || inc < 0) throw std::invalid_argument(text);
    }
    return {std::int64_t(base * 1000), std::int64_t(inc * 1000)};
  } catch (const std::exception&) {
    throw std::invalid_argument("bad time control '" + text + "': expected seconds[+increment], e.g. 10+0.1");
  }
}

namespace {

std::string failure_report(const Player& p, const Position& pos) {
  return "position " + pos.fen() + "\n" + p.name() + "'s last lines:\n" + p.transcript();
}

}  // namespace

GameRecord play_game(Player& white, Player& black, const Position& start, const TimeControl& tc, int max_plies) {
  GameRecord g{white.name(), black.name(), start, {}, "", "", ""};
  white.new_game(start);
  black.new_game(start);
  Position pos = start;
  std::int64_t clock[2] = {tc.base_ms, tc.base_ms};
  auto finish = [&](const std::string& result, const std::string& reason) {
    g.result = result;
    g.reason = reason;
    return g;
  };
  for (int ply = 0; ply < max_plies; ++ply) {
    MoveList legal;
    generate_legal(pos, legal);
    const Color us = pos.side_to_move();
    const std::string win_them = us == WHITE ? "0-1" : "1-0";
    if (legal.empty()) return pos.in_check() ? finish(win_them, "checkmate") : finish("1/2-1/2", "stalemate");
    if (pos.repetition_count() >= 2) return finish("1/2-1/2", "threefold repetition");
    if (pos.halfmove_clock() >= 100) return finish("1/2-1/2", "fifty-move rule");
    if (pos.has_insufficient_material()) return finish("1/2-1/2", "insufficient material");

    Player& p = us == WHITE ? white : black;
    const auto t0 = std::chrono::steady_clock::now();
    std::string text;
    try {
      text = p.think(start, g.moves, {clock[us], clock[~us], tc.inc_ms, tc.nodes, tc.base_ms});
    } catch (const std::exception& e) {
      g.failure_report = failure_report(p, pos);
      return finish(win_them, std::string("engine failure: ") + e.what());
    }
    const auto used =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
    if (tc.nodes == 0) {
      clock[us] -= used;
      if (clock[us] < -tc.margin_ms) return finish(win_them, "time forfeit");  // grace for pipe latency
      clock[us] = std::max<std::int64_t>(clock[us], 0) + tc.inc_ms;
    }
    if (text == "resign") return finish(win_them, "resignation");
    Move m;
    try {
      m = parse_uci(pos, text);
    } catch (const NotationError&) {
      try {
        m = parse_san(pos, text);
      } catch (const NotationError&) {
        g.failure_report = failure_report(p, pos);
        return finish(win_them, "illegal move " + text);
      }
    }
    pos.make_move(m);
    g.moves.push_back(m);
  }
  return finish("1/2-1/2", "adjudicated: move limit");
}

std::string to_pgn(const GameRecord& g, int round) {
  std::ostringstream out;
  out << "[Event \"deepblue match\"]\n[Round \"" << round << "\"]\n[White \"" << g.white << "\"]\n[Black \"" << g.black
      << "\"]\n[Result \"" << g.result << "\"]\n[FEN \"" << g.start.fen() << "\"]\n[SetUp \"1\"]\n[Termination \""
      << g.reason << "\"]\n\n";
  Position pos = g.start;
  int col = 0;
  for (std::size_t i = 0; i < g.moves.size(); ++i) {
    std::string token;
    if (pos.side_to_move() == WHITE)
      token = std::to_string(pos.fullmove_number()) + ". ";
    else if (i == 0)
      token = std::to_string(pos.fullmove_number()) + "... ";
    token += move_to_san(pos, g.moves[i]);
    pos.make_move(g.moves[i]);
    if (col + int(token.size()) > 79) {
      out << "\n";
      col = 0;
    }
    out << (col ? " " : "") << token;
    col += int(token.size()) + 1;
  }
  out << (col ? " " : "") << g.result << "\n\n";
  return out.str();
}

double MatchScore::score() const {
  const int n = wins + draws + losses;
  return n ? (wins + 0.5 * draws) / n : 0.5;
}

double MatchScore::elo() const {
  const double s = std::clamp(score(), 0.001, 0.999);
  return -400.0 * std::log10(1.0 / s - 1.0);
}

double MatchScore::elo_error95() const {
  const int n = wins + draws + losses;
  if (n < 2 || wins + draws == 0 || losses + draws == 0) return INFINITY;  // a clean sweep bounds nothing
  const double s = score();
  const double var = (wins * (1 - s) * (1 - s) + draws * (0.5 - s) * (0.5 - s) + losses * s * s) / n;
  const double se = std::sqrt(var / n);
  const double lo = std::clamp(s - 1.96 * se, 0.001, 0.999), hi = std::clamp(s + 1.96 * se, 0.001, 0.999);
  return (-400.0 * std::log10(1.0 / hi - 1.0) + 400.0 * std::log10(1.0 / lo - 1.0)) / 2;
}

}  // namespace db::match
