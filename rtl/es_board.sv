// The slow evaluation's view of the board, combinational: bitboards of each colour and type,
// attack maps by attacker class (pawn, minor, rook, queen, king) for both colours, computed with
// Kogge-Stone occluded fills, and the passed pawns of both colours. Reference: SlowBoard and
// passed_pawns in host/chip/slow_eval.cpp. Bitboard bit s is square s (a1 = 0).
module es_board (
  input  logic         en_i,         // the outputs are valid when set (zero otherwise: nothing computed)
  input  logic [255:0] board_i,      // bit b of square s's piece at [b*64 + s]
  output logic [63:0]  occupied_o,
  output logic [767:0] pieces_o,     // colour c, type t (1-6): [(c*6 + t-1)*64 +: 64]
  output logic [639:0] attacks_o,    // colour c, class k (0 pawn, 1 minor, 2 rook, 3 queen, 4 king): [(c*5 + k)*64 +: 64]
  output logic [127:0] passed_o      // colour c: [c*64 +: 64]
);
  logic [63:0] bb [2][7];
  always_comb begin
    logic [63:0] of_type;
    of_type = '0;
    for (int c = 0; c < 2; c++) begin
      for (int t = 0; t < 7; t++) bb[c][t] = '0;
    end
    occupied_o = '0;
    if (en_i) begin
      // Type t's squares from the type's three planes, split by the colour plane.
      for (int t = 1; t < 7; t++) begin
        of_type  = (t[0] ? board_i[0 +: 64] : ~board_i[0 +: 64]) &
                   (t[1] ? board_i[64 +: 64] : ~board_i[64 +: 64]) &
                   (t[2] ? board_i[128 +: 64] : ~board_i[128 +: 64]);
        bb[0][t] = of_type & ~board_i[192 +: 64];
        bb[1][t] = of_type & board_i[192 +: 64];
      end
      occupied_o = (board_i[0 +: 64] | board_i[64 +: 64] | board_i[128 +: 64]) &
                   ~(board_i[0 +: 64] & board_i[64 +: 64] & board_i[128 +: 64]);
    end
  end

  logic [63:0] empty;
  assign empty = ~occupied_o;
  always_comb begin
    for (int c = 0; c < 2; c++) begin
      for (int t = 1; t < 7; t++) pieces_o[(c*6 + t - 1)*64 +: 64] = bb[c][t];
    end
    attacks_o = '0;
    passed_o  = '0;
    if (en_i) begin
      attacks_o[0*64 +: 64] = ((bb[0][1] & es_pkg::NotH) << 9) | ((bb[0][1] & es_pkg::NotA) << 7);
      attacks_o[5*64 +: 64] = ((bb[1][1] & es_pkg::NotA) >> 9) | ((bb[1][1] & es_pkg::NotH) >> 7);
      for (int c = 0; c < 2; c++) begin
        attacks_o[(c*5 + 1)*64 +: 64] = es_pkg::knight(bb[c][2]) | es_pkg::diagonal(bb[c][3], empty);
        attacks_o[(c*5 + 2)*64 +: 64] = es_pkg::straight(bb[c][4], empty);
        attacks_o[(c*5 + 3)*64 +: 64] = es_pkg::diagonal(bb[c][5], empty) | es_pkg::straight(bb[c][5], empty);
        attacks_o[(c*5 + 4)*64 +: 64] = es_pkg::king(bb[c][6]);
      end
      // A pawn is passed when no enemy pawn stands ahead of it on its file or the files beside it.
      passed_o[0 +: 64]  = bb[0][1] & ~es_pkg::spread(es_pkg::fill_south(bb[1][1]) >> 8);
      passed_o[64 +: 64] = bb[1][1] & ~es_pkg::spread(es_pkg::fill_north(bb[0][1]) << 8);
    end
  end
endmodule
