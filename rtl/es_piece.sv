// Bishops and minor pieces, one side, one file of the scan (the column seen from the side's own
// end): MINOR_ON_WEAK, the two BISHOPS diagonals of the file's own bishop nearest its side,
// SELF_BLOCK, OPP_BLOCK and BACK_BLOCK indices; and the side's TRAPPED_BISHOP index (whole board).
// Reference: host/chip/slow_pieces.cpp; index layouts in docs/evaluation.md.
// Computed only while en_i (the slow evaluation busy), zero otherwise: a simulator skips the
// logic then (the scan registers the outputs every clock but uses only the busy clocks' values).
module es_piece #(
  parameter bit Colour = 1'b0
) (
  input  logic         en_i,
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
  logic has_light, has_dark, two;

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

  // Bishop diagonals: the file's own bishop nearest its side; relative direction 0 is the a1-h8
  // diagonal seen from the side's end (for black the a8-h1 one on the board).
  logic [7:0]  bis_oh;
  logic [2:0]  bis_rank;
  logic [63:0] one, empty, zone;
  logic [63:0] main_att, anti_att, main_line, anti_line;
  assign empty     = ~occupied_i;
  logic [63:0] att_d [2], line_d [2];
  logic [2:0] feat [2];

  // Own pawns on an own bishop's colour (the most advanced one).
  logic [7:0] self, self_oh;
  logic [2:0] self_rank, self_class;

  // The enemy pawn nearest this side, on an own bishop's colour.
  logic [7:0] front_oh;
  logic [2:0] front_rank, front_class;

  // Doubled pawns when the side has a bishop.
  logic [7:0] rear_oh, top_oh;
  logic [2:0] rear_rank, rear_class;
  logic [3:0] npawns;

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
    logic [5:0]  bsq, tsq, esq;
    logic [17:0] pat;
    own = '0;
    opp = '0;
    opp_beside = '0;
    own_minor = '0;
    own_bishop = '0;
    own_pawn_att = '0;
    opp_pawn_att = '0;
    light = '0;
    has_light = '0;
    has_dark = '0;
    two = '0;
    bishop_colour = '0;
    outposts = '0;
    out_oh = '0;
    out_rank = '0;
    out_class = '0;
    out_sq = '0;
    out_light = '0;
    challenge = '0;
    mow_valid_o = '0;
    mow_idx_o = '0;
    bis_oh = '0;
    bis_rank = '0;
    one = '0;
    zone = '0;
    main_att = '0;
    anti_att = '0;
    main_line = '0;
    anti_line = '0;
    for (int d = 0; d < 2; d++) begin
      att_d[d]  = '0;
      line_d[d] = '0;
      feat[d]   = '0;
    end
    bis_valid_o = '0;
    bis_idx0_o = '0;
    bis_idx1_o = '0;
    self = '0;
    self_oh = '0;
    self_rank = '0;
    self_class = '0;
    sb_valid_o = '0;
    sb_idx_o = '0;
    front_oh = '0;
    front_rank = '0;
    front_class = '0;
    ob_valid_o = '0;
    ob_idx_o = '0;
    rear_oh = '0;
    top_oh = '0;
    rear_rank = '0;
    rear_class = '0;
    npawns = '0;
    bb_valid_o = '0;
    bb_idx_o = '0;
    tb_valid_o = '0;
    tb_idx_o = '0;
    pat = '0;
    bsq = '0;
    tsq = '0;
    esq = '0;
    if (en_i) begin
      own          = es_pkg::column(own_pawns, f, Colour);
      opp          = es_pkg::column(opp_pawns, f, Colour);
      opp_beside   = es_pkg::column(opp_pawns, f - 4'd1, Colour) | es_pkg::column(opp_pawns, f + 4'd1, Colour);
      own_minor    = es_pkg::column(own_n | own_b, f, Colour);
      own_bishop   = es_pkg::column(own_b, f, Colour);
      own_pawn_att = es_pkg::column(own_pawn_att_bb, f, Colour);
      opp_pawn_att = es_pkg::column(opp_pawn_att_bb, f, Colour);
      light        = es_pkg::column(es_pkg::Light, f, Colour);
      has_light     = (own_b & es_pkg::Light) != 64'd0;
      has_dark      = (own_b & ~es_pkg::Light) != 64'd0;
      two           = has_light && has_dark;
      bishop_colour = (has_light ? light : 8'd0) | (has_dark ? ~light : 8'd0);
      outposts  = own_minor & ~es_pkg::below_highest(opp_beside) & 8'hF8;
      out_oh    = es_pkg::highest_oh(outposts);
      out_rank  = es_pkg::index8(out_oh);
      out_class = (out_rank >= 3'd6) ? 3'd3 : out_rank - 3'd3;
      out_sq    = square(out_rank);
      out_light = es_pkg::Light[out_sq];
      challenge = ((opp_b & (out_light ? es_pkg::Light : ~es_pkg::Light)) != 64'd0) ? 2'd2 :
                  (opp_n != 64'd0) ? 2'd1 : 2'd0;
      mow_valid_o = outposts != 8'd0;
      mow_idx_o   = es_pkg::times3(8'((({5'd0, out_class} * 8'd4 + {6'd0, centrality}) * 8'd2 + {7'd0, |(own_bishop & out_oh)}) * 8'd2 +
                                      {7'd0, |(own_pawn_att & out_oh)})) + {6'd0, challenge};
      bis_oh    = es_pkg::lowest_oh(own_bishop);
      bis_rank  = es_pkg::index8(bis_oh);
      one       = 64'd1 << square(bis_rank);
      zone      = opp_k_att | opp_k;
      main_att  = es_pkg::slide(one, empty, 9, es_pkg::NotA) | es_pkg::slide(one, empty, -9, es_pkg::NotH);
      anti_att  = es_pkg::slide(one, empty, 7, es_pkg::NotH) | es_pkg::slide(one, empty, -7, es_pkg::NotA);
      main_line = es_pkg::slide(one, es_pkg::All, 9, es_pkg::NotA) | es_pkg::slide(one, es_pkg::All, -9, es_pkg::NotH) | one;
      anti_line = es_pkg::slide(one, es_pkg::All, 7, es_pkg::NotH) | es_pkg::slide(one, es_pkg::All, -7, es_pkg::NotA) | one;
      att_d[0]  = Colour ? anti_att : main_att;
      line_d[0] = Colour ? anti_line : main_line;
      att_d[1]  = Colour ? main_att : anti_att;
      line_d[1] = Colour ? main_line : anti_line;
      for (int d = 0; d < 2; d++) begin
        feat[d] = {es_pkg::popcount64(att_d[d]) >= 7'd4, (line_d[d] & own_pawns) != 64'd0, (line_d[d] & zone) != 64'd0};
      end
      bis_valid_o = own_bishop != 8'd0;
      bis_idx0_o  = {4'({1'b0, file_i} + 4'd7 - {1'b0, bis_rank}), feat[0]};
      bis_idx1_o  = {4'({1'b0, file_i} + {1'b0, bis_rank}), feat[1]};
      self       = own & bishop_colour;
      self_oh    = es_pkg::highest_oh(self);
      self_rank  = es_pkg::index8(self_oh);
      self_class = (self_rank <= 3'd1) ? 3'd0 : (self_rank >= 3'd5) ? 3'd4 : self_rank - 3'd1;
      sb_valid_o = self != 8'd0;
      sb_idx_o   = 9'((((({6'd0, self_class} * 9'd4 + {7'd0, centrality}) * 9'd2 + {8'd0, |(opp & (self_oh << 1))}) * 9'd2 +
                     {8'd0, |(own_pawn_att & self_oh)}) * 9'd2 + {8'd0, two}) * 9'd2 + {8'd0, opp != 8'd0});
      front_oh    = es_pkg::lowest_oh(opp);
      front_rank  = es_pkg::index8(front_oh);
      front_class = (front_rank <= 3'd2) ? 3'd0 : (front_rank >= 3'd5) ? 3'd3 : front_rank - 3'd2;
      ob_valid_o  = opp != 8'd0 && own_b != 64'd0 && |(bishop_colour & front_oh);
      ob_idx_o    = 7'((((({4'd0, front_class} * 7'd4 + {5'd0, centrality}) * 7'd2 + {6'd0, |(opp_pawn_att & front_oh)}) * 7'd2 +
                      {6'd0, |(own & (front_oh >> 1))}) * 7'd2) + {6'd0, two});
      rear_oh    = es_pkg::lowest_oh(own);
      top_oh     = es_pkg::highest_oh(own);
      rear_rank  = es_pkg::index8(rear_oh);
      rear_class = (rear_rank <= 3'd1) ? 3'd0 : (rear_rank >= 3'd5) ? 3'd4 : rear_rank - 3'd1;
      npawns     = es_pkg::popcount8(own);
      bb_valid_o = npawns >= 4'd2 && own_b != 64'd0;
      bb_idx_o   = 8'((((({5'd0, rear_class} * 8'd4 + {6'd0, centrality}) * 8'd2 + {7'd0, |(bishop_colour & rear_oh)}) * 8'd2 +
                    {7'd0, |(bishop_colour & top_oh)}) * 8'd2) + {7'd0, npawns >= 4'd3});
      tb_valid_o = 1'b0;
      tb_idx_o   = '0;
      for (int k = 5; k >= 0; k--) begin
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
  end
endmodule
