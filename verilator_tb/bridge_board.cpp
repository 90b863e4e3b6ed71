// See bridge_board.h.
#include "bridge_board.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "Vlink_bridge.h"
#include "verilated.h"

namespace db::rtl {

BridgeBoard::BridgeBoard(BridgeBoardOptions options)
    : options_(std::move(options)),
      context_(std::make_unique<VerilatedContext>()),
      line_(options_.divisor),
      sampler_(options_.divisor) {
  if (!options_.make_chip) throw std::invalid_argument("BridgeBoard: no chip factory");
  if (options_.divisor < 4 || options_.divisor > 0xFFFF) {
    throw std::invalid_argument("BridgeBoard: the UART divisor must be 4 to 65535 clocks per bit");
  }
  context_->debug(0);
  context_->randReset(0);
  top_ = std::make_unique<Vlink_bridge>(context_.get(), "bridge");
  chip_ = options_.make_chip();
  top_->clk_i = 0;
  top_->div_i = std::uint16_t(options_.divisor);
  top_->timeout_i = std::uint32_t(std::min<std::uint64_t>(options_.timeout_clocks, 0xFFFFFFFFu));
  top_->uart_rx_i = 1;
  top_->chip_rdata_i = 0;
  top_->chip_err_i = 0;
  // The asynchronous reset runs only on an edge of rst_ni: high, low (with a clock), high.
  top_->rst_ni = 1;
  top_->eval();
  top_->rst_ni = 0;
  top_->eval();
  top_->clk_i = 1;
  top_->eval();
  top_->clk_i = 0;
  top_->eval();
  top_->rst_ni = 1;
  top_->eval();
}

BridgeBoard::~BridgeBoard() { top_->final(); }

std::string BridgeBoard::describe() const {
  return "bridge+" + chip_->name() + " x1 @ " + std::to_string(baud()) + " baud";
}

void BridgeBoard::receive(const std::uint8_t* data, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) line_.byte(data[i]);
}

void BridgeBoard::send_break(std::uint64_t clocks) { line_.low(clocks); }

void BridgeBoard::send_bad_stop(std::uint8_t byte) { line_.byte(byte, false); }

bool BridgeBoard::idle() const { return line_.idle() && sampler_.idle() && top_->idle_o; }

bool BridgeBoard::run_busy() const { return top_->run_busy_o != 0; }

bool BridgeBoard::in_frame() const { return top_->rx_frame_o != 0; }

std::uint64_t BridgeBoard::run(std::uint64_t clocks, std::vector<std::uint8_t>& out) {
  std::uint64_t n = 0;
  for (; n < clocks && !idle(); ++n) step(out);
  return n;
}

void BridgeBoard::advance(std::uint64_t clocks, std::vector<std::uint8_t>& out) {
  for (std::uint64_t n = 0; n < clocks; ++n) step(out);
}

void BridgeBoard::step(std::vector<std::uint8_t>& out) {
  top_->uart_rx_i = std::uint8_t(line_.next());
  // The chip port as registered at the last edge: this edge is the chip's clock when enabled.
  const bool ce = (top_->chip_ce_o & 1) != 0;
  const bool rstn = (top_->chip_rst_no & 1) != 0;
  const bool req = (top_->chip_req_o & 1) != 0;
  const bool we = top_->chip_we_o != 0;
  const std::uint32_t addr = top_->chip_addr_o;
  const std::uint32_t wdata = top_->chip_wdata_o;
  top_->clk_i = 0;
  top_->eval();
  top_->clk_i = 1;
  top_->eval();
  ++clocks_;
  if (top_->link_err_o) ++link_errors_;
  if (top_->run_done_o) ++runs_done_;
  if (!rstn) {
    if (!chip_in_reset_) {
      chip_.reset();
      chip_ = options_.make_chip();
      chip_in_reset_ = true;
    }
  } else {
    chip_in_reset_ = false;
    if (ce) {
      if (req) {
        const chip::BusResponse r = chip_->access(we, addr, wdata);
        top_->chip_rdata_i = r.data;
        top_->chip_err_i = r.error ? 1 : 0;
      } else {
        chip_->tick(1);
      }
      // {state 4, ply 6, move 16, nodes 32, leaf 16, flags 8}, flags at bit 0.
      const chip::DebugPort d = chip_->debug();
      const std::uint64_t lo = std::uint64_t(d.flags) | std::uint64_t(d.leaf) << 8 | std::uint64_t(d.nodes) << 24 |
                               std::uint64_t(d.move & 0xFF) << 56;
      const std::uint64_t hi =
          std::uint64_t(d.move >> 8) | std::uint64_t(d.ply & 0x3F) << 8 | std::uint64_t(d.state & 0xF) << 14;
      top_->chip_dbg_i[0] = std::uint32_t(lo);
      top_->chip_dbg_i[1] = std::uint32_t(lo >> 32);
      top_->chip_dbg_i[2] = std::uint32_t(hi);
    }
  }
  sampler_.sample(top_->uart_tx_o & 1, out);
}

}  // namespace db::rtl
