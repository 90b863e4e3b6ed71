// A node on its Micro Channel: POS registers, address decoding errors, chips on the bus giving the
// model's answers (perft, hardware search), chips clocked in simulated time while the host is on the
// bus, and the software search through the bus equal to the search on directly clocked chips.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "chess/notation.h"
#include "chess/perft.h"
#include "chess/position.h"
#include "chip/chip_client.h"
#include "chip/chip_regs.h"
#include "chip/eval_generator.h"
#include "chip/rtl_backend.h"
#include "chip/search_chip.h"
#include "mca_address.h"
#include "mca_chip_backend.h"
#include "mca_node.h"
#include "mca_timeline.h"
#include "search/chip_leaf_search.h"
#include "search/search.h"

namespace db::sim {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

std::shared_ptr<McaNode> make_node(int chips, const std::string& backend = "model", double overhead_ns = 500) {
  McaNodeOptions o;
  o.chips = chips;
  o.chip_backend = backend;
  o.timing.host_overhead = sc_time(overhead_ns, SC_NS);
  auto node = std::make_shared<McaNode>("node", o);
  node->start();
  return node;
}

TEST(McaNode, PosRegistersGiveTheIdAndEnable) {
  McaNodeOptions o;
  o.chips = 9;  // card 0 full, card 1 with one chip
  McaNode node("node", o);
  EXPECT_FALSE(node.card(0).enabled());
  node.start();
  EXPECT_TRUE(node.card(0).enabled());
  EXPECT_TRUE(node.card(1).enabled());
  McaHost& h = node.host();
  EXPECT_EQ(h.pos_read(1, kPosIdLow), kDeepBlueCardId & 0xFF);
  EXPECT_EQ(h.pos_read(1, kPosIdHigh), kDeepBlueCardId >> 8);
  EXPECT_EQ(h.pos_read(0, kPosOption) & kPosEnableBit, kPosEnableBit);
  h.pos_write(0, kPosIdLow, 0x55);  // the ID is read-only
  EXPECT_EQ(h.pos_read(0, kPosIdLow), kDeepBlueCardId & 0xFF);
  h.pos_write(0, 0x105, 0xA5);  // an option byte keeps its value
  EXPECT_EQ(h.pos_read(0, 0x105), 0xA5);
  EXPECT_EQ(node.card(0).pos(5), 0xA5);
}

TEST(McaNode, DisabledCardRefusesChipAccess) {
  auto node = make_node(9);
  chip::ChipClient c0(node->backend(0)), c8(node->backend(8));
  EXPECT_EQ(c0.read(chip::reg::CMD), 0u);
  node->host().pos_write(0, kPosOption, 0);  // disable card 0
  EXPECT_FALSE(node->card(0).enabled());
  try {
    c0.read(chip::reg::STATUS);
    FAIL() << "a disabled card must refuse the access";
  } catch (const McaError& e) {
    EXPECT_NE(std::string(e.what()).find("disabled"), std::string::npos) << e.what();
    EXPECT_EQ(e.address(), chip_address(0, 0, chip::reg::STATUS));
  }
  EXPECT_NO_THROW(c8.read(chip::reg::STATUS));  // card 1 still answers
  node->host().pos_write(0, kPosOption, kPosEnableBit);
  EXPECT_NO_THROW(c0.read(chip::reg::STATUS));
}

TEST(McaNode, EmptySlotIsAnError) {
  auto node = make_node(3);
  try {
    node->host().read(chip_address(0, 5, chip::reg::STATUS));
    FAIL() << "an empty chip slot must be an error";
  } catch (const McaError& e) {
    EXPECT_NE(std::string(e.what()).find("no chip in slot 5"), std::string::npos) << e.what();
  }
  EXPECT_THROW(node->host().read(chip_address(2, 0, 0)), McaError);  // no card in slot 2
}

TEST(McaNode, ChipErrorsReachTheClient) {
  // A write to a read-only register is the chip's own error (ChipError), not the bus's.
  auto node = make_node(1);
  chip::ChipClient c(node->backend(0));
  EXPECT_THROW(c.write(chip::reg::STATUS, 1), chip::ChipError);
  EXPECT_NO_THROW(c.read(chip::reg::STATUS));
}

TEST(McaNode, ChipAccessTimes) {
  // A chip write is a basic cycle, a read a synchronous extended one, each after the host overhead.
  auto node = make_node(2, "model", 500);
  McaHost& h = node->host();
  sc_time t = h.now();
  h.write(chip_address(0, 1, chip::reg::MOVE), 0x1234);
  EXPECT_EQ(h.now() - t, sc_time(700, SC_NS));
  t = h.now();
  EXPECT_EQ(h.read(chip_address(0, 1, chip::reg::MOVE)), 0x1234u);
  EXPECT_EQ(h.now() - t, sc_time(800, SC_NS));
}

// Perft through the bus equals the chess core's count (and the chip's own on a direct model).
TEST(McaNode, PerftThroughTheBus) {
  auto node = make_node(2);
  const char* fens[] = {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"};
  int i = 0;
  for (const char* fen : fens) {
    Position pos = Position::from_fen(fen);
    chip::ChipClient c(node->backend(i++ % 2));
    c.load(pos);
    chip::CommandStats st;
    EXPECT_EQ(c.perft(3, &st), perft(pos, 3)) << fen;
    chip::ChipClient direct(chip::make_backend("model"));
    direct.load(pos);
    chip::CommandStats direct_st;
    direct.perft(3, &direct_st);
    EXPECT_EQ(st.cycles, direct_st.cycles) << fen;  // the chip's own clocks: the bus does not change them
  }
}

chip::SearchParams search_params(int depth, int test) {
  chip::SearchParams p;
  p.depth = depth;
  p.test_value = test;
  p.mating_checks = p.singular_checks = 1;
  return p;
}

void expect_same_search(chip::ChipClient& a, chip::ChipClient& b, const Position& pos, const chip::SearchParams& p) {
  a.load(pos);
  a.eval_init();
  b.load(pos);
  b.eval_init();
  const chip::SearchResult ra = a.search(p), rb = b.search(p);
  EXPECT_TRUE(ra.finished);
  EXPECT_EQ(ra.fail_high, rb.fail_high);
  EXPECT_EQ(ra.best_move, rb.best_move);
  EXPECT_EQ(ra.nodes, rb.nodes);
  EXPECT_EQ(ra.cycles, rb.cycles);
  EXPECT_GT(ra.nodes, 0u);
}

const char* const kMiddlegames[] = {
    "r1r1q1k1/6p1/3b1p1p/1p1PpP2/1Pp5/2P4P/R1B2QP1/R5K1 w - - 0 37",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w KQkq - 0 1",
};

TEST(McaNode, HardwareSearchThroughTheBusEqualsTheModel) {
  auto node = make_node(16);
  int chip = 0;
  for (const char* fen : kMiddlegames) {
    const Position pos = Position::from_fen(fen);
    for (int test : {-50, 0, 50}) {
      chip::ChipClient bus(node->backend(chip++ % 16)), direct(chip::make_backend("model"));
      expect_same_search(bus, direct, pos, search_params(3, test));
    }
  }
}

TEST(McaNode, RtlChipThroughTheBusEqualsTheModel) {
  auto node = make_node(1, "rtl");
  chip::ChipClient bus(node->backend(0)), direct(chip::make_backend("model"));
  EXPECT_EQ(bus.backend().name(), "mca/rtl");
  Position pos = Position::from_fen(kMiddlegames[0]);
  expect_same_search(bus, direct, pos, search_params(2, 0));
  bus.load(pos);
  EXPECT_EQ(bus.perft(2), perft(pos, 2));
}

TEST(McaNode, CardStatusPortShowsWhichChipsAreIdle) {
  // Card 0 holds chips 0-7, card 1 chip 8: each card's port has a presence bit per occupied slot
  // and an idle bit per chip not running a command; reading it is a basic cycle and no chip access.
  auto node = make_node(9, "model", 500);
  McaHost& h = node->host();
  EXPECT_EQ(h.read(card_status_port(0)), 0xFFFFu);
  EXPECT_EQ(h.read(card_status_port(1)), 0x0101u);
  chip::ChipClient c3(node->backend(3));
  c3.load(Position::from_fen(kMiddlegames[1]));
  c3.eval_init();
  c3.start_search(search_params(3, 0));
  const std::uint64_t accesses = node->socket(3).accesses();
  const sc_time t = h.now();
  EXPECT_EQ(h.read(card_status_port(0)), 0xFFF7u);  // chip 3 searching
  EXPECT_EQ(h.now() - t, sc_time(700, SC_NS));      // 0.5 us overhead + a basic cycle
  EXPECT_EQ(node->socket(3).accesses(), accesses);
  EXPECT_EQ(node->idle_chips(0x108), 0x100u);  // of chips 3 and 8, 8 is idle
  std::uint64_t reads = 0;
  while (!(h.read(card_status_port(0)) & 0x08)) ASSERT_LT(++reads, 2'000'000u);
  EXPECT_FALSE(c3.busy());  // the card's idle bit and the chip's STATUS agree
  EXPECT_GT(reads, 10u);
  // The port is read-only; a card slot without a card has none.
  EXPECT_THROW(h.write(card_status_port(0), 0), McaError);
  EXPECT_THROW(h.read(card_status_port(2)), McaError);
}

TEST(McaNode, BroadcastWriteReachesEveryChipOfTheCard) {
  // One host write in card 0's broadcast window lands in all its chips (0-7), none in card 1's.
  auto node = make_node(9, "model", 500);
  McaHost& h = node->host();
  const sc_time t = h.now();
  h.write(broadcast_address(0, chip::reg::PST_BASE + 5), 0x1234);
  EXPECT_EQ(h.now() - t, sc_time(700, SC_NS));  // one basic write cycle after the overhead
  for (int c = 0; c < 9; ++c) {
    chip::ChipClient client(node->backend(c));
    EXPECT_EQ(client.read(chip::reg::PST_BASE + 5), c < 8 ? 0x1234u : 0u) << "chip " << c;
  }
  node->broadcast({chip::WriteBlock{chip::reg::PST_BASE, {7, 8}}});  // every card with chips
  for (int c : {0, 5, 8}) EXPECT_EQ(chip::ChipClient(node->backend(c)).read(chip::reg::PST_BASE + 1), 8u);
  EXPECT_THROW(h.read(broadcast_address(0, chip::reg::PST_BASE)), McaError);      // write-only
  EXPECT_THROW(h.write(broadcast_address(3, chip::reg::PST_BASE), 1), McaError);  // no card in slot 3
  // A write every chip flags (a read-only register) is the chips' error.
  EXPECT_THROW(node->broadcast({chip::WriteBlock{chip::reg::STATUS, {1}}}), McaError);
}

TEST(McaNode, ChipsRunWhileTheHostIsOnTheBus) {
  auto node = make_node(2);
  chip::ChipClient c0(node->backend(0)), c1(node->backend(1));
  const Position pos = Position::from_fen(kMiddlegames[1]);
  c1.load(pos);
  c1.eval_init();
  const std::uint64_t start_clock = node->socket(1).chip().clock();
  const sc_time start_time = node->host().now();
  c1.start_search(search_params(3, 0));
  ASSERT_TRUE(c1.busy());
  // The host talks only to chip 0; chip 1 is never accessed, yet must finish its search.
  std::uint64_t reads = 0;
  while (node->socket(1).chip().debug().state != 0 || reads < 10) {
    c0.read(chip::reg::STATUS);
    ++reads;
    // Each access brings chip 0 (only) up to the host's time; chip 1 is caught up by sync().
    node->sync();
    ASSERT_LT(reads, 2'000'000u);
  }
  // Chip 1's clock is the host's time at 24 MHz, although the host never clocked it.
  const sc_time elapsed = node->host().now() - start_time;
  EXPECT_EQ(node->socket(1).chip().clock(), node->socket(1).clock_at(node->host().now()));
  EXPECT_GE(node->socket(1).chip().clock() - start_clock, chip_clocks_at(elapsed) - 1);
  EXPECT_EQ(node->socket(0).chip().clock(), node->socket(1).chip().clock());
  // Each read: 0.5 us overhead + 300 ns cycle = 19.2 chip clocks.
  EXPECT_EQ(elapsed.value() >= reads * 800'000ull, true);
  const chip::SearchResult r = c1.search_result();
  EXPECT_TRUE(r.finished);
  chip::ChipClient direct(chip::make_backend("model"));
  direct.load(pos);
  direct.eval_init();
  const chip::SearchResult d = direct.search(search_params(3, 0));
  EXPECT_EQ(r.nodes, d.nodes);
  EXPECT_EQ(r.fail_high, d.fail_high);
  EXPECT_EQ(r.cycles, d.cycles);
  // The search's clocks passed while the host read chip 0.
  EXPECT_GE(chip_clocks_at(elapsed), r.cycles);
}

struct SearchRun {
  search::SearchResult result;
  search::LeafStats chips;
};

SearchRun run_search(std::unique_ptr<search::ChipLeafSearch> leaf, const std::string& fen, int depth) {
  search::TranspositionTable tt(8);
  search::Searcher searcher(tt, search::SearchOptions{});
  searcher.set_leaf_search(leaf.get());
  search::Limits limits;
  limits.depth = depth;
  SearchRun r{searcher.run(Position::from_fen(fen), limits), leaf->stats()};
  return r;
}

// A node's chips as clients through the bus, and as many in-process model chips.
struct NodeAndModels {
  std::shared_ptr<McaNode> node;
  std::vector<std::unique_ptr<chip::ChipClient>> on_bus, direct;
};
NodeAndModels node_and_model_chips(int chips) {
  NodeAndModels r{make_node(chips), {}, {}};
  for (int i = 0; i < chips; ++i) {
    r.on_bus.push_back(std::make_unique<chip::ChipClient>(r.node->backend(i)));
    r.direct.push_back(std::make_unique<chip::ChipClient>(chip::make_backend("model")));
  }
  return r;
}

TEST(McaNode, TheHostsSoftwareTimeIsOffTheBus) {
  // The host's cost model on the node: its software time passes on its clock without the bus, the
  // chips searching on; the tree stays the one of a free host (one node a process: SystemC
  // elaborates once, so the free host is the in-process chips here).
  constexpr int kChips = 4;
  constexpr std::uint32_t kNs = 20000;
  auto [node, on_bus, direct] = node_and_model_chips(kChips);
  auto timeline = std::make_shared<McaTimeline>(node);
  auto leaf = std::make_unique<search::ChipLeafSearch>(std::move(on_bus), 3, chip::SearchParams{}, timeline);
  leaf->set_host_node_ns(kNs);
  const SearchRun costly = run_search(std::move(leaf), kMiddlegames[0], 5);
  const SearchRun free = run_search(std::make_unique<search::ChipLeafSearch>(std::move(direct), 3), kMiddlegames[0], 5);
  EXPECT_EQ(free.result.best, costly.result.best);
  EXPECT_EQ(free.result.nodes, costly.result.nodes);
  EXPECT_EQ(free.chips.nodes, costly.chips.nodes);
  EXPECT_EQ(free.chips.host_clocks, 0u);
  EXPECT_EQ(free.chips.software_nodes, costly.chips.software_nodes);  // counted without a cost too
  EXPECT_EQ(costly.chips.software_nodes, costly.result.nodes - costly.chips.nodes);
  const McaTimeline::Figures bus = timeline->figures();
  EXPECT_NEAR(bus.host_software_seconds, double(costly.chips.software_nodes) * kNs * 1e-9, 1e-6);
  EXPECT_NEAR(bus.host_software_seconds, double(costly.chips.host_clocks) / 24e6, 1e-6);
  // The host's time holds its software, its I/O and its waits for the chips.
  EXPECT_LE(bus.host_software_seconds + bus.host_io_seconds, bus.simulated_seconds + 1e-12);
  EXPECT_NEAR(double(costly.chips.parallel_clocks), bus.simulated_seconds * 24e6, 1.0);
}

TEST(McaNode, SoftwareSearchThroughTheBusEqualsTheModel) {
  // One node (SystemC elaborates once a process) and one search on in-process model chips, against
  // two searches through the bus on chips of their own: the host polling every running chip's
  // STATUS register (chips 12-15), and the host learning which chips are done from the cards'
  // status ports and writing the weights once per card (chips 0-11, both cards; a status port's
  // bit i is the leaf search's chip i, so these are the node's first). The same tree each time.
  constexpr int kCardChips = 12, kPollChips = 4;
  auto node = make_node(kCardChips + kPollChips);
  std::vector<std::unique_ptr<chip::ChipClient>> by_cards, by_polls, direct;
  for (int i = 0; i < kCardChips; ++i) by_cards.push_back(std::make_unique<chip::ChipClient>(node->backend(i)));
  for (int i = 0; i < kPollChips; ++i) {
    by_polls.push_back(std::make_unique<chip::ChipClient>(node->backend(kCardChips + i)));
    direct.push_back(std::make_unique<chip::ChipClient>(chip::make_backend("model")));
  }
  const SearchRun b = run_search(std::make_unique<search::ChipLeafSearch>(std::move(direct), 3), kMiddlegames[0], 5);

  auto cards_timeline = std::make_shared<McaTimeline>(node, McaTimeline::Cards{true, true});
  const SearchRun c =
      run_search(std::make_unique<search::ChipLeafSearch>(std::move(by_cards), 3, chip::SearchParams{}, cards_timeline),
                 kMiddlegames[0], 5);
  EXPECT_EQ(c.result.best, b.result.best);
  EXPECT_EQ(c.result.score, b.result.score);
  EXPECT_EQ(c.result.nodes, b.result.nodes);
  EXPECT_EQ(c.chips.searches, b.chips.searches);
  EXPECT_EQ(c.chips.nodes, b.chips.nodes);
  EXPECT_TRUE(cards_timeline->cards().status);
  const McaTimeline::Figures cf = cards_timeline->figures();
  EXPECT_GT(cf.status_polls, c.chips.searches);
  // The weights (thousands of writes) once per card, not once per chip: 2 of 12 downloads' time.
  std::size_t words = 0;
  for (const chip::WriteBlock& block : chip::weight_writes(chip::generate_weights(Position::from_fen(kMiddlegames[0]))))
    words += block.data.size();
  EXPECT_GT(words, 1000u);
  EXPECT_NEAR(cf.download_seconds, 2.0 * double(words) * 0.7e-6, 2.0 * double(words) * 0.1e-6);

  auto timeline = std::make_shared<McaTimeline>(node);
  const SearchRun a =
      run_search(std::make_unique<search::ChipLeafSearch>(std::move(by_polls), 3, chip::SearchParams{}, timeline),
                 kMiddlegames[0], 5);
  EXPECT_EQ(a.result.best, b.result.best);
  EXPECT_EQ(a.result.score, b.result.score);
  EXPECT_EQ(a.result.nodes, b.result.nodes);
  EXPECT_EQ(a.chips.searches, b.chips.searches);
  EXPECT_EQ(a.chips.nodes, b.chips.nodes);
  EXPECT_GT(a.chips.searches, 10u);
  EXPECT_FALSE(timeline->cards().status);
  // Simulated time is the host's: the search's time on the bus, and the bus figures add up.
  const McaTimeline::Figures f = timeline->figures();
  EXPECT_NEAR(double(a.chips.parallel_clocks), f.simulated_seconds * 24e6, 1.0);
  // A chip search is one JOB (ChipClient::start_job) and two result reads: at least SLOW_EST, the
  // command and the reads (the other words when they changed), at most 25 besides the status polls
  // (docs/chip.md).
  const std::uint64_t jobs = a.chips.searches + a.chips.wasted_searches;
  EXPECT_GE(f.accesses - f.status_polls, jobs * 4);
  EXPECT_LE(f.accesses - f.status_polls, jobs * 25);
  EXPECT_NEAR(f.host_overhead_seconds, double(f.accesses) * 0.5e-6, 1e-9);
  EXPECT_LE(f.host_io_seconds, f.simulated_seconds + 1e-12);
  EXPECT_GT(f.bus_busy_seconds, double(f.accesses) * 200e-9 - 1e-9);
  EXPECT_GT(f.download_seconds, 0.0);
  EXPECT_GT(f.status_polls, a.chips.searches);  // at least one poll per search
  EXPECT_LT(f.status_polls, f.accesses);
  EXPECT_NEAR(f.host_poll_seconds, double(f.status_polls) * 0.8e-6,
              1e-9);  // 0.5 us + a 300 ns read each, the bus parked
}

TEST(McaNode, PackedJobsCostAtMost25AccessesPerChipSearch) {
  // The same software search on the node's chips loaded as JOBs (chips 0-3, the cards' status
  // ports and broadcast on), register by register as before the JOB command (chips 4-7, STATUS
  // polled) and as JOBs in bursts (chips 8-11): the same tree; the host's accesses per chip search
  // besides its status polls, counted by the host's bus statistics, at most 25 with JOBs where the
  // registers took over 70.
  constexpr int kChips = 4;
  auto node = make_node(3 * kChips);
  std::vector<std::unique_ptr<chip::SearchChip>> packed, registers, bursts;
  for (int i = 0; i < kChips; ++i) {
    packed.push_back(std::make_unique<chip::LocalSearchChip>(std::make_unique<chip::ChipClient>(node->backend(i)),
                                                             chip::JobLoad::kPacked));
    registers.push_back(std::make_unique<chip::LocalSearchChip>(
        std::make_unique<chip::ChipClient>(node->backend(kChips + i)), chip::JobLoad::kRegisters));
    bursts.push_back(std::make_unique<chip::LocalSearchChip>(
        std::make_unique<chip::ChipClient>(node->backend(2 * kChips + i, true)), chip::JobLoad::kPacked));
  }
  // The search on a set of chips, its bus figures, and its accesses a chip search besides polls.
  struct Run {
    SearchRun run;
    McaTimeline::Figures bus;
    double per_job = 0;
  };
  auto search_on = [](std::vector<std::unique_ptr<chip::SearchChip>> chips, std::shared_ptr<McaTimeline> timeline) {
    Run r{run_search(std::make_unique<search::ChipLeafSearch>(std::move(chips), 3, chip::SearchParams{}, timeline),
                     kMiddlegames[0], 5),
          timeline->figures()};
    r.per_job =
        double(r.bus.accesses - r.bus.status_polls) / double(r.run.chips.searches + r.run.chips.wasted_searches);
    return r;
  };
  auto expect_same_tree = [](const SearchRun& a, const SearchRun& b) {
    EXPECT_EQ(a.result.best, b.result.best);
    EXPECT_EQ(a.result.score, b.result.score);
    EXPECT_EQ(a.result.nodes, b.result.nodes);
    EXPECT_EQ(a.chips.searches, b.chips.searches);
    EXPECT_EQ(a.chips.nodes, b.chips.nodes);
  };
  const Run p = search_on(std::move(packed), std::make_shared<McaTimeline>(node, McaTimeline::Cards{true, true}));
  const Run r = search_on(std::move(registers), std::make_shared<McaTimeline>(node));
  expect_same_tree(p.run, r.run);
  ASSERT_GT(p.run.chips.searches, 10u);
  EXPECT_LE(p.per_job, 25.0);
  // At least SLOW_EST, the command and 2 result reads; the other words only where they differ from
  // the chip's previous job (JobRegisters).
  EXPECT_GE(p.per_job, 4.0);
  EXPECT_GT(r.per_job, 70.0);
  EXPECT_LT(p.bus.host_io_seconds, r.bus.host_io_seconds / 2);

  // The same with the cards' bursts (chips 8-11, STATUS polled): the same tree; a job in one or
  // two transfers through the job window and the result in one, so under 4 a chip search.
  const Run b = search_on(std::move(bursts), std::make_shared<McaTimeline>(node));
  expect_same_tree(b.run, p.run);
  EXPECT_GE(b.per_job, 2.0);  // at least the job and its result
  EXPECT_LT(b.per_job, 4.0);
  EXPECT_GT(b.bus.words - b.bus.status_polls, b.bus.accesses - b.bus.status_polls);  // several words a burst
}

TEST(McaJobWindow, BurstsJoinNearbyWordsAndStopAtWordsNotInTheJob) {
  namespace reg = chip::reg;
  // Window order (mca_address.h): the parameters 0-2, the board 3-10, JOB_POS 11, the history
  // backwards (word k at 27 - k), TEST_PAIR 28, SLOW_EST 29, the command 30.
  ASSERT_EQ(job_window_index(reg::JOB_HISTORY_BASE), 27);
  ASSERT_EQ(job_window_index(reg::BOARD_PACK_BASE), 3);
  ASSERT_EQ(job_window_index(reg::MOVE), -1);
  auto job = [](std::vector<std::uint32_t> needed, bool slow_estimate = true) {
    std::vector<chip::JobWord> words;
    for (std::uint32_t i = 0; i < kJobWindowWords; ++i) {
      if (kJobWindow[i] == reg::SLOW_EST && !slow_estimate) continue;
      const bool need = std::find(needed.begin(), needed.end(), kJobWindow[i]) != needed.end();
      words.push_back({kJobWindow[i], 100 + i, need});
    }
    return words;
  };
  using Bursts = std::vector<JobBurst>;
  auto same = [](const Bursts& a, const Bursts& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (a[i].first != b[i].first || a[i].data != b[i].data) return false;
    }
    return true;
  };
  // The path's last moves changed (history words 3 and 0, two held words between): one burst
  // from history word 3 to the command, the held words written again.
  const std::vector<chip::JobWord> tail =
      job({reg::JOB_HISTORY_BASE + 3, reg::JOB_HISTORY_BASE, reg::TEST_PAIR, reg::SLOW_EST, reg::CMD});
  EXPECT_TRUE(same(plan_job_bursts(tail, 6), Bursts{{24, {124, 125, 126, 127, 128, 129, 130}}}));
  // Without joining, the held words are not written.
  EXPECT_TRUE(same(plan_job_bursts(tail, 0), Bursts{{24, {124}}, {27, {127, 128, 129, 130}}}));
  // A board word far from the rest: a burst of its own.
  EXPECT_TRUE(same(plan_job_bursts(job({reg::BOARD_PACK_BASE, reg::CMD}), 6), Bursts{{3, {103}}, {30, {130}}}));
  // SLOW_EST not in the job (the chip keeps its estimate): never written, so no burst crosses it.
  EXPECT_TRUE(same(plan_job_bursts(job({reg::TEST_PAIR, reg::CMD}, false), 6), Bursts{{28, {128}}, {30, {130}}}));
  EXPECT_THROW(plan_job_bursts({{reg::MOVE, 1, true}}, 6), std::logic_error);
}

TEST(McaNode, SearchJobsInBurstsThroughTheJobWindow) {
  // A chip whose jobs go through its card's job window and whose results come back in one burst
  // searches exactly as the model does, with one or two host transfers a job and one for the result.
  auto node = make_node(10);
  McaHost& h = node->host();
  chip::ChipClient bus(node->backend(9, true)), direct(chip::make_backend("model"));  // card 1
  EXPECT_TRUE(bus.backend().bursts());
  Position pos = Position::from_fen(kMiddlegames[1]);
  const chip::ChipPosition start = chip::ChipPosition::of(pos);
  std::vector<std::uint16_t> history;
  for (const char* uci : {"e5f7", "e6f7", "g3g7"}) {
    const Move m = parse_uci(pos, uci);
    history.push_back(chip::to_chip_move(m));
    pos.make_move(m);
  }
  auto wait = [](chip::ChipClient& c) {
    while (c.busy()) c.backend().tick(16);
  };
  for (int test : {0, 50, -50}) {
    const chip::SearchParams p = search_params(3, test);
    const std::uint64_t before = h.stats().accesses;
    bus.start_job(start, history, p);
    // The first job: the parameters, board and state in one burst, the history to the command in
    // another (the unused history words between them are not worth writing); then the test value,
    // the slow estimate and the command only.
    EXPECT_EQ(h.stats().accesses - before, test == 0 ? 2u : 1u) << test;
    direct.start_job(start, history, p);
    wait(bus);
    wait(direct);
    const std::uint64_t reads = h.stats().accesses;
    const chip::SearchResult a = bus.search_result(), b = direct.search_result();
    EXPECT_EQ(h.stats().accesses - reads, 1u);
    EXPECT_TRUE(a.finished);
    EXPECT_GT(a.nodes, 0u);
    EXPECT_EQ(a.fail_high, b.fail_high) << test;
    EXPECT_EQ(a.best_move, b.best_move) << test;
    EXPECT_EQ(a.nodes, b.nodes) << test;
    EXPECT_EQ(a.cycles, b.cycles) << test;
  }
  // A job the chip refuses (it still searches: its first word is refused, BUSY) is the chip's error,
  // reported by register; what the chip holds is then unknown to the host, so the same job after
  // it loads in full (two bursts, as the first job) and searches as the model does: a host that
  // kept the refused job's words as written would skip the new board.
  bus.start_job(start, history, search_params(4, 0));
  const chip::ChipPosition other = chip::ChipPosition::of(Position::from_fen(kMiddlegames[0]));
  try {
    bus.start_job(other, {}, search_params(3, 0));
    FAIL() << "a job taken while the chip searched";
  } catch (const chip::ChipError& e) {
    EXPECT_EQ(e.code(), chip::err::BUSY) << e.what();
    EXPECT_NE(std::string(e.what()).find("BOARD_PACK"), std::string::npos) << e.what();
  }
  bus.abort();
  wait(bus);
  const std::uint64_t before = h.stats().accesses;
  bus.start_job(other, {}, search_params(3, 0));
  EXPECT_EQ(h.stats().accesses - before, 2u);
  direct.start_job(other, {}, search_params(3, 0));
  wait(bus);
  wait(direct);
  const chip::SearchResult a = bus.search_result(), b = direct.search_result();
  EXPECT_EQ(a.best_move, b.best_move);
  EXPECT_EQ(a.nodes, b.nodes);
  // A word the chip refuses in the middle of a burst (PLY is read-only) ends it: the word after it
  // is not written, and ERROR names the refused one.
  std::uint32_t three[3] = {0x111, 0x222, 0x333};
  const std::uint32_t job_pos = bus.read(chip::reg::JOB_POS);
  EXPECT_TRUE(h.transfer_block(true, chip_address(1, 1, chip::reg::MOVE), three, 3));
  EXPECT_EQ(bus.read(chip::reg::MOVE), 0x111u);
  EXPECT_EQ(bus.read(chip::reg::JOB_POS), job_pos);
  EXPECT_EQ(chip::field::error::ADDR.get(bus.read(chip::reg::ERROR)), chip::reg::PLY);
  bus.write(chip::reg::ERROR, 0);
  // How many held words a burst writes again rather than start another: the host's overhead and a
  // basic cycle against 100 ns streaming cycles (6 at 0.5 us, 2 at 0.1 us).
  const auto& backend = dynamic_cast<const McaChipBackend&>(bus.backend());
  EXPECT_EQ(backend.join_words(), 6u);
  h.set_overhead(sc_time(100, SC_NS));
  EXPECT_EQ(backend.join_words(), 2u);
  h.set_overhead(sc_time(500, SC_NS));
  // The job window takes bursts of writes only, within its 31 words.
  std::uint32_t words[2] = {0, 0};
  EXPECT_THROW(h.transfer_block(false, job_window_address(1, 1, 0), words, 2), McaError);
  EXPECT_THROW(h.transfer_block(true, job_window_address(1, 1, 30), words, 2), McaError);
  // A burst to a chip's memory window stays within its 17-bit address space.
  EXPECT_THROW(h.transfer_block(false, chip_address(1, 1, 0x1FFFF), words, 2), McaError);
}

}  // namespace
}  // namespace db::sim
