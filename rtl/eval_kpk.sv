// Endgame logic: recognises king and pawn against king from the piece-count register, finds the
// pieces in the XORed piece-location registers (each is the only one of its type), normalises
// the placement (the pawn side plays white, the pawn on files a-d) and looks it up in the KPK ROM.
// Address: {side to move, weak king, strong king, pawn file[1:0], pawn rank - 1 [2:0]}.
//
// The ROM reads synchronously (block RAM on an FPGA), so the address is formed from the
// registers' next values (the side to move, counts and locations of the next clock): win_o is
// then the bit of the current position, as an asynchronous read of the current address would
// give. active_o is the current material's, registered from the next counts too (it zeroes the
// fast evaluation, which the search's decision reads in the same clock: issue 22, logic depth).
// The next values leave out the one late change, the undo the search decides in TEST and in the
// slow evaluation's last clock, which always reverses the MAKE of TEST's clock before: MAKE keeps
// the results and that undo brings them back (as the array does with its board and ray maps), so
// no path runs from the search's decision through this block.
module eval_kpk (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        enable_i,          // EVAL_CTRL: endgame ROMs on
  // The late undo (TEST's, the slow evaluation's) undoes the MAKE of TEST's clock before: the
  // inputs leave it out, and the registered results MAKE kept come back instead.
  input  logic        save_i,            // MAKE: keep the results
  input  logic        restore_i,         // the late undo: bring them back
  // The next clock's side to move, counts and XORed location registers (eval_phase, ctrl_make),
  // the late undo left out.
  input  logic        stm_fwd_i,
  input  logic [39:0] counts_fwd_i,
  input  logic [5:0]  white_pawn_fwd_i,
  input  logic [5:0]  black_pawn_fwd_i,
  input  logic [5:0]  white_king_fwd_i,
  input  logic [5:0]  black_king_fwd_i,
  output logic        active_o,          // the material is KPK and the ROMs are on
  output logic        win_o              // the ROM: the pawn side wins
);
  logic       pawn_black, mirror, stm_n;
  logic [5:0] pawn, strong_king, weak_king, flip, pawn_n, strong_n, weak_n;
  logic [17:0] addr;

  // Exactly one pawn and no other piece but the kings (reset: no men).
  logic kpk_q, kpk_s, win_s, rom_win, restored_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      kpk_q      <= 1'b0;
      restored_q <= 1'b0;
    end else begin
      kpk_q      <= restore_i ? kpk_s :
                    counts_fwd_i[39:4] == {16'd0, counts_fwd_i[23:20], 16'd0} &&
                    ({1'b0, counts_fwd_i[3:0]} + {1'b0, counts_fwd_i[23:20]} == 5'd1);
      restored_q <= restore_i;
    end
  end
  // Written by every MAKE before a late undo reads it: no reset.
  always_ff @(posedge clk_i) begin
    if (save_i) begin
      kpk_s <= kpk_q;
      win_s <= win_o;
    end
  end
  assign active_o = enable_i && kpk_q;
  // The ROM read the address without the late undo: after one, MAKE's bit.
  assign win_o = restored_q ? win_s : rom_win;
  assign pawn_black  = (counts_fwd_i[23:20] != 4'd0);
  assign pawn        = pawn_black ? black_pawn_fwd_i : white_pawn_fwd_i;
  assign strong_king = pawn_black ? black_king_fwd_i : white_king_fwd_i;
  assign weak_king   = pawn_black ? white_king_fwd_i : black_king_fwd_i;
  // Flip ranks when black has the pawn; mirror files when the (flipped) pawn is on files e-h.
  assign mirror   = pawn[2];
  assign flip     = {pawn_black ? 3'b111 : 3'b000, mirror ? 3'b111 : 3'b000};
  assign pawn_n   = pawn ^ flip;
  assign strong_n = strong_king ^ flip;
  assign weak_n   = weak_king ^ flip;
  assign stm_n    = stm_fwd_i ^ pawn_black;
  assign addr     = {stm_n, weak_n, strong_n, pawn_n[1:0], pawn_n[5:3] - 3'd1};
  // Always 0 after mirroring; the counts of the other men matter only to active_o.
  logic unused;
  assign unused = pawn_n[2];

  eval_kpk_rom u_rom (
    .clk_i,
    .addr_i (addr),
    .win_o  (rom_win)
  );
endmodule
