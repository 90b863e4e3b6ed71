// See board_top_board.h.
#include "board_top_board.h"

#include "Vboard_top.h"
#include "verilated.h"

namespace db::rtl {

BoardTopBoard::BoardTopBoard() : context_(std::make_unique<VerilatedContext>()), line_(kDivisor), sampler_(kDivisor) {
  context_->debug(0);
  context_->randReset(0);
  top_ = std::make_unique<Vboard_top>(context_.get(), "board");
  top_->clk_i = 0;
  top_->uart_rx_i = 1;
  // The asynchronous reset runs only on an edge of rst_ni: high, low (with clocks), high; then the
  // synchroniser's two clocks and the bridge's chip reset pulse.
  top_->rst_ni = 1;
  top_->eval();
  top_->rst_ni = 0;
  top_->eval();
  std::vector<std::uint8_t> none;
  for (int i = 0; i < 2; ++i) step(none);
  top_->rst_ni = 1;
  top_->eval();
  for (int i = 0; i < 8; ++i) step(none);
  clocks_ = 0;
}

BoardTopBoard::~BoardTopBoard() { top_->final(); }

std::string BoardTopBoard::describe() const { return "board_top+rtl x1 @ " + std::to_string(baud()) + " baud"; }

void BoardTopBoard::receive(const std::uint8_t* data, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) line_.byte(data[i]);
}

bool BoardTopBoard::idle() const { return line_.idle() && sampler_.idle() && top_->sim_idle_o; }

bool BoardTopBoard::led_busy() const { return top_->led_busy_o != 0; }
bool BoardTopBoard::led_done() const { return top_->led_done_o != 0; }
bool BoardTopBoard::led_err() const { return top_->led_err_o != 0; }

std::uint64_t BoardTopBoard::run(std::uint64_t clocks, std::vector<std::uint8_t>& out) {
  std::uint64_t n = 0;
  for (; n < clocks && !(idle() && !(top_->sim_in_frame_o && kTimeoutClocks != 0)); ++n) step(out);
  return n;
}

void BoardTopBoard::advance(std::uint64_t clocks, std::vector<std::uint8_t>& out) {
  for (std::uint64_t n = 0; n < clocks; ++n) step(out);
}

void BoardTopBoard::step(std::vector<std::uint8_t>& out) {
  top_->uart_rx_i = std::uint8_t(line_.next());
  top_->clk_i = 0;
  top_->eval();
  top_->clk_i = 1;
  top_->eval();
  ++clocks_;
  sampler_.sample(top_->uart_tx_o & 1, out);
}

}  // namespace db::rtl
