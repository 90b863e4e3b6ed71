// See simulated_boards.h.
#include "chip/simulated_boards.h"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "bridge_board.h"
#include "chip/rtl_backend.h"
#ifdef DB_WITH_BOARD_TOP
#include "board_top_board.h"
#endif

namespace db::chip {

namespace {

constexpr std::uint32_t kBoardClockHz = 24000000;
constexpr std::uint32_t kDefaultBaud = 3000000;

// Clocks a UART bit for the baud, within 2 % (the board's own rule, issue 22), at least 4.
std::uint32_t divisor_for(std::uint32_t baud) {
  const double exact = double(kBoardClockHz) / baud;
  const auto div = std::uint32_t(std::lround(exact));
  const double error = std::abs(double(kBoardClockHz) / div - baud) / baud;
  if (div < 4 || error > 0.02)
    throw std::invalid_argument(fmt::format(
        "--baud {}: the board's 24 MHz clock makes it with {} clocks a bit, {:.1f} % off (at most 2 % and at least 4 "
        "clocks a bit: up to 6,000,000 baud)",
        baud, div, 100 * error));
  return div;
}

}  // namespace

std::unique_ptr<link::SimulatedBoard> make_bridge_board(int chips, std::uint32_t baud) {
  if (chips != 1 && chips != 2)
    throw std::invalid_argument(fmt::format("--chips {}: the bridge board has 1 or 2 chip ports", chips));
  rtl::BridgeBoardOptions o;
  o.clock_hz = kBoardClockHz;
  o.divisor = divisor_for(baud == 0 ? kDefaultBaud : baud);
  o.chips = chips;
  o.make_chip = [] { return make_backend("model"); };
  return std::make_unique<rtl::BridgeBoard>(std::move(o));
}

bool have_board_top() {
#ifdef DB_WITH_BOARD_TOP
  return true;
#else
  return false;
#endif
}

std::unique_ptr<link::SimulatedBoard> make_board_top(std::uint32_t baud) {
#ifdef DB_WITH_BOARD_TOP
  const std::uint32_t made = kBoardClockHz / rtl::BoardTopBoard::kDivisor;
  if (baud != 0 && baud != made)
    throw std::invalid_argument(
        fmt::format("--baud {}: the verilated board top was built for {} baud "
                    "(-DDB_BOARD_TOP_DIV={})",
                    baud, made, rtl::BoardTopBoard::kDivisor));
  return std::make_unique<rtl::BoardTopBoard>();
#else
  (void)baud;
  throw std::invalid_argument(
      "board ulx3s-85f: this deepblue was built without the verilated board top; configure with "
      "cmake -DDB_BOARD_TOP=ON (it verilates the chip a second time) and build again");
#endif
}

}  // namespace db::chip
