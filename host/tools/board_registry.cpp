// The boards of `deepblue boardsim`. See board_registry.h.
#include "board_registry.h"

#include <fmt/format.h>

#include <stdexcept>

#include "chip/simulated_boards.h"
#include "service_board.h"

namespace db::boardsim {

const std::vector<BoardKind>& boards() {
  // To add a verilated board: one entry here whose factory builds its harness from the options
  // (e.g. "ulx3s-85f", the board top, and "bridge", the link bridge in front of model chips).
  static const std::vector<BoardKind> kinds = {
      {"service", "stand-in: the link service (chipd's) answering frames over model chips; no UART bit timing, no RTL",
       [](const BoardOptions& o) { return std::make_unique<ServiceBoard>(o); }},
      {"bridge",
       "the verilated link bridge (rtl/board) in front of 1 or 2 model chips, UART bit timing included (6M clocks/s)",
       [](const BoardOptions& o) { return chip::make_bridge_board(o.chips, o.baud); }},
      {"ulx3s-85f",
       "the verilated board top with its RTL chip, as on a ULX3S-85F behind its PLL (builds with -DDB_BOARD_TOP=ON)",
       [](const BoardOptions& o) { return chip::make_board_top(o.baud); }},
  };
  return kinds;
}

std::unique_ptr<link::SimulatedBoard> make_board(const std::string& name, const BoardOptions& options) {
  std::string names;
  for (const BoardKind& k : boards()) {
    if (k.name == name) return k.make(options);
    names += (names.empty() ? "" : ", ") + k.name;
  }
  throw std::invalid_argument(fmt::format("--board: unknown board '{}' (boards: {})", name, names));
}

}  // namespace db::boardsim
