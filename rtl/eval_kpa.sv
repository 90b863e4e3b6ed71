// The king-and-pawn array of the fast evaluation (IEEE Micro, "Evaluation function"): finds the
// passed pawns that "can run" - the defending king can no longer catch them (the square rule) and
// the defender has only its king and pawns - and the fastest such runner of each side, in own
// moves to promotion. Reference: host/eval/king_pawn.cpp (passed_pawns, pawn_can_run,
// fastest_runner), which the model and the RTL follow exactly.
//
// Its result feeds the fast evaluation's sum, and from there the search's decision in the same
// clock (issue 22: it was the head of the chip's slowest path, about 18 LUT levels from the piece
// counts). So it computes from the registers' next values (the board, side to move, counts and
// locations of the next clock) and registers its outputs: they are always the current position's,
// as the combinational array's were, and the path starts at a register of its own. The next
// values leave out the late undo (TEST's and the slow evaluation's, the search's decision, which
// reverses the MAKE of TEST's clock before): MAKE keeps the outputs and that undo brings them
// back, so no path runs from the decision through the array.
module eval_kpa (
  input  logic         clk_i,
  input  logic         rst_ni,
  // The late undo (TEST's, the slow evaluation's) undoes the MAKE of TEST's clock before: the
  // inputs leave it out, and the registered results MAKE kept come back instead.
  input  logic        save_i,            // MAKE: keep the results
  input  logic        restore_i,         // the late undo: bring them back
  // The next clock's position registers (mg_array, ctrl_make, eval_phase), the late undo left out.
  input  logic [255:0] board_fwd_i,      // bit b of square s's piece at [b*64 + s]
  input  logic         stm_fwd_i,
  input  logic [15:0]  pieces_w_fwd_i,   // eval_phase counts without pawns: N, B, R, Q (4 bits each)
  input  logic [15:0]  pieces_b_fwd_i,
  input  logic [5:0]   white_king_fwd_i,
  input  logic [5:0]   black_king_fwd_i,
  // The current position's (registered).
  output logic [2:0]   runner_w_o,   // fewest own moves for a white runner to promote, 7 = none
  output logic [2:0]   runner_b_o,
  output logic [1:0]   separated_o   // [c]: passed pawns at least four files apart, defender only K+P
);
  // The defender has nothing but its king and pawns.
  logic [1:0] only_kp;
  assign only_kp[0] = pieces_w_fwd_i == 16'd0;
  assign only_kp[1] = pieces_b_fwd_i == 16'd0;

  // Every output is "none" unless a side has only its king and pawns, so the board is decoded
  // only then (the zeros otherwise change no output; a simulator skips the work in the middlegame).
  logic [63:0]  occupied;
  logic [127:0] pawns;  // colour c, square s at [c*64 + s]
  always_comb begin
    occupied = '0;
    pawns    = '0;
    if (only_kp != 2'd0) begin
      occupied = board_fwd_i[0 +: 64] | board_fwd_i[64 +: 64] | board_fwd_i[128 +: 64];
      pawns    = {board_fwd_i[192 +: 64], ~board_fwd_i[192 +: 64]} &
                 {2{board_fwd_i[0 +: 64] & ~board_fwd_i[64 +: 64] & ~board_fwd_i[128 +: 64]}};
    end
  end

  function automatic logic [2:0] chebyshev(input logic [5:0] a, input logic [5:0] b);
    logic [2:0] df, dr;
    df        = (a[2:0] > b[2:0]) ? a[2:0] - b[2:0] : b[2:0] - a[2:0];
    dr        = (a[5:3] > b[5:3]) ? a[5:3] - b[5:3] : b[5:3] - a[5:3];
    chebyshev = (df > dr) ? df : dr;
  endfunction

  localparam logic [63:0] FileA = 64'h0101_0101_0101_0101;
  localparam logic [63:0] NotA  = ~FileA;
  localparam logic [63:0] NotH  = ~(FileA << 7);

  // passed_bb only counts where the defender has only king and pawns (separated_o's condition),
  // like can_run; both are computed only for a pawn there, square by square (a simulator skips
  // the rest). The squares ahead of a pawn on (f, r), towards promotion for colour c: its file
  // (ahead_file), and its file and the neighbouring ones (ahead_zone).
  logic [127:0] can_run;    // colour c, square s at [c*64 + s]
  logic [127:0] passed_bb;  // passed pawns, same layout
  always_comb begin
    logic        passed, path_clear, taken, them_to_move;
    logic [5:0]  our_king, their_king, promotion;
    logic [3:0]  defender_moves;  // may be -1 (king on the queening square, to move)
    logic [3:0]  moves_to_promote;
    logic [63:0] ahead, file_m, ahead_file, ahead_zone;
    can_run          = '0;
    passed_bb        = '0;
    passed           = 1'b0;
    path_clear       = 1'b0;
    taken            = 1'b0;
    them_to_move     = 1'b0;
    our_king         = '0;
    their_king       = '0;
    promotion        = '0;
    defender_moves   = '0;
    moves_to_promote = '0;
    ahead            = '0;
    file_m           = '0;
    ahead_file       = '0;
    ahead_zone       = '0;
    for (int c = 0; c < 2; c++) begin
      if (only_kp[1-c]) begin
        our_king     = (c == 0) ? white_king_fwd_i : black_king_fwd_i;
        their_king   = (c == 0) ? black_king_fwd_i : white_king_fwd_i;
        them_to_move = (stm_fwd_i != c[0]);
        for (int s = 0; s < 64; s++) begin
          if (pawns[c*64 + s]) begin
            // Ranks above r for white, below r for black; moves to promote from the relative rank
            // (one fewer from the second: the double step).
            ahead            = (c == 0) ? ~64'd0 << ((s / 8 + 1) * 8) : (64'd1 << ((s / 8) * 8)) - 64'd1;
            file_m           = FileA << (s % 8);
            ahead_file       = ahead & file_m;
            ahead_zone       = ahead & (file_m | ((file_m << 1) & NotA) | ((file_m >> 1) & NotH));
            promotion        = 6'(((c == 0) ? 56 : 0) + s % 8);
            moves_to_promote = 4'(7 - ((c == 0) ? s / 8 : 7 - s / 8) - (((c == 0) ? s / 8 : 7 - s / 8) == 1 ? 1 : 0));
            passed           = !(|(ahead_zone & pawns[(1-c)*64 +: 64]));
            path_clear       = !(|(ahead_file & occupied));
            // A king beside the pawn, to move, takes it unless our king guards it.
            taken            = them_to_move && chebyshev(their_king, 6'(s)) == 3'd1 &&
                               chebyshev(our_king, 6'(s)) != 3'd1;
            defender_moves   = {1'b0, chebyshev(their_king, promotion)} - {3'd0, them_to_move};
            passed_bb[c*64 + s] = passed;
            can_run[c*64 + s]   = passed && path_clear && !taken && $signed(defender_moves) > $signed(moves_to_promote);
          end
        end
      end
    end
  end

  // Fastest runner: moves to promote is 1 (seventh rank) .. 5 (second rank, with the double step).
  // rr: the runners of one side by relative rank (rank 1 .. 6 from the side's own first rank).
  function automatic logic [2:0] fastest(input logic [5:0] rr);
    if (rr[5])      fastest = 3'd1;
    else if (rr[4]) fastest = 3'd2;
    else if (rr[3]) fastest = 3'd3;
    else if (rr[2]) fastest = 3'd4;
    else if (rr[1]) fastest = 3'd5;
    else if (rr[0]) fastest = 3'd5;  // second rank: the double step makes it five, like the third
    else            fastest = 3'd7;
  endfunction
  logic [5:0] rr_w, rr_b;
  always_comb begin
    for (int rel = 1; rel <= 6; rel++) begin
      rr_w[rel-1] = |can_run[rel*8 +: 8];
      rr_b[rel-1] = |can_run[64 + (7-rel)*8 +: 8];
    end
  end
  // Widely separated passed pawns: the files of a side's passed pawns span four or more.
  logic [1:0] separated_d;
  always_comb begin
    for (int c = 0; c < 2; c++) begin
      logic [7:0] files;
      logic [3:0] lo, hi;
      files = '0;
      if (only_kp[1-c]) begin  // passed_bb is empty otherwise
        for (int s = 0; s < 64; s++) files[s % 8] = files[s % 8] | passed_bb[c*64 + s];
      end
      lo = 4'd8;
      hi = 4'd0;
      for (int f = 7; f >= 0; f--) if (files[f]) lo = 4'(f);
      for (int f = 0; f < 8; f++) if (files[f]) hi = 4'(f);
      separated_d[c] = only_kp[1-c] && files != 8'd0 && hi >= lo + 4'd4;
    end
  end

  // Reset: an empty board with no men, whose array finds no runner and no passed pawn.
  logic [7:0] kept_s;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      runner_w_o  <= 3'd7;
      runner_b_o  <= 3'd7;
      separated_o <= 2'd0;
    end else if (restore_i) begin
      {runner_w_o, runner_b_o, separated_o} <= kept_s;
    end else begin
      runner_w_o  <= fastest(rr_w);
      runner_b_o  <= fastest(rr_b);
      separated_o <= separated_d;
    end
  end
  // Written by every MAKE before a late undo reads it: no reset.
  always_ff @(posedge clk_i) begin
    if (save_i) kept_s <= {runner_w_o, runner_b_o, separated_o};
  end
endmodule
