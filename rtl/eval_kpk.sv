// Endgame logic: recognises king and pawn against king from the piece-count register, finds the
// pieces in the XORed piece-location registers (each is the only one of its type), normalises
// the placement (the pawn side plays white, the pawn on files a-d) and looks it up in the KPK ROM.
// Address: {side to move, weak king, strong king, pawn file[1:0], pawn rank - 1 [2:0]}.
module eval_kpk (
  input  logic        enable_i,   // EVAL_CTRL: endgame ROMs on
  input  logic        stm_i,
  input  logic [39:0] counts_i,   // eval_phase: white [19:0], black [39:20], 4 bits per type P..Q
  input  logic [5:0]  white_pawn_i, // XORed location registers (eval_phase)
  input  logic [5:0]  black_pawn_i,
  input  logic [5:0]  white_king_i,
  input  logic [5:0]  black_king_i,
  output logic        active_o,   // the material is KPK and the ROMs are on
  output logic        win_o       // the ROM: the pawn side wins
);
  logic       pawn_black, mirror, stm_n;
  logic [5:0] pawn, strong_king, weak_king, flip, pawn_n, strong_n, weak_n;
  logic [17:0] addr;

  // Exactly one pawn and no other piece but the kings.
  assign active_o = enable_i && counts_i[39:4] == {16'd0, counts_i[23:20], 16'd0} &&
                    ({1'b0, counts_i[3:0]} + {1'b0, counts_i[23:20]} == 5'd1);
  assign pawn_black  = (counts_i[23:20] != 4'd0);
  assign pawn        = pawn_black ? black_pawn_i : white_pawn_i;
  assign strong_king = pawn_black ? black_king_i : white_king_i;
  assign weak_king   = pawn_black ? white_king_i : black_king_i;
  // Flip ranks when black has the pawn; mirror files when the (flipped) pawn is on files e-h.
  assign mirror   = pawn[2];
  assign flip     = {pawn_black ? 3'b111 : 3'b000, mirror ? 3'b111 : 3'b000};
  assign pawn_n   = pawn ^ flip;
  assign strong_n = strong_king ^ flip;
  assign weak_n   = weak_king ^ flip;
  assign stm_n    = stm_i ^ pawn_black;
  assign addr     = {stm_n, weak_n, strong_n, pawn_n[1:0], pawn_n[5:3] - 3'd1};
  logic unused_file_bit;  // always 0 after mirroring
  assign unused_file_bit = pawn_n[2];

  eval_kpk_rom u_rom (
    .addr_i (addr),
    .win_o  (win_o)
  );
endmodule
