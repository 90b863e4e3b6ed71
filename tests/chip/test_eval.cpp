// The fast evaluation's piece placement on the chip: EVAL_INIT and the incremental updates of
// MAKE/UNMAKE against an independent sum over the board, with default and random weights, on the
// model and on the RTL in lock-step.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>

#include "chess/bitboard.h"
#include "chip/chip_client.h"
#include "chip/chip_regs.h"
#include "chip/generator_params.h"
#include "chip/placement.h"
#include "chip/rtl_backend.h"
#include "chip_data.h"
#include "eval/king_pawn.h"
#include "eval/kpk.h"

namespace db::chip {
namespace {

class ChipPlacement : public ::testing::TestWithParam<std::string> {};

// Game phase registers computed from the position, independently of the chip.
std::uint32_t expected_counts(const Position& pos, Color c) {
  std::uint32_t r = 0;
  for (PieceType t : {PAWN, KNIGHT, BISHOP, ROOK, QUEEN})
    r |= std::uint32_t(popcount(pos.pieces(c, t)) & 15) << (4 * t);
  return r;
}
std::uint32_t expected_locs(const Position& pos, Color c) {
  std::uint32_t r = 0;
  for (PieceType t : {PAWN, KNIGHT, BISHOP, ROOK, QUEEN}) {
    std::uint32_t x = 0;
    Bitboard b = pos.pieces(c, t);
    while (b) x ^= std::uint32_t(pop_lsb(b));
    r |= x << (6 * t);
  }
  return r;
}

void expect_phase_state(ChipClient& chip, const PlacementTable& table, const PhaseTable& phase, const Position& pos) {
  ASSERT_EQ(chip.read(reg::PIECE_COUNT_W), expected_counts(pos, WHITE)) << pos.fen();
  ASSERT_EQ(chip.read(reg::PIECE_COUNT_B), expected_counts(pos, BLACK)) << pos.fen();
  ASSERT_EQ(chip.read(reg::PIECE_LOC_W), expected_locs(pos, WHITE)) << pos.fen();
  ASSERT_EQ(chip.read(reg::PIECE_LOC_B), expected_locs(pos, BLACK)) << pos.fen();
  ASSERT_EQ(chip.read(reg::KING_SQ),
            std::uint32_t(pos.king_square(BLACK)) << 8 | std::uint32_t(pos.king_square(WHITE)));
  const std::uint16_t word = phase_word(phase, pos);
  ASSERT_EQ(chip.phase(), word) << pos.fen();
  const std::int16_t white = std::int16_t(placement_value(table, pos) + std::int8_t(word & 0xFF));
  ASSERT_EQ(chip.fast_eval(), std::int16_t(pos.side_to_move() == WHITE ? white : -white)) << pos.fen();
}

// Plays a random game on the chip; after every MAKE and UNMAKE the incremental sum must equal
// the sum recomputed from the position.
void play_and_check(ChipClient& chip, const PlacementTable& table, const std::string& fen, unsigned seed,
                    const PhaseTable& phase = default_phase()) {
  Position pos = Position::from_fen(fen);
  chip.load(pos);
  chip.eval_init();
  ASSERT_EQ(chip.placement_sum(), placement_value(table, pos)) << fen;
  expect_phase_state(chip, table, phase, pos);
  std::mt19937 rng(seed);
  std::vector<Move> made;
  for (int ply = 0; ply < 24; ++ply) {
    const std::vector<std::uint16_t> moves = chip.generate(GenMode::ALL);
    if (moves.empty()) break;
    const std::uint16_t m = moves[rng() % moves.size()];
    chip.make(m);
    const Move core = from_chip_move(pos, m);
    pos.make_move(core);
    made.push_back(core);
    ASSERT_EQ(chip.placement_sum(), placement_value(table, pos))
        << "after " << chip_move_to_string(m) << ": " << pos.fen();
    expect_phase_state(chip, table, phase, pos);
  }
  while (!made.empty()) {
    chip.unmake();
    pos.unmake_move(made.back());
    made.pop_back();
    ASSERT_EQ(chip.placement_sum(), placement_value(table, pos)) << pos.fen();
    expect_phase_state(chip, table, phase, pos);
  }
}

TEST_P(ChipPlacement, IncrementalStateMatchesTheBoardWithDefaultWeights) {
  ChipClient chip(make_backend(GetParam()));
  const PlacementTable table = default_placement();
  chip.load_placement(table);
  chip.load_phase(default_phase());
  const auto positions = testdata::load_perft_file("perft.epd");
  for (std::size_t i = 0; i < positions.size(); i += (GetParam() == "model" ? 1 : 8)) {
    play_and_check(chip, table, positions[i].fen, unsigned(i));
  }
}

TEST_P(ChipPlacement, IncrementalStateMatchesTheBoardWithRandomWeights) {
  ChipClient chip(make_backend(GetParam()));
  for (unsigned seed = 1; seed <= 3; ++seed) {
    const PlacementTable table = random_placement(seed);
    const PhaseTable phase = random_phase(seed);
    chip.load_placement(table);
    chip.load_phase(phase);
    for (const auto& fen : testdata::random_game_positions(seed, 1, 20)) play_and_check(chip, table, fen, seed, phase);
  }
}

TEST_P(ChipPlacement, TableReadsBackAndBadWritesAreRefused) {
  ChipClient chip(make_backend(GetParam()));
  const PlacementTable table = random_placement(9);
  chip.load_placement(table);
  for (std::uint32_t i = 0; i < 512; i += 37) EXPECT_EQ(std::int16_t(chip.read(reg::PST_BASE + i)), table[i]);
  EXPECT_TRUE(chip.backend().access(true, reg::PST_BASE + 3, 0x10000).error);
  EXPECT_EQ(chip.read(reg::ERROR) & 0xFF, err::BAD_ARGUMENT);
  chip.write(reg::ERROR, 0);
  EXPECT_EQ(std::int16_t(chip.read(reg::PST_BASE + 3)), table[3]);
  // EVAL_INIT needs an empty move stack.
  chip.load(Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
  chip.make(0x8000 | 28 << 6 | 12);
  EXPECT_THROW(chip.eval_init(), ChipError);
  // The table cannot be read while a command runs.
  chip.unmake();
  chip.write(reg::CMD, op::PERFT | 4u << 8);
  EXPECT_TRUE(chip.backend().access(false, reg::PST_BASE + 5, 0).error);
  chip.write(reg::ABORT, 1);
}

// The game phase RAM reads synchronously (block RAM), addressed with the next clock's counts: a
// host write of the current material's word shows in the fast evaluation at the very next access
// (a read of the address being written returns the new word), and in the host's read-back.
TEST_P(ChipPlacement, PhaseRamWriteShowsAtTheNextAccess) {
  ChipClient chip(make_backend(GetParam()));
  const PlacementTable table = default_placement();
  PhaseTable phase = default_phase();
  chip.load_placement(table);
  chip.load_phase(phase);
  PhaseTable index{};
  for (std::size_t i = 0; i < index.size(); ++i) index[i] = std::uint16_t(i);
  for (const char* fen :
       {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "8/8/4k3/8/3R4/8/2N1K3/8 b - - 0 1"}) {
    const Position pos = Position::from_fen(fen);
    chip.load(pos);
    chip.eval_init();
    const std::uint16_t at = phase_word(index, pos);
    for (const std::uint16_t word : {std::uint16_t(0x0040), std::uint16_t(0x0F9C)}) {
      chip.write(reg::PHASE_RAM_BASE + at, word);
      phase[at] = word;
      const std::int16_t white = std::int16_t(placement_value(table, pos) + std::int8_t(word & 0xFF));
      ASSERT_EQ(chip.fast_eval(), std::int16_t(pos.side_to_move() == WHITE ? white : -white)) << fen;
      ASSERT_EQ(chip.read(reg::PHASE_RAM_BASE + at), word) << fen;
      expect_phase_state(chip, table, phase, pos);
    }
  }
}

TEST_P(ChipPlacement, MirroredPositionNegatesTheEvaluation) {
  ChipClient chip(make_backend(GetParam()));
  const PlacementTable table = random_placement(4);
  chip.load_placement(table);
  // A phase table symmetric in the colours (bonus negated when the signatures swap).
  PhaseTable phase{};
  const PhaseTable r = random_phase(4);
  for (int w = 0; w < 32; ++w) {
    for (int b = 0; b <= w; ++b) {
      phase[w << 5 | b] = r[w << 5 | b];
      phase[b << 5 | w] = std::uint16_t((r[w << 5 | b] & 0xFF00) | (std::uint8_t(-std::int8_t(r[w << 5 | b] & 0xFF))));
      if (w == b) phase[w << 5 | b] &= 0xFF00;
    }
  }
  chip.load_phase(phase);
  for (const auto& fen : testdata::random_game_positions(11, 2, 40)) {
    const Position pos = Position::from_fen(fen);
    const std::string mirrored = testdata::mirror_fen(pos);
    chip.load(pos);
    chip.eval_init();
    const int a = chip.placement_sum(), fa = chip.fast_eval();
    chip.load(Position::from_fen(mirrored));
    chip.eval_init();
    EXPECT_EQ(chip.placement_sum(), std::int16_t(-a)) << fen;
    EXPECT_EQ(chip.fast_eval(), fa) << fen;
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, ChipPlacement, ::testing::Values("model", "cosim"));

TEST(PlacementFile, RoundTripAndErrors) {
  const PlacementTable t = random_placement(5);
  PlacementTable expect = t;
  for (int i = 0; i < 64; ++i) expect[i] = 0;  // type 0 (empty) is not saved
  for (int i = 7 * 64; i < 512; ++i) expect[i] = 0;
  const PhaseTable ph = random_phase(5);
  EXPECT_EQ(placement_from_json(weights_to_json(t, ph)), expect);
  EXPECT_EQ(phase_from_json(weights_to_json(t, ph)), ph);
  EXPECT_THROW(phase_from_json("{\"phase\":[1,2]}"), std::invalid_argument);
  EXPECT_THROW(placement_from_json("{"), std::invalid_argument);
  EXPECT_THROW(placement_from_json("5e40044"), std::invalid_argument);  // a number past double's range (fuzzer)
  EXPECT_THROW(placement_from_json("{\"placement\":{}}"), std::invalid_argument);
  EXPECT_THROW(placement_from_json("{\"placement\":{\"pawn\":[1,2]}}"), std::invalid_argument);
}

}  // namespace
}  // namespace db::chip

namespace db::chip {
namespace {

// Random legal positions with the given white and black men (besides the kings).
std::vector<Position> random_endings(unsigned seed, const std::string& white, const std::string& black, int n) {
  std::mt19937 rng(seed);
  std::vector<Position> out;
  while (int(out.size()) < n) {
    std::string board(64, '.');
    auto place = [&](char c, bool pawn) {
      for (;;) {
        const int sq = pawn ? 8 + int(rng() % 48) : int(rng() % 64);
        if (board[std::size_t(sq)] == '.') {
          board[std::size_t(sq)] = c;
          return;
        }
      }
    };
    place('K', false);
    place('k', false);
    for (char c : white) place(c, c == 'P');
    for (char c : black) place(c, c == 'p');
    std::string fen;
    for (int r = 7; r >= 0; --r) {
      int gap = 0;
      for (int f = 0; f < 8; ++f) {
        const char c = board[std::size_t(r * 8 + f)];
        if (c == '.') {
          ++gap;
          continue;
        }
        if (gap) fen += char('0' + gap), gap = 0;
        fen += c;
      }
      if (gap) fen += char('0' + gap);
      if (r) fen += '/';
    }
    fen += (rng() & 1) ? " b - - 0 1" : " w - - 0 1";
    try {
      out.push_back(Position::from_fen(fen));
    } catch (const FenError&) {}
  }
  return out;
}

// Legal king-and-pawn-against-king positions, half with the white pawn, half with the black.
std::vector<Position> kpk_positions(unsigned seed, int n) {
  std::vector<Position> out = random_endings(seed, "P", "", n / 2);
  for (const Position& pos : random_endings(seed + 1, "", "p", n - n / 2)) out.push_back(pos);
  return out;
}

class ChipKpk : public ::testing::TestWithParam<std::string> {};

TEST_P(ChipKpk, RomLookupMatchesTheRetrogradeAnalysis) {
  ChipClient chip(make_backend(GetParam()));
  // The hand-set tables: the check below that a won position has a fast value other than 0 was
  // made with them (other tables may sum to 0 on some square).
  chip.load_placement(default_placement(GeneratorParams::hand()));
  chip.load_phase(default_phase(GeneratorParams::hand()));
  chip.write(reg::EVAL_CTRL, 2);
  int draws = 0, wins = 0;
  for (const Position& pos : kpk_positions(17, GetParam() == "model" ? 3000 : 400)) {
    chip.load(pos);
    chip.eval_init();
    const Color pawn_side = pos.pieces(WHITE, PAWN) ? WHITE : BLACK;
    const Square pawn = lsb(pos.pieces(PAWN));
    const bool win = eval::kpk_rom().pawn_side_wins(pawn_side, pos.side_to_move(), pos.king_square(pawn_side), pawn,
                                                    pos.king_square(~pawn_side));
    const std::uint32_t endgame = chip.read(reg::ENDGAME);
    ASSERT_EQ(endgame, win ? 3u : 1u) << pos.fen();
    if (!win) {
      EXPECT_EQ(chip.fast_eval(), 0) << pos.fen();
      ++draws;
    } else {
      EXPECT_NE(chip.fast_eval(), 0) << pos.fen();
      ++wins;
    }
  }
  EXPECT_GT(draws, 0);
  EXPECT_GT(wins, 0);
  // With the ROMs switched off the endgame logic stays out of it.
  chip.write(reg::EVAL_CTRL, 0);
  EXPECT_EQ(chip.read(reg::ENDGAME), 0u);
}

TEST_P(ChipKpk, RomFollowsMakeAndUnmake) {
  // Capturing the last piece reaches KPK inside the chip's own MAKE.
  ChipClient chip(make_backend(GetParam()));
  // The hand-set tables: the check below that a won position has a fast value other than 0 was
  // made with them (other tables may sum to 0 on some square).
  chip.load_placement(default_placement(GeneratorParams::hand()));
  chip.load_phase(default_phase(GeneratorParams::hand()));
  chip.write(reg::EVAL_CTRL, 2);
  chip.load(Position::from_fen("8/8/8/4k3/8/3n4/4P3/4K3 w - - 0 1"));
  chip.eval_init();
  EXPECT_EQ(chip.read(reg::ENDGAME), 0u);
  chip.make(0x8000 | 19 << 6 | 12);  // exd3: now K+P vs K
  EXPECT_EQ(chip.read(reg::ENDGAME) & 1, 1u);
  chip.unmake();
  EXPECT_EQ(chip.read(reg::ENDGAME), 0u);
}

INSTANTIATE_TEST_SUITE_P(Backends, ChipKpk, ::testing::Values("model", "cosim"));

}  // namespace
}  // namespace db::chip

namespace db::chip {
namespace {

int chebyshev(Square a, Square b) {
  return std::max(std::abs(file_of(a) - file_of(b)), std::abs(rank_of(a) - rank_of(b)));
}

// The draw rules of docs/evaluation.md, computed from the position by the chess core.
std::uint32_t expected_rules(const Position& pos) {
  auto only = [&pos](Color c, std::initializer_list<PieceType> types) {
    for (PieceType t : {PAWN, KNIGHT, BISHOP, ROOK, QUEEN}) {
      const int want = int(std::count(types.begin(), types.end(), t));
      if (popcount(pos.pieces(c, t)) != want) return false;
    }
    return true;
  };
  std::uint32_t r = 0;
  for (Color weak : {WHITE, BLACK}) {
    const Color strong = ~weak;
    const Square wk = pos.king_square(weak), sk = pos.king_square(strong);
    if (only(weak, {PAWN}) && (only(strong, {QUEEN}) || only(strong, {ROOK}))) {
      const Square p = lsb(pos.pieces(weak, PAWN));
      const int rel = relative_rank(weak, rank_of(p));
      const Square queening = make_square(file_of(p), weak == WHITE ? 7 : 0);
      const bool near = chebyshev(wk, p) == 1 && chebyshev(sk, queening) >= 3;
      const int f = file_of(p);
      if (only(strong, {QUEEN}) && rel == 6 && (f == 0 || f == 2 || f == 5 || f == 7) && near) r |= 1;
      if (only(strong, {ROOK}) && rel >= 5 && near) r |= 2;
    }
    if (only(weak, {ROOK}) && only(strong, {ROOK, PAWN})) {
      const Square p = lsb(pos.pieces(strong, PAWN));
      if (file_of(wk) == file_of(p) && relative_rank(strong, rank_of(wk)) > relative_rank(strong, rank_of(p))) r |= 4;
    }
  }
  return r;
}

class ChipRules : public ::testing::TestWithParam<std::string> {};

TEST_P(ChipRules, DrawRulesMatchTheirDefinition) {
  ChipClient chip(make_backend(GetParam()));
  chip.load_placement(default_placement());
  chip.load_phase(default_phase());
  chip.write(reg::EVAL_CTRL, 1);  // rules on, ROMs off
  const int n = GetParam() == "model" ? 1500 : 200;
  std::uint32_t seen = 0;
  for (const auto& [w, b] : std::vector<std::pair<std::string, std::string>>{
           {"Q", "p"}, {"P", "q"}, {"R", "p"}, {"P", "r"}, {"RP", "r"}, {"R", "rp"}, {"RN", "p"}}) {
    for (const Position& pos : random_endings(unsigned(w.size() * 31 + b[0]), w, b, n)) {
      chip.load(pos);
      chip.eval_init();
      const std::uint32_t want = expected_rules(pos);
      ASSERT_EQ((chip.read(reg::ENDGAME) >> 2) & 7, want) << pos.fen();
      if (want) {
        EXPECT_EQ(chip.fast_eval(), 0) << pos.fen();
      }
      seen |= want;
    }
  }
  EXPECT_EQ(seen, 7u);  // every rule fired somewhere
  // A textbook case: the a-pawn on the seventh with its king, the queen's king far away.
  chip.load(Position::from_fen("8/8/8/4K3/8/8/pk6/7Q w - - 0 1"));
  chip.eval_init();
  EXPECT_EQ((chip.read(reg::ENDGAME) >> 2) & 7, 1u);
  chip.write(reg::EVAL_CTRL, 0);  // rules off
  EXPECT_EQ(chip.read(reg::ENDGAME), 0u);
  EXPECT_NE(chip.fast_eval(), 0);
}

INSTANTIATE_TEST_SUITE_P(Backends, ChipRules, ::testing::Values("model", "cosim"));

}  // namespace
}  // namespace db::chip

namespace db::chip {
namespace {

class ChipKpa : public ::testing::TestWithParam<std::string> {};

TEST_P(ChipKpa, RunnersMatchTheKingAndPawnReference) {
  ChipClient chip(make_backend(GetParam()));
  chip.load_placement(default_placement());
  chip.load_phase(default_phase());
  chip.write(reg::EVAL_CTRL, 0);
  chip.write(reg::RUNNER_BONUS, 600);
  chip.write(reg::SEP_BONUS, 150);
  const int n = GetParam() == "model" ? 800 : 120;
  int races = 0, separated = 0;
  for (const auto& [w, b] : std::vector<std::pair<std::string, std::string>>{{"P", ""},
                                                                             {"", "p"},
                                                                             {"PP", "p"},
                                                                             {"P", "pp"},
                                                                             {"PPP", "ppp"},
                                                                             {"PN", "p"},
                                                                             {"P", "pb"},
                                                                             {"PPP", "p"},
                                                                             {"", "ppp"},
                                                                             {"PPB", "pp"}}) {
    for (const Position& pos : random_endings(unsigned(w.size() * 7 + b.size() * 13 + 3), w, b, n)) {
      chip.load(pos);
      chip.eval_init();
      const int rw = eval::fastest_runner(pos, WHITE), rb = eval::fastest_runner(pos, BLACK);
      const std::uint32_t kpa = chip.read(reg::KPA);
      ASSERT_EQ(kpa & 7, std::uint32_t(rw < 0 ? 7 : rw)) << pos.fen();
      ASSERT_EQ((kpa >> 4) & 7, std::uint32_t(rb < 0 ? 7 : rb)) << pos.fen();
      // The race: the faster runner wins; on equal moves the side to move.
      const bool stm_white = pos.side_to_move() == WHITE;
      const bool white_wins = rw >= 0 && (rb < 0 || (stm_white ? rw <= rb : rw < rb));
      const bool black_wins = rb >= 0 && (rw < 0 || (stm_white ? rb < rw : rb <= rw));
      ASSERT_EQ((kpa >> 8) & 3, std::uint32_t(white_wins) | std::uint32_t(black_wins) << 1) << pos.fen();
      const bool sep_w = eval::widely_separated_passers(pos, WHITE), sep_b = eval::widely_separated_passers(pos, BLACK);
      ASSERT_EQ((kpa >> 10) & 3, std::uint32_t(sep_w) | std::uint32_t(sep_b) << 1) << pos.fen();
      separated += sep_w || sep_b;
      const int race = (white_wins ? 600 : black_wins ? -600 : 0) + (sep_w ? 150 : 0) - (sep_b ? 150 : 0);
      const std::int16_t white_view = std::int16_t(placement_value(default_placement(), pos) +
                                                   std::int8_t(phase_word(default_phase(), pos) & 0xFF) + race);
      ASSERT_EQ(chip.fast_eval(), std::int16_t(stm_white ? white_view : -white_view)) << pos.fen();
      races += white_wins || black_wins;
    }
  }
  EXPECT_GT(races, 0);
  EXPECT_GT(separated, 0);
  EXPECT_TRUE(chip.backend().access(true, reg::RUNNER_BONUS, 0x10000).error);
  EXPECT_TRUE(chip.backend().access(true, reg::SEP_BONUS, 0x10000).error);
}

INSTANTIATE_TEST_SUITE_P(Backends, ChipKpa, ::testing::Values("model", "cosim"));

}  // namespace
}  // namespace db::chip

namespace db::chip {
namespace {

// The whole fast evaluation (placement, a colour-symmetric phase table, KPK ROM, draw rules, pawn
// race) gives the mirrored position the same value from the side to move's view.
TEST(ChipSymmetry, WholeFastEvaluationIsColourSymmetric) {
  ChipClient chip(make_backend("model"));
  chip.load_placement(default_placement());
  chip.load_phase(default_phase());
  chip.write(reg::EVAL_CTRL, 3);
  chip.write(reg::RUNNER_BONUS, 600);
  chip.write(reg::SEP_BONUS, 150);
  int checked = 0;
  for (const auto& [w, b] : std::vector<std::pair<std::string, std::string>>{
           {"P", ""}, {"Q", "p"}, {"R", "p"}, {"RP", "r"}, {"PP", "p"}, {"NP", "pp"}, {"RB", "rn"}}) {
    for (const Position& pos : random_endings(unsigned(w.size() * 5 + b.size() + 77), w, b, 300)) {
      chip.load(pos);
      chip.eval_init();
      const int v = chip.fast_eval();
      const std::uint32_t endgame = chip.read(reg::ENDGAME), kpa = chip.read(reg::KPA);
      chip.load(Position::from_fen(testdata::mirror_fen(pos)));
      chip.eval_init();
      ASSERT_EQ(chip.fast_eval(), v) << pos.fen();
      ASSERT_EQ(chip.read(reg::ENDGAME), endgame) << pos.fen();
      ASSERT_EQ(chip.read(reg::KPA), (kpa & 0x77) >> 4 | (kpa & 0x7) << 4 | (kpa & 0x100) << 1 | (kpa & 0x200) >> 1 |
                                         (kpa & 0x400) << 1 | (kpa & 0x800) >> 1)
          << pos.fen();
      ++checked;
    }
  }
  EXPECT_EQ(checked, 7 * 300);
}

}  // namespace
}  // namespace db::chip
