// A board seen from its UART, simulated at the bit level: the verilated link bridge
// (rtl/board/link_bridge.sv) with its chip bus ports driven by C++ chips (ChipBackend, normally
// the reference model), behind a C++ UART that sends the host's bytes to the bridge's receive pin
// and reads the bridge's transmit pin, bit by bit at the bridge's divisor. This is the default
// suite's board (docs/board-bridge.md); the whole verilated board top with its RTL chip is slower.
//
// A chip takes a clock only in the cycles the bridge enables it (chip_ce_o): an access when it
// requests one, an idle tick otherwise. The bridge's reset pulse (chip_rst_no) replaces the chip by
// a new one from make_chip, as the TCP server's RESET does. The bridge is verilated twice, with one
// chip port (the board) and with two (to test the NCHIPS parameter).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "board_uart.h"
#include "chip/bus.h"
#include "link/simulated_board.h"

class VerilatedContext;

namespace db::rtl {

struct BridgeBoardOptions {
  std::uint32_t clock_hz = 24000000;  // the board clock (the chips' clock), reported by HELLO
  std::uint32_t divisor = 8;          // clocks per UART bit: 8 = 3 Mbaud at 24 MHz; at least 4
  // The inter-byte timeout inside a frame, in clocks (0: none); default 100 ms at 24 MHz.
  std::uint64_t timeout_clocks = 2400000;
  // A chip in its power-on state.
  std::function<std::unique_ptr<chip::ChipBackend>()> make_chip;
  // Chips behind the bridge: 1 (the board) or 2.
  int chips = 1;
};

class BridgeBoard final : public link::SimulatedBoard {
 public:
  explicit BridgeBoard(BridgeBoardOptions options);
  ~BridgeBoard() override;
  BridgeBoard(const BridgeBoard&) = delete;
  BridgeBoard& operator=(const BridgeBoard&) = delete;

  void receive(const std::uint8_t* data, std::size_t n) override;
  // Runs `clocks` clocks, or fewer when the board becomes idle with no frame half received. While
  // a frame is half received (and the timeout is on) it clocks on although idle() may be true, so
  // that boardsim's quiet rule (`run(timeout + 1)` once the pty stayed quiet inside a frame) runs
  // the inter-byte timeout, which cuts the frame (ERROR BAD_FRAME), as on the board.
  std::uint64_t run(std::uint64_t clocks, std::vector<std::uint8_t>& out) override;
  // True also while a frame is half received and the line is quiet: the board waits for the host's
  // next bytes then, and a caller may wait for them (boardsim does, under its quiet rule) instead
  // of clocking the timeout away at once.
  bool idle() const override;
  std::uint64_t interbyte_timeout_clocks() const override { return options_.timeout_clocks; }
  std::uint32_t clock_hz() const override { return options_.clock_hz; }
  std::uint32_t baud() const override { return options_.clock_hz / options_.divisor; }
  std::string describe() const override;

  // For tests. Runs exactly `clocks` clocks, idle or not.
  void advance(std::uint64_t clocks, std::vector<std::uint8_t>& out);
  // Holds the receive line low for `clocks` clocks once the bytes queued before have been sent
  // (a BREAK when longer than a frame), then idles it high.
  void send_break(std::uint64_t clocks);
  // Queues one byte sent with its stop bit low (a framing error at the receiver).
  void send_bad_stop(std::uint8_t byte);
  // Clocks since construction; the bridge's link-error pulses (ERROR replies, framing errors,
  // BREAKs, timeouts); whether a RUN runs; whether the receiver is inside a frame.
  std::uint64_t clocks() const { return clocks_; }
  std::uint64_t link_errors() const { return link_errors_; }
  std::uint64_t runs_done() const { return runs_done_; }
  // Reset pulses the bridge gave the chips (each replaces a chip by a new one).
  std::uint64_t chip_resets() const { return chip_resets_; }
  bool run_busy() const;
  bool in_frame() const;
  // A chip behind the bridge (replaced at each of the bridge's resets of it).
  chip::ChipBackend& chip(int i = 0) { return *chips_.at(std::size_t(i)); }

 private:
  struct Model;  // the verilated bridge, one or two chip ports
  template <class V>
  struct ModelOf;
  void step(std::vector<std::uint8_t>& out);

  BridgeBoardOptions options_;
  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<Model> top_;
  std::vector<std::unique_ptr<chip::ChipBackend>> chips_;
  std::vector<bool> in_reset_;
  std::vector<chip::DebugPort> debug_;
  UartLine line_;        // host -> board
  UartSampler sampler_;  // board -> host
  std::uint64_t clocks_ = 0;
  std::uint64_t link_errors_ = 0;
  std::uint64_t runs_done_ = 0;
  std::uint64_t chip_resets_ = 0;
};

}  // namespace db::rtl
