// The whole board simulated: the verilated board top (rtl/board/board_top.sv: the link bridge and
// the RTL chip behind its gated clock) behind the host's end of its UART, clock by clock, as a
// link::SimulatedBoard. Slow (the chip is verilated with it); built only on demand
// (EXCLUDE_FROM_ALL: the `-L deep` test builds it). Its UART runs at the divisor and timeout it
// was verilated with (kDivisor, kTimeoutClocks: the board's own 3 Mbaud at 24 MHz).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "board_uart.h"
#include "link/simulated_board.h"

class Vboard_top;
class VerilatedContext;

namespace db::rtl {

class BoardTopBoard final : public link::SimulatedBoard {
 public:
  static constexpr std::uint32_t kClockHz = 24000000;
  static constexpr std::uint32_t kDivisor = DB_BOARD_TOP_DIV;
  static constexpr std::uint64_t kTimeoutClocks = DB_BOARD_TOP_TIMEOUT;

  BoardTopBoard();
  ~BoardTopBoard() override;
  BoardTopBoard(const BoardTopBoard&) = delete;
  BoardTopBoard& operator=(const BoardTopBoard&) = delete;

  void receive(const std::uint8_t* data, std::size_t n) override;
  // As BridgeBoard: clocks on while a frame is half received (the inter-byte timeout then runs),
  // although idle() is true then.
  std::uint64_t run(std::uint64_t clocks, std::vector<std::uint8_t>& out) override;
  // True also while a frame is half received and the line is quiet (waiting for the host).
  bool idle() const override;
  std::uint64_t interbyte_timeout_clocks() const override { return kTimeoutClocks; }
  std::uint32_t clock_hz() const override { return kClockHz; }
  std::uint32_t baud() const override { return kClockHz / kDivisor; }
  std::string describe() const override;

  // For tests: exactly `clocks` clocks; the LEDs; clocks since construction.
  void advance(std::uint64_t clocks, std::vector<std::uint8_t>& out);
  bool led_busy() const;
  bool led_done() const;
  bool led_err() const;
  std::uint64_t clocks() const { return clocks_; }

 private:
  void step(std::vector<std::uint8_t>& out);

  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<Vboard_top> top_;
  UartLine line_;
  UartSampler sampler_;
  std::uint64_t clocks_ = 0;
};

}  // namespace db::rtl
