// Twin of rtl/rep_detect.sv (instantiated in ctrl_search): the repetition detector of the smart
// move stack. For each of the 32 stack entries, the position before that entry's move (board,
// castling rights, en passant), stored by MAKE. The RTL compares every entry with the current
// board every clock and the controller picks the entries that count; the model answers the
// controller's questions where they are asked (the same answers), and keeps each stored board's
// hash so that the repetition test looks at the squares only where the hashes agree.
#pragma once

#include <array>
#include <cstdint>

namespace db::chip {

class RepDetect {
 public:
  // The clock edge: MAKE stores the current position at entry waddr_i (we_i).
  void clock(bool we_i, int waddr_i, const std::array<std::uint8_t, 64>& board_i, std::uint64_t board_hash,
             std::uint8_t castling_i, std::uint8_t ep_i) {
    if (!we_i) return;
    board_q[waddr_i & 31] = board_i;
    hash_q[waddr_i & 31] = board_hash;
    cast_q[waddr_i & 31] = castling_i;
    ep_q[waddr_i & 31] = ep_i;
  }

  // REP_STATUS for the position after `moves` entries: {[1] one piece displaced from an entry with
  // the other side to move (rep_near), [0] a repetition with the same side to move (rep_hit)}.
  std::uint8_t rep_status(const std::array<std::uint8_t, 64>& board_i, std::uint8_t castling_i, std::uint8_t ep_i,
                          int moves) const;
  // rep_hit alone (the search's TEST asks at every legal move), for the current board with hash
  // board_hash.
  bool repetition(const std::array<std::uint8_t, 64>& board_i, std::uint64_t board_hash, std::uint8_t castling_i,
                  std::uint8_t ep_i, int moves) const {
    for (int k = moves & 1; k < moves && k < 32; k += 2) {  // the entries with the same side to move
      if (hash_q[k] == board_hash && board_q[k] == board_i && cast_q[k] == castling_i && ep_q[k] == ep_i) return true;
    }
    return false;
  }
  // "No progress" (AIJ 4.3) for the position after `moves` entries in a search from base: one piece
  // of the side that just moved displaced from a search-path position three or more plies up.
  bool no_progress(const std::array<std::uint8_t, 64>& board_i, bool stm, int base, int moves) const;
  // The repeating move of the node at stack index ply (SEARCH_CTRL.REP_BOUND): the lowest entry
  // below it, with the other side to move, from which exactly one piece of the side to move is
  // displaced (two squares differ: that piece now stands on one, the other is empty), and the move
  // putting the piece back; 0 if there is none (rm_cand == 0).
  std::uint16_t repeating_move(const std::array<std::uint8_t, 64>& board_i, bool stm, int ply) const;

  std::array<std::array<std::uint8_t, 64>, 32> board_q{};
  std::array<std::uint64_t, 32> hash_q{};  // BoardSets::hash of each of board_q (the model's)
  std::array<std::uint8_t, 32> cast_q{};
  std::array<std::uint8_t, 32> ep_q{};
};

}  // namespace db::chip
