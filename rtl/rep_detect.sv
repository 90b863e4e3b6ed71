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

  // Square s of entry k differs from the next board: four XORs a bit plane (the board bus is four
  // bit planes, plane b holding bit b of each square's piece code).
  logic [63:0] diff [32];
  always_comb begin
    for (int k = 0; k < 32; k++) begin
      logic [255:0] x;
      x       = board_q[k] ^ board_fwd_i;
      diff[k] = x[0 +: 64] | x[64 +: 64] | x[128 +: 64] | x[192 +: 64];
    end
  end

  // What stands on each square of the next board: empty, a white piece, a black piece.
  logic [63:0] empty_fwd, black_fwd, white_fwd;
  assign empty_fwd = ~(board_fwd_i[0 +: 64] | board_fwd_i[64 +: 64] | board_fwd_i[128 +: 64]);
  assign black_fwd = ~empty_fwd & board_fwd_i[192 +: 64];
  assign white_fwd = ~empty_fwd & ~board_fwd_i[192 +: 64];

  // The next board's compare: the boards equal, two squares different (ctrl_pkg::count_upto3,
  // carry-free), the colours on the differing squares.
  logic [31:0] eqb_c, two_c, white_c, black_c, empty_c;
  always_comb begin
    for (int k = 0; k < 32; k++) begin
      eqb_c[k]   = diff[k] == 64'd0;
      two_c[k]   = ctrl_pkg::count_upto3(diff[k]) == 2'd2;
      white_c[k] = |(diff[k] & white_fwd);
      black_c[k] = |(diff[k] & black_fwd);
      empty_c[k] = |(diff[k] & empty_fwd);
    end
  end

  // The compare registers and the copy MAKE keeps. A datapath: no reset (the assertion below
  // checks them against the current board from the second clock on).
  logic [31:0] eqb_q, two_q, white_q, black_q, empty_q;
  logic [31:0] eqb_s, two_s, white_s, black_s, empty_s;
  always_ff @(posedge clk_i) begin
    if (restore_i) begin
      eqb_q   <= eqb_s;
      two_q   <= two_s;
      white_q <= white_s;
      black_q <= black_s;
      empty_q <= empty_s;
    end else begin
      eqb_q   <= eqb_c;
      two_q   <= two_c;
      white_q <= white_c;
      black_q <= black_c;
      empty_q <= empty_c;
    end
    if (save_i) begin
      eqb_s   <= eqb_q;
      two_s   <= two_q;
      white_s <= white_q;
      black_s <= black_q;
      empty_s <= empty_q;
    end
  end

  always_comb begin
    for (int k = 0; k < 32; k++) begin
      equal_o[k] = eqb_q[k] && (cast_q[k] == castling_i) && (ep_q[k] == ep_i);
    end
  end
  assign two_o   = two_q;
  assign white_o = white_q;
  assign black_o = black_q;
  assign empty_o = empty_q;

  // The selected entry's squares, read in GEN, where the next board is the current one.
  always_comb begin
    sel_diff_o = 64'd0;
    if (sel_en_i) begin
      for (int k = 0; k < 32; k++) begin
        if (sel_i[k]) sel_diff_o = sel_diff_o | diff[k];
      end
    end
  end

`ifdef VERILATOR
  // Assertions (verilated with --assert in the regression's second configuration): the registers
  // hold the current board's compare, but for the entry the clock before wrote and, after a late
  // undo, the entry at the undone MAKE's ply (see the header); the selected squares are the
  // current board's.
  logic [31:0] eqb_now, two_now, white_now, black_now, empty_now, stale_q;
  logic [63:0] sel_now;
  logic        started_q;
  always_comb begin
    logic [63:0] occ, blk;
    occ = board_i[0 +: 64] | board_i[64 +: 64] | board_i[128 +: 64];
    blk = occ & board_i[192 +: 64];
    sel_now = 64'd0;
    for (int k = 0; k < 32; k++) begin
      logic [255:0] x;
      logic [63:0]  d;
      x            = board_q[k] ^ board_i;
      d            = x[0 +: 64] | x[64 +: 64] | x[128 +: 64] | x[192 +: 64];
      eqb_now[k]   = d == 64'd0;
      two_now[k]   = ctrl_pkg::count_upto3(d) == 2'd2;
      white_now[k] = |(d & occ & ~blk);
      black_now[k] = |(d & blk);
      empty_now[k] = |(d & ~occ);
      if (sel_i[k]) sel_now = sel_now | d;
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
      (((eqb_q ^ eqb_now) | (two_q ^ two_now) | (white_q ^ white_now) | (black_q ^ black_now) |
        (empty_q ^ empty_now)) & ~stale_q) == 32'd0);
  a_sel_diff: assert property (@(posedge clk_i) disable iff (!rst_ni) sel_en_i |-> sel_diff_o == sel_now);
`else
  logic unused_rst;  // the assertions' reset only
  assign unused_rst = rst_ni;
`endif
endmodule
