// A host command's start: the clock a CMD write lands in. Its arguments are checked against the
// host's ply, the stack and the position (a bad mode, depth or offset depth, a full or empty
// stack), and it gives what that clock sets: the first state, an error, done at once (CLEAR,
// an error, a GEN with nothing to evade, a LAZY_EVAL decided at once), the stack's write of the
// command's move slot, and the clears. chip_ctrl applies it where the write lands, after the
// state machine's own next state. Model twin: the command start in host/chip/model/chip_ctrl.*.
module ctrl_cmd (
  input  logic [3:0]       op_i,
  input  logic [2:0]       mode_i,
  input  logic [4:0]       depth_i,
  input  logic [5:0]       host_ply_i,      // moves made by the host: the command's root ply
  input  logic [15:0]      move_i,          // MOVE (GEN: bit 15 set, a host move to check first)
  input  logic             in_check_i,
  input  logic             off_on_i,        // SEARCH: an offset search is asked for
  input  logic [4:0]       off_depth_i,
  input  logic             lazy_done_i,     // LAZY_EVAL decided in the write's clock
  input  logic             lazy_slow_i,     // ... or needs the slow evaluation
  output ctrl_pkg::cmd_start_t start_o,
  output chip_pkg::ctrl_state_e state_o   // the next state when start_o.go
);
  localparam int StackDepth = chip_pkg::STACK_DEPTH;

  always_comb begin
    logic [7:0] err;  // the argument check's error, ERR_NONE if the command may run
    err         = chip_pkg::ERR_NONE;
    start_o     = '0;
    start_o.ply = host_ply_i;
    state_o     = chip_pkg::S_IDLE;
    unique case (op_i)
      chip_pkg::OP_CLEAR: begin
        start_o.clear = 1'b1;
        start_o.done  = 1'b1;
      end
      chip_pkg::OP_GEN: begin
        start_o.move_invalid = 1'b1;
        if (mode_i > chip_pkg::MODE_ATTACKS) begin
          err = chip_pkg::ERR_BAD_ARGUMENT;
        end else if (host_ply_i >= 6'(StackDepth)) begin
          err = chip_pkg::ERR_STACK;
        end else if (mode_i == chip_pkg::MODE_EVASIONS && !in_check_i) begin
          start_o.done = 1'b1;  // nothing to evade
        end else begin
          start_o.stk_we    = 1'b1;
          start_o.stk_wdata = move_i;
          start_o.go        = 1'b1;
          state_o           = move_i[15] ? chip_pkg::S_CHECK : chip_pkg::S_GEN;
        end
      end
      chip_pkg::OP_MAKE: begin
        if (host_ply_i >= 6'(StackDepth)) begin
          err = chip_pkg::ERR_STACK;
        end else begin
          start_o.go = 1'b1;
          state_o    = chip_pkg::S_CHECK;
        end
      end
      chip_pkg::OP_UNMAKE: begin
        if (host_ply_i == 6'd0) begin
          err = chip_pkg::ERR_STACK;
        end else begin
          start_o.ply = host_ply_i - 6'd1;
          start_o.go  = 1'b1;
          state_o     = chip_pkg::S_UNMAKE;
        end
      end
      chip_pkg::OP_PERFT, chip_pkg::OP_SEARCH: begin
        start_o.count_clear = 1'b1;
        // Offset searches need an offset depth of 1..depth and room for the extension.
        if (depth_i == 5'd0 || 7'(host_ply_i) + 7'(depth_i) > 7'(StackDepth) ||
            (op_i == chip_pkg::OP_SEARCH && off_on_i &&
             (off_depth_i == 5'd0 || off_depth_i > depth_i || 7'(host_ply_i) + 7'(depth_i) + 7'd1 > 7'(StackDepth)))) begin
          err = chip_pkg::ERR_BAD_ARGUMENT;
        end else begin
          start_o.stk_we = 1'b1;
          start_o.go     = 1'b1;
          state_o        = chip_pkg::S_GEN;
        end
      end
      chip_pkg::OP_EVAL_INIT: begin
        if (host_ply_i != 6'd0) begin
          err = chip_pkg::ERR_STACK;
        end else begin
          start_o.ph_clear = 1'b1;
          start_o.go       = 1'b1;
          state_o          = chip_pkg::S_EINIT;
        end
      end
      chip_pkg::OP_SLOW_EVAL: start_o.se_start = 1'b1;
      // ctrl_job runs a job; a search needs a depth (the other checks are its steps').
      chip_pkg::OP_JOB: if (depth_i == 5'd0) err = chip_pkg::ERR_BAD_ARGUMENT;
      chip_pkg::OP_LAZY_EVAL: begin
        start_o.done     = lazy_done_i;
        start_o.se_start = lazy_slow_i;
      end
      default: err = chip_pkg::ERR_BAD_COMMAND;
    endcase
    // A bad command ends in its write's clock with the error.
    if (err != chip_pkg::ERR_NONE) begin
      start_o.err      = 1'b1;
      start_o.err_code = err;
      start_o.done     = 1'b1;
    end
  end
endmodule
