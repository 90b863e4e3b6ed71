#include "match/player.h"

#include <unistd.h>

#include <algorithm>
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
  std::string transcript() const override { return process_.transcript(); }

 private:
  void sync() {
    process_.send("isready");
    if (!process_.wait_for("readyok", kHandshake)) throw std::runtime_error(name_ + ": no 'readyok'");
  }
  EngineProcess process_;
};

class XboardPlayer : public Player {
 public:
  explicit XboardPlayer(const PlayerSpec& spec)
      : process_(spec.command, spec.use_pty),
        xboard_commands_(spec.xboard_commands),
        one_line_at_a_time_(spec.xboard_one_line_at_a_time) {
    name_ = spec.name;
    for (const std::string& f : spec.xboard_features) {
      usermove_ = usermove_ || f == "usermove=1";
      setboard_ = setboard_ || f == "setboard=1";
      ping_ = ping_ || f == "ping=1";
    }
    send("xboard");
    send("protover 2");
    // Protocol 2 engines list features and end with done=1; older ones say nothing. (GNU Chess's
    // features are known in advance: it lists them only when its next command arrives.)
    while (auto line = one_line_at_a_time_ ? std::nullopt : process_.read_line(milliseconds(2000))) {
      if (line->find("usermove=1") != std::string::npos) usermove_ = true;
      if (line->find("setboard=1") != std::string::npos) setboard_ = true;
      if (line->find("ping=1") != std::string::npos) ping_ = true;
      if (line->find("done=1") != std::string::npos) break;
    }
  }
  void new_game(const Position& start) override {
    send("new");
    // GNU Chess loses a set-up sent while it is still busy with "new" (it then plays from the start
    // position): each step waits for the engine to answer a ping.
    sync();
    send("force");
    send("post");
    send("easy");  // no pondering: the opponent's clock must not feed it
    for (const std::string& command : xboard_commands_) send(command);
    if (setboard_) {
      send("setboard " + start.fen());
    } else {
      // Protocol 1 set-up (Fairy-Max): a dummy move makes it black's turn, then edit mode places
      // the pieces; castling is assumed where king and rook stand on their original squares.
      if (start.side_to_move() == BLACK) send("a2a3");
      send("edit");
      send("#");
      for (Color c : {WHITE, BLACK}) {
        if (c == BLACK) send("c");
        for (Square sq = 0; sq < 64; ++sq) {
          const Piece p = start.piece_on(sq);
          if (p != NO_PIECE && color_of(p) == c) send(std::string(1, "PNBRQK"[type_of(p)]) + square_name(sq));
        }
      }
      send(".");
    }
    sync();
    sent_ = 0;
    level_sent_ = false;
  }
  std::string think(const Position&, const std::vector<Move>& moves, const ClockView& c) override {
    if (c.nodes > 0) throw std::invalid_argument(name_ + ": fixed nodes per move need a UCI engine");
    // The engine stays in force mode; it learns the moves played since it last moved, then goes.
    for (; sent_ < moves.size(); ++sent_) send((usermove_ ? "usermove " : "") + move_to_uci(moves[sent_]));
    // The time control once a game, before its first "go"; "time"/"otim" give the clocks every move.
    if (!level_sent_) send(xboard_level(c.base_ms > 0 ? c.base_ms : c.my_ms, c.inc_ms));
    level_sent_ = true;
    send("time " + std::to_string(c.my_ms / 10));
    send("otim " + std::to_string(c.their_ms / 10));
    process_.send("go");  // alone: nothing waits behind it
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
      send("force");
      ++sent_;  // its own move counts as known
      return move;
    }
  }
  std::string transcript() const override { return process_.transcript(); }

 private:
  // With feature ping=1: "ping N", then wait for "pong N" (an engine that never answers costs the
  // handshake timeout once a game, no more).
  void sync() {
    if (!ping_ || one_line_at_a_time_) return;
    const std::string pong = "pong " + std::to_string(++pings_);
    process_.send("ping " + std::to_string(pings_));
    while (auto line = process_.read_line(kHandshake))
      if (*line == pong) return;
  }
  // GNU Chess 6 reads its input through stdio and polls the descriptor: lines that arrive together
  // wait in its buffer until more bytes come (it then ignores a set-up, or never sees a "go"). So
  // each line is confirmed by a ping before the next, and an empty line (which it answers with
  // "Invalid move:") nudges it while the pong is missing.
  void send(const std::string& line) {
    process_.send(line);
    if (!one_line_at_a_time_) return;
    const std::string pong = "pong " + std::to_string(++pings_);
    process_.send("ping " + std::to_string(pings_));
    const auto deadline = std::chrono::steady_clock::now() + kHandshake;
    while (std::chrono::steady_clock::now() < deadline) {
      const auto answer = process_.read_line(milliseconds(50));
      if (answer && *answer == pong) return;
      if (!answer) process_.send("");
    }
    throw std::runtime_error(name_ + ": no '" + pong + "' after '" + line + "'");
  }
  EngineProcess process_;
  std::vector<std::string> xboard_commands_;
  bool one_line_at_a_time_ = false;
  bool ping_ = false;
  int pings_ = 0;
  bool usermove_ = false;
  bool setboard_ = false;
  bool level_sent_ = false;
  std::size_t sent_ = 0;
};

}  // namespace

std::string xboard_level(std::int64_t base_ms, std::int64_t inc_ms) {
  const std::int64_t secs = std::max<std::int64_t>(1, (base_ms + 500) / 1000);
  std::string base = std::to_string(secs / 60);
  if (secs % 60 != 0) base += (secs % 60 < 10 ? ":0" : ":") + std::to_string(secs % 60);
  std::string inc = std::to_string(inc_ms / 1000);
  if (inc_ms % 1000 != 0) {
    std::string frac = std::to_string(1000 + inc_ms % 1000).substr(1);  // three digits
    while (frac.back() == '0') frac.pop_back();
    inc += "." + frac;
  }
  return "level 0 " + base + " " + inc;
}

const std::vector<std::string>& preset_names() {
  static const std::vector<std::string> names{"stockfish", "fairymax", "gnuchess", "phalanx",
                                              "sjeng",     "toga2",    "glaurung", "ethereal"};
  return names;
}

PlayerSpec preset(const std::string& name, int elo) {
  if (name == "stockfish") {
    PlayerSpec s{"Stockfish 15.1", {"/usr/games/stockfish"}, "uci", {{"Threads", "1"}, {"Hash", "16"}}};
    s.package = "stockfish";
    if (elo > 0) {
      s.name += " (Elo " + std::to_string(elo) + ")";
      s.uci_options.push_back({"UCI_LimitStrength", "true"});
      s.uci_options.push_back({"UCI_Elo", std::to_string(elo)});
    }
    return s;
  }
  PlayerSpec s;
  if (name == "fairymax") {  // no opening book
    s = {"Fairy-Max", {"/usr/games/fairymax"}, "xboard", {}};
  } else if (name == "gnuchess") {
    s = {"GNU Chess",  {"/usr/games/gnuchess", "--xboard"},    "xboard", {}, true,
         {"book off"}, {"setboard=1", "usermove=1", "ping=1"}, true};
  } else if (name == "phalanx") {
    // -b- no book, -l- no learning file, -p- no pondering, -t hash in KB.
    s = {"Phalanx XXV", {"/usr/games/phalanx", "-b-", "-l-", "-p-", "-t", "16384"}, "xboard", {}};
  } else if (name == "sjeng") {
    // Debian ships no standard opening book for Sjeng ("No .OPN opening book found").
    s = {"Sjeng 11.2", {"/usr/games/sjeng"}, "xboard", {}};
  } else if (name == "toga2") {
    s = {"Toga II 3.0",
         {"/usr/games/toga2"},
         "uci",
         {{"OwnBook", "false"}, {"Ponder", "false"}, {"Hash", "16"}, {"Number of Threads", "1"}}};
  } else if (name == "glaurung") {
    s = {"Glaurung 2.2",
         {"/usr/games/glaurung"},
         "uci",
         {{"OwnBook", "false"}, {"Ponder", "false"}, {"Hash", "16"}, {"Threads", "1"}}};
  } else if (name == "ethereal") {  // no book option
    s = {"Ethereal 12.00", {"/usr/games/ethereal-chess"}, "uci", {{"Hash", "16"}, {"Threads", "1"}}};
  } else {
    throw std::invalid_argument("unknown opponent '" + name +
                                "' (expected stockfish, fairymax, gnuchess, phalanx, sjeng, toga2, glaurung or "
                                "ethereal)");
  }
  s.package = name == "ethereal" ? "ethereal-chess" : name;
  return s;
}

std::unique_ptr<Player> make_player(const PlayerSpec& spec) {
  if (!spec.command.empty() && spec.command[0].rfind('/', 0) == 0 && access(spec.command[0].c_str(), X_OK) != 0)
    throw std::runtime_error(
        spec.name + " is not installed: no " + spec.command[0] +
        (spec.package.empty() ? std::string() : " (Debian package " + spec.package + "; scripts/deps installs it)"));
  if (spec.protocol == "uci") return std::make_unique<UciPlayer>(spec);
  if (spec.protocol == "xboard") return std::make_unique<XboardPlayer>(spec);
  throw std::invalid_argument("unknown protocol '" + spec.protocol + "' (expected uci or xboard)");
}

}  // namespace db::match
