// The hardware search, RTL against the reference model in lock-step (every clock's debug port and
// every bus response compared): every position of the shared data files at depths 1-3 (1-4 under
// the deep label) with the generator's weights, random weights with random search parameters, and
// an injected fault (one evaluation weight changed in the RTL only) that the co-simulation must catch.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

#include "chess/notation.h"
#include "chess/pgn.h"
#include "chess/position.h"
#include "chip/chip_client.h"
#include "chip/chip_regs.h"
#include "chip/eval_generator.h"
#include "chip/placement.h"
#include "chip/rtl_backend.h"
#include "chip/slow_weights.h"
#include "chip_data.h"

namespace db::chip {
namespace {

#ifdef DB_CHIP_DEEP
constexpr int kMaxDepth = 4;
#else
constexpr int kMaxDepth = 3;
#endif

// Random search parameters (every SEARCH_CTRL and OFFSET_CTRL field) for a search to depth.
void randomize(SearchParams& p, std::mt19937& rng, int depth) {
  p.test_tie = int(rng() % 5) - 2;
  p.quiescence = rng() % 4 != 0;
  p.evasions = rng() % 2;
  p.repetition = rng() % 2;
  p.no_progress = rng() % 2;
  p.ignore_stalemate = rng() % 2;
  p.extend_pawn_on_7th = rng() % 2;
  p.extend_hung_pieces = rng() % 2;
  p.extend_hung_twice = rng() % 2;
  p.extend_opp_hung = rng() % 2;
  p.mating_checks = int(rng() % 4);
  p.singular_checks = int(rng() % 4);
  p.quiescence_depth = int(rng() % 32);
  p.slow_estimate = int(rng() % 401) - 200;
  p.node_limit = rng() % 5 == 0 ? 1 + rng() % 200 : 0;
  if (rng() % 2) {  // offset searches at the root
    p.offset_depth = 1 + int(rng() % unsigned(depth));
    p.offset_margin = int(rng() % 300);
    const unsigned tests = 1 + rng() % 7;
    p.offset_singular = tests & 1;
    p.offset_binary = tests & 2;
    p.offset_trinary = tests & 4;
  }
  // Repetitions: the tie-breaker "moves until repetition" and the repeating-move bound, and the
  // pawn-to-the-6th extension. Drawn from their own generator (seeded by this search's test value
  // and depth) so that the draws above, and the trees they give, stay those of the tests before
  // these bits existed (drawing them from rng made RandomWeightsAndParameters four times slower).
  std::mt19937 extra(unsigned(p.test_value) * 2654435761u + unsigned(depth));
  p.repetition_tie = extra() % 2;
  p.strive_for_draw = extra() % 2;
  p.repetition_bound = p.repetition && extra() % 2;
  p.extend_pawn_on_6th = extra() % 2;
  p.repetition_tie_base = int(extra() % 128);
}

// Searches pos at each depth with a test value near its fast evaluation; the co-simulation throws
// at the first clock where RTL and model differ.
std::uint64_t search_position(ChipClient& chip, const std::string& fen, std::mt19937& rng, bool random_params,
                              int max_depth) {
  chip.load(Position::from_fen(fen));
  chip.eval_init();
  const int fast = chip.fast_eval();
  std::uint64_t nodes = 0;
  for (int depth = 1; depth <= max_depth; ++depth) {
    SearchParams p;
    p.depth = depth;
    p.test_value = std::clamp(fast + int(rng() % 201) - 100, -32767, 32767);
    if (random_params) randomize(p, rng, depth);
    const SearchResult r = chip.search(p);
    EXPECT_TRUE(r.finished || r.node_limit) << fen;
    nodes += r.nodes;
  }
  return nodes;
}

TEST(HwSearchCosim, SharedDataWithGeneratorWeights) {
  ChipClient chip(make_backend("cosim"));
  download(chip, generate_weights(Position()));
  std::mt19937 rng(5);
  std::uint64_t nodes = 0;
  const auto positions = testdata::shared_positions();
  for (const auto& fen : positions) nodes += search_position(chip, fen, rng, false, kMaxDepth);
  EXPECT_GT(positions.size(), 900u);
  EXPECT_GT(nodes, positions.size() * 10);
}

TEST(HwSearchCosim, RandomWeightsAndParameters) {
  ChipClient chip(make_backend("cosim"));
  std::mt19937 rng(7);
  // One depth less: random quiescence depths and checks make these trees much larger.
  for (unsigned seed = 1; seed <= 2; ++seed) {
    chip.load_placement(random_placement(seed));
    chip.load_phase(random_phase(seed));
    chip.load_slow_weights(random_slow_weights(seed));
    // Lazy evaluation on with a random margin, so decisions of both kinds happen.
    chip.write(EVAL_REGS_BASE + ER_EVAL_CONTROL + 1, 0x00120000u | (rng() % 200));
    for (const auto& fen : testdata::shared_positions(21)) search_position(chip, fen, rng, true, kMaxDepth - 1);
  }
}

// King and pawn against king, and positions one capture away from it, for both colours: the KPK
// ROM reads synchronously with the next clock's side to move, counts and locations, so the
// searches evaluate KPK leaves in the clocks right after MAKE and unmake, compared clock by clock.
TEST(HwSearchCosim, KingAndPawnEndingsOnTheRom) {
  ChipClient chip(make_backend("cosim"));
  std::mt19937 rng(13);
  const char* fens[] = {
      "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",  "8/8/8/4k3/8/8/4P3/4K3 b - - 0 1",  "8/8/8/3k4/8/8/3nP3/4K3 w - - 0 1",
      "8/8/8/3k4/8/8/3nP3/4K3 b - - 0 1", "4k3/3Np3/8/8/8/8/8/4K3 b - - 0 1", "4k3/3Np3/8/8/8/8/8/4K3 w - - 0 1",
      "8/1k6/8/1P6/K7/8/8/8 w - - 0 1",   "8/8/8/8/8/2k5/2p5/2K5 b - - 0 1",  "8/8/5k2/8/3b4/8/4P3/4K3 w - - 0 1",
  };
  for (const char* fen : fens) {
    download(chip, generate_weights(Position::from_fen(fen)));
    search_position(chip, fen, rng, false, kMaxDepth);
  }
}

TEST(HwSearchCosim, GameHistoriesWithRandomRepetitionParameters) {
  // The 1997 games with the last 12 plies on the chip's stack, so that the repetition detector,
  // the tie-breaker and the repeating-move bound act inside the searches (the data positions carry
  // no history). Random parameters, the repetition ones half the time on.
  ChipClient chip(make_backend("cosim"));
  std::mt19937 rng(11);
  int searches = 0;
  for (const testdata::GameLine& game : testdata::games_1997()) {
    const std::vector<Position>& line = game.line;
    const std::vector<Move>& moves = game.moves;
    for (std::size_t end = 12 + rng() % 8; end < line.size(); end += 8) {
      const std::size_t begin = end - 12;
      download(chip, generate_weights(line[end]));
      chip.load_game(line[begin], std::vector<Move>(moves.begin() + long(begin), moves.begin() + long(end)));
      const int fast = chip.fast_eval();
      for (int depth = 2; depth <= kMaxDepth; ++depth) {
        SearchParams p;
        p.depth = depth;
        p.test_value = std::clamp(fast + int(rng() % 201) - 100, -32767, 32767);
        randomize(p, rng, depth);
        p.quiescence_depth = std::min(p.quiescence_depth, 6);  // keep the trees small
        const SearchResult r = chip.search(p);
        EXPECT_TRUE(r.finished || r.node_limit);
        ++searches;
      }
    }
  }
  EXPECT_GT(searches, 100);
}

TEST(HwSearchCosim, InjectedEvaluationFaultIsCaught) {
  auto backend = std::make_unique<CosimBackend>();
  CosimBackend* cosim = backend.get();
  ChipClient chip(std::move(backend));
  download(chip, generate_weights(Position()));
  chip.load(Position());
  chip.eval_init();
  // White knight on e5 (placement index {type 2, square 36}) worth 37 more in the RTL only: the
  // start position does not see it; a search that plays Nf3-e5 must.
  const std::uint32_t addr = reg::PST_BASE + (2u << 6 | 36u);
  const std::uint32_t value = chip.read(addr);
  cosim->inject_rtl_write(addr, (value + 37) & 0xFFFF);
  SearchParams p;
  p.depth = 3;
  p.test_value = 0;
  try {
    chip.search(p);
    FAIL() << "the co-simulation did not catch the fault";
  } catch (const CosimMismatch& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("position:"), std::string::npos) << what;
    // Both debug records, and the path from the root; the placement table is relative to the
    // owner, so the changed word is a white knight on e5 or a black one on e4.
    EXPECT_NE(what.find("moves from the command's root"), std::string::npos) << what;
    EXPECT_NE(what.find("model: state"), std::string::npos) << what;
    EXPECT_NE(what.find("rtl:   state"), std::string::npos) << what;
    EXPECT_GT(e.clock(), 0u);
  }
}

}  // namespace
}  // namespace db::chip
