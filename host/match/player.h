// Engines as match players, over UCI or the xboard (CECP) protocol.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "chess/position.h"
#include "match/engine_process.h"

namespace db::match {

struct PlayerSpec {
  std::string name;
  std::vector<std::string> command;
  std::string protocol = "uci";  // "uci" or "xboard"
  std::vector<std::pair<std::string, std::string>> uci_options;
  bool use_pty = false;  // engines that buffer their output on a pipe
  // xboard: commands sent after "new" at every game (e.g. GNU Chess's "book off").
  std::vector<std::string> xboard_commands{};
  // xboard: features known in advance ("setboard=1", "usermove=1"), for engines that announce them late.
  std::vector<std::string> xboard_features{};
  // xboard: every line confirmed by a ping before the next (GNU Chess reads lines that arrive
  // together late, or never).
  bool xboard_one_line_at_a_time = false;
  std::string package{};  // the Debian package that installs command[0], for the "not installed" message
};

struct ClockView {
  std::int64_t my_ms, their_ms, inc_ms;
  std::uint64_t nodes = 0;   // > 0: search this many nodes ("go nodes"), the clock aside
  std::int64_t base_ms = 0;  // the time control's base (xboard's "level"); 0: unknown
};

class Player {
 public:
  virtual ~Player() = default;
  virtual void new_game(const Position& start) = 0;
  // The engine's move (as text it sent) for the current position reached by `moves` from start.
  virtual std::string think(const Position& start, const std::vector<Move>& moves, const ClockView& clock) = 0;
  const std::string& name() const { return name_; }
  // The last lines exchanged with the engine, for the report of a game it lost by failing.
  virtual std::string transcript() const { return {}; }

 protected:
  std::string name_;
};

// Known opponents from Debian (preset_names()): "stockfish" (optionally limited with elo), "fairymax",
// "gnuchess", "phalanx", "sjeng" (xboard), "toga2", "glaurung", "ethereal" (UCI), each with its own
// book off, one thread, no pondering.
PlayerSpec preset(const std::string& name, int elo);
const std::vector<std::string>& preset_names();
// Starts the engine; throws std::runtime_error saying which package to install when an absolute
// command path is not an executable file.
std::unique_ptr<Player> make_player(const PlayerSpec& spec);
// xboard's "level 0 BASE INC" for a time control: BASE in minutes or MIN:SEC, INC in seconds
// (a decimal fraction when the increment is not whole seconds): 5 s + 0.05 s is "level 0 0:05 0.05".
std::string xboard_level(std::int64_t base_ms, std::int64_t inc_ms);

}  // namespace db::match
