// Pins, x-rays, hung-piece refinements and traps of the slow evaluation (groups 9 "pins" and 10
// "tactics"; docs/evaluation.md), combinational from es_board's maps. Pins come from occluded
// fills: for each direction d, a side's sliders that move along d fill forward to the first piece
// (a candidate when it is the opponent's), and the opponent's pieces of each value class and above
// fill backward, so a candidate learns the class of the next piece behind it. The PINNED lookup
// of file file_i (the largest index among the file's pinned pieces, per pinning side), from the
// pin maps of the clock before, feeds the table's read address; value_o (group 10, white's view)
// is used in the last clock.
// Reference: host/chip/slow_tactics.cpp.
// en_i is the slow evaluation's busy: without it the outputs of stage 1 (pins, conditions) are
// zero and a simulator skips the logic; value_o sums the conditions of the clock before.
//
// Group 10 takes two clocks (issue 22: the fills, the traps' reductions and a dozen conditional
// adds were the chip's slowest path): the conditions found from the maps are registered, and
// value_o is the sum of their bonuses a clock later. The board, and so the maps, do not change
// while the evaluation runs, and the sum clock reads the value long after the first maps.
module es_tactics (
  input  logic         clk_i,
  input  logic         en_i,
  input  logic [2:0]   file_i,
  input  logic [63:0]  occupied_i,
  input  logic [767:0] pieces_i,     // colour c, type t (1-6): [(c*6 + t-1)*64 +: 64]
  input  logic [639:0] attacks_i,    // colour c, class k: [(c*5 + k)*64 +: 64]
  // Registers ER_MPIN_HUNG .. ER_QUEEN_TRAP + 1, 8 bits each (register i at [(i - 14)*8 +: 8]).
  /* verilator lint_off UNUSEDSIGNAL */
  input  logic [207:0] regs_i,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic [1:0]   pin_valid_o,  // pinning side c has a pinned opponent piece on the file
  output logic [13:0]  pin_idx_o,    // PINNED[c] index at [c*7 +: 7]
  output logic [15:0]  value_o       // group 10, white's view
);
  localparam logic [63:0] NotA  = es_pkg::NotA;
  localparam logic [63:0] NotH  = es_pkg::NotH;
  // White's trap squares (black's: ranks flipped).
  localparam logic [63:0] KnightCorner = 64'h8100_0000_0000_0000;  // a8 h8
  localparam logic [63:0] Knight7th    = 64'h4281_0000_0000_0000;  // a7 h7 b8 g8
  localparam logic [63:0] KnightRim    = 64'h3C00_8181_0000_0000;  // a5 h5 a6 h6, c8-f8
  localparam logic [63:0] KingFG       = 64'h0000_0000_0000_0060;  // f1 g1
  localparam logic [63:0] RookGH       = 64'h0000_0000_0000_00C0;  // g1 h1
  localparam logic [63:0] KingBCD      = 64'h0000_0000_0000_000E;  // b1 c1 d1
  localparam logic [63:0] Rank1        = 64'h0000_0000_0000_00FF;
  localparam logic [63:0] Ranks678     = 64'hFFFF_FF00_0000_0000;
  localparam int          RegBase      = chip_pkg::ER_MPIN_HUNG;



  // Directions 0-3 diagonal (+9, +7, -7, -9), 4-7 straight (+8, -8, +1, -1); the reverse of d is
  // d ^ 3 (diagonal) or d ^ 1 (straight).
  function automatic int dshift(input int d);
    case (d)
      0: dshift = 9;
      1: dshift = 7;
      2: dshift = -7;
      3: dshift = -9;
      4: dshift = 8;
      5: dshift = -8;
      6: dshift = 1;
      default: dshift = -1;
    endcase
  endfunction
  function automatic logic [63:0] dmask(input int d);
    case (d)
      0, 2, 6: dmask = NotA;
      1, 3, 7: dmask = NotH;
      default: dmask = es_pkg::All;  // not '1, which Yosys 0.23 reads as 1 in a function
    endcase
  endfunction
  function automatic int drev(input int d);
    drev = (d < 4) ? (d ^ 3) : (d ^ 1);
  endfunction

  // Ranks flipped (white's squares as black's).
  function automatic logic [63:0] flip(input logic [63:0] x);
    for (int r = 0; r < 8; r++) flip[r*8 +: 8] = x[(7-r)*8 +: 8];
  endfunction

  logic [63:0] empty;
  assign empty = ~occupied_i;

  logic [63:0] pc [2][6];  // [colour][type - 1]
  logic [63:0] att [2][5];  // [colour][class]
  logic [63:0] any_att [2];
  logic [63:0] men [2];
  always_comb begin
    for (int c = 0; c < 2; c++) begin
      for (int t = 0; t < 6; t++) pc[c][t] = pieces_i[(c*6 + t)*64 +: 64];
      for (int k = 0; k < 5; k++) att[c][k] = attacks_i[(c*5 + k)*64 +: 64];
      any_att[c] = att[c][0] | att[c][1] | att[c][2] | att[c][3] | att[c][4];
      men[c] = pc[c][0] | pc[c][1] | pc[c][2] | pc[c][3] | pc[c][4] | pc[c][5];
    end
  end

  // ---------------------------------------------------------------- pins of pinning side c
  logic [63:0] pinned [2], against_king [2], by_bishop [2], by_rook [2], mpin [2];
  logic [63:0] press_hi [2], press_lo [2], cheaper_or_more [2];
  always_comb begin
    logic [63:0] ge [5];  // the opponent's pieces of value class >= j (j = 1-4)
    logic [63:0] cand_br, cand_q, bs [5], pin_d, same;
    for (int j = 0; j < 5; j++) begin
      ge[j] = '0;
      bs[j] = '0;
    end
    cand_br = '0;
    cand_q  = '0;
    pin_d   = '0;
    same    = '0;
    for (int c = 0; c < 2; c++) begin
      pinned[c]       = '0;
      against_king[c] = '0;
      by_bishop[c]    = '0;
      by_rook[c]      = '0;
      mpin[c]         = '0;
    end
    if (en_i) begin
      for (int c = 0; c < 2; c++) begin
        ge[0] = men[1-c];
        ge[1] = pc[1-c][1] | pc[1-c][2] | pc[1-c][3] | pc[1-c][4] | pc[1-c][5];
        ge[2] = pc[1-c][3] | pc[1-c][4] | pc[1-c][5];
        ge[3] = pc[1-c][4] | pc[1-c][5];
        ge[4] = pc[1-c][5];
        for (int d = 0; d < 8; d++) begin
          cand_br = es_pkg::slide((d < 4) ? pc[c][2] : pc[c][3], empty, dshift(d), dmask(d)) & men[1-c];
          cand_q  = es_pkg::slide(pc[c][4], empty, dshift(d), dmask(d)) & men[1-c];
          bs[0] = '0;
          for (int j = 1; j < 5; j++) bs[j] = es_pkg::slide(ge[j], empty, dshift(drev(d)), dmask(drev(d)));
          pin_d = (cand_br | cand_q) & ((pc[1-c][0] & bs[1]) | ((pc[1-c][1] | pc[1-c][2]) & bs[2]) |
                                        (pc[1-c][3] & bs[3]) | (pc[1-c][4] & bs[4]));
          same  = (d < 4) ? (bs[1] & ~bs[2]) : (bs[2] & ~bs[3]);
          pinned[c]       = pinned[c] | pin_d;
          against_king[c] = against_king[c] | (pin_d & bs[4]);
          if (d < 4) by_bishop[c] = by_bishop[c] | (pin_d & cand_br);
          else       by_rook[c]   = by_rook[c] | (pin_d & cand_br);
          mpin[c] = mpin[c] | (pin_d & ((cand_br & same) | (cand_q & bs[3] & ~bs[4])));
        end
      end
    end
  end

  // Pressure of c on the opponent's pieces: 3 attacked by a cheaper class, 2 undefended, 1
  // attacked by more classes than defended, 0 otherwise ({press_hi, press_lo}).
  always_comb begin
    logic [63:0] cheaper, more;
    logic [2:0]  n_us, n_them;
    cheaper = '0;
    more    = '0;
    n_us    = '0;
    n_them  = '0;
    for (int c = 0; c < 2; c++) begin
      press_hi[c]        = '0;
      press_lo[c]        = '0;
      cheaper_or_more[c] = '0;
    end
    if (en_i) begin
      for (int c = 0; c < 2; c++) begin
        cheaper = ((pc[1-c][1] | pc[1-c][2] | pc[1-c][3] | pc[1-c][4]) & att[c][0]) |
                  ((pc[1-c][3] | pc[1-c][4]) & att[c][1]) | (pc[1-c][4] & att[c][2]);
        for (int s = 0; s < 64; s++) begin
          n_us   = {2'd0, att[c][0][s]} + {2'd0, att[c][1][s]} + {2'd0, att[c][2][s]} + {2'd0, att[c][3][s]} +
                   {2'd0, att[c][4][s]};
          n_them = {2'd0, att[1-c][0][s]} + {2'd0, att[1-c][1][s]} + {2'd0, att[1-c][2][s]} +
                   {2'd0, att[1-c][3][s]} + {2'd0, att[1-c][4][s]};
          more[s] = n_us > n_them;
        end
        press_hi[c]        = cheaper | ~any_att[1-c];
        press_lo[c]        = cheaper | (any_att[1-c] & more);
        cheaper_or_more[c] = cheaper | more;
      end
    end
  end

  // ---------------------------------------------------------------- PINNED index of the file
  // The pin maps depend on the board alone (stable while the evaluation runs): registered every
  // clock, and the index of file_i (the scan's file of the clock before: eval_slow) read from the
  // registers, so the fills and the index are not one path (issue 22: logic depth). The index is
  // the largest among the file's pinned pieces (a square with no pin counts as 0, as no pin leaves
  // the index at 0).
  logic [63:0] pinned_q [2], against_king_q [2], by_bishop_q [2], by_rook_q [2], press_hi_q [2], press_lo_q [2];
  always_ff @(posedge clk_i) begin  // a datapath, read a clock later: no reset
    for (int c = 0; c < 2; c++) begin
      pinned_q[c]       <= pinned[c];
      against_king_q[c] <= against_king[c];
      by_bishop_q[c]    <= by_bishop[c];
      by_rook_q[c]      <= by_rook[c];
      press_hi_q[c]     <= press_hi[c];
      press_lo_q[c]     <= press_lo[c];
    end
  end
  // The largest index is found without carry chains: inside the whole board top, Yosys 0.23's
  // ABC9 gave up on a tree of comparators whose carry outputs fed the next ones ("Boxes are not
  // in a topological order"). The index ty*24 + {pinner, against king, pressure} orders the
  // pieces as the key {ty, pinner, against king, pressure} does (the low part is below 24), so
  // the ranks' keys are compared pairwise (all 28 pairs at once, gates only), the winner is the
  // rank no other beats, and only its key is turned into an index.
  function automatic logic key_ge(input logic [7:0] a, input logic [7:0] b);  // a >= b, no $alu
    key_ge = 1'b1;  // equal so far (no bits): a >= b; a higher bit that differs decides
    for (int k = 0; k < 8; k++) key_ge = (a[k] & ~b[k]) | (~(a[k] ^ b[k]) & key_ge);
  endfunction
  logic [63:0] pin_key [2];  // rank r's key at [r*8 +: 8]
  logic [7:0] pin_best [2];
  always_comb begin
    logic [5:0] s;
    logic [2:0] ty;
    logic [1:0] pinner;
    logic [7:0] win;
    logic [63:0] ge;
    s           = '0;
    ty          = '0;
    pinner      = '0;
    win         = '0;
    ge          = '0;
    pin_valid_o = '0;
    pin_idx_o   = '0;
    for (int c = 0; c < 2; c++) begin
      pin_best[c] = '0;
      pin_key[c]  = '0;
    end
    if (en_i) begin
      for (int c = 0; c < 2; c++) begin
        for (int r = 0; r < 8; r++) begin
          s  = {r[2:0], file_i};
          ty = pc[1-c][1][s] ? 3'd1 : pc[1-c][2][s] ? 3'd2 : pc[1-c][3][s] ? 3'd3 : pc[1-c][4][s] ? 3'd4 : 3'd0;
          pinner = by_bishop_q[c][s] ? 2'd0 : by_rook_q[c][s] ? 2'd1 : 2'd2;
          pin_key[c][r*8 +: 8] = pinned_q[c][s] ? {ty, pinner, against_king_q[c][s], press_hi_q[c][s], press_lo_q[c][s]} : 8'd0;
        end
        // One comparison a pair: ge[lo*8 + hi] is "rank lo's key >= rank hi's" (lo < hi). Rank r
        // wins if it beats every lower rank and is not beaten by a higher one: exactly one
        // winner, the lowest of the largest keys.
        for (int lo = 0; lo < 8; lo++) begin
          for (int hi = lo + 1; hi < 8; hi++) ge[lo*8 + hi] = key_ge(pin_key[c][lo*8 +: 8], pin_key[c][hi*8 +: 8]);
        end
        for (int r = 0; r < 8; r++) begin
          win[r] = 1'b1;
          for (int o = 0; o < 8; o++) begin
            if (o < r) win[r] = win[r] & ~ge[o*8 + r];
            if (o > r) win[r] = win[r] & ge[r*8 + o];
          end
          pin_best[c] = pin_best[c] | (win[r] ? pin_key[c][r*8 +: 8] : 8'd0);
        end
        pin_valid_o[c]      = pinned_q[c][{3'd0, file_i}] | pinned_q[c][{3'd1, file_i}] | pinned_q[c][{3'd2, file_i}] |
                              pinned_q[c][{3'd3, file_i}] | pinned_q[c][{3'd4, file_i}] | pinned_q[c][{3'd5, file_i}] |
                              pinned_q[c][{3'd6, file_i}] | pinned_q[c][{3'd7, file_i}];
        // ty * 24 as ty * 16 + ty * 8: adders, not a multiplier (Yosys put a MULT18X18D here, 3.9 ns
        // on the scan's path to the table's address on an ECP5: docs/fpga.md).
        pin_idx_o[c*7 +: 7] = {pin_best[c][7:5], 4'd0} + {1'b0, pin_best[c][7:5], 3'd0} + {2'd0, pin_best[c][4:0]};
      end
    end
  end

`ifdef VERILATOR
  // The winner's key is the largest (the regression's alt configuration, verilated with --assert).
  always_comb begin
    for (int c = 0; c < 2; c++) begin
      for (int r = 0; r < 8; r++) begin
        a_pin_best_max: assert (!en_i || pin_best[c] >= pin_key[c][r*8 +: 8]);
      end
    end
  end
`endif

  // ---------------------------------------------------------------- group 10
  function automatic logic [31:0] reg8(input logic [207:0] regs, input int i, input int bits);
    logic [7:0] v;
    v = regs[(i - RegBase)*8 +: 8];
    for (int k = 0; k < 8; k++) begin
      if (k >= bits) v[k] = 1'b0;
    end
    reg8 = {24'd0, v};
  endfunction

  // The conditions of c's bonuses (stage 1): bit c*NumCond + i for bonus i below (a plain vector:
  // Yosys 0.23 cannot register an unpacked array whole).
  localparam int NumCond = 13;
  logic [2*NumCond-1:0] cond, cond_q;
  always_comb begin
    logic [63:0] safe, sl, trapped_n, trapped_r, kb, rank1;
    logic        xray;
    safe      = '0;
    sl        = '0;
    trapped_n = '0;
    trapped_r = '0;
    kb        = '0;
    rank1     = '0;
    xray      = 1'b0;
    cond      = '0;
    if (en_i) begin
      for (int c = 0; c < 2; c++) begin
        // X-ray: two sliders of c on a line they both move along, nothing between them.
        xray = 1'b0;
        for (int d = 0; d < 8; d += 2) begin
          sl = (d < 4) ? (pc[c][2] | pc[c][4]) : (pc[c][3] | pc[c][4]);
          if ((es_pkg::slide(sl, empty, dshift(d), dmask(d)) & sl) != 64'd0) xray = 1'b1;
        end
        cond[c*NumCond + 0] = xray;
        cond[c*NumCond + 1] = (mpin[c] & (press_hi[c] | press_lo[c])) != 64'd0;
        cond[c*NumCond + 2] = (pinned[c] & ~any_att[1-c]) != 64'd0;
        cond[c*NumCond + 3] = (pinned[c] & any_att[1-c] & cheaper_or_more[c]) != 64'd0;
        cond[c*NumCond + 4] = (against_king[c] & ~any_att[1-c]) != 64'd0;
        // Traps of c's own pieces: no safe square (empty or the opponent's, not attacked by it).
        safe      = ~men[c] & ~any_att[1-c];
        trapped_n = pc[c][1] & ~es_pkg::knight(safe);
        trapped_r = pc[c][3] & ~es_pkg::straight(safe, empty);
        cond[c*NumCond + 5] = (trapped_n & (c == 1 ? flip(KnightCorner) : KnightCorner)) != 64'd0;
        cond[c*NumCond + 6] = (trapped_n & (c == 1 ? flip(Knight7th) : Knight7th)) != 64'd0;
        cond[c*NumCond + 7] = (trapped_n & (c == 1 ? flip(KnightRim) : KnightRim)) != 64'd0;
        cond[c*NumCond + 8] = (pc[c][5] & (c == 1 ? flip(KingFG) : KingFG)) != 64'd0 &&
                     (trapped_r & (c == 1 ? flip(RookGH) : RookGH)) != 64'd0;
        kb    = pc[c][5] & (c == 1 ? flip(KingBCD) : KingBCD);
        rank1 = c == 1 ? flip(Rank1) : Rank1;
        cond[c*NumCond + 9]  = kb != 64'd0 && (trapped_r & (kb - 64'd1) & rank1) != 64'd0;
        cond[c*NumCond + 10] = (trapped_r & any_att[1-c]) != 64'd0;
        cond[c*NumCond + 11] = (trapped_r & (c == 1 ? flip(Ranks678) : Ranks678)) != 64'd0;
        cond[c*NumCond + 12] = (pc[c][4] & any_att[1-c] & ~(es_pkg::straight(safe, empty) | es_pkg::diagonal(safe, empty))) != 64'd0;
      end
    end
  end
  always_ff @(posedge clk_i) begin  // a datapath, read a clock later: no reset
    cond_q <= cond;
  end

  // Their bonuses, summed (stage 2).
  always_comb begin
    logic signed [31:0] acc;
    logic [31:0] bonus;
    acc   = '0;
    bonus = '0;
    for (int c = 0; c < 2; c++) begin
      bonus = '0;
      if (cond_q[c*NumCond + 0]) bonus = bonus + reg8(regs_i, chip_pkg::ER_XRAY + c, 6);
      if (cond_q[c*NumCond + 1]) bonus = bonus + reg8(regs_i, chip_pkg::ER_MPIN_HUNG, 7);
      if (cond_q[c*NumCond + 2]) bonus = bonus + reg8(regs_i, chip_pkg::ER_PINNED_SIMPLE_HUNG, 8);
      if (cond_q[c*NumCond + 3]) bonus = bonus + reg8(regs_i, chip_pkg::ER_PINNED_HUNG, 7);
      if (cond_q[c*NumCond + 4]) bonus = bonus + reg8(regs_i, chip_pkg::ER_PERM_PIN_SIMPLE_HUNG, 8);
      if (cond_q[c*NumCond + 5]) bonus = bonus - reg8(regs_i, chip_pkg::ER_KNIGHT_TRAP + c*3, 8);
      if (cond_q[c*NumCond + 6]) bonus = bonus - reg8(regs_i, chip_pkg::ER_KNIGHT_TRAP + c*3 + 1, 8);
      if (cond_q[c*NumCond + 7]) bonus = bonus - reg8(regs_i, chip_pkg::ER_KNIGHT_TRAP + c*3 + 2, 8);
      if (cond_q[c*NumCond + 8]) bonus = bonus - reg8(regs_i, chip_pkg::ER_ROOK_TRAP + c*4, 8);
      if (cond_q[c*NumCond + 9]) bonus = bonus - reg8(regs_i, chip_pkg::ER_ROOK_TRAP + c*4 + 1, 8);
      if (cond_q[c*NumCond + 10]) bonus = bonus - reg8(regs_i, chip_pkg::ER_ROOK_TRAP + c*4 + 2, 8);
      if (cond_q[c*NumCond + 11]) bonus = bonus - reg8(regs_i, chip_pkg::ER_ROOK_TRAP + c*4 + 3, 8);
      if (cond_q[c*NumCond + 12]) bonus = bonus - reg8(regs_i, chip_pkg::ER_QUEEN_TRAP + c, 8);
      acc = (c == 1) ? acc - $signed(bonus) : acc + $signed(bonus);
    end
    value_o = acc[15:0];
  end
endmodule
