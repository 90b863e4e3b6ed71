// The move-generator array of the reference model: the combinational functions of rtl/mg_array.sv
// (attack maps, target and attacker candidates, priority keys, arbitration) on one board state.
#pragma once

#include <array>
#include <cstdint>

#include "chess/types.h"

namespace db::chip {

// Chip piece codes: [2:0] type (0 empty, 1 pawn .. 6 king), [3] colour (1 black).
constexpr std::uint8_t CHIP_EMPTY = 0, CHIP_PAWN = 1, CHIP_KNIGHT = 2, CHIP_BISHOP = 3, CHIP_ROOK = 4, CHIP_QUEEN = 5,
                       CHIP_KING = 6, CHIP_BLACK = 8;

// Keys of the squares' contents for BoardSets::hash: 64-bit mixes of {square, piece code}, 0 for
// an empty square (the empty board's hash is 0).
struct SquareKeys {
  std::uint64_t key[64][16];
  constexpr SquareKeys() : key() {
    for (int sq = 0; sq < 64; ++sq) {
      for (int p = 1; p < 16; ++p) {
        std::uint64_t x = std::uint64_t(sq << 4 | p) * 0x9E3779B97F4A7C15ULL;  // splitmix64's finaliser
        x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
        x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
        key[sq][p] = x ^ (x >> 31);
      }
    }
  }
};
inline constexpr SquareKeys SQUARE_KEYS{};

// The board's piece sets and attack maps: the part of the array's work that depends on the board
// alone. The model keeps one for its current board, changed square by square as the board is
// written (set()); the attack maps are computed on first use, or restored (restore_attacks()).
struct BoardSets {
  std::array<std::uint8_t, 64> board{};
  bool valid = false;
  Bitboard occupied = 0;
  Bitboard color[2] = {0, 0};
  Bitboard type[7] = {0, 0, 0, 0, 0, 0, 0};  // by chip type
  // The XOR of SQUARE_KEYS of the board's squares: boards with different hashes differ (the
  // repetition detector's comparisons look at the squares only when the hashes agree).
  std::uint64_t hash = 0;
  mutable bool attacks_ready = false;
  mutable Bitboard attacked[2] = {0, 0};     // all attacks of colour c
  mutable Bitboard attacked_np[2] = {0, 0};  // pawns excluded
  // Recomputes the sets if the board differs from the one they were made from.
  void update(const std::array<std::uint8_t, 64>& b);
  // One square of the board changes (a legal chip code: type 0-6, no black empty square).
  void set(int sq, std::uint8_t piece) {
    const std::uint8_t old = board[sq];
    if (old == piece) return;
    const Bitboard b = Bitboard(1) << sq;
    if (old & 7) {
      occupied &= ~b;
      color[old >> 3] &= ~b;
      type[old & 7] &= ~b;
    }
    if (piece & 7) {
      occupied |= b;
      color[piece >> 3] |= b;
      type[piece & 7] |= b;
    }
    hash ^= SQUARE_KEYS.key[sq][old & 15] ^ SQUARE_KEYS.key[sq][piece & 15];
    board[sq] = piece;
    attacks_ready = false;
  }
  void compute_attacks() const;
  // Colour c attacks square sq (the attack maps' bit, without computing the maps).
  bool square_attacked(int sq, int c) const;
};

// What GEN's find-victim and find-attacker bid for: every move, captures only (en passant and
// capture classes), or captures and the non-captures that may give check (the quiescence search's
// checks and the CHECKS mode: direct checks from the squares that see the other king, discovered
// checks by the men in front of a friendly slider aimed at it, every promotion and castling).
enum class GenFilter { kAll, kCaptures, kChecks };

class ArrayModel {
 public:
  // Inline: the model builds one every clock.
  ArrayModel(const BoardSets& sets, bool stm, std::uint8_t castling, bool ep_valid, std::uint8_t ep_sq)
      : sets_(sets), stm_(stm), castling_(castling), ep_valid_(ep_valid), ep_sq_(ep_sq) {}

  // Find-victim: the best target square with key below that of last_sq (if masked); -1 if none.
  int arbitrate_target(GenFilter filter, bool masked, int last_sq) const;
  int arbitrate_target_reference(GenFilter filter, bool masked, int last_sq) const;  // key by key
  // Find-attacker: the best attacker of target tsel with key below that of last_sq (if masked); -1
  // if none. Under the checks filter (arbitrate_checking_attacker) a quiet target's attackers are
  // those that may give check from it, and there may be none (a square that sees the king but no
  // piece that checks from it).
  int arbitrate_attacker(int tsel, bool masked, int last_sq) const;
  int arbitrate_checking_attacker(int tsel, bool masked, int last_sq) const;

  bool target_candidate(int t, bool captures_only) const;
  Bitboard target_candidates(GenFilter filter) const;  // the targets GEN bids for under filter
  Bitboard attackers_of(int tsel) const;               // own pieces that can move to tsel (unmasked)
  // The checks filter. check_lines: the squares a slider ray from the other side's king reaches
  // through empty squares (the first man on each line included), diagonal [0] and orthogonal [1].
  // discoverers: the side to move's men (king included) alone between one of its bishops, rooks
  // or queens and the other king. check_targets: the empty squares where a non-capture may give
  // check. check_attackers: the side to move's men that may give check moving to the quiet tsel.
  void check_lines(Bitboard (&lines)[2]) const;
  Bitboard discoverers() const;
  Bitboard check_targets() const;
  Bitboard check_attackers(int tsel) const;
  std::uint32_t target_key(int t) const;
  std::uint32_t attacker_key(int s) const;

  bool in_check() const;      // the side to move's king is attacked
  bool king_capture() const;  // the side to move can capture the other king (the maps' answer)
  Bitboard hung() const;      // the side to move's men attacked and not defended
  Bitboard opp_hung() const;  // the same for the other side's men
  // The side to move's men (not the king) pinned to their own king by an enemy bishop, rook or
  // queen: king, man and slider on one line with only empty squares between (absolute pins).
  Bitboard pinned() const;
  // Squares next to the side to move's king (the king ring) and, among them, its escape squares:
  // not occupied by its own men and not attacked by the other side. Like the chip's attack maps
  // the count does not look through the king, so the square behind it on a checking line counts.
  Bitboard king_ring() const;
  Bitboard king_escapes() const;
  // The class of a check by the piece that just moved to `to` (AIJ 5, search parameters 5 and 6):
  // "mating" when the king has no escape square or the queen gives a contact check; "singular"
  // with one escape square, a rook contact check, or a hung piece of the checked side; else plain.
  enum class CheckClass { kPlain, kMating, kSingular };
  CheckClass check_class(int to) const;
  // The piece on tsel attacks a non-king piece of the side to move.
  bool tsel_attacks(int tsel) const;

 private:
  int target_class(int t) const;
  int best_attacker(Bitboard candidates, bool masked, int last_sq) const;
  // The men alone between a king of `kings` and a bishop, rook or queen of slider_side on its line.
  Bitboard alone_on_lines(Bitboard kings, Bitboard men, Bitboard slider_side) const;
  bool castle_ok(bool king_side) const;
  Bitboard pawn_hits(int c) const;  // squares attacked by pawns of colour c
  int relative(int sq) const { return stm_ ? sq ^ 56 : sq; }

  const BoardSets& sets_;
  bool stm_;
  std::uint8_t castling_;
  bool ep_valid_;
  int ep_sq_;
  // The board and its piece sets, read through sets_ (not references of their own: the model
  // builds an ArrayModel every clock).
  const std::array<std::uint8_t, 64>& board() const { return sets_.board; }
  Bitboard occupied() const { return sets_.occupied; }
  const Bitboard (&colors() const)[2] { return sets_.color; }
  const Bitboard (&types() const)[7] { return sets_.type; }
  Bitboard attacked(int c) const {
    if (!sets_.attacks_ready) sets_.compute_attacks();
    return sets_.attacked[c];
  }
  Bitboard attacked_np(int c) const {
    if (!sets_.attacks_ready) sets_.compute_attacks();
    return sets_.attacked_np[c];
  }
};

}  // namespace db::chip
