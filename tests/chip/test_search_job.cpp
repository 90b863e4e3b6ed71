// The search job (interface version 2, docs/chip.md "Search jobs"): the staging registers
// (BOARD_PACK, JOB_POS, JOB_HISTORY), TEST_PAIR and JOB_RESULT, and the JOB command that loads a
// job and runs its EVAL_INIT, MAKEs and SEARCH in the host's place. RTL and model in lock-step on
// the co-simulation backend (every bus response and debug record compared each clock), and a job
// against the same search loaded register by register (load, EVAL_INIT, MAKE after MAKE, SEARCH).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "chess/notation.h"
#include "chess/pgn.h"
#include "chess/position.h"
#include "chip/chip_client.h"
#include "chip/chip_model.h"
#include "chip/chip_regs.h"
#include "chip/eval_generator.h"
#include "chip/rtl_backend.h"
#include "chip/search_chip.h"
#include "chip_data.h"

namespace db::chip {
namespace {

std::vector<std::uint16_t> chip_moves(const std::vector<Move>& moves) {
  std::vector<std::uint16_t> out;
  for (Move m : moves) out.push_back(to_chip_move(m));
  return out;
}

// Waits for the started search or job (one idle clock between STATUS reads).
SearchResult wait_result(ChipClient& chip) {
  while (chip.busy()) chip.backend().tick(1);
  return chip.search_result();
}

void expect_same(const SearchResult& a, const SearchResult& b, const std::string& what) {
  EXPECT_EQ(a.finished, b.finished) << what;
  EXPECT_EQ(a.fail_high, b.fail_high) << what;
  EXPECT_EQ(a.node_limit, b.node_limit) << what;
  EXPECT_EQ(a.aborted, b.aborted) << what;
  EXPECT_EQ(a.no_legal_move, b.no_legal_move) << what;
  EXPECT_EQ(a.offset_ran, b.offset_ran) << what;
  EXPECT_EQ(a.alternatives, b.alternatives) << what;
  EXPECT_EQ(a.extended, b.extended) << what;
  EXPECT_EQ(a.best_move, b.best_move) << what;
  EXPECT_EQ(a.nodes, b.nodes) << what;
  EXPECT_EQ(a.cycles, b.cycles) << what;
}

// The position registers and the board after a search (its root: the history made).
struct ChipState {
  std::vector<std::uint32_t> words;
  bool operator==(const ChipState& o) const { return words == o.words; }
};
ChipState state_of(ChipClient& chip) {
  ChipState s;
  for (std::uint32_t a = 0; a < reg::BOARD_COUNT; ++a) s.words.push_back(chip.read(reg::BOARD_BASE + a));
  for (std::uint32_t r :
       {reg::STM, reg::CASTLING, reg::EP, reg::HALFMOVE, reg::PLY, reg::PST_SUM, reg::FAST_EVAL, reg::PIECE_COUNT_W,
        reg::PIECE_COUNT_B, reg::PIECE_LOC_W, reg::PIECE_LOC_B, reg::REP_STATUS}) {
    s.words.push_back(chip.read(r));
  }
  return s;
}

TEST(SearchJob, StagingRegistersReadBackAndRefuseBadWords) {
  ChipClient chip(make_backend("cosim"));
  EXPECT_EQ(chip.read(reg::VERSION), 2u);
  chip.load(Position());
  const std::uint32_t before = chip.read(reg::BOARD_BASE + 12);  // e2: a white pawn
  EXPECT_EQ(before, CHIP_PAWN);
  // Every valid code somewhere (0-6, 9-14), a different word each.
  auto pack_word = [](std::uint32_t i) { return 0xEDCBA900u | (i << 4 & 0x60) | (i % 7); };
  for (std::uint32_t i = 0; i < reg::BOARD_PACK_COUNT; ++i) chip.write(reg::BOARD_PACK_BASE + i, pack_word(i));
  for (std::uint32_t i = 0; i < reg::JOB_HISTORY_COUNT; ++i) chip.write(reg::JOB_HISTORY_BASE + i, 0x9000A000u ^ i);
  chip.write(reg::JOB_POS, 0xBEEF0FFFu);
  chip.write(reg::TEST_PAIR, 0xFFFE0123u);
  for (std::uint32_t i = 0; i < reg::BOARD_PACK_COUNT; ++i)
    EXPECT_EQ(chip.read(reg::BOARD_PACK_BASE + i), pack_word(i));
  for (std::uint32_t i = 0; i < reg::JOB_HISTORY_COUNT; ++i)
    EXPECT_EQ(chip.read(reg::JOB_HISTORY_BASE + i), 0x9000A000u ^ i);
  EXPECT_EQ(chip.read(reg::JOB_POS), 0xBEEF0FFFu);
  // TEST_PAIR is TEST_VALUE and TEST_TIE.
  EXPECT_EQ(chip.read(reg::TEST_VALUE), 0x0123u);
  EXPECT_EQ(chip.read(reg::TEST_TIE), 0xFFFEu);
  EXPECT_EQ(chip.read(reg::TEST_PAIR), 0xFFFE0123u);
  // Staged, not loaded: the board and the state are as they were.
  EXPECT_EQ(chip.read(reg::BOARD_BASE + 12), before);
  EXPECT_EQ(chip.read(reg::STM), 0u);
  // A code the board refuses (7, 8) anywhere in a word, and JOB_POS's gap.
  for (std::uint32_t bad : {0x00000007u, 0x80000000u, 0x0F000000u}) {
    try {
      chip.write(reg::BOARD_PACK_BASE + 3, bad);
      ADD_FAILURE() << "BOARD_PACK took 0x" << std::hex << bad;
    } catch (const ChipError& e) {
      EXPECT_EQ(e.code(), err::BAD_ARGUMENT);
    }
  }
  EXPECT_EQ(chip.read(reg::BOARD_PACK_BASE + 3), pack_word(3));
  EXPECT_THROW(chip.write(reg::JOB_POS, 0x00001000u), ChipError);
  EXPECT_THROW(chip.write(reg::JOB_RESULT, 0), ChipError);  // read-only
  // Past the blocks: unmapped.
  EXPECT_THROW(chip.read(reg::BOARD_PACK_BASE + reg::BOARD_PACK_COUNT), ChipError);
  EXPECT_THROW(chip.read(reg::JOB_HISTORY_BASE + reg::JOB_HISTORY_COUNT), ChipError);
}

TEST(SearchJob, WritesPerJob) {
  // 8 board words, JOB_POS, a history word per two moves, 5 parameters, the command.
  const ChipPosition start = ChipPosition::of(Position());
  SearchParams p;
  p.depth = 4;
  for (std::size_t moves : {0u, 1u, 2u, 11u, 12u}) {
    const std::vector<std::uint16_t> history(moves, 0x8000);
    EXPECT_EQ(search_job_writes(start, history, p).size(), 8 + 1 + (moves + 1) / 2 + 5 + 1);
  }
  p.keep_slow_estimate = true;  // SLOW_EST left alone
  EXPECT_EQ(search_job_writes(start, {}, p).size(), 14u);
  // The last is the command: JOB, the depth, the history's length.
  const std::vector<RegWrite> w = search_job_writes(start, std::vector<std::uint16_t>(5, 0x8000), p);
  EXPECT_EQ(w.back().addr, reg::CMD);
  EXPECT_EQ(field::cmd::OP.get(w.back().data), op::JOB);
  EXPECT_EQ(field::cmd::DEPTH.get(w.back().data), 4u);
  EXPECT_EQ(field::cmd::HISTORY.get(w.back().data), 5u);
  // The stack holds the history and the search.
  p.depth = 3;
  EXPECT_NO_THROW(search_job_writes(start, std::vector<std::uint16_t>(29, 0x8000), p));
  EXPECT_THROW(search_job_writes(start, std::vector<std::uint16_t>(30, 0x8000), p), std::invalid_argument);
}

std::vector<std::uint32_t> addresses(const std::vector<RegWrite>& writes) {
  std::vector<std::uint32_t> out;
  for (const RegWrite& w : writes) out.push_back(w.addr);
  return out;
}

TEST(SearchJob, OnlyWhatTheChipDoesNotHoldIsWritten) {
  JobRegisters held;
  Position pos;
  SearchParams p;
  p.depth = 3;
  EXPECT_EQ(held.writes(ChipPosition::of(pos), {}, p).size(), 15u);  // the first job: everything
  // The same job again: SLOW_EST (the chip moves it) and the command.
  EXPECT_EQ(addresses(held.writes(ChipPosition::of(pos), {}, p)),
            (std::vector<std::uint32_t>{reg::SLOW_EST, reg::CMD}));
  // Another test value: TEST_PAIR too; after e2e4, the words of ranks 2 and 4 and JOB_POS.
  p.test_value = 40;
  EXPECT_EQ(addresses(held.writes(ChipPosition::of(pos), {}, p)),
            (std::vector<std::uint32_t>{reg::TEST_PAIR, reg::SLOW_EST, reg::CMD}));
  pos.make_move(parse_uci(pos, "e2e4"));
  EXPECT_EQ(addresses(held.writes(ChipPosition::of(pos), {}, p)),
            (std::vector<std::uint32_t>{reg::BOARD_PACK_BASE + 1, reg::BOARD_PACK_BASE + 3, reg::JOB_POS, reg::SLOW_EST,
                                        reg::CMD}));
  // A history: its words; the same history again: nothing of it.
  const std::vector<std::uint16_t> history{to_chip_move(parse_uci(Position(), "e2e4"))};
  EXPECT_EQ(held.writes(ChipPosition::of(Position()), history, p).size(), 2u + 1 + 1 + 2);  // 2 board words, JOB_POS
  EXPECT_EQ(held.writes(ChipPosition::of(Position()), history, p).size(), 2u);
  // A write another way (TEST_VALUE is half of TEST_PAIR), or a chip that may hold anything.
  held.forget(reg::TEST_VALUE);
  EXPECT_EQ(held.writes(ChipPosition::of(Position()), history, p).size(), 3u);
  held.clear();
  EXPECT_EQ(held.writes(ChipPosition::of(Position()), history, p).size(), 16u);
}

// Each search twice on one chip: register by register, then as a JOB; the same result (nodes and
// clocks included) and the same position, evaluation and repetition state after it.
void expect_job_equals_registers(ChipClient& chip, const Position& start, const std::vector<Move>& moves,
                                 const SearchParams& p, const std::string& what) {
  chip.load_game(start, moves);
  chip.start_search(p);
  const SearchResult by_registers = wait_result(chip);
  const ChipState after_registers = state_of(chip);
  chip.write(reg::CMD, op::CLEAR);  // nothing of the first search's position may help the job
  chip.start_job(ChipPosition::of(start), chip_moves(moves), p);
  EXPECT_TRUE(chip.busy()) << what;
  const SearchResult by_job = wait_result(chip);
  expect_same(by_registers, by_job, what);
  EXPECT_TRUE(state_of(chip) == after_registers) << what;
  EXPECT_EQ(field::cmd::OP.get(chip.read(reg::CMD)), op::SEARCH) << what;  // the job's last step
}

TEST(SearchJob, JobEqualsRegisterPathOnSharedData) {
  // The model (fast): every 8th shared position at depths 1-3 with the generator's weights.
  ChipClient chip(make_backend("model"));
  download(chip, generate_weights(Position()));
  std::mt19937 rng(3);
  const auto positions = testdata::shared_positions();
  int searches = 0;
  for (std::size_t i = 0; i < positions.size(); i += 8) {
    const Position pos = Position::from_fen(positions[i]);
    chip.load(pos);
    chip.eval_init();
    const int fast = chip.fast_eval();
    for (int depth = 1; depth <= 3; ++depth) {
      SearchParams p;
      p.depth = depth;
      p.test_value = std::clamp(fast + int(rng() % 201) - 100, -32767, 32767);
      p.test_tie = int(rng() % 5) - 2;
      expect_job_equals_registers(chip, pos, {}, p, positions[i] + " depth " + std::to_string(depth));
      ++searches;
    }
  }
  EXPECT_GT(searches, 300);
}

// The 1997 games, histories of up to 12 plies made by the job (repetitions, the tie-breaker and the
// repeating-move bound act inside the searches), with offset tests and node limits.
void games_with_history(ChipClient& chip, int step, int max_depth) {
  std::mt19937 rng(13);
  int searches = 0;
  for (const testdata::GameLine& game : testdata::games_1997()) {
    const std::vector<Position>& line = game.line;
    const std::vector<Move>& moves = game.moves;
    for (std::size_t end = 1 + rng() % 8; end < line.size(); end += std::size_t(step)) {
      const std::size_t begin = end - std::min<std::size_t>(end, rng() % 13);
      download(chip, generate_weights(line[end]));
      const std::vector<Move> history(moves.begin() + long(begin), moves.begin() + long(end));
      chip.load_game(line[begin], history);
      const int fast = chip.fast_eval();
      for (int depth = 1; depth <= max_depth; ++depth) {
        SearchParams p;
        p.depth = depth;
        p.test_value = std::clamp(fast + int(rng() % 201) - 100, -32767, 32767);
        p.repetition_tie = rng() % 2;
        p.strive_for_draw = rng() % 2;
        p.repetition_bound = rng() % 2;
        p.repetition_tie_base = int(rng() % 128);
        p.slow_estimate = int(rng() % 401) - 200;
        p.node_limit = rng() % 4 == 0 ? 1 + rng() % 300 : 0;
        if (rng() % 2) {
          p.offset_singular = true;
          p.offset_depth = std::max(1, depth - 1);
        }
        expect_job_equals_registers(chip, line[begin], history, p,
                                    "round " + game.round + " ply " + std::to_string(end));
        ++searches;
      }
    }
  }
  EXPECT_GT(searches, 20);
}

TEST(SearchJob, JobEqualsRegisterPathWithGameHistories) {
  ChipClient chip(make_backend("model"));
  games_with_history(chip, 5, 3);
}

TEST(SearchJob, RtlEqualsModelOnJobs) {
  // The co-simulation: the job's load, steps and search clock for clock on RTL and model.
  ChipClient chip(make_backend("cosim"));
  games_with_history(chip, 13, 3);
}

// A model chip that counts the host's reads.
class CountingModel final : public ChipBackend {
 public:
  BusResponse access(bool write, std::uint32_t addr, std::uint32_t data) override {
    if (!write) ++reads;
    return chip_.access(write, addr, data);
  }
  void tick(std::uint64_t n) override { chip_.tick(n); }
  DebugPort debug() const override { return chip_.debug(); }
  std::uint64_t clock() const override { return chip_.clock(); }
  std::string name() const override { return "counting model"; }
  std::uint64_t reads = 0;

 private:
  ChipModel chip_;
};

TEST(SearchJob, ResultInTwoReadsWhenTheCountsFit) {
  auto backend = std::make_unique<CountingModel>();
  CountingModel* counting = backend.get();
  ChipClient chip(std::move(backend));
  download(chip, generate_weights(Position()));
  SearchParams p;
  p.test_value = 0;
  bool saw_fit = false, saw_wide = false;
  for (int depth = 1; depth <= 7 && !saw_wide; ++depth) {
    p.depth = depth;
    chip.start_job(ChipPosition::of(Position()), {}, p);
    while (chip.busy()) chip.backend().tick(1);
    const std::uint64_t reads = counting->reads;
    const SearchResult r = chip.search_result();
    const bool fit = r.nodes < 8192 && r.cycles < (1u << 19);
    (fit ? saw_fit : saw_wide) = true;
    EXPECT_EQ(counting->reads - reads, fit ? 2u : 5u) << r.nodes << " nodes, " << r.cycles << " clocks";
    // The counts are whole either way.
    EXPECT_EQ(r.nodes, chip.read(reg::COUNT_LO) | std::uint64_t(chip.read(reg::COUNT_HI)) << 32);
    EXPECT_EQ(r.cycles, chip.read(reg::CYCLES_LO) | std::uint64_t(chip.read(reg::CYCLES_HI)) << 32);
    EXPECT_EQ(field::job_result::WIDE.get(chip.read(reg::JOB_RESULT)), !fit);
    EXPECT_TRUE(r.finished);
  }
  EXPECT_TRUE(saw_fit);
  EXPECT_TRUE(saw_wide);
}

TEST(SearchJob, RefusedStepEndsTheJob) {
  ChipClient chip(make_backend("cosim"));
  download(chip, generate_weights(Position()));
  const ChipPosition start = ChipPosition::of(Position());
  SearchParams p;
  p.depth = 2;
  // e2e4, then e2e4 again (no piece there): the second MAKE fails, the SEARCH never runs.
  const std::uint16_t e2e4 = to_chip_move(parse_uci(Position(), "e2e4"));
  chip.start_job(start, {e2e4, e2e4}, p);
  while (chip.busy()) chip.backend().tick(1);
  try {
    chip.search_result();
    FAIL() << "a job with an illegal history move searched";
  } catch (const ChipError& e) {
    EXPECT_EQ(e.code(), err::BAD_MOVE);
  }
  EXPECT_EQ(chip.read(reg::PLY), 1u);    // the first move made
  EXPECT_EQ(chip.read(reg::ERROR), 0u);  // reported and cleared
  // A JOB without a depth is refused at its write.
  try {
    chip.write(reg::CMD, op::JOB);
    FAIL() << "JOB of depth 0 taken";
  } catch (const ChipError& e) {
    EXPECT_EQ(e.code(), err::BAD_ARGUMENT);
  }
  // The chip is idle and takes the next job.
  chip.start_job(start, {e2e4}, p);
  const SearchResult r = wait_result(chip);
  EXPECT_TRUE(r.finished);
  EXPECT_GT(r.nodes, 20u);
}

// A backend that counts the accesses made through it.
class CountingBackend final : public ChipBackend {
 public:
  explicit CountingBackend(std::unique_ptr<ChipBackend> inner) : inner_(std::move(inner)) {}
  BusResponse access(bool write, std::uint32_t addr, std::uint32_t data) override {
    ++accesses;
    return inner_->access(write, addr, data);
  }
  void tick(std::uint64_t n) override { inner_->tick(n); }
  DebugPort debug() const override { return inner_->debug(); }
  std::uint64_t clock() const override { return inner_->clock(); }
  std::string name() const override { return inner_->name(); }
  std::uint64_t accesses = 0;

 private:
  std::unique_ptr<ChipBackend> inner_;
};

TEST(SearchJob, AnAbortedSearchIsCountedWithoutReadingItsResult) {
  // The host's abort is the ABORT write alone; the counts for the statistics are the chip's own
  // node count (its debug port) and the clocks from the job's start to the ABORT.
  auto owned = std::make_unique<CountingBackend>(make_backend("cosim"));
  CountingBackend& counter = *owned;
  auto client = std::make_unique<ChipClient>(std::move(owned));
  ChipClient& chip = *client;
  download(chip, generate_weights(Position()));
  LocalSearchChip search_chip(std::move(client));
  SearchJob job{ChipPosition::of(Position()), {}, SearchParams{}};
  job.params.depth = 4;
  for (std::uint64_t quanta : {1u, 3u, 20u, 60u}) {
    search_chip.start(job);
    const std::uint64_t started = chip.backend().clock();
    search_chip.begin_run(quanta);
    ASSERT_FALSE(search_chip.end_run().done) << quanta;
    const std::uint64_t before = counter.accesses;
    const SearchResult r = search_chip.abort();
    EXPECT_EQ(counter.accesses - before, 1u) << "the ABORT write only, after " << quanta << " quanta";
    EXPECT_TRUE(r.aborted);
    EXPECT_FALSE(r.finished);
    EXPECT_EQ(r.cycles, chip.backend().clock() - started);
    EXPECT_EQ(r.cycles, quanta * (SearchChip::kQuantum + 1) + 1);
    // What the result registers would have said: the same nodes; CYCLES from the SEARCH step,
    // after the job's load, so at most the host's count.
    const SearchResult read = wait_result(chip);
    EXPECT_TRUE(read.aborted);
    if (quanta >= 20) {
      EXPECT_GT(read.nodes, 0u) << quanta;  // past the job's load
    }
    EXPECT_EQ(r.nodes, read.nodes) << quanta;
    EXPECT_LE(read.cycles, r.cycles) << quanta;
  }
}

TEST(SearchJob, AbortStopsTheJobAtAnyClock) {
  // ABORT in the load, in EVAL_INIT, in a MAKE and in the search: the chip stops there, idle,
  // ABORTED set, and the next job searches as if nothing had happened.
  ChipClient chip(make_backend("cosim"));
  download(chip, generate_weights(Position()));
  Position pos;
  std::vector<Move> moves;
  for (const char* uci : {"e2e4", "e7e5", "g1f3"}) {
    moves.push_back(parse_uci(pos, uci));
    pos.make_move(moves.back());
  }
  const ChipPosition start = ChipPosition::of(Position());
  SearchParams p;
  p.depth = 3;
  chip.start_job(start, chip_moves(moves), p);
  const SearchResult whole = wait_result(chip);
  ASSERT_TRUE(whole.finished);
  for (std::uint64_t after : {1u, 5u, 17u, 40u, 90u, 100u, 300u}) {
    chip.start_job(start, chip_moves(moves), p);
    chip.backend().tick(after);
    chip.abort();
    EXPECT_FALSE(chip.busy()) << after;
    EXPECT_TRUE(field::job_result::ABORTED.get(chip.read(reg::JOB_RESULT))) << after;
    EXPECT_EQ(chip.read(reg::PLY), 0u) << after;
  }
  chip.start_job(start, chip_moves(moves), p);
  expect_same(whole, wait_result(chip), "after the aborts");
}

}  // namespace
}  // namespace db::chip
