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
};

struct ClockView {
  std::int64_t my_ms, their_ms, inc_ms;
  std::uint64_t nodes = 0;  // > 0: search this many nodes ("go nodes"), the clock aside
};

class Player {
 public:
  virtual ~Player() = default;
  virtual void new_game(const Position& start) = 0;
  // The engine's move (as text it sent) for the current position reached by `moves` from start.
  virtual std::string think(const Position& start, const std::vector<Move>& moves, const ClockView& clock) = 0;
  const std::string& name() const { return name_; }

 protected:
  std::string name_;
};

// Known opponents from Debian: "stockfish" (optionally limited with elo), "fairymax", "gnuchess".
PlayerSpec preset(const std::string& name, int elo);
std::unique_ptr<Player> make_player(const PlayerSpec& spec);

}  // namespace db::match
