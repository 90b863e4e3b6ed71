// The registers group of the slow evaluation (group 5; AIJ Table 4: BIAS, ROOK7, HUNG,
// BISHOP_PAIR, SIDE_TO_MOVE): features of the whole board weighted by single registers. White's
// view, 16-bit wrap-around. Reference: the regs sum of slow_group_values in
// host/chip/slow_features.cpp. Combinational from the slow evaluation's registered board maps and
// the registers, both stable while it is busy: eval_slow registers the value every clock and the
// sum clock takes it from the clock before.
module es_registers (
  input  logic [767:0] pieces_i,      // es_board's piece bitboards, colour c piece p at [(c*6 + p)*64]
  input  logic [639:0] attacks_i,     // es_board's attacks, colour c class k at [(c*5 + k)*64]
  input  logic [127:0] any_att_i,     // squares each colour attacks, colour c at [c*64 +: 64]
  input  logic         stm_i,
  // The registers' weights, per colour c (white 0, black 1) where there are two.
  input  logic [7:0]   bias_i,        // BIAS (signed)
  input  logic [95:0]  rook7_i,       // ROOK7 + c*6 + k at [(c*6 + k)*8 +: 8]
  input  logic [27:0]  hung_i,        // HUNG + c*2 + (on move ? 0 : 1) at [(c*2 + j)*7 +: 7]
  input  logic [13:0]  bishop_pair_i, // BISHOP_PAIR + c at [c*7 +: 7]
  input  logic [7:0]   side_to_move_i,// SIDE_TO_MOVE + c at [c*4 +: 4]
  output logic [15:0]  value_o
);
  localparam logic [63:0] Row7W = 64'h00FF_0000_0000_0000;
  localparam logic [63:0] Row8W = 64'hFF00_0000_0000_0000;
  localparam logic [63:0] Row7B = 64'h0000_0000_0000_FF00;
  localparam logic [63:0] Row8B = 64'h0000_0000_0000_00FF;

  always_comb begin
    logic signed [31:0] acc;
    acc = 32'($signed(bias_i));
    for (int c = 0; c < 2; c++) begin
      logic [63:0] row7, row8, rooks7, enemy_king, enemy_men, front, own_att, their_att;
      logic [7:0]  r7;
      logic [6:0]  v7;
      logic        kind_ok;
      logic [1:0]  kind;
      row7       = (c == 1) ? Row7B : Row7W;
      row8       = (c == 1) ? Row8B : Row8W;
      own_att    = any_att_i[c*64 +: 64];
      their_att  = any_att_i[(1-c)*64 +: 64];
      rooks7     = pieces_i[(c*6 + 3)*64 +: 64] & row7;
      enemy_king = pieces_i[((1-c)*6 + 5)*64 +: 64];
      front      = attacks_i[((1-c)*5 + 4)*64 +: 64] & row7;
      kind_ok    = 1'b1;
      kind       = 2'd0;
      // ROOK7 + (two or more ? 3 : 0) + kind: rooks on the 7th with the enemy king on the 8th
      // (kind 1 when we attack every square it has on the 7th, else 2), or enemy pawns on the 7th
      // (kind 0); nothing otherwise.
      if ((enemy_king & row8) != 64'd0) kind = ((front & ~own_att) == 64'd0) ? 2'd1 : 2'd2;
      else if ((pieces_i[((1-c)*6)*64 +: 64] & row7) == 64'd0) kind_ok = 1'b0;
      r7 = rook7_i[(c*6 + (es_pkg::two_or_more(rooks7) ? 3 : 0) + 32'(kind))*8 +: 8];
      if (rooks7 != 64'd0 && kind_ok) acc = (c == 1) ? acc - 32'(r7) : acc + 32'(r7);
      // HUNG: an enemy man attacked and not defended, by whether this side is on move.
      enemy_men = pieces_i[((1-c)*6)*64 +: 64] | pieces_i[((1-c)*6 + 1)*64 +: 64] |
                  pieces_i[((1-c)*6 + 2)*64 +: 64] | pieces_i[((1-c)*6 + 3)*64 +: 64] |
                  pieces_i[((1-c)*6 + 4)*64 +: 64];
      v7 = hung_i[(c*2 + (((c == 1) == stm_i) ? 0 : 1))*7 +: 7];
      if ((enemy_men & own_att & ~their_att) != 64'd0) acc = (c == 1) ? acc - 32'(v7) : acc + 32'(v7);
      v7 = bishop_pair_i[c*7 +: 7];
      if (es_pkg::two_or_more(pieces_i[(c*6 + 2)*64 +: 64])) acc = (c == 1) ? acc - 32'(v7) : acc + 32'(v7);
    end
    acc = stm_i ? acc - 32'(side_to_move_i[7:4]) : acc + 32'(side_to_move_i[3:0]);
    value_o = acc[15:0];
  end
endmodule
