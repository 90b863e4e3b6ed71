// See chip_harness.h.
#include "chip_harness.h"

#include <stdexcept>
#include <type_traits>
#include <utility>

#include "Vchip_top.h"
// The root's members (read in cycle() below) sit in anonymous structs, which -Wpedantic flags.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
#include "Vchip_top___024root.h"
#pragma GCC diagnostic pop
#include "verilated.h"
#if VM_TRACE
#include "verilated_fst_c.h"
#endif
#if VM_COVERAGE
#include "verilated_cov.h"
#endif

namespace db::rtl {

namespace {

// Verilator 5 runs the clocked logic when eval() sees clk_i differ from the value it saw at the
// previous eval() (the root's __Vtrigrprev__TOP__clk_i). The falling half of a clock only
// re-evaluates the logic that depends on the inputs, which the rising half's eval() repeats before
// the edge; so an untraced clock is one eval() with clk_i high and the remembered value set low:
// the same edge, the same results, half the input logic. Builds whose root has no such member
// (another Verilator version) keep the two evaluations.
template <typename Root, typename = void>
struct HasClockPrev : std::false_type {};
template <typename Root>
struct HasClockPrev<Root, std::void_t<decltype(std::declval<Root&>().__Vtrigrprev__TOP__clk_i)>> : std::true_type {};

template <typename Root>
bool rising_edge_only(Root* root) {
  if constexpr (HasClockPrev<Root>::value) {
    root->__Vtrigrprev__TOP__clk_i = 0;
    return true;
  } else {
    (void)root;
    return false;
  }
}

}  // namespace

#if VM_TRACE
struct ChipHarness::Trace {
  VerilatedFstC fst;
};
#else
struct ChipHarness::Trace {};
#endif

ChipHarness::ChipHarness(HarnessOptions options)
    : options_(std::move(options)), context_(std::make_unique<VerilatedContext>()) {
  context_->debug(0);
  context_->randReset(0);
  top_ = std::make_unique<Vchip_top>(context_.get(), "chip");
#if VM_TRACE
  if (!options_.trace_path.empty()) {
    context_->traceEverOn(true);
    trace_ = std::make_unique<Trace>();
    top_->trace(&trace_->fst, 99);
    trace_->fst.open(options_.trace_path.c_str());
  }
#else
  if (!options_.trace_path.empty()) {
    throw std::runtime_error("this build of the RTL has no tracing: configure with -DDB_RTL_TRACE=ON");
  }
#endif
#if !VM_COVERAGE
  if (!options_.coverage_path.empty()) {
    throw std::runtime_error("this build of the RTL has no coverage: configure with -DDB_RTL_COVERAGE=line");
  }
#endif
  top_->clk_i = 0;
  top_->req_i = 0;
  top_->we_i = 0;
  top_->addr_i = 0;
  top_->wdata_i = 0;
  reset();
}

ChipHarness::~ChipHarness() {
#if VM_TRACE
  if (trace_) trace_->fst.close();
#endif
  top_->final();
#if VM_COVERAGE
  if (!options_.coverage_path.empty()) context_->coveragep()->write(options_.coverage_path.c_str());
#endif
}

bool ChipHarness::coverage_supported() {
#if VM_COVERAGE
  return true;
#else
  return false;
#endif
}

bool ChipHarness::trace_supported() {
#if VM_TRACE
  return true;
#else
  return false;
#endif
}

bool ChipHarness::tracing() const { return trace_ != nullptr; }

void ChipHarness::cycle() {
  if (trace_ == nullptr && rising_edge_only(top_->rootp)) {
    top_->clk_i = 1;
    top_->eval();
    ++clock_;
    return;
  }
  top_->clk_i = 0;
  top_->eval();
#if VM_TRACE
  const bool dump = trace_ && clock_ >= options_.trace_from && clock_ <= options_.trace_to;
  if (dump) trace_->fst.dump(clock_ * 2);
#endif
  top_->clk_i = 1;
  top_->eval();
#if VM_TRACE
  if (dump) trace_->fst.dump(clock_ * 2 + 1);
#endif
  ++clock_;
}

void ChipHarness::reset() {
  top_->rst_ni = 1;
  top_->eval();
  top_->rst_ni = 0;
  top_->eval();
  cycle();
  top_->rst_ni = 1;
  top_->eval();
}

chip::BusResponse ChipHarness::access(bool write, std::uint32_t addr, std::uint32_t data) {
  top_->req_i = 1;
  top_->we_i = write ? 1 : 0;
  top_->addr_i = addr & 0x1FFFF;
  top_->wdata_i = data;
  cycle();
  // The response clock: the bus goes idle before the response is sampled, so an answer that
  // still depended on the request's address or data (rather than on registers and the RAMs'
  // registered reads) would show here.
  top_->req_i = 0;
  top_->we_i = 0;
  top_->addr_i = 0;
  top_->wdata_i = 0;
  top_->eval();
  return chip::BusResponse{top_->rdata_o, top_->err_o != 0};
}

void ChipHarness::tick(std::uint64_t n) {
  for (std::uint64_t i = 0; i < n; ++i) cycle();
}

chip::DebugPort ChipHarness::debug() const {
  return chip::DebugPort{std::uint8_t(top_->dbg_state_o), std::uint8_t(top_->dbg_ply_o),
                         std::uint16_t(top_->dbg_move_o), std::uint32_t(top_->dbg_nodes_o),
                         std::uint16_t(top_->dbg_leaf_o), std::uint8_t(top_->dbg_flags_o)};
}

}  // namespace db::rtl
