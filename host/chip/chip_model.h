// The C++ reference model of the chip: the same controller and move-generator array as
// rtl/chip_top.sv, clock for clock. It is the chip's specification: the RTL must produce the
// same bus responses and the same debug port values on every clock. ChipModel is the model's
// chip_top: it holds the registers and memories and wires the controller (host/chip/model/, one
// twin per block of rtl/chip_ctrl.sv) to the array (array_model.h), the evaluation's blocks
// (model/eval_blocks.h) and the slow evaluation (slow_eval.h).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "chess/types.h"
#include "chip/array_model.h"
#include "chip/bus.h"
#include "chip/model/chip_ctrl.h"
#include "chip/model/ctrl_stack.h"
#include "chip/model/eval_blocks.h"
#include "chip/model/rep_detect.h"
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

  // The registers of the chip, before or after a clock: the controller's and its blocks'
  // (chip_ctrl's twin, host/chip/model/) and those of the blocks chip_top wires to it.
  struct SlowEvalRegs {  // eval_slow: running (12 clocks), its clock, the last result
    bool busy_q = false;
    std::uint8_t clock_q = 0;
    std::array<std::uint16_t, SLOW_GROUPS> group_q{};  // group values, white's view
    std::uint16_t value_q = 0;                         // SLOW_EVAL, side to move's view
    std::uint16_t draw_q = 0;                          // DRAW_SCORE
  };
  struct Registers : ChipCtrl::State {
    std::array<std::uint8_t, 64> board{};  // the move-generator array's board (mg_array)
    PhaseRegs phase;                       // eval_phase: piece counts and locations
    SlowEvalRegs se;
  };
  // The evaluation RAMs, written only by the host: kept out of Registers, which the model copies
  // on every clock.
  struct Tables {
    std::array<std::uint16_t, 512> pst_ram{};
    std::array<std::uint16_t, 1024> phase_ram{};
    SlowEvalWeights slow;  // AIJ Tables 4 and 5
  };
  const Registers& registers() const { return regs_[cur_]; }
  // The move stack (ctrl_stack).
  const CtrlStack& stack() const { return stack_; }
  // Clocks spent in each controller state since construction (for benchmarks; not a register).
  const std::array<std::uint64_t, CTRL_STATES>& state_clocks() const { return state_clocks_; }
  // The position held in the registers, as FEN (for reports).
  std::string fen() const;

 private:
  friend class ChipCtrl;  // its input ports read the chip (chip_model.cpp wires them)
  // One clock: the request (if any) and the controller step, from the registers before the clock.
  BusResponse clock_edge(bool req, bool write, std::uint32_t addr, std::uint32_t data);
  // slow_evaluate() through the process's memo (slow_memo.h; not chip state: the evaluation is a
  // function of its inputs and the weights).
  SlowEvalResult slow_eval_cached(const std::array<std::uint8_t, 64>& board, bool stm, std::uint8_t castling,
                                  std::uint16_t phase, std::uint16_t phase_swap);

  // The registers before the clock (regs_[cur_]) and after it (the other): a clock writes the
  // other copy and flips cur_ at its end, so that only one copy of the registers is made a clock.
  std::array<Registers, 2> regs_{};
  int cur_ = 0;
  CtrlStack stack_;  // written at the end of the clock, like the registers
  Tables tables_;
  JobStage job_;    // a search job's staging (ctrl_regs' registers): written only by the host, like the tables
  RepDetect rep_;   // the smart move stack's boards (ctrl_search's u_rep)
  BoardSets sets_;  // the array's piece sets and attack maps for the current board (a cache)
  // The attack maps of rep_.board_q[k], when they had been computed at the MAKE that stored it: an
  // UNMAKE that brings the board back to it restores them instead of computing them.
  struct SavedAttacks {
    bool ready = false;
    Bitboard attacked[2] = {0, 0}, attacked_np[2] = {0, 0};
  };
  std::array<SavedAttacks, 32> saved_attacks_{};
  std::uint64_t clock_ = 0;
  std::array<std::uint64_t, CTRL_STATES> state_clocks_{};
  // The finishing slow evaluation's value, white's view (eval_slow's output, valid in its last
  // clock: written then).
  std::uint16_t se_white_ = 0;
  // The weights' number in the slow evaluation's memo (slow_memo.h); 0: not looked up since they
  // last changed.
  std::uint32_t weights_id_ = 0;
};

}  // namespace db::chip
