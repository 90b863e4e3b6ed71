// The slow evaluation's third stage, per file: the table words of stage 2 turned into the file's
// contributions to the group accumulators (mobility, rooks, king safety, passed pawns, pawn
// structure, shelter and storm). White's part and black's part of a group apart where eval_slow
// weighs them apart; 16-bit wrap-around. Reference: the per-file sums of host/chip/slow_eval.cpp.
module es_file_values (
  input  logic [71:0] mob_i,       // the eight squares' mobility words, square r at [r*9 +: 9]
  // Per colour c (white 0, black 1) at [c*width +: width].
  input  logic [19:0] rook_i,      // the rook table's word: [5:0] base, [7:6]/[9:8] king-safety field
  input  logic [1:0]  lever_i,     // the rook's base halved behind a lever
  input  logic [1:0]  near_i,      // the rook's file near the enemy king
  input  logic        opposite_i,  // kings on opposite wings
  input  logic [3:0]  ps_scale_i,  // PHASE[15:12]: the pawn scale, endgame parts x scale / 16
  input  logic [63:0] pp_i,        // passed pawn words: [15:0] value, [31:16] endgame part
  input  logic [63:0] ps_i,        // pawn structure words, as the passed pawns'
  input  logic [35:0] st_i,        // storm words: [13:0] value, [17:14] its weight on opposite wings
  input  logic [27:0] sh_i,        // shelter words
  output logic [15:0] mob_o,       // the file's mobility, white's less black's (signed words)
  output logic [15:0] rook_o,      // the rooks' bases, white's less black's
  output logic [31:0] ks_o,        // each side's king-safety product
  output logic [31:0] pp_o,        // each side's passed pawns, the endgame part scaled
  output logic [31:0] ps_o,        // each side's pawn structure, likewise
  output logic [31:0] sh_o         // each side's shelter plus storm
);
  logic [15:0] rook_base [2];
  logic signed [31:0] pp_hi_scaled [2], ps_hi_scaled [2], storm_scaled [2];
  always_comb begin
    mob_o = '0;
    for (int r = 0; r < 8; r++) mob_o = mob_o + {{7{mob_i[r*9 + 8]}}, mob_i[r*9 +: 9]};
    // The base of each side's entry, halved (arithmetic shift) behind levers.
    for (int c = 0; c < 2; c++) begin
      rook_base[c] = {{10{rook_i[c*10 + 5]}}, rook_i[c*10 +: 6]};
      if (lever_i[c]) rook_base[c] = {rook_base[c][15], rook_base[c][15:1]};
    end
    rook_o = rook_base[0] - rook_base[1];
    for (int c = 0; c < 2; c++) begin
      logic [1:0] field;
      field              = opposite_i ? rook_i[c*10 + 8 +: 2] : rook_i[c*10 + 6 +: 2];
      ks_o[c*16 +: 16]   = near_i[c] ? 16'(rook_base[c] * {13'd0, 3'd4 - {1'b0, field}}) : 16'd0;
      pp_hi_scaled[c]    = ($signed({{16{pp_i[c*32 + 31]}}, pp_i[c*32 + 16 +: 16]}) *
                            $signed({28'd0, ps_scale_i})) >>> 4;
      pp_o[c*16 +: 16]   = pp_i[c*32 +: 16] + pp_hi_scaled[c][15:0];
      // Pawn structure like passed pawns; shelter plus storm (the storm's [17:14] x value / 4 when
      // the kings are on opposite wings) of each side's own king.
      ps_hi_scaled[c]    = ($signed({{16{ps_i[c*32 + 31]}}, ps_i[c*32 + 16 +: 16]}) *
                            $signed({28'd0, ps_scale_i})) >>> 4;
      ps_o[c*16 +: 16]   = ps_i[c*32 +: 16] + ps_hi_scaled[c][15:0];
      storm_scaled[c]    = ($signed({{18{st_i[c*18 + 13]}}, st_i[c*18 +: 14]}) *
                            $signed({28'd0, st_i[c*18 + 14 +: 4]})) >>> 2;
      sh_o[c*16 +: 16]   = {{2{sh_i[c*14 + 13]}}, sh_i[c*14 +: 14]} +
                           (opposite_i ? storm_scaled[c][15:0] : {{2{st_i[c*18 + 13]}}, st_i[c*18 +: 14]});
    end
  end
  // The scaled products keep their low 16 bits (the chip's 16-bit wrap-around).
  logic unused;
  assign unused = ^{pp_hi_scaled[0][31:16], pp_hi_scaled[1][31:16], ps_hi_scaled[0][31:16], ps_hi_scaled[1][31:16],
                    storm_scaled[0][31:16], storm_scaled[1][31:16]};
endmodule
