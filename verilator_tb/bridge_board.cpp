// See bridge_board.h.
#include "bridge_board.h"

#include <algorithm>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "Vlink_bridge.h"
#include "Vlink_bridge2.h"
#include "verilated.h"

namespace db::rtl {

// What the harness needs of a verilated bridge, whatever its chip count.
struct BridgeBoard::Model {
  virtual ~Model() = default;
  virtual void set_rx(int level) = 0;
  virtual void clock() = 0;  // one rising edge
  virtual void reset() = 0;
  virtual bool ce(int c) const = 0;
  virtual bool rstn(int c) const = 0;
  virtual bool req(int c) const = 0;
  virtual bool we() const = 0;
  virtual std::uint32_t addr() const = 0;
  virtual std::uint32_t wdata() const = 0;
  virtual void set_response(int c, std::uint32_t data, bool err) = 0;
  virtual void set_debug(int c, const chip::DebugPort& d) = 0;
  virtual int tx() const = 0;
  virtual bool idle() const = 0;
  virtual bool run_busy() const = 0;
  virtual bool in_frame() const = 0;
  virtual bool link_err() const = 0;
  virtual bool run_done() const = 0;
  virtual void final() = 0;
};

namespace {

// 32 bits at word c of a port: an integer (one or two chips) or a wide vector.
template <class T>
void put_word(T& port, int c, std::uint32_t v) {
  if constexpr (std::is_integral_v<T>) {
    const T mask = T(0xFFFFFFFFu) << (32 * c);
    port = T((port & ~mask) | (T(v) << (32 * c)));
  } else {
    port[std::size_t(c)] = v;
  }
}

template <class T>
void put_bit(T& port, int bit, bool v) {
  const std::uint32_t m = 1u << (bit % 32);
  auto& w = port[std::size_t(bit / 32)];
  w = v ? (w | m) : (w & ~m);
}

}  // namespace

template <class V>
struct BridgeBoard::ModelOf final : BridgeBoard::Model {
  ModelOf(VerilatedContext* ctx, const BridgeBoardOptions& o) : top(std::make_unique<V>(ctx, "bridge")) {
    top->clk_i = 0;
    top->div_i = std::uint16_t(o.divisor);
    top->timeout_i = std::uint32_t(std::min<std::uint64_t>(o.timeout_clocks, 0xFFFFFFFFu));
    top->uart_rx_i = 1;
    top->chip_rdata_i = {};
    top->chip_err_i = 0;
  }
  void set_rx(int level) override { top->uart_rx_i = std::uint8_t(level); }
  void clock() override {
    top->clk_i = 0;
    top->eval();
    top->clk_i = 1;
    top->eval();
  }
  // The asynchronous reset runs only on an edge of rst_ni: high, low (with a clock), high.
  void reset() override {
    top->rst_ni = 1;
    top->eval();
    top->rst_ni = 0;
    top->eval();
    clock();
    top->clk_i = 0;
    top->eval();
    top->rst_ni = 1;
    top->eval();
  }
  bool ce(int c) const override { return (top->chip_ce_o >> c) & 1; }
  bool rstn(int c) const override { return (top->chip_rst_no >> c) & 1; }
  bool req(int c) const override { return (top->chip_req_o >> c) & 1; }
  bool we() const override { return top->chip_we_o != 0; }
  std::uint32_t addr() const override { return top->chip_addr_o; }
  std::uint32_t wdata() const override { return top->chip_wdata_o; }
  void set_response(int c, std::uint32_t data, bool err) override {
    put_word(top->chip_rdata_i, c, data);
    top->chip_err_i = std::uint8_t((top->chip_err_i & ~(1u << c)) | (err ? 1u << c : 0u));
  }
  // {state 4, ply 6, move 16, nodes 32, leaf 16, flags 8} at bit 82 * c, flags lowest.
  void set_debug(int c, const chip::DebugPort& d) override {
    const std::uint64_t lo = std::uint64_t(d.flags) | std::uint64_t(d.leaf) << 8 | std::uint64_t(d.nodes) << 24 |
                             std::uint64_t(d.move & 0xFF) << 56;
    const std::uint64_t hi =
        std::uint64_t(d.move >> 8) | std::uint64_t(d.ply & 0x3F) << 8 | std::uint64_t(d.state & 0xF) << 14;
    for (int b = 0; b < 82; ++b) put_bit(top->chip_dbg_i, 82 * c + b, b < 64 ? (lo >> b) & 1 : (hi >> (b - 64)) & 1);
  }
  int tx() const override { return top->uart_tx_o & 1; }
  bool idle() const override { return top->idle_o != 0; }
  bool run_busy() const override { return top->run_busy_o != 0; }
  bool in_frame() const override { return top->rx_frame_o != 0; }
  bool link_err() const override { return top->link_err_o != 0; }
  bool run_done() const override { return top->run_done_o != 0; }
  void final() override { top->final(); }
  std::unique_ptr<V> top;
};

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
  if (options_.chips == 1) {
    top_ = std::make_unique<ModelOf<Vlink_bridge>>(context_.get(), options_);
  } else if (options_.chips == 2) {
    top_ = std::make_unique<ModelOf<Vlink_bridge2>>(context_.get(), options_);
  } else {
    throw std::invalid_argument("BridgeBoard: 1 or 2 chips (the verilated configurations)");
  }
  for (int c = 0; c < options_.chips; ++c) chips_.push_back(options_.make_chip());
  in_reset_.assign(chips_.size(), false);
  debug_.assign(chips_.size(), chip::DebugPort{});
  top_->reset();
}

BridgeBoard::~BridgeBoard() { top_->final(); }

std::string BridgeBoard::describe() const {
  return "bridge+" + chips_[0]->name() + " x" + std::to_string(chips_.size()) + " @ " + std::to_string(baud()) +
         " baud";
}

void BridgeBoard::receive(const std::uint8_t* data, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) line_.byte(data[i]);
}

void BridgeBoard::send_break(std::uint64_t clocks) { line_.low(clocks); }

void BridgeBoard::send_bad_stop(std::uint8_t byte) { line_.byte(byte, false); }

bool BridgeBoard::idle() const { return line_.idle() && sampler_.idle() && top_->idle(); }

bool BridgeBoard::run_busy() const { return top_->run_busy(); }

bool BridgeBoard::in_frame() const { return top_->in_frame(); }

std::uint64_t BridgeBoard::run(std::uint64_t clocks, std::vector<std::uint8_t>& out) {
  std::uint64_t n = 0;
  for (; n < clocks && !(idle() && !(top_->in_frame() && options_.timeout_clocks != 0)); ++n) step(out);
  return n;
}

void BridgeBoard::advance(std::uint64_t clocks, std::vector<std::uint8_t>& out) {
  for (std::uint64_t n = 0; n < clocks; ++n) step(out);
}

void BridgeBoard::step(std::vector<std::uint8_t>& out) {
  top_->set_rx(line_.next());
  // The chip ports as registered at the last edge: this edge is a chip's clock when enabled.
  const bool we = top_->we();
  const std::uint32_t addr = top_->addr();
  const std::uint32_t wdata = top_->wdata();
  struct Port {
    bool ce, rstn, req;
  };
  Port ports[2] = {};
  for (std::size_t c = 0; c < chips_.size(); ++c) {
    ports[c] = {top_->ce(int(c)), top_->rstn(int(c)), top_->req(int(c))};
  }
  top_->clock();
  ++clocks_;
  if (top_->link_err()) ++link_errors_;
  if (top_->run_done()) ++runs_done_;
  for (std::size_t c = 0; c < chips_.size(); ++c) {
    const Port& p = ports[c];
    if (!p.rstn) {
      if (!in_reset_[c]) {
        chips_[c].reset();
        chips_[c] = options_.make_chip();
        in_reset_[c] = true;
        ++chip_resets_;
        debug_[c] = chips_[c]->debug();
        top_->set_debug(int(c), debug_[c]);
      }
      continue;
    }
    in_reset_[c] = false;
    if (!p.ce) continue;
    if (p.req) {
      const chip::BusResponse r = chips_[c]->access(we, addr, wdata);
      top_->set_response(int(c), r.data, r.error);
    } else {
      chips_[c]->tick(1);
    }
    const chip::DebugPort d = chips_[c]->debug();
    if (d != debug_[c]) {
      top_->set_debug(int(c), d);
      debug_[c] = d;
    }
  }
  sampler_.sample(top_->tx(), out);
}

}  // namespace db::rtl
