// The Micro Channel bus alone: transfer timing (basic, synchronous and asynchronous extended cycles,
// streaming-data bursts, the host's overhead, the channel check) and arbitration between two masters. Simulated time
// only.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "mca_address.h"
#include "mca_bus.h"
#include "mca_cycle.h"
#include "mca_host.h"
#include "mca_timing.h"

namespace db::sim {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

// A card that answers every transfer, holding CD CHRDY for `hold`, and records when it saw each.
struct TestCard : sc_core::sc_module {
  tlm_utils::simple_target_socket<TestCard> socket;
  sc_time hold = sc_core::SC_ZERO_TIME;
  std::vector<sc_time> seen;        // start of each transfer's cycle
  std::vector<std::uint32_t> data;  // the data written
  explicit TestCard(sc_core::sc_module_name n) : sc_module(n), socket("socket") {
    socket.register_b_transport(this, &TestCard::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& p, sc_time& delay) {
    seen.push_back(sc_core::sc_time_stamp() + delay);
    std::uint32_t v = 0;
    std::memcpy(&v, p.get_data_ptr(), 4);
    if (p.is_write()) data.push_back(v);
    p.get_extension<McaCycle>()->hold = hold;
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

TEST(McaTiming, ChipClocksAreExactAt24MHz) {
  EXPECT_EQ(chip_clocks_at(sc_time(1, sc_core::SC_US)), 24u);
  EXPECT_EQ(chip_clocks_at(sc_time(1, sc_core::SC_SEC)), 24'000'000u);
  EXPECT_EQ(chip_clocks_at(sc_time(41666, sc_core::SC_PS)), 0u);
  EXPECT_EQ(chip_clocks_at(sc_time(41667, sc_core::SC_PS)), 1u);
  EXPECT_EQ(chip_clocks_at(chip_clock_time(0)), 0u);
  for (std::uint64_t k : {1ull, 2ull, 3ull, 1000ull, 24'000'001ull}) {
    EXPECT_EQ(chip_clocks_at(chip_clock_time(k)), k);
    EXPECT_EQ(chip_clocks_at(chip_clock_time(k) - sc_time(1, sc_core::SC_PS)), k - 1);
  }
}

struct HostBench {
  McaBus bus{"bus"};
  McaHost host{"host", sc_time(500, SC_NS)};
  TestCard card{"card"};
  HostBench() {
    host.socket.bind(bus.master_port(0));
    bus.slot_port(0).bind(card.socket);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
  }
};

TEST(McaBus, BasicCycleWithArbitrationOnceThenParked) {
  HostBench b;
  const std::uint64_t a = chip_address(0, 0, 5);
  b.host.write(a, 7);
  // The first transfer: host overhead, an arbitration cycle (the bus changes hands), a basic cycle.
  EXPECT_EQ(b.host.now(), sc_time(500 + 300 + 200, SC_NS));
  ASSERT_EQ(b.card.seen.size(), 1u);
  EXPECT_EQ(b.card.seen[0], sc_time(800, SC_NS));
  // The bus stays parked with its owner: no arbitration on the next transfer.
  b.host.write(a, 8);
  EXPECT_EQ(b.host.now(), sc_time(1000 + 500 + 200, SC_NS));
  b.host.set_overhead(sc_core::SC_ZERO_TIME);
  b.host.write(a, 9);
  EXPECT_EQ(b.host.now(), sc_time(1900, SC_NS));
  EXPECT_EQ(b.card.data, (std::vector<std::uint32_t>{7, 8, 9}));
  EXPECT_EQ(b.bus.stats().transfers, 3u);
  EXPECT_EQ(b.bus.stats().arbitrations, 1u);
  EXPECT_EQ(b.bus.stats().busy, sc_time(300 + 3 * 200, SC_NS));
  EXPECT_EQ(b.host.stats().overhead, sc_time(1000, SC_NS));
  EXPECT_EQ(b.host.stats().accesses, 3u);
}

TEST(McaBus, ExtendedCycles) {
  HostBench b;
  b.host.set_overhead(sc_core::SC_ZERO_TIME);
  const std::uint64_t a = chip_address(0, 1, 0x1234);
  b.host.read(a);  // arbitration + basic
  sc_time t = b.host.now();
  EXPECT_EQ(t, sc_time(500, SC_NS));
  b.card.hold = sc_time(60, SC_NS);  // synchronous extended: 300 ns
  b.host.read(a);
  EXPECT_EQ(b.host.now() - t, sc_time(300, SC_NS));
  t = b.host.now();
  b.card.hold = sc_time(1000, SC_NS);  // asynchronous extended: basic + hold
  b.host.read(a);
  EXPECT_EQ(b.host.now() - t, sc_time(1200, SC_NS));
  EXPECT_EQ(b.bus.stats().extended, 2u);
  t = b.host.now();
  b.card.hold = sc_time(4000, SC_NS);  // longer than 3.5 us: channel check
  try {
    b.host.read(a);
    FAIL() << "a 4.2 us cycle must end in a channel check";
  } catch (const McaError& e) {
    EXPECT_NE(std::string(e.what()).find("channel check"), std::string::npos) << e.what();
  }
  EXPECT_EQ(b.host.now() - t, sc_time(3500, SC_NS));
}

TEST(McaBus, ABurstIsOneOverheadAFirstCycleAndStreamingCycles) {
  HostBench b;
  b.host.write(chip_address(0, 0, 5), 1);  // the first transfer arbitrates; the bus then stays parked
  const sc_time t = b.host.now();
  std::uint32_t words[4] = {10, 11, 12, 13};
  EXPECT_FALSE(b.host.transfer_block(true, chip_address(0, 0, 8), words, 4));
  // 0.5 us of host overhead, a 200 ns basic cycle for the first word, 100 ns for each other.
  EXPECT_EQ(b.host.now() - t, sc_time(500 + 200 + 3 * 100, SC_NS));
  EXPECT_EQ(b.host.stats().accesses, 2u);
  EXPECT_EQ(b.host.stats().words, 5u);
  EXPECT_EQ(b.bus.stats().transfers, 2u);
  // A burst read held by the card: the first word's cycle is extended, the others stream.
  const sc_time r = b.host.now();
  b.card.hold = sc_time(60, SC_NS);
  EXPECT_FALSE(b.host.transfer_block(false, chip_address(0, 0, 8), words, 3));
  EXPECT_EQ(b.host.now() - r, sc_time(500 + 300 + 2 * 100, SC_NS));
  // Bursts go to memory windows only: not to an I/O port, a card's status port or its broadcast
  // window; and a transfer has words.
  b.card.hold = sc_core::SC_ZERO_TIME;
  EXPECT_THROW(b.host.transfer_block(false, card_status_port(0), words, 2), McaError);
  EXPECT_THROW(b.host.transfer_block(true, broadcast_address(0, 0), words, 2), McaError);
  EXPECT_THROW(b.host.transfer_block(true, kSetupSelect, words, 2), McaError);
  EXPECT_THROW(b.host.transfer_block(true, chip_address(0, 0, 8), words, 0), std::invalid_argument);
  EXPECT_EQ(b.card.data.size(), 2u);  // what the test card saw: the single write and the burst's
}

TEST(McaBus, NoCardAndUnalignedAreErrors) {
  HostBench b;
  EXPECT_THROW(b.host.read(chip_address(3, 0, 0)), McaError);  // no card in slot 3
  EXPECT_THROW(b.host.read(0x2000), McaError);                 // nothing there
  EXPECT_THROW(b.host.read(chip_address(0, 0, 0) + 2), McaError);
  EXPECT_THROW(b.host.read(kPosBase), McaError);  // POS with no card in setup
  EXPECT_EQ(b.bus.stats().errors, 4u);
}

// A master process: at `at`, one write at its level; records when the transfer ended.
struct Master : sc_core::sc_module {
  SC_HAS_PROCESS(Master);
  tlm_utils::simple_initiator_socket<Master> socket;
  sc_time at;
  std::uint32_t value;
  sc_time done;
  Master(sc_core::sc_module_name n, sc_time start, std::uint32_t v)
      : sc_module(n), socket("socket"), at(start), value(v) {
    SC_THREAD(run);
  }
  void run() {
    tlm::tlm_generic_payload p;
    McaCycle cycle;
    std::uint32_t data = value;
    p.set_command(tlm::TLM_WRITE_COMMAND);
    p.set_address(chip_address(0, 0, 1));
    p.set_data_ptr(reinterpret_cast<unsigned char*>(&data));
    p.set_data_length(4);
    p.set_streaming_width(4);
    p.set_extension(&cycle);
    sc_time delay = at;  // loosely timed: the request's time as an annotated delay
    socket->b_transport(p, delay);
    p.clear_extension(&cycle);
    EXPECT_EQ(p.get_response_status(), tlm::TLM_OK_RESPONSE);
    done = sc_core::sc_time_stamp() + delay;
  }
};

struct ArbitrationBench {
  McaBus bus{"bus"};
  TestCard card{"card"};
  Master low, high;
  ArbitrationBench(sc_time low_at, sc_time high_at) : low("low", low_at, 9), high("high", high_at, 3) {
    // The low-priority master binds first: the order of binding must not matter.
    low.socket.bind(bus.master_port(9));
    high.socket.bind(bus.master_port(3));
    bus.slot_port(0).bind(card.socket);
  }
};

TEST(McaArbitration, HigherPriorityWinsAndTheMinimumCycleHolds) {
  ArbitrationBench b(sc_core::SC_ZERO_TIME, sc_core::SC_ZERO_TIME);
  sc_core::sc_start(sc_time(10, sc_core::SC_US));
  // Both ask at 0: an arbitration cycle (0-300 ns), level 3 transfers (300-500 ns), a second
  // arbitration cycle (500-800 ns), level 9 transfers (800-1000 ns).
  EXPECT_EQ(b.card.data, (std::vector<std::uint32_t>{3, 9}));
  ASSERT_EQ(b.card.seen.size(), 2u);
  EXPECT_EQ(b.card.seen[0], sc_time(300, SC_NS));
  EXPECT_EQ(b.high.done, sc_time(500, SC_NS));
  EXPECT_EQ(b.card.seen[1], sc_time(800, SC_NS));
  EXPECT_EQ(b.low.done, sc_time(1000, SC_NS));
  EXPECT_GE(b.card.seen[1] - b.high.done, b.bus.timing().arbitration);
  EXPECT_EQ(b.bus.stats().arbitrations, 2u);
}

TEST(McaArbitration, ALateHighPriorityRequestWinsTheCycleInProgress) {
  // Level 9 asks at 0 and starts an arbitration cycle; level 3 asks at 100 ns, within it, and wins.
  ArbitrationBench b(sc_core::SC_ZERO_TIME, sc_time(100, SC_NS));
  sc_core::sc_start(sc_time(10, sc_core::SC_US));
  EXPECT_EQ(b.card.data, (std::vector<std::uint32_t>{3, 9}));
  EXPECT_EQ(b.high.done, sc_time(500, SC_NS));
  EXPECT_EQ(b.low.done, sc_time(1000, SC_NS));
}

TEST(McaArbitration, ALoneMasterIsNotDelayed) {
  // Level 3 asks at 2 us, long after level 9's transfer (0-500 ns): it arbitrates once and goes.
  ArbitrationBench b(sc_core::SC_ZERO_TIME, sc_time(2, sc_core::SC_US));
  sc_core::sc_start(sc_time(10, sc_core::SC_US));
  EXPECT_EQ(b.card.data, (std::vector<std::uint32_t>{9, 3}));
  EXPECT_EQ(b.low.done, sc_time(500, SC_NS));
  EXPECT_EQ(b.high.done, sc_time(2500, SC_NS));
}

// The host driven from a process shares the bus with a master of higher priority.
struct HostDriver : sc_core::sc_module {
  SC_HAS_PROCESS(HostDriver);
  McaHost& host;
  sc_time done;
  HostDriver(sc_core::sc_module_name n, McaHost& h) : sc_module(n), host(h) { SC_THREAD(run); }
  void run() {
    host.write(chip_address(0, 0, 2), 5);
    done = host.now();
  }
};

TEST(McaArbitration, HostInAProcessWaitsForAHigherPriorityMaster) {
  McaBus bus{"bus"};
  TestCard card{"card"};
  McaHost host{"host", sc_core::SC_ZERO_TIME};
  HostDriver driver{"driver", host};
  Master dma("dma", sc_core::SC_ZERO_TIME, 1);
  host.socket.bind(bus.master_port(5));
  dma.socket.bind(bus.master_port(1));
  bus.slot_port(0).bind(card.socket);
  sc_core::sc_start(sc_time(10, sc_core::SC_US));
  EXPECT_EQ(card.data, (std::vector<std::uint32_t>{1, 5}));
  EXPECT_EQ(dma.done, sc_time(500, SC_NS));
  EXPECT_EQ(driver.done, sc_time(1000, SC_NS));
  EXPECT_EQ(host.stats().on_bus, sc_time(1000, SC_NS));  // waiting for the bus counts as the host's bus time
}

}  // namespace
}  // namespace db::sim
