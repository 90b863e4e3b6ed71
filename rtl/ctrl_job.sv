// The search job sequencer: the JOB command in place of the host. A host used to load a chip
// search with about 85 bus accesses (64 board writes, the state, EVAL_INIT, MAKE after MAKE, the
// parameters, SEARCH); with JOB it writes the job's staging registers (BOARD_PACK, JOB_POS,
// JOB_HISTORY, held by ctrl_regs) and one command, and this block does the rest inside the chip:
//   J_LOAD  16 clocks: the staged board into the array, four squares a clock (the array's four
//           write ports, as a castling MAKE uses them), JOB_POS into the position registers with
//           the first four squares
//   J_STEP  the commands the host used to write, each when the controller is idle again:
//           EVAL_INIT, MAKE of each history move (MOVE written in the same clock), SEARCH with
//           the job's depth; the job ends when SEARCH is issued (the search then runs as if the
//           host had written it)
// A step refused or failed (the controller's command error: a bad history move, a SEARCH
// argument) ends the job, the error in ERROR as for a host's command; ABORT ends it too. While the
// job runs the chip is busy (host writes refused). Model twin: host/chip/model/ctrl_job.h.
module ctrl_job (
  input  logic         clk_i,
  input  logic         rst_ni,
  // The host's CMD write of an accepted JOB command, its fields; ABORT while busy.
  input  logic         start_i,
  input  logic [4:0]   depth_i,
  input  logic [4:0]   hist_len_i,
  input  logic         abort_i,
  // The controller: idle (no command, no slow evaluation), a command's error this clock.
  input  logic         ctrl_idle_i,
  input  logic         cmd_err_i,
  // The staged board (square s at [s*4 +: 4]) and history (move m at [m*16 +: 16]).
  input  logic [255:0] board_i,
  input  logic [511:0] hist_moves_i,
  output logic         active_o,
  // J_LOAD: four squares from load_sq_o on (a multiple of 4), and JOB_POS with the first four.
  output logic         load_we_o,
  output logic [5:0]   load_sq_o,
  output logic [15:0]  load_pc_o,
  output logic         pos_we_o,
  // J_STEP: a command word (and MOVE for a MAKE) written in the host's place.
  output logic         cmd_we_o,
  output logic [31:0]  cmd_o,
  output logic         move_we_o,
  output logic [15:0]  move_o
);
  typedef enum logic [1:0] {
    J_IDLE = 2'd0,
    J_LOAD = 2'd1,
    J_STEP = 2'd2
  } job_state_e;

  job_state_e jst_q, jst_d;
  logic [5:0] idx_q, idx_d;      // J_LOAD: the group of four squares; J_STEP: the step (0-32)
  logic [4:0] depth_q, depth_d;  // the SEARCH's depth
  logic [4:0] hist_q, hist_d;    // history moves to make

  // The step's command: 0 EVAL_INIT, 1..hist MAKE of move idx-1, hist+1 SEARCH.
  chip_pkg::cmd_t step_cmd;
  logic           step_make, step_search;
  assign step_make   = idx_q != 6'd0 && idx_q <= 6'(hist_q);
  assign step_search = idx_q == 6'(hist_q) + 6'd1;
  always_comb begin
    step_cmd       = '0;
    step_cmd.op    = step_search ? chip_pkg::OP_SEARCH : step_make ? chip_pkg::OP_MAKE : chip_pkg::OP_EVAL_INIT;
    step_cmd.depth = step_search ? depth_q : 5'd0;
  end

  // The step's writes (they never depend on this clock's command error: no loop through the
  // controller). None in the clock of an ABORT: the job stops there.
  always_comb begin
    load_we_o = 1'b0;
    pos_we_o  = 1'b0;
    cmd_we_o  = 1'b0;
    move_we_o = 1'b0;
    unique case (abort_i ? J_IDLE : jst_q)
      J_LOAD: begin
        load_we_o = 1'b1;
        pos_we_o  = idx_q == 6'd0;
      end
      J_STEP: begin
        cmd_we_o  = ctrl_idle_i;
        move_we_o = ctrl_idle_i && step_make;
      end
      default: ;
    endcase
  end

  always_comb begin
    jst_d   = jst_q;
    idx_d   = idx_q;
    depth_d = depth_q;
    hist_d  = hist_q;
    unique case (jst_q)
      J_IDLE: begin
        if (start_i) begin
          jst_d   = J_LOAD;
          idx_d   = 6'd0;
          depth_d = depth_i;
          hist_d  = hist_len_i;
        end
      end
      J_LOAD: begin
        idx_d = idx_q + 6'd1;
        if (idx_q == 6'd15) begin
          jst_d = J_STEP;
          idx_d = 6'd0;
        end
      end
      J_STEP: begin
        if (ctrl_idle_i) begin
          idx_d = idx_q + 6'd1;
          if (step_search) jst_d = J_IDLE;
        end
      end
      default: jst_d = J_IDLE;
    endcase
    // A step's error (at its issue or while it ran) and ABORT end the job.
    if (cmd_err_i || abort_i) jst_d = J_IDLE;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      jst_q   <= J_IDLE;
      idx_q   <= 6'd0;
      depth_q <= 5'd0;
      hist_q  <= 5'd0;
    end else begin
      jst_q   <= jst_d;
      idx_q   <= idx_d;
      depth_q <= depth_d;
      hist_q  <= hist_d;
    end
  end

  logic [4:0] move_idx;  // J_STEP's MAKE: step idx makes move idx-1 (idx 1-31)
  assign move_idx  = 5'(idx_q - 6'd1);
  assign active_o  = jst_q != J_IDLE;
  assign load_sq_o = {idx_q[3:0], 2'b00};
  assign load_pc_o = board_i[{idx_q[3:0], 4'b0000} +: 16];
  assign cmd_o     = 32'(step_cmd);
  assign move_o    = hist_moves_i[{move_idx, 4'b0000} +: 16];
endmodule
