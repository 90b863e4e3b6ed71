// The UART blocks alone (rtl/board/uart_rx.sv, uart_tx.sv), verilated: every byte through the
// transmitter into the receiver, a stop bit read low, a BREAK, a glitch that is not a start bit.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "Vuart_rx.h"
#include "Vuart_tx.h"
#include "verilated.h"

namespace {

// The receiver with its line driven bit by bit; counts what it reports.
class Rx {
 public:
  explicit Rx(int div) : ctx_(std::make_unique<VerilatedContext>()), rx_(std::make_unique<Vuart_rx>(ctx_.get())) {
    rx_->div_i = std::uint16_t(div);
    rx_->rx_i = 1;
    rx_->clk_i = 0;
    rx_->rst_ni = 1;
    rx_->eval();
    rx_->rst_ni = 0;
    rx_->eval();
    clock();
    rx_->rst_ni = 1;
    rx_->eval();
    bytes.clear();
    frame_errors = breaks = 0;
  }
  void clock() {
    rx_->clk_i = 1;
    rx_->eval();
    if (rx_->valid_o) bytes.push_back(rx_->data_o);
    if (rx_->frame_err_o) ++frame_errors;
    if (rx_->break_o) ++breaks;
    rx_->clk_i = 0;
    rx_->eval();
  }
  void line(int level, int clocks) {
    rx_->rx_i = std::uint8_t(level);
    for (int i = 0; i < clocks; ++i) clock();
  }
  // A whole frame: start, eight data bits LSB first, stop.
  void send(std::uint8_t b, int div, int stop = 1) {
    line(0, div);
    for (int i = 0; i < 8; ++i) line((b >> i) & 1, div);
    line(stop, div);
  }
  bool busy() const { return rx_->busy_o != 0; }
  std::vector<std::uint8_t> bytes;
  int frame_errors = 0;
  int breaks = 0;

 private:
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vuart_rx> rx_;
};

TEST(Uart, LoopbackEveryByte) {
  for (int div : {4, 8, 13}) {
    auto ctx = std::make_unique<VerilatedContext>();
    Vuart_tx tx(ctx.get());
    Rx rx(div);
    tx.div_i = std::uint16_t(div);
    tx.valid_i = 0;
    tx.clk_i = 0;
    tx.rst_ni = 1;
    tx.eval();
    tx.rst_ni = 0;
    tx.eval();
    tx.rst_ni = 1;
    tx.eval();
    std::vector<std::uint8_t> sent;
    int next = 0;
    std::uint64_t clocks = 0;
    while (rx.bytes.size() < 256 && clocks < 256u * 12 * std::uint64_t(div) + 1000) {
      tx.valid_i = next < 256;
      tx.data_i = std::uint8_t(next);
      tx.eval();
      const bool taken = tx.valid_i && tx.ready_o;
      tx.clk_i = 1;
      tx.eval();
      tx.clk_i = 0;
      tx.eval();
      if (taken) sent.push_back(std::uint8_t(next++));
      rx.line(tx.tx_o, 1);
      ++clocks;
    }
    EXPECT_EQ(rx.bytes, sent) << "divisor " << div;
    EXPECT_EQ(rx.bytes.size(), 256u);
    EXPECT_EQ(rx.frame_errors, 0);
    EXPECT_EQ(rx.breaks, 0);
    // Back to back at 10 bits a byte, nothing more.
    EXPECT_LE(clocks, 256u * 10 * std::uint64_t(div) + 4 * std::uint64_t(div));
  }
}

TEST(Uart, FramingErrorDropsTheByte) {
  const int div = 8;
  Rx rx(div);
  rx.send(0x5A, div, /*stop=*/0);
  rx.line(1, 3 * div);
  EXPECT_TRUE(rx.bytes.empty());
  EXPECT_EQ(rx.frame_errors, 1);
  EXPECT_EQ(rx.breaks, 0);
  rx.send(0xC3, div);
  rx.line(1, div);
  ASSERT_EQ(rx.bytes.size(), 1u);
  EXPECT_EQ(rx.bytes[0], 0xC3);
}

TEST(Uart, BreakDetectedOnceAndReceiverRecovers) {
  const int div = 8;
  Rx rx(div);
  rx.send(0x11, div);
  // A frame of zeros with a low stop bit is ten bit times low: a framing error, not yet a break.
  rx.line(0, 10 * div + div / 2);
  EXPECT_EQ(rx.breaks, 0);
  EXPECT_EQ(rx.frame_errors, 1);
  // Held on: a BREAK (twelve bit times), reported once however long it lasts.
  rx.line(0, 40 * div);
  EXPECT_EQ(rx.breaks, 1);
  rx.line(1, 2 * div);
  EXPECT_FALSE(rx.busy());
  rx.send(0x22, div);
  rx.line(1, div);
  EXPECT_EQ(rx.bytes, (std::vector<std::uint8_t>{0x11, 0x22}));
  EXPECT_EQ(rx.breaks, 1);
}

TEST(Uart, ShortGlitchIsNoStartBit) {
  const int div = 8;
  Rx rx(div);
  rx.line(0, 2);  // shorter than half a bit
  rx.line(1, 3 * div);
  EXPECT_TRUE(rx.bytes.empty());
  EXPECT_EQ(rx.frame_errors, 0);
  EXPECT_FALSE(rx.busy());
}

}  // namespace
