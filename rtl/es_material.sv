// Material and development indices of the slow evaluation, looked up once per evaluation in its
// last clock: the SIGNATURE index of each side, the JOINT_SIGNATURE / CONTEMPT index of the
// match-up, and the DEVELOPMENT index. Reference: material_indices in host/chip/slow_eval.cpp.
module es_material (
  input  logic [767:0] pieces_i,     // as es_board: colour c, type t (1-6) at [(c*6 + t-1)*64 +: 64]
  input  logic [3:0]   castling_i,   // 1 white O-O, 2 white O-O-O, 4 black O-O, 8 black O-O-O
  output logic [6:0]   sig_w_o,      // SIGNATURE index, white: {queens>=1, min(rooks,2), min(bishops,2), min(knights,2)}
  output logic [6:0]   sig_b_o,
  output logic [7:0]   joint_o,      // {white {Q,R,B,N present}, black {Q,R,B,N present}}
  output logic [7:0]   dev_o         // {white undeveloped, black undeveloped, white king, black king}
);
  function automatic logic [1:0] upto2(input logic [63:0] x);
    upto2 = (x == 64'd0) ? 2'd0 : es_pkg::two_or_more(x) ? 2'd2 : 2'd1;
  endfunction

  logic [63:0] n [2], b [2], r [2], q [2], k [2];
  always_comb begin
    for (int c = 0; c < 2; c++) begin
      n[c] = pieces_i[(c*6 + 1)*64 +: 64];
      b[c] = pieces_i[(c*6 + 2)*64 +: 64];
      r[c] = pieces_i[(c*6 + 3)*64 +: 64];
      q[c] = pieces_i[(c*6 + 4)*64 +: 64];
      k[c] = pieces_i[(c*6 + 5)*64 +: 64];
    end
  end

  assign sig_w_o = {q[0] != 64'd0, upto2(r[0]), upto2(b[0]), upto2(n[0])};
  assign sig_b_o = {q[1] != 64'd0, upto2(r[1]), upto2(b[1]), upto2(n[1])};
  assign joint_o = {q[0] != 64'd0, r[0] != 64'd0, b[0] != 64'd0, n[0] != 64'd0,
                    q[1] != 64'd0, r[1] != 64'd0, b[1] != 64'd0, n[1] != 64'd0};

  // Undeveloped minors: knights on b1/g1 and bishops on c1/f1 (b8/g8, c8/f8 for black), up to 3.
  // King: 0 castled (back rank, files a-c or g-h), 1 on e1 with a castling right left, 2 elsewhere
  // on the back rank, 3 off it.
  logic [1:0] undev [2], kstate [2];
  always_comb begin
    for (int c = 0; c < 2; c++) begin
      logic [2:0]  cnt;
      logic [7:0]  home_k;
      logic        rights;
      int          base;
      base   = (c == 1) ? 56 : 0;
      home_k = k[c][base +: 8];
      rights = (c == 1) ? (castling_i[3:2] != 2'd0) : (castling_i[1:0] != 2'd0);
      cnt = {2'd0, n[c][base + 1]} + {2'd0, n[c][base + 6]} + {2'd0, b[c][base + 2]} + {2'd0, b[c][base + 5]};
      undev[c] = (cnt >= 3'd3) ? 2'd3 : cnt[1:0];
      if (home_k == 8'd0) kstate[c] = 2'd3;
      else if ((home_k & 8'b1100_0111) != 8'd0) kstate[c] = 2'd0;
      else if (home_k[4] && rights) kstate[c] = 2'd1;
      else kstate[c] = 2'd2;
    end
  end
  assign dev_o = {undev[0], undev[1], kstate[0], kstate[1]};

  logic unused;  // pawns and kings' other squares do not enter these indices
  assign unused = ^{pieces_i[0 +: 64], pieces_i[384 +: 64], k[0][63:8], k[1][55:0]};
endmodule
