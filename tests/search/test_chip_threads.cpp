// Chips on OS threads (ChipLeafSearch::set_threads): the pool runs every task once, and the search
// on any number of threads gives the same tree, answers, wasted work and simulated clocks as on one.
#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <memory>
#include <set>
#include <thread>
#include <vector>

#include "chip_search_run.h"
#include "search/chip_threads.h"

namespace db::search {
namespace {

TEST(ChipThreads, EveryTaskRunsOnceAndTheCallerTakesPart) {
  for (int threads : {1, 2, 4}) {
    ChipThreads pool(threads);
    EXPECT_EQ(pool.threads(), threads);
    for (int round = 0; round < 20; ++round) {  // the pool is reused batch after batch
      std::vector<std::atomic<int>> runs(13);
      std::vector<std::function<void()>> rest;
      for (std::size_t i = 1; i < runs.size(); ++i) rest.push_back([&runs, i] { ++runs[i]; });
      const std::thread::id caller = std::this_thread::get_id();
      std::thread::id first_ran_on;
      pool.run(
          [&] {
            first_ran_on = std::this_thread::get_id();
            ++runs[0];
          },
          rest);
      EXPECT_EQ(first_ran_on, caller);
      for (const auto& r : runs) EXPECT_EQ(r.load(), 1);
    }
  }
}

TEST(ChipThreads, TasksRunAtTheSameTime) {
  // The first task waits for a flag only another task sets: on one thread that would never end.
  ChipThreads pool(2);
  std::atomic<bool> flag{false};
  pool.run(
      [&] {
        while (!flag.load()) std::this_thread::yield();
      },
      {[&] { flag.store(true); }});
  EXPECT_TRUE(flag.load());
}

using Outcome = chip_test::ChipRun;

Outcome search(const char* fen, int depth, int chips, int threads, int workers = 1) {
  ChipLeafSearch leaf(chip_test::model_clients(chips), 2);
  leaf.set_threads(threads);
  EXPECT_EQ(leaf.threads(), threads);
  return chip_test::run_to_depth(leaf, fen, depth, workers);
}

TEST(ChipThreads, TheSearchOnThreadsIsTheSearchOnOne) {
  for (const char* fen : {"r1r1q1k1/6p1/3b1p1p/1p1PpP2/1Pp5/2P4P/R1B2QP1/R5K1 w - - 0 37",
                          "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1"}) {
    SCOPED_TRACE(fen);
    const Outcome one = search(fen, 5, 4, 1);
    for (int threads : {2, 3, 5}) {
      SCOPED_TRACE(threads);
      const Outcome many = search(fen, 5, 4, threads);
      EXPECT_EQ(one.result.best, many.result.best);
      EXPECT_EQ(one.result.score, many.result.score);
      EXPECT_EQ(one.result.nodes, many.result.nodes);
      EXPECT_EQ(one.chips.searches, many.chips.searches);
      EXPECT_EQ(one.chips.nodes, many.chips.nodes);
      EXPECT_EQ(one.chips.wasted_searches, many.chips.wasted_searches);
      EXPECT_EQ(one.chips.wasted_nodes, many.chips.wasted_nodes);
      EXPECT_EQ(one.chips.busy_clocks, many.chips.busy_clocks);
      EXPECT_EQ(one.chips.parallel_clocks, many.chips.parallel_clocks);
    }
    EXPECT_GT(one.chips.wasted_searches, 0u);  // chips ran side by side
  }
}

TEST(ChipThreads, WorkersAndThreadsTogether) {
  // Several software workers step the chips a quantum at a time (on the search's thread) and wait
  // on threads: the same tree as with one thread.
  const char* fen = "r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w KQkq - 0 1";
  const Outcome one = search(fen, 5, 4, 1, 2);
  const Outcome many = search(fen, 5, 4, 2, 2);
  EXPECT_EQ(one.result.best, many.result.best);
  EXPECT_EQ(one.result.score, many.result.score);
  EXPECT_EQ(one.result.nodes, many.result.nodes);
  EXPECT_EQ(one.chips.busy_clocks, many.chips.busy_clocks);
}

}  // namespace
}  // namespace db::search
