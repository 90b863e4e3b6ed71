// The hardware search (SEARCH): mates found by the chip alone, checked against a brute-force
// mate oracle on the chess core and Stockfish 15.1's mate scores; the repetition detector against a
// software detector along the 1997 games; draws by repetition; node limits and aborts; bad
// parameters. Every test runs on the model and on the RTL in lock-step with it (cosim).
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "chess/movegen.h"
#include "chess/notation.h"
#include "chess/pgn.h"
#include "chess/position.h"
#include "chip/chip_client.h"
#include "chip/chip_model.h"
#include "chip/chip_regs.h"
#include "chip/eval_generator.h"
#include "chip/rtl_backend.h"
#include "chip_data.h"

namespace db::chip {
namespace {

constexpr int kMate = int(MATE_SCORE);

// Weights for the root, the game loaded (position at its start, then its moves made on the chip).
void setup(ChipClient& chip, const Position& start, const std::vector<Move>& moves = {}) {
  Position root = start;
  for (Move m : moves) root.make_move(m);
  download(chip, generate_weights(root));
  chip.load_game(start, moves);
}

std::vector<Move> uci_moves(Position pos, const std::vector<std::string>& list) {
  std::vector<Move> out;
  for (const std::string& s : list) {
    out.push_back(parse_uci(pos, s));
    pos.make_move(out.back());
  }
  return out;
}

// Brute force: can the side to move mate in at most n moves?
bool mate_in(Position& pos, int n) {
  MoveList moves;
  generate_legal(pos, moves);
  for (Move m : moves) {
    pos.make_move(m);
    MoveList replies;
    generate_legal(pos, replies);
    bool mates = replies.size() == 0 && pos.in_check();
    if (!mates && n > 1 && replies.size() > 0) {
      mates = true;
      for (Move r : replies) {
        pos.make_move(r);
        const bool again = mate_in(pos, n - 1);
        pos.unmake_move(r);
        if (!again) {
          mates = false;
          break;
        }
      }
    }
    pos.unmake_move(m);
    if (mates) return true;
  }
  return false;
}

SearchResult search_at(ChipClient& chip, int depth, int value, int tie = 0, bool repetition = true) {
  SearchParams p;
  p.depth = depth;
  p.test_value = value;
  p.test_tie = tie;
  p.repetition = repetition;
  return chip.search(p);
}

class HwSearchChip : public ::testing::TestWithParam<std::string> {};

TEST_P(HwSearchChip, MatesInOneAndTwoMatchABruteForceOracle) {
  ChipClient chip(make_backend(GetParam()));
  const std::vector<std::string> all = testdata::wac_positions();
  const std::size_t count = GetParam() == "model" ? 80 : 12;
  int mates = 0;
  for (std::size_t i = 0; i < count && i < all.size(); ++i) {
    Position pos = Position::from_fen(all[i]);
    const bool m1 = mate_in(pos, 1);
    const bool m2 = m1 || mate_in(pos, 2);
    setup(chip, pos);
    // Mate in n is worth MATE - (2n - 1) at the root: fail high there iff the mate exists.
    const SearchResult r1 = search_at(chip, 1, kMate - 1);
    ASSERT_TRUE(r1.finished) << all[i];
    EXPECT_EQ(r1.fail_high, m1) << all[i];
    const SearchResult r2 = search_at(chip, 3, kMate - 3);
    EXPECT_EQ(r2.fail_high, m2) << all[i];
    if (m2) {
      ++mates;
      // The move that reached the value mates: check it with the oracle.
      Position after = pos;
      const Move best = from_chip_move(pos, r2.best_move);
      ASSERT_FALSE(best.is_none()) << all[i];
      after.make_move(best);
      MoveList replies;
      generate_legal(after, replies);
      bool forced = replies.size() > 0 || after.in_check();
      for (Move r : replies) {
        after.make_move(r);
        forced = forced && mate_in(after, 1);
        after.unmake_move(r);
      }
      EXPECT_TRUE(forced) << all[i] << " best " << move_to_uci(best);
    }
  }
  EXPECT_GT(mates, 0);
}

TEST_P(HwSearchChip, MatesInThreeAsStockfishScoresThem) {
  // Stockfish 15.1 "go depth 18": score mate 3 for each (bestmove f8c5, b1g6, f6a6).
  ChipClient chip(make_backend(GetParam()));
  for (const char* fen :
       {"r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1",
        "2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1", "r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1"}) {
    setup(chip, Position::from_fen(fen));
    EXPECT_TRUE(search_at(chip, 5, kMate - 5).fail_high) << fen;
    EXPECT_FALSE(search_at(chip, 5, kMate - 4).fail_high) << fen;  // no mate in two
  }
}

TEST_P(HwSearchChip, BeingMatedAndStalemateAtTheRoot) {
  ChipClient chip(make_backend(GetParam()));
  setup(chip, Position::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"));
  SearchResult r = search_at(chip, 2, -kMate);
  EXPECT_TRUE(r.fail_high && r.no_legal_move);
  EXPECT_FALSE(search_at(chip, 2, -kMate + 1).fail_high);
  setup(chip, Position::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"));
  r = search_at(chip, 2, 0);
  EXPECT_TRUE(r.fail_high && r.no_legal_move);
  EXPECT_FALSE(search_at(chip, 2, 0, 1).fail_high);  // stalemate is exactly (0, 0)
}

TEST_P(HwSearchChip, RepeatingTheGameScoresADraw) {
  // Black, a queen down, can only hold by repeating the start position with Ng8.
  ChipClient chip(make_backend(GetParam()));
  const Position start = Position::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  const std::vector<Move> game = uci_moves(start, {"g1f3", "g8f6", "f3g1"});
  setup(chip, start, game);
  SearchResult r = search_at(chip, 2, 0, 0);
  EXPECT_TRUE(r.fail_high);
  EXPECT_EQ(chip_move_to_string(r.best_move), "f6g8");
  EXPECT_FALSE(search_at(chip, 2, 0, 1).fail_high);         // the draw is exactly (0, 0)
  EXPECT_FALSE(search_at(chip, 2, 0, 0, false).fail_high);  // detector off: a queen down
}

TEST_P(HwSearchChip, IgnoringStalemateOnePlyAboveQuiescence) {
  // Black's king on h8 has no move against the queen on g6: any quiet white move stalemates it.
  // Scored, that is a draw and White has no mate in one; ignored, the stalemated node fails and
  // White "wins" at once (AIJ 5, flag 8: the chip trusts the search above to look at it).
  ChipClient chip(make_backend(GetParam()));
  setup(chip, Position::from_fen("7k/8/6Q1/8/8/8/8/6K1 w - - 0 1"));
  SearchParams p;
  p.depth = 2;
  p.test_value = kMate - 1;
  EXPECT_FALSE(chip.search(p).fail_high);
  p.ignore_stalemate = true;
  const SearchResult r = chip.search(p);
  EXPECT_TRUE(r.fail_high);
  p.depth = 3;  // two plies above quiescence: scored again
  EXPECT_FALSE(chip.search(p).fail_high);
}

TEST_P(HwSearchChip, NoProgressPrunesMovesThatCouldHaveBeenPlayedAtOnce) {
  // A blocked pawn ending where only the kings move: lines where a king reaches in three moves,
  // while the other king went and came back, a square one move would have reached are cut, so the
  // search is smaller; the bound stays the same here.
  ChipClient chip(make_backend(GetParam()));
  setup(chip, Position::from_fen("8/2k5/1p1p4/pPpPp3/P1P1P3/3K4/8/8 w - - 0 1"));
  SearchParams p;
  p.depth = 7;
  p.test_value = 100;
  const SearchResult off = chip.search(p);
  p.no_progress = true;
  const SearchResult on = chip.search(p);
  EXPECT_EQ(on.fail_high, off.fail_high);
  EXPECT_LT(on.nodes, off.nodes);
}

TEST_P(HwSearchChip, QuiescenceExtensionsSearchForcingPositionsFullWidth) {
  // Each flag on a position where its condition arises in the quiescence search, against a test
  // value nobody reaches (every move searched): the extended nodes are searched full width, so the
  // tree grows. A pawn reaching b7; two undefended black knights attacked by the rook and the
  // bishop; one knight left hanging on consecutive turns; the rook moving to c3 or c7, where the
  // knight takes it for nothing; the passed pawn b5-b6 with b7 empty (flag 9's "pawn to the 6th").
  ChipClient chip(make_backend(GetParam()));
  struct Case {
    const char* fen;
    int depth;
    bool SearchParams::*flag;
  };
  for (const Case& c : {Case{"8/8/1P4k1/8/8/8/6K1/8 w - - 0 1", 1, &SearchParams::extend_pawn_on_7th},
                        Case{"6k1/8/8/3n1n2/8/8/2B5/3R2K1 w - - 0 1", 1, &SearchParams::extend_hung_pieces},
                        Case{"6k1/8/8/3n4/8/8/8/3R2K1 w - - 0 1", 3, &SearchParams::extend_hung_twice},
                        Case{"6k1/8/8/3n4/8/8/8/2R3K1 w - - 0 1", 1, &SearchParams::extend_opp_hung},
                        Case{"8/8/6k1/1P6/8/8/6K1/8 w - - 0 1", 1, &SearchParams::extend_pawn_on_6th}}) {
    setup(chip, Position::from_fen(c.fen));
    SearchParams p;
    p.depth = c.depth;
    p.test_value = 20000;
    const SearchResult plain = chip.search(p);
    p.*c.flag = true;
    const SearchResult extended = chip.search(p);
    EXPECT_FALSE(plain.fail_high || extended.fail_high) << c.fen;
    EXPECT_GT(extended.nodes, plain.nodes) << c.fen;
  }
  // Not every pawn to the 6th: with a black pawn on c7 beside its path, b5-b6 makes no passed pawn,
  // and with a piece on b7 it is blocked; neither is extended.
  for (const char* fen : {"8/2p5/6k1/1P6/8/8/6K1/8 w - - 0 1", "8/1n6/6k1/1P6/8/8/6K1/8 w - - 0 1"}) {
    setup(chip, Position::from_fen(fen));
    SearchParams p;
    p.depth = 1;
    p.test_value = 20000;
    const SearchResult plain = chip.search(p);
    p.extend_pawn_on_6th = true;
    EXPECT_EQ(chip.search(p).nodes, plain.nodes) << fen;
  }
}

// The root's exact score (tie-breaker 0): the largest test value the search fails high against.
int exact_value(ChipClient& chip, SearchParams p) {
  int lo = -kMate, hi = kMate + 1;  // fails high at lo, low at hi
  while (hi - lo > 1) {
    p.test_value = lo + (hi - lo) / 2;
    if (chip.search(p).fail_high)
      lo = p.test_value;
    else
      hi = p.test_value;
  }
  return lo;
}

TEST_P(HwSearchChip, FlagTenExtendsOneHungPieceOnlyWhenItIsPinned) {
  // Flag 10's second half (SEARCH_CTRL[15]): a quiescence node whose side to move has one hung
  // piece that is pinned to its king. 1.Re1 attacks the undefended knight on e5 and pins it to the
  // king on e8: black's only hung piece, pinned. Without the extension black stands pat a knight
  // for a rook; extended, every black move is searched and none saves the knight (it may not move,
  // and the king cannot reach it), so White's value rises and the tree grows.
  ChipClient chip(make_backend(GetParam()));
  setup(chip, Position::from_fen("4k3/8/8/4n3/8/8/8/R5K1 w - - 0 1"));
  SearchParams p;
  p.depth = 1;
  p.test_value = 20000;
  const std::uint64_t plain_nodes = chip.search(p).nodes;
  const int plain_value = exact_value(chip, p);
  p.extend_hung_pieces = true;
  const std::uint64_t pin_nodes = chip.search(p).nodes;
  const int pin_value = exact_value(chip, p);
  EXPECT_GT(pin_nodes, plain_nodes);
  EXPECT_GT(pin_value, plain_value + 100);  // at least a pawn: the knight is lost
  p.test_value = pin_value;
  const SearchResult best = chip.search(p);
  EXPECT_TRUE(best.fail_high);
  EXPECT_EQ(chip_move_to_string(best.best_move), "a1e1");
  // The same with the king on g8 (Re1 or Ra5 attack the knight, which is hung but not pinned), and
  // with the king on e8 and the knight defended by a pawn on d6 (Re1 pins it, but it is not hung;
  // Ra6 or Rd1 leave the pawn hung, not pinned): one hung piece and no pin, nothing changes.
  for (const char* fen : {"6k1/8/8/4n3/8/8/8/R5K1 w - - 0 1", "4k3/8/3p4/4n3/8/8/8/R5K1 w - - 0 1"}) {
    setup(chip, Position::from_fen(fen));
    SearchParams q;
    q.depth = 1;
    q.test_value = 20000;
    const std::uint64_t off_nodes = chip.search(q).nodes;
    const int off_value = exact_value(chip, q);
    q.extend_hung_pieces = true;
    EXPECT_EQ(chip.search(q).nodes, off_nodes) << fen;
    EXPECT_EQ(exact_value(chip, q), off_value) << fen;
  }
}

TEST_P(HwSearchChip, QuiescenceChecksOfEachClassHaveTheirOwnBudget) {
  ChipClient chip(make_backend(GetParam()));
  // White to move has only a2-a3 and a2-a4; then black mates with a quiet queen check (Qc1 or Qc6,
  // no escape square: "mating" checks) in the quiescence search, if black may play one.
  setup(chip, Position::from_fen("8/2q5/8/8/8/7p/P4k1P/7K w - - 0 1"));
  SearchParams p;
  p.depth = 1;
  p.test_value = -20000;
  EXPECT_TRUE(chip.search(p).fail_high);  // no checks in the quiescence search: no mate
  p.mating_checks = 1;
  EXPECT_FALSE(chip.search(p).fail_high);
  p.mating_checks = 0;
  p.singular_checks = 3;
  EXPECT_TRUE(chip.search(p).fail_high);  // the mating checks are not singular ones

  // Ne2+ forks the king and the undefended rook on c3 (a check while the checked side has a hung
  // piece: "singular"); the king has five escape squares and no queen or rook gives contact, so
  // black has no mating check. Singular checks grow the tree, mating ones do not.
  setup(chip, Position::from_fen("k7/8/8/8/5n2/2R5/8/6K1 w - - 0 1"));
  SearchParams q;
  q.depth = 1;
  q.test_value = 400;
  const std::uint64_t plain = chip.search(q).nodes;
  q.mating_checks = 3;
  EXPECT_EQ(chip.search(q).nodes, plain);
  q.mating_checks = 0;
  q.singular_checks = 1;
  EXPECT_GT(chip.search(q).nodes, plain);
}

TEST_P(HwSearchChip, OffsetSearchesAtTheRootExtendSingularBinaryAndTrinaryMoves) {
  ChipClient chip(make_backend(GetParam()));
  const auto best_uci = [](const Position& pos, std::uint16_t chip_move) {
    MoveList moves;
    generate_legal(pos, moves);
    for (Move m : moves) {
      if (to_chip_move(m) == chip_move) return move_to_uci(m);
    }
    return std::string("none");
  };
  // Only Rxd5 wins the queen: no other move comes within the margin, the capture is singular and
  // searched one ply deeper, where it still fails high.
  const Position lone = Position::from_fen("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1");
  setup(chip, lone);
  SearchParams p;
  p.depth = 3;
  p.test_value = 300;
  p.offset_depth = 2;
  p.offset_margin = 200;
  const SearchResult plain = chip.search(p);
  EXPECT_FALSE(plain.offset_ran);
  p.offset_singular = true;
  SearchResult r = chip.search(p);
  EXPECT_TRUE(r.fail_high && r.offset_ran && r.extended);
  EXPECT_EQ(r.alternatives, 0);
  EXPECT_EQ(best_uci(lone, r.best_move), "d2d5");
  EXPECT_GT(r.nodes, plain.nodes);

  // The extension decides: without quiescence, Qxd5 wins a rook at depth 1 but loses the queen to
  // exd5 one ply deeper, so the singular capture fails low.
  setup(chip, Position::from_fen("4k3/8/4p3/3r4/8/8/3Q4/4K3 w - - 0 1"));
  SearchParams q;
  q.depth = 1;
  q.quiescence = false;
  q.evasions = false;
  q.test_value = 600;
  EXPECT_TRUE(chip.search(q).fail_high);
  q.offset_depth = 1;
  q.offset_margin = 100;
  q.offset_singular = true;
  r = chip.search(q);
  EXPECT_TRUE(r.offset_ran && r.extended);
  EXPECT_FALSE(r.fail_high);

  // Rxd5 and Bxd5 both win the queen, and no check does (Rd8+ Qxd8): one alternative. Singular
  // alone stops counting there (no extension); binary extends; trinary alone counts on but does
  // not extend.
  const Position two = Position::from_fen("6k1/5ppp/8/3q4/8/8/B2R4/4K3 w - - 0 1");
  setup(chip, two);
  p.offset_singular = true;
  r = chip.search(p);
  EXPECT_TRUE(r.fail_high && r.offset_ran && !r.extended);
  EXPECT_EQ(r.alternatives, 1);
  p.offset_singular = false;
  p.offset_binary = true;
  r = chip.search(p);
  EXPECT_TRUE(r.fail_high && r.extended);
  EXPECT_EQ(r.alternatives, 1);
  const std::string first = best_uci(two, r.best_move);
  EXPECT_TRUE(first == "d2d5" || first == "a2d5") << first;
  p.offset_binary = false;
  p.offset_trinary = true;
  r = chip.search(p);
  EXPECT_TRUE(r.fail_high && r.offset_ran && !r.extended);
  EXPECT_EQ(r.alternatives, 1);

  // A fail low runs no offset searches.
  p.test_value = 2000;
  r = chip.search(p);
  EXPECT_FALSE(r.fail_high || r.offset_ran);
}

// The software reference: is the position after `moves` equal to one of the positions before the
// last 32 moves with the same side to move (board, castling, en passant), or two squares away from
// one with the other side to move?
struct RepReference {
  bool repetition = false, near = false;
};
RepReference reference_status(const std::vector<Position>& history, const Position& now) {
  RepReference ref;
  const int n = int(history.size());
  for (int k = 0; k < n; ++k) {
    const Position& then = history[std::size_t(k)];
    int differ = 0;
    for (int s = 0; s < 64; ++s) differ += then.piece_on(s) != now.piece_on(s);
    const bool same_side = then.side_to_move() == now.side_to_move();
    if (same_side && differ == 0 && then.castling_rights() == now.castling_rights() &&
        then.ep_square() == now.ep_square()) {
      ref.repetition = true;
    }
    if (!same_side && differ == 2) ref.near = true;
  }
  return ref;
}

TEST_P(HwSearchChip, RepetitionDetectorMatchesSoftwareAlongThe1997Games) {
  ChipClient chip(make_backend(GetParam()));
  int repetitions = 0, nears = 0, checked = 0, number = 0;
  for (const testdata::GameLine& game : testdata::games_1997()) {
    ++number;
    const std::vector<Position>& line = game.line;
    const std::vector<Move>& moves = game.moves;
    // Windows of up to 12 moves, ending at every ply (the model checks every ply, cosim every 7th).
    const int step = GetParam() == "model" ? 1 : 7;
    for (int end = 1; end < int(line.size()); end += step) {
      const int begin = std::max(0, end - 12);
      const std::vector<Move> window(moves.begin() + begin, moves.begin() + end);
      chip.load(line[std::size_t(begin)]);
      for (Move m : window) chip.make(to_chip_move(m));
      const std::vector<Position> before(line.begin() + begin, line.begin() + end);
      const RepReference ref = reference_status(before, line[std::size_t(end)]);
      const std::uint32_t status = chip.read(reg::REP_STATUS);
      ASSERT_EQ((status & 1) != 0, ref.repetition) << "game " << number << " ply " << end;
      ASSERT_EQ((status & 2) != 0, ref.near) << "game " << number << " ply " << end;
      repetitions += ref.repetition;
      nears += ref.near;
      ++checked;
    }
  }
  EXPECT_GT(checked, 50);
  EXPECT_GT(nears, 0);
  if (GetParam() == "model") {
    EXPECT_GT(repetitions, 0);  // the games do repeat
  }
}

TEST_P(HwSearchChip, NodeLimitStopsAndTheChipIsReady) {
  ChipClient chip(make_backend(GetParam()));
  const Position pos = Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
  setup(chip, pos);
  SearchParams p;
  p.depth = 3;
  p.test_value = 20;
  const SearchResult full = chip.search(p);
  ASSERT_TRUE(full.finished);
  ASSERT_GT(full.nodes, 100u);
  p.node_limit = 100;
  const SearchResult cut = chip.search(p);
  EXPECT_FALSE(cut.finished);
  EXPECT_TRUE(cut.node_limit);
  EXPECT_EQ(cut.nodes, 100u);
  // Unwound to the root: the same position, and the next search gives the full result.
  for (int s = 0; s < 64; ++s) ASSERT_EQ(chip.read(reg::BOARD_BASE + std::uint32_t(s)), to_chip_piece(pos.piece_on(s)));
  EXPECT_EQ(chip.read(reg::PLY), 0u);
  p.node_limit = 0;
  const SearchResult again = chip.search(p);
  EXPECT_EQ(again.fail_high, full.fail_high);
  EXPECT_EQ(again.nodes, full.nodes);
  EXPECT_EQ(again.best_move, full.best_move);
}

TEST_P(HwSearchChip, AbortAtAnyClockLeavesTheChipReady) {
  ChipClient chip(make_backend(GetParam()));
  const Position pos = Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
  setup(chip, pos);
  SearchParams p;
  p.depth = 4;
  p.test_value = -15;
  const SearchResult full = chip.search(p);
  ASSERT_GT(full.cycles, 3000u);
  for (std::uint64_t clocks : {1u, 7u, 100u, 1000u, 3000u}) {
    chip.start_search(p);
    chip.backend().tick(clocks);
    chip.abort();
    EXPECT_FALSE(chip.busy());
    EXPECT_TRUE(chip.search_result().aborted);
    chip.load(pos);  // the host reloads after an abort (docs/chip.md)
    chip.eval_init();
    const SearchResult again = chip.search(p);
    EXPECT_EQ(again.fail_high, full.fail_high) << clocks;
    EXPECT_EQ(again.nodes, full.nodes) << clocks;
  }
}

TEST_P(HwSearchChip, BadParametersAreRefused) {
  ChipClient chip(make_backend(GetParam()));
  setup(chip, Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
  EXPECT_THROW(chip.write(reg::SEARCH_CTRL, 1u << field::search_ctrl::WIDTH), ChipError);  // the first undefined bit
  EXPECT_THROW(chip.write(reg::SEARCH_CTRL, 0x80000000), ChipError);                       // nor bit 31
  EXPECT_THROW(chip.write(reg::TEST_TIE, 0x10000), ChipError);
  EXPECT_THROW(chip.write(reg::OFFSET_CTRL, 0x1000000), ChipError);  // bits above 23
  // An offset test needs an offset depth of 1 to the search depth.
  chip.write(reg::OFFSET_CTRL, 0x20);                       // singular, offset depth 0
  EXPECT_THROW(chip.run(op::SEARCH | 2u << 8), ChipError);  // depth 2
  chip.write(reg::OFFSET_CTRL, 0x23);                       // singular, offset depth 3 > 2
  EXPECT_THROW(chip.run(op::SEARCH | 2u << 8), ChipError);  // depth 2
  chip.write(reg::OFFSET_CTRL, 0);
  EXPECT_THROW(chip.write(reg::RESULT, 1), ChipError);
  EXPECT_THROW(chip.run(op::SEARCH), ChipError);  // depth 0
  SearchParams p;
  p.depth = 0;
  EXPECT_THROW(chip.start_search(p), std::invalid_argument);
  p.depth = 2;
  p.mating_checks = 4;
  EXPECT_THROW(chip.start_search(p), std::invalid_argument);
  p.mating_checks = 0;
  p.singular_checks = -1;
  EXPECT_THROW(chip.start_search(p), std::invalid_argument);
  p.singular_checks = 0;
  p.offset_binary = true;  // offset depth 0
  EXPECT_THROW(chip.start_search(p), std::invalid_argument);
  p.offset_depth = 3;  // deeper than the search
  EXPECT_THROW(chip.start_search(p), std::invalid_argument);
  p.offset_depth = 1;
  p.offset_margin = 70000;
  EXPECT_THROW(chip.start_search(p), std::invalid_argument);
  p.offset_binary = false;
  p.offset_depth = 0;
  p.offset_margin = 50;
  // Writes while a search runs are refused with BUSY; the search goes on.
  p.depth = 4;
  chip.start_search(p);
  EXPECT_THROW(chip.write(reg::TEST_VALUE, 5), ChipError);
  while (chip.busy()) chip.backend().tick(64);
  EXPECT_TRUE(chip.search_result().finished);
}

// Game `round` of 1997 (game 3: Kasparov-Deep Blue, drawn by repetition).
using testdata::GameLine;
GameLine game_line(int round) { return testdata::games_1997().at(std::size_t(round - 1)); }

// The game loaded up to ply `end` with the `history` plies before it on the chip's stack.
void setup_game(ChipClient& chip, const GameLine& g, int end, int history) {
  const int begin = end - history;
  setup(chip, g.line[std::size_t(begin)], std::vector<Move>(g.moves.begin() + begin, g.moves.begin() + end));
}

SearchResult search_rep(ChipClient& chip, int depth, int value, int tie, const char* tie_mode, bool bound = false,
                        int base = 33) {
  SearchParams p;
  p.repetition_tie_base = base;
  p.depth = depth;
  p.test_value = value;
  p.test_tie = tie;
  p.repetition_tie = std::string(tie_mode) != "off";
  p.strive_for_draw = std::string(tie_mode) == "strive";
  p.repetition_bound = bound;
  return chip.search(p);
}

TEST_P(HwSearchChip, RepetitionTieBreakerCountsMovesUntilRepetition) {
  // Black, a queen down, can only hold by repeating the start position with Ng8, one ply below the
  // chip's root: the draw's tie-breaker is 33 - 1 = 32 from black's view when black strives for
  // the draw, -32 when it avoids draws, 0 when off.
  ChipClient chip(make_backend(GetParam()));
  const Position start = Position::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  setup(chip, start, uci_moves(start, {"g1f3", "g8f6", "f3g1"}));
  struct Case {
    const char* mode;
    int tie;
    bool high;
  };
  for (const Case& c :
       {Case{"off", 0, true}, Case{"off", 1, false}, Case{"strive", 0, true}, Case{"strive", 32, true},
        Case{"strive", 33, false}, Case{"avoid", 0, false}, Case{"avoid", -32, true}, Case{"avoid", -31, false}}) {
    const SearchResult r = search_rep(chip, 2, 0, c.tie, c.mode);
    EXPECT_EQ(r.fail_high, c.high) << c.mode << " tie " << c.tie;
    if (r.fail_high) {
      EXPECT_EQ(chip_move_to_string(r.best_move), "f6g8") << c.mode;
    }
  }
  // A host counting from its own root 27 plies above the chip's sets the base to 128 - 27 = 101:
  // the same repetition is then 101 - 1 = 100 from black's view.
  EXPECT_TRUE(search_rep(chip, 2, 0, 100, "strive", false, 101).fail_high);
  EXPECT_FALSE(search_rep(chip, 2, 0, 101, "strive", false, 101).fail_high);
  EXPECT_TRUE(search_rep(chip, 2, 0, -100, "avoid", false, 101).fail_high);
  EXPECT_FALSE(search_rep(chip, 2, 0, -99, "avoid", false, 101).fail_high);
  EXPECT_THROW(search_rep(chip, 2, 0, 0, "strive", false, 128), std::invalid_argument);
  // Game 3 of 1997, after 47.Ra3 (Deep Blue, black, to move; the game went 47...Kh8 48.Ra6 drawn):
  // a pawn worse by the chip's evaluation, black's best is repeating with Kh8, at every depth.
  // Against the test value (0, 0) striving for the draw fails high with Kh8, avoiding it fails low.
  const GameLine g = game_line(3);
  ASSERT_EQ(g.line.size(), 96u);
  setup_game(chip, g, 93, 9);
  const int depth = GetParam() == "model" ? 3 : 2;
  SearchResult r = search_rep(chip, depth, 0, 0, "strive");
  EXPECT_TRUE(r.fail_high);
  EXPECT_EQ(chip_move_to_string(r.best_move), "h7h8");
  EXPECT_FALSE(search_rep(chip, depth, 0, 0, "avoid").fail_high);
  EXPECT_TRUE(search_rep(chip, depth, 0, 0, "off").fail_high);
  EXPECT_TRUE(search_rep(chip, depth, 0, 32, "strive").fail_high);
  EXPECT_FALSE(search_rep(chip, depth, 0, 33, "strive").fail_high);
  EXPECT_TRUE(search_rep(chip, depth, 0, -32, "avoid").fail_high);
  EXPECT_FALSE(search_rep(chip, depth, 0, -31, "avoid").fail_high);
}

TEST_P(HwSearchChip, RepeatingMoveBoundCutsEarlierWithTheSameResults) {
  // Game 3 of 1997 after 46...Kh7 (Kasparov, white, to move): inside the search many nodes can put
  // a piece back (Ra3-a6, Kh8-h7, ...); tried first, the repetition cuts where a draw is enough.
  ChipClient chip(make_backend(GetParam()));
  const GameLine g = game_line(3);
  setup_game(chip, g, 92, 10);
  const int depth = GetParam() == "model" ? 4 : 3;
  std::uint64_t plain = 0, bounded = 0;
  for (int value : {-40, 0, 91, 92, 94, 95, 200}) {
    const SearchResult off = search_rep(chip, depth, value, 0, "off", false);
    const SearchResult on = search_rep(chip, depth, value, 0, "off", true);
    EXPECT_EQ(on.fail_high, off.fail_high) << value;
    plain += off.nodes;
    bounded += on.nodes;
  }
  EXPECT_LT(bounded, plain);
}

TEST_P(HwSearchChip, RepeatingMoveIsOnlyScoredWhenLegalAndARepetition) {
  // Three histories in which a node below the root has one piece of its side displaced from an
  // earlier position with the other side to move, but moving it back is no repetition draw:
  // 1. the white knight went b1-c3-e4: e4-b1 is no knight move (not pseudo-legal);
  // 2. the white rook went h1-h2 and lost the castling right: h2-h1 gives the board but not the rights;
  // 3. the loaded position had white's king "in check" by Re8 with black to move (an illegal start
  //    the chip accepts), and Nc3-e2 blocked it: Ne2-c3 is pinned (illegal).
  // The repeating move must not be scored: the tree is the one without the bound, node for node.
  ChipClient chip(make_backend(GetParam()));
  auto* model = dynamic_cast<ChipModel*>(&chip.backend());
  auto chip_move = [](int from, int to) { return std::uint16_t(0x8000 | to << 6 | from); };
  for (int c = 0; c < 3; ++c) {
    if (c == 0) {
      const Position start = Position::from_fen("r3k3/8/8/8/8/8/8/1N2K3 b - - 0 1");
      setup(chip, start, uci_moves(start, {"a8a7", "b1c3", "a7a6", "c3e4"}));
    } else if (c == 1) {
      const Position start = Position::from_fen("4k3/8/8/8/8/p7/8/4K2R b K - 0 1");
      setup(chip, start, uci_moves(start, {"e8d8", "h1h2"}));
    } else {
      // The core refuses the illegal start: load the legal one with the knight on e2, move it to c3
      // on the chip's board, then make h8-g8 and c3-e2 there.
      const Position legal = Position::from_fen("4r2k/8/8/8/8/8/4N3/4K3 b - - 0 1");
      download(chip, generate_weights(legal));
      chip.load(legal);
      chip.write(reg::BOARD_BASE + 12, 0);                                         // e2
      chip.write(reg::BOARD_BASE + 18, to_chip_piece(make_piece(WHITE, KNIGHT)));  // c3
      chip.eval_init();
      chip.make(chip_move(63, 62));  // Kh8-g8
      chip.make(chip_move(18, 12));  // Nc3-e2, blocking the check
    }
    // One ply (quiescence below): no real repetition arises inside the tree, so with the bad
    // repeating move refused the trees must be the same.
    for (int value : {-500, 0, 500, 20000}) {
      const SearchResult off = search_rep(chip, 1, value, 0, "strive", false);
      const SearchResult on = search_rep(chip, 1, value, 0, "strive", true);
      EXPECT_EQ(on.fail_high, off.fail_high) << "case " << c << " value " << value;
      EXPECT_EQ(on.nodes, off.nodes) << "case " << c << " value " << value;
    }
    if (!model) continue;
    // On the model, clock by clock to three plies: the bad repeating move is considered (REPCHK),
    // and never counted as a node (TEST with the move on trial is followed by no count).
    const std::uint16_t bad = c == 0 ? chip_move(28, 1) : c == 1 ? chip_move(15, 7) : chip_move(12, 18);
    int considered = 0, tested = 0, scored = 0;
    for (int value : {-500, 0, 500, 20000}) {  // 20000: nobody reaches it, every root move is searched
      SearchParams p;
      p.depth = 3;
      p.test_value = value;
      p.repetition_tie = p.strive_for_draw = p.repetition_bound = true;
      chip.start_search(p);
      while (model->registers().ctrl.state_q != std::uint8_t(S_IDLE)) {
        const ChipModel::Registers r = model->registers();
        chip.backend().tick(1);
        if (r.ctrl.mv_q != bad) continue;
        if (r.ctrl.state_q == std::uint8_t(S_REPCHK)) ++considered;
        if (r.ctrl.state_q == std::uint8_t(S_TEST) && r.search.rtry_q) {
          ++tested;
          if (model->registers().ctrl.count_q != r.ctrl.count_q) ++scored;
        }
      }
    }
    EXPECT_GT(considered, 0) << "case " << c;
    EXPECT_EQ(tested, c == 0 ? 0 : considered) << "case " << c;  // e4-b1 is refused before MAKE
    EXPECT_EQ(scored, 0) << "case " << c;
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, HwSearchChip, ::testing::Values("model", "cosim"));

}  // namespace
}  // namespace db::chip
