// One cell column of the slow evaluation's 8x1 array for one side: the table indices that file f
// yields for colour Colour (rooks on files, multiple pawns, passed pawns). Each bitboard is cut
// into the file's 8-bit column seen from the side's own end (bit r = relative rank r, "ahead" is
// a higher bit for both colours). Reference: file_indices in host/chip/slow_eval.cpp.
// Computed only while en_i (the slow evaluation busy), zero otherwise: a simulator skips the
// logic then (the scan registers the outputs every clock but uses only the busy clocks' values).
module es_file #(
  parameter bit Colour = 1'b0
) (
  input  logic         en_i,
  input  logic [2:0]   file_i,
  input  logic [63:0]  occupied_i,
  // The whole es_board outputs; each side's instance reads only the parts it needs.
  /* verilator lint_off UNUSEDSIGNAL */
  input  logic [767:0] pieces_i,
  input  logic [639:0] attacks_i,
  input  logic [127:0] passed_i,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic [7:0]   rook_idx_o,   // ROOK_FILES index
  output logic         lever_o,      // every own pawn of the file is a lever: half-open at half value
  output logic         mp_valid_o,   // two or more own pawns on the file
  output logic [6:0]   mp_idx_o,     // MULTI_PAWNS index
  output logic         pp_valid_o,   // an own passed pawn on the file
  output logic [8:0]   pp_idx_o      // PASSED index
);
  localparam int Own = Colour ? 1 : 0;
  localparam int Opp = Colour ? 0 : 1;


  logic [3:0] f, f_left, f_right;
  assign f       = {1'b0, file_i};
  assign f_left  = f - 4'd1;  // 15 for file a: off the board
  assign f_right = f + 4'd1;

  logic [7:0] own, opp, own_beside, rooks, enemy_minors, enemy_pawn_att, enemy_minor_att, enemy_any;
  logic [7:0] own_pawn_att, occupied, passed, passed_beside;
  logic [63:0] enemy_any_bb;

  logic [1:0] centrality;
  assign centrality = file_i[2] ? ~file_i[1:0] : file_i[1:0];

  // Rooks on files (AIJ 7.2).
  logic       unopposed, semi_open;
  logic [1:0] blockage, rook_count;
  logic [3:0] free_rooks;
  logic [7:0] front_oh, front_below;
  // A pawn that can capture an enemy pawn (a lever) is semi-transparent to rooks (AIJ 7.2): when
  // every own pawn on the file is one, the file is looked up as half-open, at half the value.
  logic [7:0] opp_beside;

  // Multiple pawns.
  logic [3:0] npawns;
  logic [7:0] rear_oh;
  logic [3:0] mp_sub;
  logic       backward;

  // Passed pawns: the most advanced own passed pawn of the file.
  logic [7:0] top_oh;
  logic [2:0] top_rank, rank_class;
  logic       blocked, protect, connected, free;

  always_comb begin
    enemy_any_bb = '0;
    own = '0;
    opp = '0;
    own_beside = '0;
    rooks = '0;
    enemy_minors = '0;
    enemy_pawn_att = '0;
    enemy_minor_att = '0;
    enemy_any = '0;
    own_pawn_att = '0;
    occupied = '0;
    passed = '0;
    passed_beside = '0;
    unopposed = '0;
    opp_beside = '0;
    lever_o = '0;
    semi_open = '0;
    free_rooks = '0;
    rook_count = '0;
    front_oh = '0;
    front_below = '0;
    blockage = '0;
    rook_idx_o = '0;
    npawns = '0;
    rear_oh = '0;
    mp_sub = '0;
    backward = '0;
    mp_valid_o = '0;
    mp_idx_o = '0;
    top_oh = '0;
    top_rank = '0;
    rank_class = '0;
    blocked = '0;
    protect = '0;
    connected = '0;
    free = '0;
    pp_valid_o = '0;
    pp_idx_o = '0;
    if (en_i) begin
      enemy_any_bb = attacks_i[(Opp*5)*64 +: 64] | attacks_i[(Opp*5+1)*64 +: 64] |
                     attacks_i[(Opp*5+2)*64 +: 64] | attacks_i[(Opp*5+3)*64 +: 64] |
                     attacks_i[(Opp*5+4)*64 +: 64];
      own             = es_pkg::column(pieces_i[(Own*6)*64 +: 64], f, Colour);
      opp             = es_pkg::column(pieces_i[(Opp*6)*64 +: 64], f, Colour);
      own_beside      = es_pkg::column(pieces_i[(Own*6)*64 +: 64], f_left, Colour) | es_pkg::column(pieces_i[(Own*6)*64 +: 64], f_right, Colour);
      rooks           = es_pkg::column(pieces_i[(Own*6+3)*64 +: 64], f, Colour);
      enemy_minors    = es_pkg::column(pieces_i[(Opp*6+1)*64 +: 64] | pieces_i[(Opp*6+2)*64 +: 64], f, Colour);
      enemy_pawn_att  = es_pkg::column(attacks_i[(Opp*5)*64 +: 64], f, Colour);
      enemy_minor_att = es_pkg::column(attacks_i[(Opp*5+1)*64 +: 64], f, Colour);
      enemy_any       = es_pkg::column(enemy_any_bb, f, Colour);
      own_pawn_att    = es_pkg::column(attacks_i[(Own*5)*64 +: 64], f, Colour);
      occupied        = es_pkg::column(occupied_i, f, Colour);
      passed          = es_pkg::column(passed_i[Own*64 +: 64], f, Colour) & own;
      passed_beside   = es_pkg::column(passed_i[Own*64 +: 64], f_left, Colour) | es_pkg::column(passed_i[Own*64 +: 64], f_right, Colour);
      unopposed   = opp == 8'd0;
      opp_beside  = es_pkg::column(pieces_i[(Opp*6)*64 +: 64], f_left, Colour) | es_pkg::column(pieces_i[(Opp*6)*64 +: 64], f_right, Colour);
      lever_o     = own != 8'd0 && (own & ~(opp_beside >> 1)) == 8'd0;
      semi_open   = own == 8'd0 || lever_o;
      free_rooks  = es_pkg::popcount8(rooks & ~es_pkg::below_highest(own));
      rook_count  = (free_rooks >= 4'd2) ? 2'd2 : free_rooks[1:0];
      front_oh    = opp & (~opp + 8'd1);  // the enemy pawn nearest this side's end
      front_below = es_pkg::below_lowest(opp);
      blockage = 2'd0;
      if (unopposed) begin
        if (|(enemy_minors & enemy_pawn_att)) blockage = 2'd1;
        else if (enemy_minor_att[6] && enemy_minor_att[7]) blockage = 2'd2;
        else if (enemy_any[6] && enemy_any[7]) blockage = 2'd3;
      end else begin
        if (|(enemy_pawn_att & front_oh)) blockage = 2'd3;                          // granite
        else if (|(enemy_minors & enemy_pawn_att & front_below)) blockage = 2'd1;   // shielded
        else if (|(enemy_minor_att & front_oh)) blockage = 2'd2;                    // minor-protected
      end
      rook_idx_o = es_pkg::times3(8'(({4'd0, unopposed, blockage} * 8'd2 + {7'd0, semi_open}) * 8'd4 +
                                     {6'd0, centrality})) + {6'd0, rook_count};
      npawns     = es_pkg::popcount8(own);
      rear_oh    = own & (~own + 8'd1);
      mp_sub     = {opp != 8'd0, npawns >= 4'd3, centrality};
      backward   = ((own_beside & (rear_oh | es_pkg::below_lowest(own))) == 8'd0) &&
                   |(enemy_pawn_att & (rear_oh << 1));
      mp_valid_o = npawns >= 4'd2;
      if (own_beside == 8'd0)            mp_idx_o = {3'd0, mp_sub};
      else if (|(own & own_beside))      mp_idx_o = 7'd32 + {3'd0, mp_sub};
      else if (|(own & own_pawn_att))    mp_idx_o = 7'd16 + {3'd0, mp_sub};
      else                               mp_idx_o = 7'd48 + {2'd0, backward, 4'd0} + {3'd0, mp_sub};
      top_oh   = '0;
      top_rank = '0;
      for (int r = 0; r < 8; r++) begin
        if (passed[r]) begin
          top_oh   = 8'd1 << r;
          top_rank = 3'(r);
        end
      end
      rank_class = (top_rank <= 3'd2) ? 3'd0 : (top_rank == 3'd7) ? 3'd4 : top_rank - 3'd2;
      blocked    = |(occupied & (top_oh << 1));
      protect    = |(own_pawn_att & top_oh);
      connected  = passed_beside != 8'd0;
      free       = !top_oh[7] && !(|(enemy_any & (top_oh << 1)));
      pp_valid_o = passed != 8'd0;
      pp_idx_o   = 9'(({6'd0, rank_class} * 9'd4 + {7'd0, centrality}) * 9'd16) +
                   {5'd0, blocked, protect, connected, free};
    end
  end
endmodule
