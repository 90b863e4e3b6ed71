// The repetition detector of the smart move stack (IEEE Micro, "Smart move stack"): for each of the
// 32 stack entries, the position before that entry's move (board, castling rights, en passant),
// stored by MAKE, and the number of squares on which it differs from the current board
// (saturating at 3). An entry equal to the current position is a repetition when the side to move
// is the same (the controller picks the entries by parity); one with exactly two squares different
// and the other side to move is one piece displaced: a move may repeat it. The compare is 32
// entries wide, as in the paper; which entries count is the controller's.
// The colours of the pieces now standing on differing squares tell whose piece was displaced: the
// side to move's (it may move back: a repetition is near) or the other side's ("no progress"),
// and whether one is empty now. For the entry the controller selects (one-hot sel_i) the detector
// also gives the differing squares themselves, from which the controller reads the move that would
// put a displaced piece back (the repeating move).
//
// The board compare is registered without costing a clock (issue 22: logic depth; the search's
// decision in TEST started behind it): it is computed from the array's next board (board_fwd_i,
// every write but the late undo) against the stored boards, so in each clock the registers hold
// the current board's compare. Two exceptions, both outside what is read: the entry MAKE writes
// is compared with its old contents in the clock after (TEST, which reads only entries of the
// child's side to move below the parent, and REP_STATUS, which reads only entries below the
// host's moves); and the late undo (TEST, the slow evaluation's last clock) brings back the
// compare MAKE kept with the board (save_i/restore_i, as the array does), whose entry at the
// node's ply is the old one (read by no one: the node's repeating move is tried only before its
// first move). The castling and en-passant compares are small and stay combinational.
module rep_detect (
  input  logic         clk_i,
  input  logic         rst_ni,      // the assertions' reset only
  input  logic         we_i,        // store the current position at entry waddr_i (MAKE)
  input  logic [4:0]   waddr_i,
  input  logic [255:0] board_i,     // the current board, bit b of square s's piece at [b*64 + s]
  input  logic [255:0] board_fwd_i, // the next board but for the late undo (mg_array's board_fwd)
  input  logic         save_i,      // MAKE: keep the compare with the board
  input  logic         restore_i,   // the late undo: the board MAKE kept comes back, and its compare
  input  logic [3:0]   castling_i,
  input  logic [6:0]   ep_i,        // {valid, square}
  output logic [31:0]  equal_o,     // entry k is the current position (board, castling, en passant)
  output logic [31:0]  two_o,       // entry k's board differs from the current one on exactly two squares
  output logic [31:0]  white_o,     // a square where entry k differs holds a white piece now
  output logic [31:0]  black_o,     // ... a black piece now
  output logic [31:0]  empty_o,     // ... is empty now
  input  logic         sel_en_i,    // the controller reads sel_diff_o (GEN; the board does not change)
  input  logic [31:0]  sel_i,       // one-hot (or 0): the entry whose differing squares sel_diff_o shows
  output logic [63:0]  sel_diff_o   // the squares where the selected entry differs from the board
);
  logic [255:0] board_q [32];
  logic [3:0]   cast_q  [32];
  logic [6:0]   ep_q    [32];

  // Written before they are read (the controller only looks at entries below the stack top).
  always_ff @(posedge clk_i) begin
    if (we_i) begin
      board_q[waddr_i] <= board_i;
      cast_q[waddr_i]  <= castling_i;
      ep_q[waddr_i]    <= ep_i;
    end
  end

  // Entry k's compare with a board: {equal, exactly two squares differ, a differing square holds
  // a white piece, ... a black piece, ... is empty}. A square differs when any of its four bit
  // planes does (the board bus is four bit planes, plane b holding bit b of each square's code).
  function automatic logic [63:0] entry_diff(input logic [255:0] stored, input logic [255:0] brd);
    logic [255:0] x;
    x          = stored ^ brd;
    entry_diff = x[0 +: 64] | x[64 +: 64] | x[128 +: 64] | x[192 +: 64];
  endfunction
  function automatic logic [4:0] entry_cmp(input logic [255:0] stored, input logic [255:0] brd);
    logic [63:0] d, occ, blk;
    d   = entry_diff(stored, brd);
    occ = brd[0 +: 64] | brd[64 +: 64] | brd[128 +: 64];
    blk = occ & brd[192 +: 64];
    entry_cmp = {d == 64'd0, ctrl_pkg::count_upto3(d) == 2'd2, |(d & occ & ~blk), |(d & blk), |(d & ~occ)};
  endfunction
  localparam int Eq = 4, Two = 3, White = 2, Black = 1, Empty = 0;

  // The compare registers hold the next board's compare, and a copy MAKE keeps. Formed in the
  // clocked block, so that a simulator computes them once a clock, not each time the host bus's
  // inputs (which reach board_fwd through a host board write) change. A datapath: no reset (the
  // assertion below checks them against the current board from the second clock on).
  logic [32*5-1:0] cmp_q, cmp_s;  // entry k at [k*5 +: 5]
  always_ff @(posedge clk_i) begin
    for (int k = 0; k < 32; k++) begin
      cmp_q[k*5 +: 5] <= restore_i ? cmp_s[k*5 +: 5] : entry_cmp(board_q[k], board_fwd_i);
    end
    if (save_i) cmp_s <= cmp_q;
  end

  always_comb begin
    for (int k = 0; k < 32; k++) begin
      equal_o[k] = cmp_q[k*5 + Eq] && (cast_q[k] == castling_i) && (ep_q[k] == ep_i);
      two_o[k]   = cmp_q[k*5 + Two];
      white_o[k] = cmp_q[k*5 + White];
      black_o[k] = cmp_q[k*5 + Black];
      empty_o[k] = cmp_q[k*5 + Empty];
    end
  end

  // The selected entry's squares, read in GEN, where the next board is the current one.
  always_comb begin
    sel_diff_o = 64'd0;
    if (sel_en_i) begin
      for (int k = 0; k < 32; k++) begin
        if (sel_i[k]) sel_diff_o = sel_diff_o | entry_diff(board_q[k], board_fwd_i);
      end
    end
  end

`ifdef VERILATOR
  // Assertions (verilated with --assert in the regression's second configuration): the registers
  // hold the current board's compare, but for the entry the clock before wrote and, after a late
  // undo, the entry at the undone MAKE's ply (see the header); the selected squares are the
  // current board's.
  logic [31:0] mismatch, stale_q;
  logic [63:0] sel_now;
  logic        started_q;
  always_comb begin
    sel_now  = 64'd0;
    mismatch = 32'd0;
    for (int k = 0; k < 32; k++) begin
      mismatch[k] = cmp_q[k*5 +: 5] != entry_cmp(board_q[k], board_i);
      if (sel_i[k]) sel_now = sel_now | entry_diff(board_q[k], board_i);
    end
  end
  logic [31:0] stale_d, make_stale_q;
  // MAKE's entry is stale in the next clock; a restore brings back the compare from MAKE's clock,
  // stale at the entry that MAKE wrote (kept until the next MAKE).
  assign stale_d = we_i ? 32'd1 << waddr_i : (restore_i ? make_stale_q : 32'd0);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      stale_q      <= 32'd0;
      make_stale_q <= 32'd0;
      started_q    <= 1'b0;
    end else begin
      stale_q   <= stale_d;
      started_q <= 1'b1;
      if (we_i) make_stale_q <= 32'd1 << waddr_i;
    end
  end
  a_compare_q: assert property (@(posedge clk_i) disable iff (!rst_ni) started_q |->
      (mismatch & ~stale_q) == 32'd0);
  a_sel_diff: assert property (@(posedge clk_i) disable iff (!rst_ni) sel_en_i |-> sel_diff_o == sel_now);
`else
  logic unused_rst;  // the assertions' reset only
  assign unused_rst = rst_ni;
`endif
endmodule
