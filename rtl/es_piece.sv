// Bishops and minor pieces, one side, one file of the scan (the column seen from the side's own
// end): MINOR_ON_WEAK, the two BISHOPS diagonals of the file's own bishop nearest its side,
// SELF_BLOCK, OPP_BLOCK and BACK_BLOCK indices; and the side's TRAPPED_BISHOP index (whole board).
// Reference: host/chip/slow_pieces.cpp; index layouts in docs/evaluation.md.
module es_piece #(
  parameter bit Colour = 1'b0
) (
  input  logic [2:0]   file_i,
  input  logic [63:0]  occupied_i,
  // The whole es_board outputs; each side's instance reads only the parts it needs.
  /* verilator lint_off UNUSEDSIGNAL */
  input  logic [767:0] pieces_i,
  input  logic [639:0] attacks_i,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic         mow_valid_o,
  output logic [7:0]   mow_idx_o,
  output logic         bis_valid_o,
  output logic [6:0]   bis_idx0_o,
  output logic [6:0]   bis_idx1_o,
  output logic         sb_valid_o,
  output logic [8:0]   sb_idx_o,
  output logic         ob_valid_o,
  output logic [6:0]   ob_idx_o,
  output logic         bb_valid_o,
  output logic [7:0]   bb_idx_o,
  output logic         tb_valid_o,
  output logic [6:0]   tb_idx_o
);
  localparam int Own = Colour ? 1 : 0;
  localparam int Opp = Colour ? 0 : 1;

  logic [63:0] own_pawns, opp_pawns, own_n, own_b, opp_n, opp_b, opp_k, opp_k_att, own_pawn_att_bb, opp_pawn_att_bb;
  assign own_pawns       = pieces_i[(Own*6)*64 +: 64];
  assign opp_pawns       = pieces_i[(Opp*6)*64 +: 64];
  assign own_n           = pieces_i[(Own*6 + 1)*64 +: 64];
  assign own_b           = pieces_i[(Own*6 + 2)*64 +: 64];
  assign opp_n           = pieces_i[(Opp*6 + 1)*64 +: 64];
  assign opp_b           = pieces_i[(Opp*6 + 2)*64 +: 64];
  assign opp_k           = pieces_i[(Opp*6 + 5)*64 +: 64];
  assign opp_k_att       = attacks_i[(Opp*5 + 4)*64 +: 64];
  assign own_pawn_att_bb = attacks_i[(Own*5)*64 +: 64];
  assign opp_pawn_att_bb = attacks_i[(Opp*5)*64 +: 64];

  logic [3:0] f;
  assign f = {1'b0, file_i};
  logic [7:0] own, opp, opp_beside, own_minor, own_bishop, own_pawn_att, opp_pawn_att, light, bishop_colour;
  assign own          = es_pkg::column(own_pawns, f, Colour);
  assign opp          = es_pkg::column(opp_pawns, f, Colour);
  assign opp_beside   = es_pkg::column(opp_pawns, f - 4'd1, Colour) | es_pkg::column(opp_pawns, f + 4'd1, Colour);
  assign own_minor    = es_pkg::column(own_n | own_b, f, Colour);
  assign own_bishop   = es_pkg::column(own_b, f, Colour);
  assign own_pawn_att = es_pkg::column(own_pawn_att_bb, f, Colour);
  assign opp_pawn_att = es_pkg::column(opp_pawn_att_bb, f, Colour);
  assign light        = es_pkg::column(es_pkg::Light, f, Colour);
  logic has_light, has_dark, two;
  assign has_light     = (own_b & es_pkg::Light) != 64'd0;
  assign has_dark      = (own_b & ~es_pkg::Light) != 64'd0;
  assign two           = has_light && has_dark;
  assign bishop_colour = (has_light ? light : 8'd0) | (has_dark ? ~light : 8'd0);

  logic [1:0] centrality;
  assign centrality = file_i[2] ? ~file_i[1:0] : file_i[1:0];

  // Absolute square of relative rank r on this file.
  function automatic logic [5:0] square(input logic [2:0] r);
    square = {Colour ? 3'd7 - r : r, file_i};
  endfunction

  // Minor on a weak square (relative rank >= 3, no enemy pawn beside the file ahead of it).
  logic [7:0] outposts, out_oh;
  logic [2:0] out_rank, out_class;
  logic [5:0] out_sq;
  logic       out_light;
  logic [1:0] challenge;
  assign outposts  = own_minor & ~es_pkg::below_highest(opp_beside) & 8'hF8;
  assign out_oh    = es_pkg::highest_oh(outposts);
  assign out_rank  = es_pkg::index8(out_oh);
  assign out_class = (out_rank >= 3'd6) ? 3'd3 : out_rank - 3'd3;
  assign out_sq    = square(out_rank);
  assign out_light = es_pkg::Light[out_sq];
  assign challenge = ((opp_b & (out_light ? es_pkg::Light : ~es_pkg::Light)) != 64'd0) ? 2'd2 :
                     (opp_n != 64'd0) ? 2'd1 : 2'd0;
  assign mow_valid_o = outposts != 8'd0;
  assign mow_idx_o   = 8'((((({5'd0, out_class} * 8'd4 + {6'd0, centrality}) * 8'd2 + {7'd0, |(own_bishop & out_oh)}) * 8'd2 +
                         {7'd0, |(own_pawn_att & out_oh)}) * 8'd3) + {6'd0, challenge});

  // Bishop diagonals: the file's own bishop nearest its side; relative direction 0 is the a1-h8
  // diagonal seen from the side's end (for black the a8-h1 one on the board).
  logic [7:0]  bis_oh;
  logic [2:0]  bis_rank;
  logic [63:0] one, empty, zone;
  logic [63:0] main_att, anti_att, main_line, anti_line;
  assign bis_oh    = es_pkg::lowest_oh(own_bishop);
  assign bis_rank  = es_pkg::index8(bis_oh);
  assign one       = 64'd1 << square(bis_rank);
  assign empty     = ~occupied_i;
  assign zone      = opp_k_att | opp_k;
  assign main_att  = es_pkg::slide(one, empty, 9, es_pkg::NotA) | es_pkg::slide(one, empty, -9, es_pkg::NotH);
  assign anti_att  = es_pkg::slide(one, empty, 7, es_pkg::NotH) | es_pkg::slide(one, empty, -7, es_pkg::NotA);
  assign main_line = es_pkg::slide(one, '1, 9, es_pkg::NotA) | es_pkg::slide(one, '1, -9, es_pkg::NotH) | one;
  assign anti_line = es_pkg::slide(one, '1, 7, es_pkg::NotH) | es_pkg::slide(one, '1, -7, es_pkg::NotA) | one;
  logic [63:0] att_d [2], line_d [2];
  always_comb begin
    att_d[0]  = Colour ? anti_att : main_att;
    line_d[0] = Colour ? anti_line : main_line;
    att_d[1]  = Colour ? main_att : anti_att;
    line_d[1] = Colour ? main_line : anti_line;
  end
  logic [2:0] feat [2];
  always_comb begin
    for (int d = 0; d < 2; d++) begin
      feat[d] = {es_pkg::popcount64(att_d[d]) >= 7'd4, (line_d[d] & own_pawns) != 64'd0, (line_d[d] & zone) != 64'd0};
    end
  end
  assign bis_valid_o = own_bishop != 8'd0;
  assign bis_idx0_o  = {4'({1'b0, file_i} + 4'd7 - {1'b0, bis_rank}), feat[0]};
  assign bis_idx1_o  = {4'({1'b0, file_i} + {1'b0, bis_rank}), feat[1]};

  // Own pawns on an own bishop's colour (the most advanced one).
  logic [7:0] self, self_oh;
  logic [2:0] self_rank, self_class;
  assign self       = own & bishop_colour;
  assign self_oh    = es_pkg::highest_oh(self);
  assign self_rank  = es_pkg::index8(self_oh);
  assign self_class = (self_rank <= 3'd1) ? 3'd0 : (self_rank >= 3'd5) ? 3'd4 : self_rank - 3'd1;
  assign sb_valid_o = self != 8'd0;
  assign sb_idx_o   = 9'((((({6'd0, self_class} * 9'd4 + {7'd0, centrality}) * 9'd2 + {8'd0, |(opp & (self_oh << 1))}) * 9'd2 +
                        {8'd0, |(own_pawn_att & self_oh)}) * 9'd2 + {8'd0, two}) * 9'd2 + {8'd0, opp != 8'd0});

  // The enemy pawn nearest this side, on an own bishop's colour.
  logic [7:0] front_oh;
  logic [2:0] front_rank, front_class;
  assign front_oh    = es_pkg::lowest_oh(opp);
  assign front_rank  = es_pkg::index8(front_oh);
  assign front_class = (front_rank <= 3'd2) ? 3'd0 : (front_rank >= 3'd5) ? 3'd3 : front_rank - 3'd2;
  assign ob_valid_o  = opp != 8'd0 && own_b != 64'd0 && |(bishop_colour & front_oh);
  assign ob_idx_o    = 7'((((({4'd0, front_class} * 7'd4 + {5'd0, centrality}) * 7'd2 + {6'd0, |(opp_pawn_att & front_oh)}) * 7'd2 +
                         {6'd0, |(own & (front_oh >> 1))}) * 7'd2) + {6'd0, two});

  // Doubled pawns when the side has a bishop.
  logic [7:0] rear_oh, top_oh;
  logic [2:0] rear_rank, rear_class;
  logic [3:0] npawns;
  assign rear_oh    = es_pkg::lowest_oh(own);
  assign top_oh     = es_pkg::highest_oh(own);
  assign rear_rank  = es_pkg::index8(rear_oh);
  assign rear_class = (rear_rank <= 3'd1) ? 3'd0 : (rear_rank >= 3'd5) ? 3'd4 : rear_rank - 3'd1;
  assign npawns     = es_pkg::popcount8(own);
  assign bb_valid_o = npawns >= 4'd2 && own_b != 64'd0;
  assign bb_idx_o   = 8'((((({5'd0, rear_class} * 8'd4 + {6'd0, centrality}) * 8'd2 + {7'd0, |(bishop_colour & rear_oh)}) * 8'd2 +
                       {7'd0, |(bishop_colour & top_oh)}) * 8'd2) + {7'd0, npawns >= 4'd3});

  // Trapped bishop: the first pattern {bishop, trapping pawn, escape square} (relative squares
  // a7/b6/b8, h7/g6/g8, b8/c7/a7, g8/f7/h7, a6/b5/b7, h6/g5/g7) with an own bishop on it.
  localparam logic [5:0] Flip = Colour ? 6'd56 : 6'd0;
  function automatic logic [17:0] pattern(input int k);
    unique case (k)
      0:       pattern = {6'd48, 6'd41, 6'd57};
      1:       pattern = {6'd55, 6'd46, 6'd62};
      2:       pattern = {6'd57, 6'd50, 6'd48};
      3:       pattern = {6'd62, 6'd53, 6'd55};
      4:       pattern = {6'd40, 6'd33, 6'd49};
      default: pattern = {6'd47, 6'd38, 6'd54};
    endcase
  endfunction
  always_comb begin
    tb_valid_o = 1'b0;
    tb_idx_o   = '0;
    for (int k = 5; k >= 0; k--) begin
      logic [5:0]  bsq, tsq, esq;
      logic [17:0] pat;
      pat = pattern(k);
      bsq = pat[17:12] ^ Flip;
      tsq = pat[11:6] ^ Flip;
      esq = pat[5:0] ^ Flip;
      if (own_b[bsq]) begin
        tb_valid_o = 1'b1;
        tb_idx_o   = {Colour, 3'(k), opp_pawns[tsq], opp_pawn_att_bb[tsq], occupied_i[esq] || opp_pawn_att_bb[esq]};
      end
    end
  end
endmodule
