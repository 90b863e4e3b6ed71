// The KPK ROM against an independent retrograde solution that uses only the chess core's legal move
// generator (FEN validation, make_move), on every placement; plus known textbook positions.
#include <gtest/gtest.h>

#include <unordered_map>

#include "chess/movegen.h"
#include "chess/notation.h"
#include "chess/position.h"
#include "eval/kpk.h"
#include "kpk_fen.h"

namespace db::eval {
namespace {

enum Value { UNKNOWN, DRAW, WIN };

// Outcome after white promotes: black to move in K+piece v K. Won with a queen or rook that black
// cannot take and that does not stalemate; a bishop or knight cannot win.
Value after_promotion(const Position& pos, Move m) {
  if (m.promotion() != QUEEN && m.promotion() != ROOK) return DRAW;
  Position next = pos;
  next.make_move(m);
  MoveList replies;
  generate_legal(next, replies);
  if (replies.empty()) return next.in_check() ? WIN : DRAW;
  for (Move r : replies)
    if (r.to() == m.to()) return DRAW;
  return WIN;
}

TEST(KpkRom, AgreesWithAnIndependentSolutionOnEveryPlacement) {
  struct Node {
    Position pos;
    std::vector<int> successors;  // indices of positions after each non-terminal legal move
    bool terminal_win = false;    // some move wins at once (white) ...
    bool terminal_draw = false;   // ... or some move draws at once (black takes the pawn, stalemate)
    Value value = UNKNOWN;
    Color stm;
    Square wk, wp, bk;
  };
  std::vector<Node> nodes;
  std::unordered_map<Key, int> index;
  for (int stm = 0; stm < 2; ++stm)
    for (Square wp = 8; wp < 56; ++wp) {
      if (file_of(wp) > 3) continue;
      for (Square wk = 0; wk < 64; ++wk)
        for (Square bk = 0; bk < 64; ++bk) {
          if (wk == wp || bk == wp || wk == bk) continue;
          try {
            Node n{Position::from_fen(kpk_fen(WHITE, Color(stm), wk, wp, bk)),
                   {},
                   false,
                   false,
                   UNKNOWN,
                   Color(stm),
                   wk,
                   wp,
                   bk};
            index[n.pos.key()] = int(nodes.size());
            nodes.push_back(std::move(n));
          } catch (const FenError&) {
            // kings touching, or the side not to move in check: not a position
          }
        }
    }
  ASSERT_GT(nodes.size(), 150000u);

  for (Node& n : nodes) {
    MoveList moves;
    generate_legal(n.pos, moves);
    if (moves.empty()) n.terminal_draw = true;  // stalemate: king and pawn cannot mate
    for (Move m : moves) {
      if (n.stm == WHITE && m.is_promotion()) {
        if (after_promotion(n.pos, m) == WIN) n.terminal_win = true;
        continue;
      }
      if (n.stm == BLACK && m.is_capture()) {
        n.terminal_draw = true;  // the pawn is gone
        continue;
      }
      Position next = n.pos;
      next.make_move(m);
      // Successors with the pawn on files e-h do not occur: pawns do not change file without capturing.
      const auto it = index.find(next.key());
      ASSERT_NE(it, index.end()) << n.pos.fen() << " " << move_to_uci(m);
      n.successors.push_back(it->second);
    }
  }

  for (bool changed = true; changed;) {
    changed = false;
    for (Node& n : nodes) {
      if (n.value != UNKNOWN) continue;
      Value v = UNKNOWN;
      if (n.stm == WHITE) {
        bool unknown = false;
        v = n.terminal_win ? WIN : UNKNOWN;
        for (int s : n.successors) {
          if (nodes[std::size_t(s)].value == WIN) v = WIN;
          unknown |= nodes[std::size_t(s)].value == UNKNOWN;
        }
        if (v != WIN && !unknown) v = DRAW;
      } else {
        bool unknown = false;
        v = n.terminal_draw ? DRAW : UNKNOWN;
        for (int s : n.successors) {
          if (nodes[std::size_t(s)].value == DRAW) v = DRAW;
          unknown |= nodes[std::size_t(s)].value == UNKNOWN;
        }
        if (v != DRAW && !unknown) v = WIN;
      }
      if (v != UNKNOWN) {
        n.value = v;
        changed = true;
      }
    }
  }

  const KpkRom& rom = kpk_rom();
  int mismatches = 0, wins = 0;
  for (const Node& n : nodes) {
    const bool solver_win = n.value == WIN;
    wins += solver_win;
    if (rom.white_wins(n.stm, n.wk, n.wp, n.bk) != solver_win && ++mismatches <= 10)
      ADD_FAILURE() << n.pos.fen() << ": ROM says " << (solver_win ? "draw" : "win") << ", solver "
                    << (solver_win ? "win" : "draw");
  }
  EXPECT_EQ(mismatches, 0);
  EXPECT_EQ(std::uint32_t(wins), rom.win_count());  // and no win bits on non-positions
}

TEST(KpkRom, TextbookPositions) {
  // Each checked with Stockfish 15.1 (go depth 25: "mate N" for the wins, "cp 0" for the draws).
  const KpkRom& rom = kpk_rom();
  auto wins = [&](Color stm, Square wk, Square wp, Square bk) { return rom.pawn_side_wins(WHITE, stm, wk, wp, bk); };
  // 4k3/8/4K3/4P3/8/8/8/8: the king on the sixth in front of its pawn wins whoever moves.
  EXPECT_TRUE(wins(WHITE, 44, 36, SQ_E8));
  EXPECT_TRUE(wins(BLACK, 44, 36, SQ_E8));
  // 8/4k3/8/4K3/4P3/8/8/8: opposition. White to move draws; black to move is in zugzwang and loses.
  EXPECT_FALSE(wins(WHITE, 36, 28, 52));
  EXPECT_TRUE(wins(BLACK, 36, 28, 52));
  // k7/8/8/P1K5/8/8/8/8: a rook pawn with the defender in the corner is a draw.
  EXPECT_FALSE(wins(WHITE, 34, 32, SQ_A8));
  // 4k3/8/8/P7/8/8/8/7K: the pawn is outside the king's square and runs.
  EXPECT_TRUE(wins(WHITE, SQ_H1, 32, SQ_E8));
  // The same placements with colours reversed (black pawn) and mirrored files give the same answers.
  for (Color stm : {WHITE, BLACK})
    EXPECT_EQ(rom.pawn_side_wins(BLACK, ~stm, 44 ^ 56 ^ 7, 36 ^ 56 ^ 7, SQ_E8 ^ 56 ^ 7), wins(stm, 44, 36, SQ_E8));
  EXPECT_EQ(rom.pawn_side_wins(BLACK, BLACK, 36 ^ 56, 28 ^ 56, 52 ^ 56), wins(WHITE, 36, 28, 52));
}

}  // namespace
}  // namespace db::eval
