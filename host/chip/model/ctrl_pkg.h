// Twin of rtl/ctrl_pkg.sv: the controller's shared types (the phases of a root search, the
// position registers, the move stack's entries, what the placement sum needs of a move being
// made, the search's decision) and the move-word helpers more than one controller block uses.
// The names are the RTL's.
#pragma once

#include <cstdint>

#include "chip/array_model.h"

namespace db::chip::ctrl_pkg {

// The controller's states are S_IDLE ... (chip/chip_regs.h, generated from rtl/regmap.json).

// Offset searches at the root (OFFSET_CTRL): the search, the offset searches of the
// alternatives, the extended search of the fail-high move.
enum phase_e : std::uint8_t { PH_MAIN = 0, PH_OFFSET = 1, PH_EXTEND = 2 };

// The position registers besides the board (the array holds the board).
struct pos_t {
  bool stm = false;           // side to move: 0 white, 1 black
  std::uint8_t castling = 0;  // 1 white O-O, 2 white O-O-O, 4 black O-O, 8 black O-O-O
  bool ep_valid = false;
  std::uint8_t ep_sq = 0;
  std::uint16_t half = 0;  // half-move clock
  std::uint16_t full = 1;  // full-move number
};

// A move stack entry: what unmake needs (the move word itself is stored apart: the generator
// writes it alone when it starts a ply).
struct stk_entry_t {
  std::uint8_t cap = 0;    // the captured piece (0: none)
  std::uint8_t cast = 0;   // castling rights before the move
  std::uint8_t ep = 0;     // {valid, square} before the move
  std::uint16_t half = 0;  // half-move clock before the move
  std::uint8_t flag = 0;   // {castle, en passant}
  std::uint16_t pst = 0;   // placement sum before the move
  std::uint8_t qc = 0;     // quiescence checks played before the move
};

// What the placement sum needs of the move being made (ctrl_make to ctrl_eval).
struct mk_view_t {
  std::uint8_t pc = 0;      // the moving piece
  std::uint8_t new_pc = 0;  // the piece on the target square after the move (a promotion changes it)
  std::uint8_t cap = 0;     // the captured piece (0: none)
  std::uint8_t from = 0;
  std::uint8_t to = 0;
  std::uint8_t capsq = 0;  // the captured piece's square (differs from `to` en passant)
  bool castle = false;
  bool kside = false;  // a castling move is O-O
};

// The state a search decision goes to (chip_ctrl maps these to the controller's states).
enum next_e : std::uint8_t {
  NEXT_HOLD = 0,  // stay in the state of this clock
  NEXT_GEN = 1,
  NEXT_UNMAKE = 2,
  NEXT_SEVAL = 3,
  NEXT_IDLE = 4
};

// What the search decides about this clock (ctrl_search to chip_ctrl): while `go` is set, the
// state machine takes its next state, ply, unmake, stack write, node count, done and slow
// evaluation start from here.
struct search_step_t {
  bool go = false;
  next_e next = NEXT_HOLD;  // the next state
  bool ply_up = false;      // descend: p + 1
  bool ply_down = false;    // back up: p - 1
  bool undo = false;        // unmake the move at p this clock
  bool move_we = false;     // the stack's move at move_waddr starts over (0: the ply's first move)
  std::uint8_t move_waddr = 0;
  bool count = false;     // a node was searched
  bool done = false;      // the search finished
  bool se_start = false;  // a stand pat needs the slow evaluation
};

// Castling rights lost when a piece leaves or lands on a square.
inline std::uint8_t castle_mask(int sq) {
  // a1: white O-O-O; e1: both white rights; h1: white O-O; the same on rank 8 for black.
  static constexpr std::uint8_t MASK[64] = {0x2, 0, 0, 0, 0x3, 0, 0, 0x1, 0,   0, 0, 0, 0,   0, 0, 0,  //
                                            0,   0, 0, 0, 0,   0, 0, 0,   0,   0, 0, 0, 0,   0, 0, 0,  //
                                            0,   0, 0, 0, 0,   0, 0, 0,   0,   0, 0, 0, 0,   0, 0, 0,  //
                                            0,   0, 0, 0, 0,   0, 0, 0,   0x8, 0, 0, 0, 0xC, 0, 0, 0x4};
  return MASK[sq & 63];
}

// A move word's promotion index to the piece type: queen, rook, bishop, knight.
inline std::uint8_t promo_type(int idx) {
  static constexpr std::uint8_t TYPES[4] = {CHIP_QUEEN, CHIP_ROOK, CHIP_BISHOP, CHIP_KNIGHT};
  return TYPES[idx & 3];
}

// A pawn moving to its last rank promotes.
inline bool is_promotion(int ptype, int to_rank, bool side) { return ptype == CHIP_PAWN && to_rank == (side ? 0 : 7); }

// Placement table index of a piece on a square: {type, square relative to its owner}.
inline int pst_index(std::uint8_t pc, int sq) { return (pc & 7) << 6 | (sq ^ ((pc & CHIP_BLACK) ? 56 : 0)); }

// Scores are (score, tie-breaker) pairs compared lexicographically (AIJ 4.3). Even plies test
// "value >= (V, Vtb)", odd plies "value > (-V, -Vtb)".
inline bool succeeds(int s, int tb, int v, int vtb, bool odd) {
  return odd ? (s > -v || (s == -v && tb > -vtb)) : (s > v || (s == v && tb >= vtb));
}

// The fields of a move word: [5:0] from, [11:6] to, [13:12] promotion index, [14] promotion,
// [15] valid (the RTL's bit slices).
inline int mv_from(std::uint16_t m) { return m & 63; }
inline int mv_to(std::uint16_t m) { return (m >> 6) & 63; }
inline int mv_promo_idx(std::uint16_t m) { return (m >> 12) & 3; }
inline bool mv_promo(std::uint16_t m) { return (m >> 14) & 1; }
inline bool mv_valid(std::uint16_t m) { return (m >> 15) & 1; }

}  // namespace db::chip::ctrl_pkg
