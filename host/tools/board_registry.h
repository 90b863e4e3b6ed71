// The boards `deepblue boardsim` can put behind a pseudo-terminal: name -> factory. Each board is a
// db::link::SimulatedBoard (link/simulated_board.h). The stand-in `service` is built in; the
// verilated boards (the link bridge in front of model chips, the whole board top) are added here by
// name when their harnesses are built.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "link/simulated_board.h"

namespace db::boardsim {

struct BoardOptions {
  std::uint32_t baud = 0;              // 0: the board's default (3,000,000)
  int chips = 1;                       // boards whose chips are models (service, bridge)
  std::string chip_backend = "model";  // service: the chips behind the stand-in (model, rtl, cosim)
  // Test hooks (service board only): every N-th reply frame the board sends is dropped, or goes out
  // with one byte damaged (0: never). They exercise the client's retry rules over a real pty.
  std::uint32_t debug_drop_every = 0;
  std::uint32_t debug_garble_every = 0;
};

using BoardFactory = std::function<std::unique_ptr<link::SimulatedBoard>(const BoardOptions&)>;

struct BoardKind {
  std::string name;
  std::string summary;  // one line for --help
  BoardFactory make;
};

// Every board, in the order --help lists them.
const std::vector<BoardKind>& boards();
// The board named; throws std::invalid_argument naming the boards there are.
std::unique_ptr<link::SimulatedBoard> make_board(const std::string& name, const BoardOptions& options);

}  // namespace db::boardsim
