// Twin of rtl/ctrl_job.sv: the JOB command's sequencer. It loads a search job staged by the host
// (BOARD_PACK, JOB_POS, JOB_HISTORY: ctrl_regs holds them) and writes the job's commands in the
// host's place, so that a chip search costs the host a few bus accesses instead of about 85:
//   J_LOAD  16 clocks: the staged board into the array, four squares a clock, JOB_POS into the
//           position registers with the first four
//   J_STEP  EVAL_INIT, MAKE of each history move (MOVE written in the same clock), SEARCH with
//           the job's depth, each in a clock where the controller is idle; the job ends when
//           SEARCH is issued
// A step's command error and ABORT end the job. Header only: a few registers and a clock.
#pragma once

#include <array>
#include <cstdint>

#include "chip/chip_regs.h"

namespace db::chip {

// The staged job (ctrl_regs' job_board_q, job_hist_q, job_pos_q), written only by the host: the
// model keeps it out of the registers it copies every clock, and writes it at the clock's end.
struct JobStage {
  std::array<std::uint32_t, 8> board{};  // BOARD_PACK: square 8w+k at [4k+3:4k] of word w
  std::array<std::uint32_t, 16> hist{};  // JOB_HISTORY: move 2w at [15:0], 2w+1 at [31:16]
  std::uint32_t pos = 0;                 // JOB_POS
  std::uint8_t square(int s) const { return std::uint8_t(board[std::size_t(s >> 3)] >> (4 * (s & 7)) & 15); }
  std::uint16_t move(int m) const { return std::uint16_t(hist[std::size_t(m >> 1)] >> (16 * (m & 1))); }
};

class CtrlJob {
 public:
  enum : std::uint8_t { J_IDLE = 0, J_LOAD = 1, J_STEP = 2 };
  struct Regs {
    std::uint8_t jst_q = J_IDLE;
    std::uint8_t idx_q = 0;    // J_LOAD: the group of four squares; J_STEP: the step (0-32)
    std::uint8_t depth_q = 0;  // the SEARCH's depth
    std::uint8_t hist_q = 0;   // history moves to make
    bool active_o() const { return jst_q != J_IDLE; }
  };
  // The clock's writes (outputs: they do not depend on this clock's command error). None in the
  // clock of an ABORT: the job stops there.
  struct Writes {
    bool load_we = false, pos_we = false, cmd_we = false, move_we = false;
    int load_sq = 0;  // the first of four squares (a multiple of 4)
    std::uint32_t cmd = 0;
    std::uint16_t move = 0;
  };

  static Writes writes(const Regs& q, bool ctrl_idle_i, bool abort_i, const JobStage& stage) {
    Writes w;
    if (abort_i) return w;
    if (q.jst_q == J_LOAD) {
      w.load_we = true;
      w.pos_we = q.idx_q == 0;
      w.load_sq = (q.idx_q & 15) * 4;
    } else if (q.jst_q == J_STEP && ctrl_idle_i) {
      const bool make = step_make(q), search = step_search(q);
      w.cmd_we = true;
      w.move_we = make;
      w.cmd = field::cmd::OP.put(search ? op::SEARCH
                                 : make ? op::MAKE
                                        : op::EVAL_INIT) |
              field::cmd::DEPTH.put(search ? q.depth_q : 0);
      w.move = stage.move((q.idx_q - 1) & 31);
    }
    return w;
  }

  // The registers after the clock.
  static void next(const Regs& q, Regs& d, bool start_i, std::uint8_t depth_i, std::uint8_t hist_len_i, bool abort_i,
                   bool ctrl_idle_i, bool cmd_err_i) {
    switch (q.jst_q) {
      case J_IDLE:
        if (start_i) {
          d.jst_q = J_LOAD;
          d.idx_q = 0;
          d.depth_q = depth_i;
          d.hist_q = hist_len_i;
        }
        break;
      case J_LOAD:
        d.idx_q = std::uint8_t((q.idx_q + 1) & 63);
        if (q.idx_q == 15) {
          d.jst_q = J_STEP;
          d.idx_q = 0;
        }
        break;
      case J_STEP:
        if (ctrl_idle_i) {
          d.idx_q = std::uint8_t((q.idx_q + 1) & 63);
          if (step_search(q)) d.jst_q = J_IDLE;
        }
        break;
      default:
        d.jst_q = J_IDLE;
        break;
    }
    // A step's error (at its issue or while it ran) and ABORT end the job.
    if (cmd_err_i || abort_i) d.jst_q = J_IDLE;
  }

 private:
  // The step's command: 0 EVAL_INIT, 1..hist MAKE of move idx-1, hist+1 SEARCH.
  static bool step_make(const Regs& q) { return q.idx_q != 0 && q.idx_q <= q.hist_q; }
  static bool step_search(const Regs& q) { return q.idx_q == q.hist_q + 1; }
};

}  // namespace db::chip
