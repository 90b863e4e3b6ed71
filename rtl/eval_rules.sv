// Endgame rules (IEEE Micro: "random logic to detect certain simple endings that are very likely
// drawn"; AIJ section 5, item 3). Each rule looks at the exact material (piece-count register) and
// the pieces' squares (XORed piece-location registers), for either colour as the stronger side:
//  * KQKP:  queen against a pawn on its seventh rank on a rook or bishop file (a, c, f, h), the
//           pawn's king next to it, the queen's king at least three squares from the queening square;
//  * KRKP:  rook against a pawn on its sixth or seventh rank, the pawn's king next to it, the rook's
//           king at least three squares from the queening square;
//  * KRPKR: the defending king on the pawn's file in front of it (the Philidor draw's core).
//
// A draw zeroes the fast evaluation, which the search's decision reads in the same clock (issue
// 22, logic depth), so the rules look at the registers' next values and their verdicts are
// registered: always the current position's, as before, with the enable applied after them. The
// next values leave out the late undo (TEST's and the slow evaluation's, the search's decision):
// MAKE keeps the verdicts and that undo brings them back.
module eval_rules (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        enable_i,          // EVAL_CTRL bit 0 (the current clock's)
  // The late undo (TEST's, the slow evaluation's) undoes the MAKE of TEST's clock before: the
  // inputs leave it out, and the registered results MAKE kept come back instead.
  input  logic        save_i,            // MAKE: keep the results
  input  logic        restore_i,         // the late undo: bring them back
  // The next clock's piece-count and XORed location registers (eval_phase), the late undo left out.
  input  logic [39:0] counts_fwd_i,     // white [19:0], black [39:20]: P, N, B, R, Q, 4 bits each
  input  logic [5:0]  white_pawn_fwd_i,
  input  logic [5:0]  black_pawn_fwd_i,
  input  logic [5:0]  white_king_fwd_i,
  input  logic [5:0]  black_king_fwd_i,
  output logic        kqkp_o,
  output logic        krkp_o,
  output logic        krpkr_o
);
  // Counts of one side as {Q, R, B, N, P}; exact material patterns.
  function automatic logic is_only(input logic [19:0] c, input logic [19:0] want);
    is_only = (c == want);
  endfunction
  localparam logic [19:0] OnlyPawn  = 20'h00001;
  localparam logic [19:0] OnlyQueen = 20'h10000;
  localparam logic [19:0] OnlyRook  = 20'h01000;
  localparam logic [19:0] RookPawn  = 20'h01001;

  function automatic logic [2:0] chebyshev(input logic [5:0] a, input logic [5:0] b);
    logic [2:0] df, dr;
    df   = (a[2:0] > b[2:0]) ? a[2:0] - b[2:0] : b[2:0] - a[2:0];
    dr   = (a[5:3] > b[5:3]) ? a[5:3] - b[5:3] : b[5:3] - a[5:3];
    chebyshev = (df > dr) ? df : dr;
  endfunction

  // Rules seen with `weak` as the side with the pawn (KQKP, KRKP) or without it (KRPKR).
  // black_weak: the weak side is black. Ranks are relative to the pawn's owner.
  logic [1:0] kqkp, krkp, krpkr;
  for (genvar bw = 0; bw < 2; bw++) begin : g_side
    logic [19:0] strong_c, weak_c;
    logic [5:0]  weak_pawn, strong_pawn, strong_king, weak_king, queening;
    logic [2:0]  weak_pawn_rank, strong_pawn_rank, weak_king_rank_s;
    assign strong_c    = (bw == 1) ? counts_fwd_i[19:0] : counts_fwd_i[39:20];
    assign weak_c      = (bw == 1) ? counts_fwd_i[39:20] : counts_fwd_i[19:0];
    assign weak_pawn   = (bw == 1) ? black_pawn_fwd_i : white_pawn_fwd_i;
    assign strong_pawn = (bw == 1) ? white_pawn_fwd_i : black_pawn_fwd_i;
    assign strong_king = (bw == 1) ? white_king_fwd_i : black_king_fwd_i;
    assign weak_king   = (bw == 1) ? black_king_fwd_i : white_king_fwd_i;
    // Ranks relative to the pawn's owner: XOR 7 for black.
    assign weak_pawn_rank   = weak_pawn[5:3] ^ ((bw == 1) ? 3'd7 : 3'd0);
    assign strong_pawn_rank = strong_pawn[5:3] ^ ((bw == 1) ? 3'd0 : 3'd7);
    assign weak_king_rank_s = weak_king[5:3] ^ ((bw == 1) ? 3'd0 : 3'd7);
    assign queening         = {(bw == 1) ? 3'd0 : 3'd7, weak_pawn[2:0]};

    logic rook_or_bishop_file;
    assign rook_or_bishop_file = weak_pawn[2:0] == 3'd0 || weak_pawn[2:0] == 3'd2 ||
                                 weak_pawn[2:0] == 3'd5 || weak_pawn[2:0] == 3'd7;
    assign kqkp[bw] = is_only(strong_c, OnlyQueen) && is_only(weak_c, OnlyPawn) &&
                      weak_pawn_rank == 3'd6 && rook_or_bishop_file &&
                      chebyshev(weak_king, weak_pawn) == 3'd1 && chebyshev(strong_king, queening) >= 3'd3;
    assign krkp[bw] = is_only(strong_c, OnlyRook) && is_only(weak_c, OnlyPawn) &&
                      weak_pawn_rank >= 3'd5 && chebyshev(weak_king, weak_pawn) == 3'd1 &&
                      chebyshev(strong_king, queening) >= 3'd3;
    // KRPKR: here the strong side has the pawn; the weak king stands on its file, further up.
    assign krpkr[bw] = is_only(strong_c, RookPawn) && is_only(weak_c, OnlyRook) &&
                       weak_king[2:0] == strong_pawn[2:0] && weak_king_rank_s > strong_pawn_rank;
  end

  // Reset: no men, no rule applies.
  logic kqkp_q, krkp_q, krpkr_q;
  logic [2:0] rules_s;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      kqkp_q  <= 1'b0;
      krkp_q  <= 1'b0;
      krpkr_q <= 1'b0;
    end else if (restore_i) begin
      {kqkp_q, krkp_q, krpkr_q} <= rules_s;
    end else begin
      kqkp_q  <= |kqkp;
      krkp_q  <= |krkp;
      krpkr_q <= |krpkr;
    end
  end
  // Written by every MAKE before a late undo reads it: no reset.
  always_ff @(posedge clk_i) begin
    if (save_i) rules_s <= {kqkp_q, krkp_q, krpkr_q};
  end
  assign kqkp_o  = enable_i && kqkp_q;
  assign krkp_o  = enable_i && krkp_q;
  assign krpkr_o = enable_i && krpkr_q;
endmodule
