// The slow evaluation's view of the board, combinational: bitboards of each colour and type,
// attack maps by attacker class (pawn, minor, rook, queen, king) for both colours, computed with
// Kogge-Stone occluded fills, and the passed pawns of both colours. Reference: SlowBoard and
// passed_pawns in host/chip/slow_eval.cpp. Bitboard bit s is square s (a1 = 0).
module es_board (
  input  logic [255:0] board_i,      // piece of square s at [s*4 +: 4]
  output logic [63:0]  occupied_o,
  output logic [767:0] pieces_o,     // colour c, type t (1-6): [(c*6 + t-1)*64 +: 64]
  output logic [639:0] attacks_o,    // colour c, class k (0 pawn, 1 minor, 2 rook, 3 queen, 4 king): [(c*5 + k)*64 +: 64]
  output logic [127:0] passed_o      // colour c: [c*64 +: 64]
);
  localparam logic [63:0] FileA = 64'h0101_0101_0101_0101;
  localparam logic [63:0] NotA  = ~FileA;
  localparam logic [63:0] NotH  = ~(FileA << 7);
  localparam logic [63:0] NotAB = ~(FileA | (FileA << 1));
  localparam logic [63:0] NotGH = ~((FileA << 6) | (FileA << 7));

  function automatic logic [63:0] shift(input logic [63:0] x, input int s);
    shift = (s > 0) ? (x << s) : (x >> (-s));
  endfunction

  // Squares attacked along one direction by the sliders in g (shift s, landing mask m).
  function automatic logic [63:0] slide(input logic [63:0] g0, input logic [63:0] empty, input int s,
                                        input logic [63:0] m);
    logic [63:0] g, p;
    g = g0;
    p = empty & m;
    g = g | (p & shift(g, s));
    p = p & shift(p, s);
    g = g | (p & shift(g, 2 * s));
    p = p & shift(p, 2 * s);
    g = g | (p & shift(g, 4 * s));
    slide = shift(g, s) & m;
  endfunction

  function automatic logic [63:0] diagonal(input logic [63:0] g, input logic [63:0] empty);
    diagonal = slide(g, empty, 9, NotA) | slide(g, empty, 7, NotH) | slide(g, empty, -7, NotA) |
               slide(g, empty, -9, NotH);
  endfunction

  function automatic logic [63:0] straight(input logic [63:0] g, input logic [63:0] empty);
    straight = slide(g, empty, 8, '1) | slide(g, empty, -8, '1) | slide(g, empty, 1, NotA) |
               slide(g, empty, -1, NotH);
  endfunction

  function automatic logic [63:0] knight(input logic [63:0] b);
    logic [63:0] h1, h2;
    h1 = ((b >> 1) & NotH) | ((b << 1) & NotA);
    h2 = ((b >> 2) & NotGH) | ((b << 2) & NotAB);
    knight = (h1 << 16) | (h1 >> 16) | (h2 << 8) | (h2 >> 8);
  endfunction

  function automatic logic [63:0] king(input logic [63:0] b);
    logic [63:0] side;
    side = ((b << 1) & NotA) | ((b >> 1) & NotH);
    king = side | ((b | side) << 8) | ((b | side) >> 8);
  endfunction

  // Fills along a file, inclusive: every square at or above (north) / below (south) a set bit.
  function automatic logic [63:0] fill_north(input logic [63:0] x);
    logic [63:0] y;
    y = x | (x << 8);
    y = y | (y << 16);
    fill_north = y | (y << 32);
  endfunction
  function automatic logic [63:0] fill_south(input logic [63:0] x);
    logic [63:0] y;
    y = x | (x >> 8);
    y = y | (y >> 16);
    fill_south = y | (y >> 32);
  endfunction
  function automatic logic [63:0] spread(input logic [63:0] x);
    spread = x | ((x << 1) & NotA) | ((x >> 1) & NotH);
  endfunction

  logic [63:0] bb [2][7];
  always_comb begin
    for (int c = 0; c < 2; c++) begin
      for (int t = 0; t < 7; t++) bb[c][t] = '0;
    end
    occupied_o = '0;
    for (int s = 0; s < 64; s++) begin
      for (int t = 1; t < 7; t++) begin
        if (board_i[s*4 +: 3] == 3'(t)) bb[board_i[s*4+3]][t][s] = 1'b1;
      end
      occupied_o[s] = board_i[s*4 +: 3] != 3'd0 && board_i[s*4 +: 3] != 3'd7;
    end
  end

  logic [63:0] empty;
  assign empty = ~occupied_o;
  always_comb begin
    for (int c = 0; c < 2; c++) begin
      for (int t = 1; t < 7; t++) pieces_o[(c*6 + t - 1)*64 +: 64] = bb[c][t];
    end
    attacks_o[0*64 +: 64] = ((bb[0][1] & NotH) << 9) | ((bb[0][1] & NotA) << 7);
    attacks_o[5*64 +: 64] = ((bb[1][1] & NotA) >> 9) | ((bb[1][1] & NotH) >> 7);
    for (int c = 0; c < 2; c++) begin
      attacks_o[(c*5 + 1)*64 +: 64] = knight(bb[c][2]) | diagonal(bb[c][3], empty);
      attacks_o[(c*5 + 2)*64 +: 64] = straight(bb[c][4], empty);
      attacks_o[(c*5 + 3)*64 +: 64] = diagonal(bb[c][5], empty) | straight(bb[c][5], empty);
      attacks_o[(c*5 + 4)*64 +: 64] = king(bb[c][6]);
    end
    // A pawn is passed when no enemy pawn stands ahead of it on its file or the files beside it.
    passed_o[0 +: 64]  = bb[0][1] & ~spread(fill_south(bb[1][1]) >> 8);
    passed_o[64 +: 64] = bb[1][1] & ~spread(fill_north(bb[0][1]) << 8);
  end
endmodule
