// The 8x8 move-generator array: 64 mg_cell instances, the fixed knight/king/pawn wiring between
// them, the ray chains of the two networks, castling conditions, and the two arbiters.
//
// All outputs are combinational functions of the board registers and the inputs, so the
// controller gets, in one clock: the best next target (victim) square, the best attacker of the
// selected target square, check and legality flags, the hung-piece map and the pinned-piece map.
module mg_array (
  input  logic        clk_i,
  input  logic        rst_ni,
  // Board writes (up to four squares per clock), or clear the whole board.
  input  logic        clear_i,
  input  logic [3:0]  wr_en_i,
  input  logic [23:0] wr_sq_i,
  input  logic [15:0] wr_pc_i,
  output logic [255:0] board_o,      // piece of square s at [s*4 +: 4]
  // Position state kept by the controller.
  input  logic        stm_i,
  input  logic [3:0]  castling_i,
  input  logic        ep_valid_i,
  input  logic [5:0]  ep_sq_i,
  // Find-victim: mode mask and "strictly after the target of the last move".
  input  logic        tgt_capt_only_i,
  // The checks filter (GEN's CHECKS mode, a quiescence node's checks): the targets and attackers
  // of non-captures that may give check, captures as they are.
  input  logic        chk_only_i,
  input  logic        tgt_mask_en_i,
  input  logic [5:0]  tgt_last_sq_i,
  output logic        tgt_found_o,
  output logic [5:0]  tgt_sq_o,
  output logic [63:0] tgt_cand_o,
  // Find-attacker on square tsel: "strictly after the attacker of the last move".
  input  logic [5:0]  tsel_sq_i,
  input  logic        att_mask_en_i,
  input  logic [5:0]  att_last_sq_i,
  output logic        att_found_o,
  output logic [5:0]  att_sq_o,
  output logic [63:0] att_cand_o,
  // The piece on tsel attacks a non-king piece of the side to move (attacking-move test).
  output logic        tsel_attacks_o,
  // Status.
  output logic        in_check_o,       // the side to move's king is attacked
  output logic        king_capture_o,   // the side to move can capture the other king (illegal)
  output logic [63:0] hung_o,         // the side to move's men attacked and not defended
  output logic        opp_hung_o,     // the other side has such a man
  output logic [63:0] pinned_o,       // the side to move's men pinned to their own king (absolute pins)
  // The side to move's king ring and its escape squares (not own men, not attacked; like the
  // attack maps they do not look through the king): none, or exactly one.
  output logic [63:0] king_ring_o,
  output logic        esc_none_o,
  output logic        esc_one_o
);
  logic [255:0] board;
  assign board_o = board;

  // Per-square piece classes, from the board's four bit planes (plane b: bit b of each square's
  // piece code).
  logic [63:0] plane [4];
  logic [63:0] empty, black, type6;
  logic [127:0] is_pawn, is_knight, is_king;  // colour c, square s at [c*64 + s]
  always_comb begin
    for (int s = 0; s < 64; s++) begin
      for (int b = 0; b < 4; b++) plane[b][s] = board[s*4 + b];
    end
  end
  always_comb begin
    logic [63:0] pawn, knight;
    empty  = ~(plane[0] | plane[1] | plane[2]);
    black  = plane[3];
    pawn   = plane[0] & ~plane[1] & ~plane[2];
    knight = ~plane[0] & plane[1] & ~plane[2];
    type6  = ~plane[0] & plane[1] & plane[2];
    is_pawn   = {black & pawn, ~black & pawn};
    is_knight = {black & knight, ~black & knight};
    is_king   = {black & type6, ~black & type6};
  end

  logic [63:0] tsel_1h;
  always_comb begin
    tsel_1h = '0;
    tsel_1h[tsel_sq_i] = 1'b1;
  end

  // Fixed short-range wiring: knight, king and pawn patterns, pawn pushes. Square s is bit s
  // (a1 = 0); the patterns are shifts of the whole board with the wrapped files masked off (the
  // same wires as a per-square OR of the neighbours, in a form a simulator evaluates a word at a
  // time).
  localparam logic [63:0] FileA = 64'h0101_0101_0101_0101;
  localparam logic [63:0] NotA  = ~FileA;
  localparam logic [63:0] NotH  = ~(FileA << 7);
  localparam logic [63:0] NotAB = ~(FileA | (FileA << 1));
  localparam logic [63:0] NotGH = ~((FileA << 6) | (FileA << 7));
  localparam logic [63:0] Rank1 = 64'h0000_0000_0000_00FF;
  localparam logic [63:0] Rank2 = 64'h0000_0000_0000_FF00;
  localparam logic [63:0] Rank4 = 64'h0000_0000_FF00_0000;
  localparam logic [63:0] Rank5 = 64'h0000_00FF_0000_0000;
  localparam logic [63:0] Rank7 = 64'h00FF_0000_0000_0000;
  localparam logic [63:0] Rank8 = 64'hFF00_0000_0000_0000;

  // The squares a knight's move away from a square in src.
  function automatic logic [63:0] knight_or(input logic [63:0] src);
    logic [63:0] h1, h2;
    h1 = ((src >> 1) & NotH) | ((src << 1) & NotA);
    h2 = ((src >> 2) & NotGH) | ((src << 2) & NotAB);
    knight_or = (h1 << 16) | (h1 >> 16) | (h2 << 8) | (h2 >> 8);
  endfunction

  // The squares next to a square in src.
  function automatic logic [63:0] king_or(input logic [63:0] src);
    logic [63:0] side;
    side    = ((src << 1) & NotA) | ((src >> 1) & NotH);
    king_or = side | ((src | side) << 8) | ((src | side) >> 8);
  endfunction

  // up = 1: the squares one rank above, diagonally; up = 0: one rank below.
  function automatic logic [63:0] diag_step_or(input logic [63:0] src, input logic up);
    diag_step_or = up ? (((src >> 9) & NotH) | ((src >> 7) & NotA))
                      : (((src << 7) & NotH) | ((src << 9) & NotA));
  endfunction

  logic [127:0] knight_hit, king_hit, pawn_hit;  // colour c of square s at [s*2 + c]
  logic [63:0] kn_w, kn_b, kg_w, kg_b, pw_hit_w, pw_hit_b;
  assign kn_w     = knight_or(is_knight[63:0]);
  assign kn_b     = knight_or(is_knight[127:64]);
  assign kg_w     = king_or(is_king[63:0]);
  assign kg_b     = king_or(is_king[127:64]);
  assign pw_hit_w = diag_step_or(is_pawn[63:0], 1'b0);  // a white pawn one rank below attacks
  assign pw_hit_b = diag_step_or(is_pawn[127:64], 1'b1);  // a black pawn one rank above attacks

  logic [63:0] own_pawn, push_tgt, dpush_tgt;
  logic [63:0] kn_reach, kg_reach, pcap_reach, push_reach, dpush_reach;
  assign own_pawn   = stm_i ? is_pawn[127:64] : is_pawn[63:0];
  assign kn_reach   = knight_or(tsel_1h);
  assign kg_reach   = king_or(tsel_1h);
  // A pawn of the side to move here would capture onto the target: target one rank ahead.
  assign pcap_reach = diag_step_or(tsel_1h, !stm_i);
  always_comb begin
    if (!stm_i) begin
      push_tgt    = own_pawn << 8;
      push_reach  = tsel_1h >> 8;
      dpush_tgt   = (own_pawn << 16) & (empty << 8) & Rank4;
      dpush_reach = (tsel_1h >> 16) & (empty >> 8) & Rank2;
    end else begin
      push_tgt    = own_pawn >> 8;
      push_reach  = tsel_1h << 8;
      dpush_tgt   = (own_pawn >> 16) & (empty >> 8) & Rank5;
      dpush_reach = (tsel_1h << 16) & (empty << 8) & Rank7;
    end
  end

  // Attack maps gathered from the cells.
  logic [127:0] attacked;
  logic [63:0] atk_w, atk_b, atk_stm, atk_opp;
  always_comb begin
    for (int s = 0; s < 64; s++) begin
      atk_w[s] = attacked[s*2];
      atk_b[s] = attacked[s*2+1];
    end
  end
  assign atk_stm = stm_i ? atk_b : atk_w;
  assign atk_opp = stm_i ? atk_w : atk_b;

  // Castling: rights, king and rook at home, squares between empty, king's path not attacked
  // (the landing square is left to the legality test, as for every other king move).
  logic castle_k_ok, castle_q_ok;
  logic [5:0] base;
  assign base = stm_i ? 6'd56 : 6'd0;
  logic [3:0] home_king, home_rook_h, home_rook_a;
  assign home_king   = board[{base + 6'd4, 2'b00} +: 4];
  assign home_rook_h = board[{base + 6'd7, 2'b00} +: 4];
  assign home_rook_a = board[{base, 2'b00} +: 4];
  assign castle_k_ok = (stm_i ? castling_i[2] : castling_i[0]) && home_king == {stm_i, 3'd6} &&
                       home_rook_h == {stm_i, 3'd4} && empty[base+6'd5] && empty[base+6'd6] &&
                       !atk_opp[base+6'd4] && !atk_opp[base+6'd5];
  assign castle_q_ok = (stm_i ? castling_i[3] : castling_i[1]) && home_king == {stm_i, 3'd6} &&
                       home_rook_a == {stm_i, 3'd4} && empty[base+6'd1] && empty[base+6'd2] &&
                       empty[base+6'd3] && !atk_opp[base+6'd4] && !atk_opp[base+6'd3];

  // Target square properties broadcast to the attackers.
  logic [3:0] tpiece;
  logic       t_enemy, t_ep;
  assign tpiece  = board[{tsel_sq_i, 2'b00} +: 4];
  assign t_enemy = (tpiece[2:0] != 3'd0) && (tpiece[3] != stm_i);
  assign t_ep    = ep_valid_i && (tsel_sq_i == ep_sq_i);

  // Ray chains. Direction d = 0..7: N, NE, E, SE, S, SW, W, NW.
  // One net per ray segment: index (colour*8 + direction)*64 + square, and direction*64 + square.
  logic [1023:0] fw_out /*verilator split_var*/;
  logic [511:0]  sp_out /*verilator split_var*/;
  // Pin detector: rays from the side to move's king outward through empty squares, direction*64 +
  // square (the king's square is the source, like a slider's in fw_out).
  logic [511:0]  kr_out /*verilator split_var*/;
  // Check detector: rays from the other side's king outward through empty squares, the same way
  // (okr_ray[d][s] leaves square s in direction d, okr_in[d][s] arrives there), computed below.
  logic [63:0]   okr_ray [8], okr_in [8];
  logic [63:0] own_king, opp_king, pin_line;
  // Square s sees the other king along a diagonal / orthogonal line (the first man on it included);
  // the side to move's man on s would discover check by moving (a discoverer).
  logic [63:0] chk_diag, chk_orth, disc;
  logic [63:0] castle_tgt_v, castle_reach_v;
  logic [64*11-1:0] tkey;  // target key of square s at [s*11 +: 11]
  logic [64*9-1:0]  akey;  // attacker key of square s at [s*9 +: 9]
  logic [63:0] diag_reach, orth_reach;
  logic [63:0] tgt_cand_c, att_cand_c;  // the cells' bids before the checks filter
  logic [10:0] tgt_mask_key;
  logic [8:0]  att_mask_key;
  assign tgt_mask_key = tkey[tgt_last_sq_i*11 +: 11];
  assign att_mask_key = akey[att_last_sq_i*9 +: 9];

  for (genvar s = 0; s < 64; s++) begin : g_cell
    localparam int F = s % 8;
    localparam int R = s / 8;
    logic [15:0] fw_in /*verilator split_var*/;
    logic [7:0]  sp_in /*verilator split_var*/;
    logic [7:0]  kr_in /*verilator split_var*/;
    for (genvar d = 0; d < 8; d++) begin : g_dir
      // Signals travelling in direction d arrive from the neighbour one step back.
      localparam int DF = (d == 1 || d == 2 || d == 3) ? 1 : (d == 5 || d == 6 || d == 7) ? -1 : 0;
      localparam int DR = (d == 7 || d == 0 || d == 1) ? 1 : (d == 3 || d == 4 || d == 5) ? -1 : 0;
      localparam int NF = F - DF;
      localparam int NR = R - DR;
      if (NF >= 0 && NF < 8 && NR >= 0 && NR < 8) begin : g_link
        assign fw_in[d]     = fw_out[d*64 + NR*8+NF];
        assign fw_in[8 + d] = fw_out[(8+d)*64 + NR*8+NF];
        assign sp_in[d]     = sp_out[d*64 + NR*8+NF];
        assign kr_in[d]     = kr_out[d*64 + NR*8+NF];
      end else begin : g_edge
        assign fw_in[d]     = 1'b0;
        assign fw_in[8 + d] = 1'b0;
        assign sp_in[d]     = 1'b0;
        assign kr_in[d]     = 1'b0;
      end
      assign kr_out[d*64 + s]  = own_king[s] || (kr_in[d] && empty[s]);
    end
    // Square s is on a pin line: an enemy slider's ray arrives travelling in direction d (fw_in,
    // the enemy colour's half) and the own king's ray arrives from the other side, travelling in
    // direction d+4, both through empty squares only.
    logic [7:0] pin_dir;
    for (genvar d = 0; d < 8; d++) begin : g_pin
      assign pin_dir[d] = (stm_i ? fw_in[d] : fw_in[8 + d]) && kr_in[(d + 4) % 8];
    end
    assign pin_line[s] = |pin_dir;
    // The discoverer's mirror image: a slider of the side to move behind s, the other king in front.
    logic [7:0] disc_dir;
    for (genvar d = 0; d < 8; d++) begin : g_disc
      assign disc_dir[d] = (stm_i ? fw_in[8 + d] : fw_in[d]) && okr_in[(d + 4) % 8][s];
    end
    assign disc[s]     = !empty[s] && (black[s] == stm_i) && |disc_dir;
    assign knight_hit[s*2 +: 2] = {kn_b[s], kn_w[s]};
    assign king_hit[s*2 +: 2]   = {kg_b[s], kg_w[s]};
    assign pawn_hit[s*2 +: 2]   = {pw_hit_b[s], pw_hit_w[s]};

    logic castle_tgt, castle_reach;
    assign castle_tgt   = (s == 6  && !stm_i && castle_k_ok) || (s == 2  && !stm_i && castle_q_ok) ||
                          (s == 62 &&  stm_i && castle_k_ok) || (s == 58 &&  stm_i && castle_q_ok);
    assign castle_reach = (s == 4  && !stm_i && ((tsel_sq_i == 6'd6  && castle_k_ok) || (tsel_sq_i == 6'd2  && castle_q_ok))) ||
                          (s == 60 &&  stm_i && ((tsel_sq_i == 6'd62 && castle_k_ok) || (tsel_sq_i == 6'd58 && castle_q_ok)));
    assign castle_tgt_v[s]   = castle_tgt;
    assign castle_reach_v[s] = castle_reach;

    mg_cell #(.SQ(s)) u_cell (
      .clk_i, .rst_ni,
      .clear_i, .wr_en_i, .wr_sq_i, .wr_pc_i,
      .piece_o        (board[s*4 +: 4]),
      .stm_i, .ep_valid_i, .ep_sq_i,
      .fw_w_n_i(fw_in[0]), .fw_w_n_o(fw_out[0*64+s]),
      .fw_w_ne_i(fw_in[1]), .fw_w_ne_o(fw_out[1*64+s]),
      .fw_w_e_i(fw_in[2]), .fw_w_e_o(fw_out[2*64+s]),
      .fw_w_se_i(fw_in[3]), .fw_w_se_o(fw_out[3*64+s]),
      .fw_w_s_i(fw_in[4]), .fw_w_s_o(fw_out[4*64+s]),
      .fw_w_sw_i(fw_in[5]), .fw_w_sw_o(fw_out[5*64+s]),
      .fw_w_w_i(fw_in[6]), .fw_w_w_o(fw_out[6*64+s]),
      .fw_w_nw_i(fw_in[7]), .fw_w_nw_o(fw_out[7*64+s]),
      .fw_b_n_i(fw_in[8]), .fw_b_n_o(fw_out[8*64+s]),
      .fw_b_ne_i(fw_in[9]), .fw_b_ne_o(fw_out[9*64+s]),
      .fw_b_e_i(fw_in[10]), .fw_b_e_o(fw_out[10*64+s]),
      .fw_b_se_i(fw_in[11]), .fw_b_se_o(fw_out[11*64+s]),
      .fw_b_s_i(fw_in[12]), .fw_b_s_o(fw_out[12*64+s]),
      .fw_b_sw_i(fw_in[13]), .fw_b_sw_o(fw_out[13*64+s]),
      .fw_b_w_i(fw_in[14]), .fw_b_w_o(fw_out[14*64+s]),
      .fw_b_nw_i(fw_in[15]), .fw_b_nw_o(fw_out[15*64+s]),
      .sp_n_i(sp_in[0]), .sp_n_o(sp_out[0*64+s]),
      .sp_ne_i(sp_in[1]), .sp_ne_o(sp_out[1*64+s]),
      .sp_e_i(sp_in[2]), .sp_e_o(sp_out[2*64+s]),
      .sp_se_i(sp_in[3]), .sp_se_o(sp_out[3*64+s]),
      .sp_s_i(sp_in[4]), .sp_s_o(sp_out[4*64+s]),
      .sp_sw_i(sp_in[5]), .sp_sw_o(sp_out[5*64+s]),
      .sp_w_i(sp_in[6]), .sp_w_o(sp_out[6*64+s]),
      .sp_nw_i(sp_in[7]), .sp_nw_o(sp_out[7*64+s]),
      .knight_hit_i   (knight_hit[s*2 +: 2]),
      .king_hit_i     (king_hit[s*2 +: 2]),
      .pawn_hit_i     (pawn_hit[s*2 +: 2]),
      .push_tgt_i     (push_tgt[s]),
      .dpush_tgt_i    (dpush_tgt[s]),
      .castle_tgt_i   (castle_tgt),
      .attacked_o     (attacked[s*2 +: 2]),
      .tsel_sq_i,
      .knight_reach_i (kn_reach[s]),
      .king_reach_i   (kg_reach[s]),
      .pcap_reach_i   (pcap_reach[s]),
      .push_reach_i   (push_reach[s]),
      .dpush_reach_i  (dpush_reach[s]),
      .castle_reach_i (castle_reach),
      .t_enemy_i      (t_enemy),
      .t_ep_i         (t_ep),
      .diag_reach_o   (diag_reach[s]),
      .orth_reach_o   (orth_reach[s]),
      .tgt_capt_only_i,
      .tgt_mask_en_i,
      .tgt_mask_key_i (tgt_mask_key),
      .tgt_cand_o     (tgt_cand_c[s]),
      .tgt_key_o      (tkey[s*11 +: 11]),
      .att_mask_en_i,
      .att_mask_key_i (att_mask_key),
      .att_cand_o     (att_cand_c[s]),
      .att_key_o      (akey[s*9 +: 9])
    );
  end

  // ---------------------------------------------------------------- the check detector
  // The other king's rays, square by square in the order they travel (a ray arriving at s in
  // direction d comes from the neighbour one step back: an earlier square for the directions that
  // step up, N NE E NW, a later one for the others). Only the checks filter reads them: they are
  // computed in its clocks (chk_only_i) and zero otherwise, so a simulator skips them then.
  function automatic int dir_df(input int d);
    dir_df = (d == 1 || d == 2 || d == 3) ? 1 : (d == 5 || d == 6 || d == 7) ? -1 : 0;
  endfunction
  function automatic int dir_dr(input int d);
    dir_dr = (d == 7 || d == 0 || d == 1) ? 1 : (d == 3 || d == 4 || d == 5) ? -1 : 0;
  endfunction
  always_comb begin
    for (int d = 0; d < 8; d++) begin
      okr_ray[d] = '0;
      okr_in[d]  = '0;
    end
    chk_diag = '0;
    chk_orth = '0;
    if (chk_only_i) begin
      for (int d = 0; d < 8; d++) begin
        if (dir_dr(d) > 0 || (dir_dr(d) == 0 && dir_df(d) > 0)) begin
          for (int q = 0; q < 64; q++) begin
            if (q % 8 - dir_df(d) >= 0 && q % 8 - dir_df(d) < 8 && q / 8 - dir_dr(d) >= 0 && q / 8 - dir_dr(d) < 8)
              okr_in[d][q] = okr_ray[d][(q / 8 - dir_dr(d)) * 8 + q % 8 - dir_df(d)];
            okr_ray[d][q] = opp_king[q] || (okr_in[d][q] && empty[q]);
          end
        end else begin
          for (int q = 63; q >= 0; q--) begin
            if (q % 8 - dir_df(d) >= 0 && q % 8 - dir_df(d) < 8 && q / 8 - dir_dr(d) >= 0 && q / 8 - dir_dr(d) < 8)
              okr_in[d][q] = okr_ray[d][(q / 8 - dir_dr(d)) * 8 + q % 8 - dir_df(d)];
            okr_ray[d][q] = opp_king[q] || (okr_in[d][q] && empty[q]);
          end
        end
      end
      chk_diag = okr_in[1] | okr_in[3] | okr_in[5] | okr_in[7];
      chk_orth = okr_in[0] | okr_in[2] | okr_in[4] | okr_in[6];
    end
  end

  // ---------------------------------------------------------------- the checks filter
  // A non-capture may give check from a square that sees the other king as the moving piece
  // attacks (directly), from anywhere when a discoverer exists (superset: the discoverer's reach is
  // not known here), and always as a promotion (the new piece may check through the square the
  // pawn left) or castling (the rook through the square the king left). Captures, the en-passant
  // square included, pass as they are. A target may then have no attacker that checks from it:
  // GENATT finds none and GEN goes on below it.
  logic [63:0] piece_b, piece_r, piece_q, own_knight, kn_chk, pw_chk, promo_sq, chk_tgt, chk_att, ep_1h;
  logic        t_quiet, t_kn, t_diag, t_orth, t_pawn;
  assign piece_b  = plane[0] & plane[1] & ~plane[2];
  assign piece_r  = ~plane[0] & ~plane[1] & plane[2];
  assign piece_q  = plane[0] & ~plane[1] & plane[2];
  assign own_knight = stm_i ? is_knight[127:64] : is_knight[63:0];
  assign kn_chk   = knight_or(opp_king);
  assign pw_chk   = diag_step_or(opp_king, !stm_i);  // a pawn of the side to move here attacks it
  assign promo_sq = push_tgt & (stm_i ? Rank1 : Rank8);
  assign chk_tgt  = (disc != 64'd0) ? '1 : (chk_diag | chk_orth | kn_chk | pw_chk | promo_sq | castle_tgt_v);
  always_comb begin
    ep_1h = '0;
    ep_1h[ep_sq_i] = ep_valid_i;
  end
  assign tgt_cand_o = tgt_cand_c & ~({64{chk_only_i}} & empty & ~ep_1h & ~chk_tgt);
  // The attackers of a quiet target that may check from it: by their type, every discoverer,
  // every pawn onto the last rank, the castling king.
  assign t_quiet = !t_enemy && !t_ep;
  assign t_kn    = |(kn_chk & tsel_1h);
  assign t_diag  = |(chk_diag & tsel_1h);
  assign t_orth  = |(chk_orth & tsel_1h);
  assign t_pawn  = |(pw_chk & tsel_1h) || (tsel_sq_i[5:3] ^ {3{stm_i}}) == 3'd7;
  assign chk_att = disc | ({64{t_kn}} & own_knight) | ({64{t_diag}} & (piece_b | piece_q)) |
                   ({64{t_orth}} & (piece_r | piece_q)) | ({64{t_pawn}} & own_pawn) | (own_king & castle_reach_v);
  assign att_cand_o = att_cand_c & ~({64{chk_only_i && t_quiet}} & ~chk_att);

  // The arbiters return whole keys; only the square field is needed here.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [10:0] tgt_win;
  logic [8:0]  att_win;
  /* verilator lint_on UNUSEDSIGNAL */
  mg_arbiter #(.W(11)) u_tgt_arb (.cand_i(tgt_cand_o), .key_i(tkey), .found_o(tgt_found_o), .key_o(tgt_win));
  mg_arbiter #(.W(9))  u_att_arb (.cand_i(att_cand_o), .key_i(akey), .found_o(att_found_o), .key_o(att_win));
  // Keys end in the square relative to the side to move.
  assign tgt_sq_o = tgt_win[5:0] ^ base;
  assign att_sq_o = att_win[5:0] ^ base;

  // Attacking-move test: the piece on tsel (of the side not to move) hits a non-king piece of
  // the side to move. Pawns attack forward for their own colour, which is the side-to-move pawn
  // capture pattern seen from the other end.
  logic [63:0] victims, reach_of_tsel;
  always_comb begin
    unique case (tpiece[2:0])
      3'd1:    reach_of_tsel = pcap_reach;
      3'd2:    reach_of_tsel = kn_reach;
      3'd3:    reach_of_tsel = diag_reach;
      3'd4:    reach_of_tsel = orth_reach;
      3'd5:    reach_of_tsel = diag_reach | orth_reach;
      3'd6:    reach_of_tsel = kg_reach;
      default: reach_of_tsel = '0;
    endcase
  end
  // Men (not kings) of each colour.
  logic [63:0] men_w, men_b;
  assign men_w   = ~empty & ~black & ~type6;
  assign men_b   = ~empty & black & ~type6;
  assign victims = stm_i ? men_b : men_w;
  assign tsel_attacks_o = |(victims & reach_of_tsel);

  // Check, legality and hung pieces.
  logic [63:0] own_men;
  assign own_men        = stm_i ? men_b : men_w;
  assign own_king       = stm_i ? is_king[127:64] : is_king[63:0];
  assign opp_king       = stm_i ? is_king[63:0] : is_king[127:64];
  assign in_check_o     = |(own_king & atk_opp);
  assign king_capture_o = |(opp_king & atk_stm);
  assign hung_o         = own_men & atk_opp & ~atk_stm;
  assign pinned_o       = own_men & pin_line;

  // Quiescence check classes and the "opponent hung" extension.
  logic [63:0] opp_men, king_ring, escapes;
  assign opp_men     = stm_i ? men_w : men_b;
  assign opp_hung_o  = |(opp_men & atk_stm & ~atk_opp);
  assign king_ring   = stm_i ? kg_b : kg_w;
  assign escapes     = king_ring & ~own_men & ~own_king & ~atk_opp;
  assign king_ring_o = king_ring;
  assign esc_none_o  = escapes == 64'd0;
  assign esc_one_o   = escapes != 64'd0 && (escapes & (escapes - 64'd1)) == 64'd0;
endmodule
