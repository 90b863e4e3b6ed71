// One cell column of the slow evaluation's 8x1 array, pawn family, for one side: the table indices
// that file f yields for colour Colour (PAWN_STRUCTURE for the rearmost own pawn, PAWN_SHELTER and
// PAWN_STORM on the files next to the own king) and whether an own rook stands behind the file's
// most advanced own passed pawn. Columns are seen from the side's own end (bit r = relative rank
// r). Reference: pawn_file_indices in host/chip/slow_pawns.cpp; index bits in docs/evaluation.md.
// Computed only while en_i (the slow evaluation busy), zero otherwise: a simulator skips the
// logic then (the scan registers the outputs every clock but uses only the busy clocks' values).
module es_pawns #(
  parameter bit Colour = 1'b0
) (
  input  logic         en_i,
  input  logic [2:0]   file_i,
  input  logic [63:0]  occupied_i,
  /* verilator lint_off UNUSEDSIGNAL */
  input  logic [767:0] pieces_i,
  input  logic [639:0] attacks_i,
  input  logic [127:0] passed_i,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic         ps_valid_o,   // an own pawn on the file
  output logic [7:0]   ps_idx_o,     // PAWN_STRUCTURE index (< 160)
  output logic         ks_valid_o,   // the file is next to the own king (shelter and storm)
  output logic [8:0]   sh_idx_o,     // PAWN_SHELTER index (< 384)
  output logic [6:0]   st_idx_o,     // PAWN_STORM index (< 128)
  output logic         rbp_o         // own rook behind the most advanced own passed pawn
);
  localparam int Own = Colour ? 1 : 0;
  localparam int Opp = Colour ? 0 : 1;

  // Lowest set bit: one-hot and position (0 when none).
  function automatic logic [2:0] lowest_pos(input logic [7:0] x);
    lowest_pos = '0;
    for (int r = 7; r >= 0; r--) begin
      if (x[r]) lowest_pos = 3'(r);
    end
  endfunction

  logic [3:0] f, f_left, f_right;
  assign f       = {1'b0, file_i};
  assign f_left  = f - 4'd1;
  assign f_right = f + 4'd1;

  logic [7:0] own, opp, own_beside, own_pawn_att, enemy_pawn_att, rooks, occupied, passed;

  logic [1:0] centrality;
  assign centrality = file_i[2] ? ~file_i[1:0] : file_i[1:0];

  // ---------------------------------------------------------------- structure of the rearmost pawn
  logic [2:0] rear;
  logic [7:0] rear_oh, ahead_of_rear;
  logic [2:0] cls;
  logic       opposed;
  logic [1:0] rank_class;

  // ---------------------------------------------------------------- shelter and storm
  // The own king: its lowest square (file, relative rank).
  logic [63:0] kings;
  logic        king_there;
  logic [2:0]  king_file, king_rank;
  assign kings = pieces_i[(Own*6+5)*64 +: 64];
  logic [3:0] dfile;

  logic [7:0] above_king, shelter, storm;
  logic [2:0] sh_pos, st_pos, sh_dist, st_dist;
  logic       defended, blocked, back;
  logic [1:0] rel_file;

  // ---------------------------------------------------------------- rook behind a passed pawn
  // The nearest occupied square behind the most advanced own passed pawn holds an own rook.
  logic [7:0] behind;
  logic [2:0] near_pos;

  always_comb begin
    own = '0;
    opp = '0;
    own_beside = '0;
    own_pawn_att = '0;
    enemy_pawn_att = '0;
    rooks = '0;
    occupied = '0;
    passed = '0;
    rear = '0;
    rear_oh = '0;
    ahead_of_rear = '0;
    opposed = '0;
    rank_class = '0;
    cls = '0;
    ps_valid_o = '0;
    ps_idx_o = '0;
    king_there = '0;
    king_file = '0;
    king_rank = '0;
    dfile = '0;
    ks_valid_o = '0;
    above_king = '0;
    shelter = '0;
    storm = '0;
    sh_pos = '0;
    st_pos = '0;
    sh_dist = '0;
    st_dist = '0;
    defended = '0;
    blocked = '0;
    back = '0;
    rel_file = '0;
    sh_idx_o = '0;
    st_idx_o = '0;
    behind = '0;
    near_pos = '0;
    rbp_o = '0;
    if (en_i) begin
      own            = es_pkg::column(pieces_i[(Own*6)*64 +: 64], f, Colour);
      opp            = es_pkg::column(pieces_i[(Opp*6)*64 +: 64], f, Colour);
      own_beside     = es_pkg::column(pieces_i[(Own*6)*64 +: 64], f_left, Colour) | es_pkg::column(pieces_i[(Own*6)*64 +: 64], f_right, Colour);
      own_pawn_att   = es_pkg::column(attacks_i[(Own*5)*64 +: 64], f, Colour);
      enemy_pawn_att = es_pkg::column(attacks_i[(Opp*5)*64 +: 64], f, Colour);
      rooks          = es_pkg::column(pieces_i[(Own*6+3)*64 +: 64], f, Colour);
      occupied       = es_pkg::column(occupied_i, f, Colour);
      passed         = es_pkg::column(passed_i[Own*64 +: 64], f, Colour) & own;
      rear          = lowest_pos(own);
      rear_oh       = own & (~own + 8'd1);
      ahead_of_rear = 8'hFE << rear;
      opposed       = |(opp & ahead_of_rear);
      rank_class    = (rear <= 3'd1) ? 2'd0 : (rear >= 3'd4) ? 2'd3 : 2'(rear - 3'd1);
      if (own_beside == 8'd0)                                                     cls = 3'd0;  // isolated
      else if (|(own_beside & rear_oh))                                           cls = 3'd1;  // duo
      else if (|(own_pawn_att & rear_oh))                                         cls = 3'd2;  // supported
      else if ((own_beside & ~ahead_of_rear) == 8'd0 && |(enemy_pawn_att & (rear_oh << 1))) cls = 3'd3;  // backward
      else                                                                        cls = 3'd4;  // unsupported
      ps_valid_o = own != 8'd0;
      ps_idx_o   = 8'((({5'd0, cls} * 8'd2 + {7'd0, opposed}) * 8'd4 + {6'd0, rank_class}) * 8'd4 +
                      {6'd0, centrality});
      king_there = 1'b0;
      king_file  = '0;
      king_rank  = '0;
      for (int s = 63; s >= 0; s--) begin
        if (kings[s]) begin
          king_there = 1'b1;
          king_file  = 3'(s % 8);
          king_rank  = Colour ? 3'(7 - s / 8) : 3'(s / 8);
        end
      end
      dfile      = f - {1'b0, king_file};
      ks_valid_o = king_there && (dfile == 4'd0 || dfile == 4'd1 || dfile == 4'hF);
      above_king = 8'hFE << king_rank;
      shelter    = own & above_king;
      storm      = opp & above_king;
      sh_pos     = lowest_pos(shelter);
      st_pos     = lowest_pos(storm);
      sh_dist    = (shelter != 8'd0) ? sh_pos - king_rank : 3'd0;
      st_dist    = (storm != 8'd0) ? st_pos - king_rank : 3'd0;
      defended   = |(own_pawn_att & shelter & (~shelter + 8'd1));
      blocked    = |(own & ((storm & (~storm + 8'd1)) >> 1));
      back       = king_rank == 3'd0;
      rel_file   = 2'(dfile + 4'd1);
      sh_idx_o   = 9'((({7'd0, rel_file} * 9'd2 + {8'd0, back}) * 9'd4 + {7'd0, centrality}) * 9'd16) +
                   {5'd0, sh_dist, defended};
      st_idx_o   = 7'((({6'd0, dfile == 4'd0} * 7'd2 + {6'd0, blocked}) * 7'd8 + {4'd0, st_dist}) * 7'd4) +
                   {5'd0, centrality};
      behind = '0;
      for (int r = 0; r < 8; r++) begin
        if (passed[r]) behind = occupied & ~(8'hFF << r);
      end
      near_pos = '0;
      for (int r = 0; r < 8; r++) begin
        if (behind[r]) near_pos = 3'(r);
      end
      rbp_o = behind != 8'd0 && rooks[near_pos];
    end
  end
endmodule
