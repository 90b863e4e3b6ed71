// The C++ reference model of the chip: the same controller and move-generator array as
// rtl/chip_top.sv, clock for clock. It is the chip's specification: the RTL must produce the
// same bus responses and the same debug port values on every clock.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "chess/types.h"
#include "chip/array_model.h"
#include "chip/bus.h"
#include "chip/slow_eval.h"

namespace db::chip {

class ChipModel final : public ChipBackend {
 public:
  ChipModel();
  BusResponse access(bool write, std::uint32_t addr, std::uint32_t data) override;
  void tick(std::uint64_t n) override;
  DebugPort debug() const override;
  std::uint64_t clock() const override { return clock_; }
  std::string name() const override { return "model"; }

  struct StackEntry {
    std::uint16_t move = 0;
    std::uint8_t captured = 0;
    std::uint8_t castling = 0;
    std::uint8_t ep = 0;  // [6] valid, [5:0] square
    std::uint16_t halfmove = 0;
    std::uint8_t flags = 0;  // [1] castle, [0] en passant
    std::uint16_t pst = 0;   // placement sum before the move
    std::uint8_t qc = 0;     // quiescence checks played before the move
  };

  struct Registers {
    std::uint8_t state = 0;
    bool stm = false;
    std::uint8_t castling = 0;
    bool ep_valid = false;
    std::uint8_t ep_sq = 0;
    std::uint16_t half = 0, full = 1;
    std::uint32_t cmd = 0;
    std::uint16_t move = 0, mv = 0;
    std::uint8_t tgt = 0, ply = 0, base = 0, host_ply = 0;
    std::uint64_t count = 0, cycles = 0;
    std::uint32_t generated = 0;
    bool done = false, aborted = false, move_valid = false;
    std::uint8_t err_code = 0;
    std::uint32_t err_addr = 0;
    std::array<std::uint8_t, 64> board{};
    // (The move stack is ChipModel::stack(): kept out of Registers, which the model copies on
    // every clock.)
    // Fast evaluation: piece placement.
    std::uint16_t pst = 0, castle_k = 0, castle_q = 0;
    std::uint8_t eval_ctrl = 0, scan = 0;
    // Game phase control: piece counts [colour * 5 + type - 1] (4 bits, pawns to queens),
    // XORed piece locations [colour * 6 + type - 1] (6 bits, pawns to kings).
    std::array<std::uint8_t, 10> counts{};
    std::array<std::uint8_t, 12> locs{};
    std::uint16_t runner_bonus = 0, sep_bonus = 0;
    // Slow evaluation: running (11 clocks), its clock, the last result (group values white's
    // view, SLOW_EVAL side to move's view).
    bool se_busy = false;
    std::uint8_t se_clock = 0;
    std::array<std::uint16_t, SLOW_GROUPS> se_group{};
    std::uint16_t se_value = 0, draw_score = 0;
    // Lazy evaluation: TEST_VALUE, the low-pass filter (SLOW_EST), the LAZY result, and a
    // LAZY_EVAL waiting for its slow evaluation.
    std::uint16_t test_value = 0, slow_est = 0;
    std::uint8_t lazy = 0;
    bool lazy_pending = false;
    // Hardware search (SEARCH): parameters, results, the plies where a legal move was searched,
    // the unwinding flags (the child node failed; stopping at the node limit), checks played in
    // the quiescence search ([1:0] white, [3:2] black), the quiescence check filter of the node
    // being expanded (set in GEN), and the last leaf value (debug port).
    std::uint32_t search_ctrl = 0, node_limit = 0, legal = 0;
    // Quiescence extensions: plies searched full width by an extension, and plies whose side to
    // move had exactly one hung piece.
    std::uint32_t extended = 0, hung1 = 0;
    std::uint16_t test_tie = 0, best_move = 0, leaf = 0;
    std::uint8_t result = 0, qc = 0;
    bool child_fail = false, stop = false, qfilter = false;
    // Offset searches at the root (OFFSET_CTRL): the phase (0 the search, 1 the offset searches
    // of the alternatives, 2 the extended search of the fail-high move), the alternatives that
    // reached the offset test value, and the fail-high move of the search.
    std::uint32_t offset_ctrl = 0;
    std::uint8_t phase = 0, alternatives = 0;
    std::uint16_t main_best = 0;
    // Repeating-move bound (SEARCH_CTRL[20]): the move in MAKE/TEST is a node's repeating move;
    // the plies whose repeating move was tried.
    bool rtry = false;
    std::uint32_t rtried = 0;
  };
  // The evaluation RAMs, written only by the host: kept out of Registers, which the model copies
  // on every clock.
  struct Tables {
    std::array<std::uint16_t, 512> pst_ram{};
    std::array<std::uint16_t, 1024> phase_ram{};
    SlowEvalWeights slow;  // AIJ Tables 4 and 5
  };
  // The game phase RAM word for the current material (PHASE register).
  static std::uint16_t phase_word(const Registers& r, const Tables& t);
  // The word at the index with the two sides' signatures swapped (black's king-safety relevance).
  static std::uint16_t phase_word_swapped(const Registers& r, const Tables& t);
  const Registers& registers() const { return regs_[cur_]; }
  // The move stack (the stack register file of rtl/chip_ctrl.sv).
  const std::array<StackEntry, 32>& stack() const { return stack_; }
  // Clocks spent in each controller state since construction (for benchmarks; not a register).
  const std::array<std::uint64_t, CTRL_STATES>& state_clocks() const { return state_clocks_; }
  // The repetition detector's view of the position after `moves` stack entries: {[0] repetition,
  // [1] one piece displaced} (REP_STATUS).
  std::uint8_t rep_status(const Registers& r, int moves) const;
  // REP_STATUS[0] alone, for r = registers(): the same side's stored boards are compared with the
  // current one only where their hashes agree (the search's TEST asks at every legal move).
  bool repetition(const Registers& r, int moves) const;
  // "No progress" (AIJ 4.3) for the position after `moves` entries in a search from r.base: one
  // piece of the side that just moved displaced from a search-path position three or more plies up.
  bool no_progress(const Registers& r, int moves) const;
  // The repeating move of the node at stack index r.ply (SEARCH_CTRL[20]): the lowest stack entry
  // below it, with the other side to move, from which exactly one piece of the side to move is
  // displaced (two squares differ: that piece now stands on one, the other is empty), and the
  // move putting the piece back; 0 if there is none.
  std::uint16_t repeating_move(const Registers& r) const;
  // The position held in the registers, as FEN (for reports).
  std::string fen() const;

 private:
  // One clock: the request (if any) and the controller step, from the registers before the clock.
  BusResponse clock_edge(bool req, bool write, std::uint32_t addr, std::uint32_t data);
  // slow_evaluate() through a memo (not chip state: the evaluation is a function of its inputs,
  // and every write to the evaluation registers or tables empties the memo).
  SlowEvalResult slow_eval_cached(const std::array<std::uint8_t, 64>& board, bool stm, std::uint8_t castling,
                                  std::uint16_t phase, std::uint16_t phase_swap);

  // The memo's index for these inputs, and the entry's key (the packed board and the rest).
  static std::size_t slow_memo_key(const std::array<std::uint8_t, 64>& board, bool stm, std::uint8_t castling,
                                   std::uint16_t phase, std::uint16_t phase_swap, std::uint64_t key[4],
                                   std::uint64_t& rest);

  // A memo entry, trivial so that the memo can be zeroed pages from calloc (generation 0: empty),
  // touched only as it fills: a short search pays for little of it.
  struct SlowMemoEntry {
    std::uint64_t board[4];    // the 64 4-bit piece codes
    std::uint64_t rest;        // {phase_swap, phase, castling, stm}
    std::uint32_t generation;  // valid while equal to slow_memo_generation_
    std::uint16_t white, draw_score;
    std::array<std::uint16_t, SLOW_GROUPS> group;
  };
  struct FreeMemo {
    void operator()(SlowMemoEntry* p) const;
  };
  static constexpr int SLOW_MEMO_BITS = 17;

  // The registers before the clock (regs_[cur_]) and after it (the other): a clock writes the
  // other copy and flips cur_ at its end, so that only one copy of the registers is made a clock.
  std::array<Registers, 2> regs_{};
  int cur_ = 0;
  std::array<StackEntry, 32> stack_{};  // written at the end of the clock, like the registers
  Tables tables_;
  // The smart move stack's boards: the position before the move at each stack entry, written by
  // MAKE (the repetition detector compares the current board with them).
  std::array<std::array<std::uint8_t, 64>, 32> boards_{};
  std::array<std::uint64_t, 32> board_hashes_{};  // BoardSets::hash of each of boards_
  BoardSets sets_;  // the array's piece sets and attack maps for the current board (a cache)
  // The attack maps of boards_[k], when they had been computed at the MAKE that stored it: an
  // UNMAKE that brings the board back to boards_[k] restores them instead of computing them.
  struct SavedAttacks {
    bool ready = false;
    Bitboard attacked[2] = {0, 0}, attacked_np[2] = {0, 0};
  };
  std::array<SavedAttacks, 32> saved_attacks_{};
  std::uint64_t clock_ = 0;
  std::array<std::uint64_t, CTRL_STATES> state_clocks_{};
  std::unique_ptr<SlowMemoEntry[], FreeMemo> slow_memo_;  // allocated on the first slow evaluation
  std::uint32_t slow_memo_generation_ = 1;
};

}  // namespace db::chip
