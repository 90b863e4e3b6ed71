#include "match/player.h"

#include <sstream>
#include <stdexcept>

#include "chess/notation.h"

namespace db::match {

namespace {

using std::chrono::milliseconds;
constexpr milliseconds kHandshake{10000};

std::string moves_text(const std::vector<Move>& moves) {
  std::string s;
  for (Move m : moves) s += " " + move_to_uci(m);
  return s;
}

class UciPlayer : public Player {
 public:
  explicit UciPlayer(const PlayerSpec& spec) : process_(spec.command) {
    name_ = spec.name;
    process_.send("uci");
    if (!process_.wait_for("uciok", kHandshake))
      throw std::runtime_error(spec.name + ": no 'uciok' (is it a UCI engine?)");
    for (const auto& [option, value] : spec.uci_options) process_.send("setoption name " + option + " value " + value);
    sync();
  }
  void new_game(const Position&) override {
    process_.send("ucinewgame");
    sync();
  }
  std::string think(const Position& start, const std::vector<Move>& moves, const ClockView& c) override {
    process_.send("position fen " + start.fen() + (moves.empty() ? "" : " moves" + moves_text(moves)));
    Position now = start;
    for (Move m : moves) now.make_move(m);
    const bool white = now.side_to_move() == WHITE;
    std::ostringstream go;
    if (c.nodes > 0) {
      go << "go nodes " << c.nodes;
    } else {
      go << "go wtime " << (white ? c.my_ms : c.their_ms) << " btime " << (white ? c.their_ms : c.my_ms) << " winc "
         << c.inc_ms << " binc " << c.inc_ms;
    }
    process_.send(go.str());
    // A fixed-node search has no clock to bound it: a minute is far beyond any node count used here.
    auto line = process_.wait_for("bestmove", milliseconds(c.nodes > 0 ? 60000 : c.my_ms + 5000));
    if (!line) throw std::runtime_error(name_ + ": no bestmove in time");
    std::istringstream in(*line);
    std::string word, move;
    in >> word >> move;
    return move;
  }

 private:
  void sync() {
    process_.send("isready");
    if (!process_.wait_for("readyok", kHandshake)) throw std::runtime_error(name_ + ": no 'readyok'");
  }
  EngineProcess process_;
};

class XboardPlayer : public Player {
 public:
  explicit XboardPlayer(const PlayerSpec& spec) : process_(spec.command, spec.use_pty) {
    name_ = spec.name;
    process_.send("xboard");
    process_.send("protover 2");
    // Protocol 2 engines list features and end with done=1; older ones say nothing.
    while (auto line = process_.read_line(milliseconds(2000))) {
      if (line->find("usermove=1") != std::string::npos) usermove_ = true;
      if (line->find("setboard=1") != std::string::npos) setboard_ = true;
      if (line->find("done=1") != std::string::npos) break;
    }
  }
  void new_game(const Position& start) override {
    process_.send("new");
    process_.send("force");
    process_.send("post");
    process_.send("easy");  // no pondering: the opponent's clock must not feed it
    if (setboard_) {
      process_.send("setboard " + start.fen());
    } else {
      // Protocol 1 set-up (Fairy-Max): a dummy move makes it black's turn, then edit mode places
      // the pieces; castling is assumed where king and rook stand on their original squares.
      if (start.side_to_move() == BLACK) process_.send("a2a3");
      process_.send("edit");
      process_.send("#");
      for (Color c : {WHITE, BLACK}) {
        if (c == BLACK) process_.send("c");
        for (Square sq = 0; sq < 64; ++sq) {
          const Piece p = start.piece_on(sq);
          if (p != NO_PIECE && color_of(p) == c) process_.send(std::string(1, "PNBRQK"[type_of(p)]) + square_name(sq));
        }
      }
      process_.send(".");
    }
    sent_ = 0;
  }
  std::string think(const Position&, const std::vector<Move>& moves, const ClockView& c) override {
    if (c.nodes > 0) throw std::invalid_argument(name_ + ": fixed nodes per move need a UCI engine");
    // The engine stays in force mode; it learns the moves played since it last moved, then goes.
    for (; sent_ < moves.size(); ++sent_) process_.send((usermove_ ? "usermove " : "") + move_to_uci(moves[sent_]));
    process_.send("level 0 " + std::to_string(std::max<std::int64_t>(1, (c.my_ms + 59999) / 60000)) + " " +
                  std::to_string(c.inc_ms / 1000));
    process_.send("time " + std::to_string(c.my_ms / 10));
    process_.send("otim " + std::to_string(c.their_ms / 10));
    process_.send("go");
    const auto deadline = std::chrono::steady_clock::now() + milliseconds(c.my_ms + 5000);
    for (;;) {
      const auto left = std::chrono::duration_cast<milliseconds>(deadline - std::chrono::steady_clock::now());
      auto line = process_.read_line(std::max(left, milliseconds(1)));
      if (!line) throw std::runtime_error(name_ + ": no move in time");
      // "move e2e4" (protocol 2) or "My move is : e2e4" (GNU Chess, which also prints "1. ... e2e4"
      // lines that are not always its move: ignored).
      std::istringstream in(*line);
      std::vector<std::string> words;
      for (std::string w; in >> w;) words.push_back(w);
      std::string move;
      if (words.size() >= 2 && words[0] == "move")
        move = words[1];
      else if (line->rfind("My move is", 0) == 0 && !words.empty())
        move = words.back();
      const std::string first = words.empty() ? "" : words[0];
      if (move.empty()) {
        if (first == "resign") return "resign";
        continue;
      }
      process_.send("force");
      ++sent_;  // its own move counts as known
      return move;
    }
  }

 private:
  EngineProcess process_;
  bool usermove_ = false;
  bool setboard_ = false;
  std::size_t sent_ = 0;
};

}  // namespace

PlayerSpec preset(const std::string& name, int elo) {
  if (name == "stockfish") {
    PlayerSpec s{"Stockfish 15.1", {"/usr/games/stockfish"}, "uci", {{"Threads", "1"}, {"Hash", "16"}}};
    if (elo > 0) {
      s.name += " (Elo " + std::to_string(elo) + ")";
      s.uci_options.push_back({"UCI_LimitStrength", "true"});
      s.uci_options.push_back({"UCI_Elo", std::to_string(elo)});
    }
    return s;
  }
  if (name == "fairymax") return {"Fairy-Max", {"/usr/games/fairymax"}, "xboard", {}};
  if (name == "gnuchess") return {"GNU Chess", {"/usr/games/gnuchess", "--xboard"}, "xboard", {}, true};
  throw std::invalid_argument("unknown opponent '" + name + "' (expected stockfish, fairymax or gnuchess)");
}

std::unique_ptr<Player> make_player(const PlayerSpec& spec) {
  if (spec.protocol == "uci") return std::make_unique<UciPlayer>(spec);
  if (spec.protocol == "xboard") return std::make_unique<XboardPlayer>(spec);
  throw std::invalid_argument("unknown protocol '" + spec.protocol + "' (expected uci or xboard)");
}

}  // namespace db::match
