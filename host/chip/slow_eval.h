// The chip's slow evaluation, reference side (docs/evaluation.md, "Slow evaluation"): the
// features that rtl/eval_slow.sv finds while its 8x1 array scans the board one file a clock, the
// table lookups they address, and the sums, in the chip's own fixed-point arithmetic. The RTL
// must give the same group values bit for bit; ChipModel runs this on the SLOW_EVAL command.
#pragma once

#include <array>
#include <cstdint>

#include "chip/chip_regs.h"

namespace db::chip {

// Every evaluation register (AIJ Table 4) and table entry (Table 5) the host can write.
struct SlowEvalWeights {
  std::array<std::uint32_t, EVAL_REGS_COUNT> regs{};
  std::array<std::array<std::uint32_t, EVAL_TABLES_WINDOW>, EVAL_TABLES_COUNT> tables{};
};

// Group enables: bits of EVAL_CONTROL word 0, and the order of the group registers SE_*.
enum SlowGroup : int {
  SG_MOBILITY = 0,
  SG_ROOK_FILES = 1,
  SG_KING_SAFETY = 2,
  SG_MULTI_PAWNS = 3,
  SG_PASSED = 4,
  SG_REGISTERS = 5,
  SG_PAWN_STRUCTURE = 6,
  SG_PAWN_SHELTER = 7,
  SG_PAWN_REGISTERS = 8,
  SG_PINS = 9,
  SG_TACTICS = 10,
  SG_BISHOPS = 11,
  SG_PIECES = 12,
  SG_SIGNATURE = 13,
  SLOW_GROUPS = 14
};
const char* slow_group_name(int group);

// The attack maps of one colour, by attacker class (bitboards, a1 = bit 0).
struct AttackMaps {
  std::uint64_t pawn = 0, minor = 0, rook = 0, queen = 0, king = 0;
  std::uint64_t any() const { return pawn | minor | rook | queen | king; }
};

// The bitboards the scan reads a file at a time, seen from one side: byte f is file f, bit r
// relative rank r (slowbits::columns). "own" is that side's, "enemy" the other's.
struct SideColumns {
  std::uint64_t own_pawns = 0, enemy_pawns = 0, own_rooks = 0, own_minors = 0, own_bishops = 0, enemy_minors = 0;
  std::uint64_t own_pawn_att = 0, enemy_pawn_att = 0, enemy_minor_att = 0, enemy_any = 0;
  std::uint64_t occupied = 0, own_passed = 0, light = 0;
};

// Board bitboards and attack maps of both colours: what the array computes combinationally
// from the board before it scans.
struct SlowBoard {
  std::array<std::uint8_t, 64> squares{};                // the board as given (chip piece codes)
  std::array<std::array<std::uint64_t, 7>, 2> pieces{};  // [colour][type 1..6]
  std::uint64_t occupied = 0;
  std::array<AttackMaps, 2> attacks{};
  std::array<std::uint64_t, 2> passed{};  // each colour's passed pawns (slow_passed_pawns)
  std::array<SideColumns, 2> cols{};      // [side]
  explicit SlowBoard(const std::array<std::uint8_t, 64>& board);
  // The type (1-6) of colour c's man on sq, 0 if none.
  int type_on(int c, int sq) const {
    const std::uint8_t pc = squares[std::size_t(sq)];
    const int type = pc & 7;
    return type != 0 && type != 7 && (pc >> 3 & 1) == c ? type : 0;
  }
};

// Control level of a square, 2..14: 8 + white's control - black's, where a colour's control is
// 2 for a pawn attack plus 1 for each of minor, rook, queen and king attacking.
int control_level(const SlowBoard& b, int sq);
// Every square's control level at once (index: square).
std::array<std::uint8_t, 64> control_levels(const SlowBoard& b);

// The table indices one file yields for one side (colour 0 white, 1 black); -1 = no lookup.
struct FileIndices {
  int rook_files = 0;       // always looked up
  int rook_count = 0;       // the index's rook_count field (0-2)
  bool rook_lever = false;  // every own pawn of the file is a lever: half-open, at half the value
  int multi_pawns = -1;     // two or more own pawns on the file
  int passed = -1;          // the most advanced own passed pawn on the file
};
FileIndices file_indices(const SlowBoard& b, int colour, int file);

// The indices looked up once per evaluation (rtl/es_material.sv).
struct MaterialIndices {
  int signature[2] = {0, 0};  // {queens>=1, min(rooks,2), min(bishops,2), min(knights,2)}
  int joint = 0;              // {white Q, R, B, N present, black Q, R, B, N present}
  int development = 0;        // {white undeveloped, black undeveloped, white king, black king}
};
MaterialIndices material_indices(const SlowBoard& b, std::uint8_t castling);

// Whether file f counts as next to a king on file kf for king safety (AIJ 7.2: the rook file is
// adjacent to the bishop file).
bool file_near_king(int f, int kf);

struct SlowEvalResult {
  std::array<std::uint16_t, SLOW_GROUPS> group{};  // white's view, 16-bit
  std::uint16_t white = 0;                         // sum of the enabled groups, white's view
  std::uint16_t draw_score = 0;                    // CONTEMPT for the material, white's view
};

// phase: the game phase RAM word for the material; phase_swap: the word at the index with the
// two sides' signatures swapped (its king-safety relevance is that of black's king).
// castling: the rights (1 white O-O, 2 white O-O-O, 4 black O-O, 8 black O-O-O).
SlowEvalResult slow_evaluate(const std::array<std::uint8_t, 64>& board, bool black_to_move, std::uint8_t castling,
                             std::uint16_t phase, std::uint16_t phase_swap, const SlowEvalWeights& w);

}  // namespace db::chip
