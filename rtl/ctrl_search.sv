// The hardware search's datapath (AIJ 5, Micro "Search control"): the parameters decoded, the
// test values of the node being expanded and of its child, what a TEST clock of the search decides
// about the move just made (scored or skipped, a terminal leaf, a stand pat decided by lazy or
// slow evaluation, a full-width child, a quiescence extension), the quiescence check classes, the
// repetition detector with the repeating move, and the root's offset searches. Combinational apart
// from the detector's board store; the search's per-ply state is the controller's. Model twin:
// host/chip/model/ctrl_search.h.
module ctrl_search (
  input  logic                 clk_i,
  // Parameters (host registers).
  input  logic [28:0]          search_ctrl_i,
  input  logic [23:0]          offset_ctrl_i,
  input  logic [15:0]          test_value_i,
  input  logic [15:0]          test_tie_i,
  input  logic [31:0]          node_limit_i,
  // The controller.
  input  logic                 searching_i,    // the command is SEARCH
  input  logic                 make_i,         // MAKE: the detector stores the board before the move
  input  logic                 test_i,         // TEST: the move just made is decided
  input  logic [5:0]           ply_i,          // the node being expanded is at ply p
  input  logic [5:0]           base_i,         // the search's root ply
  input  logic [5:0]           host_ply_i,     // moves made by the host (REP_STATUS's position)
  input  logic [4:0]           depth_i,        // the command's depth
  input  ctrl_pkg::phase_e     phase_i,
  input  logic [1:0]           alt_i,          // alternatives that reached the offset test value
  input  logic [15:0]          main_best_i,    // the search's fail-high move (offset phases)
  input  logic [63:0]          count_i,        // nodes searched
  input  logic [7:0]           qc_i,           // quiescence checks played on the path
  input  logic                 qfilter_i,      // the node's quiescence check filter (set in GEN)
  input  logic [31:0]          extended_i,     // plies searched full width by an extension
  input  logic [31:0]          hung1_i,        // plies whose side to move had exactly one hung piece
  input  logic [31:0]          rtried_i,       // plies whose repeating move was tried
  input  logic                 rtry_i,         // the move in MAKE/TEST is the repeating move
  input  logic [15:0]          mv_i,           // the move being made
  input  logic                 last_valid_i,   // a move was searched at p already
  input  logic [3:0]           cap_i,          // the captured piece of the move at p (0: none)
  input  ctrl_pkg::pos_t       pos_i,
  input  logic [255:0]         board_i,
  // The array, on the current board.
  input  logic                 in_check_i,
  input  logic                 king_capture_i,
  input  logic [63:0]          hung_i,
  input  logic                 opp_hung_i,
  input  logic [63:0]          pinned_i,
  input  logic [63:0]          king_ring_i,
  input  logic                 esc_none_i,
  input  logic                 esc_one_i,
  // The evaluation.
  input  logic [15:0]          fast_static_i,
  input  logic                 lz_active_i,
  input  logic signed [17:0]   lz_sum_i,
  input  logic [15:0]          lz_margin_i,
  input  logic [15:0]          se_total_i,
  // The node at p.
  output logic                 qnode_o,        // a quiescence node (captures, or captures and checks)
  output logic                 checks_ok_o,    // its side may still play quiescence checks
  output logic                 none_success_o, // with no legal move, it succeeds (mate, stalemate)
  output logic                 rm_try_o,       // its repeating move is tried first
  output logic [15:0]          rm_move_o,
  // TEST: the move just made (the child at p + 1).
  output logic                 skip_o,         // not scored: illegal, filtered, skipped
  output logic                 node_limit_hit_o,
  output logic                 rep_leaf_o,     // a repetition draw
  output logic                 rep_success_o,
  output logic                 np_leaf_o,      // no progress: the child succeeds
  output logic                 descend_o,      // searched full width
  output logic                 extend_o,       // searched full width by a quiescence extension
  output logic                 draw_success_o, // a drawn ending's stand pat
  output logic                 lazy_high_o,    // lazy evaluation: the stand pat succeeds
  output logic                 lazy_low_o,     // lazy evaluation: the stand pat fails
  output logic                 slow_success_o, // the slow evaluation's stand pat succeeds
  output logic                 can_quiesce_o,  // a failed stand pat is searched on
  output logic                 one_hung_o,     // its side to move has exactly one hung piece
  output logic [7:0]           qc_after_o,     // the quiescence checks after the move
  // REP_STATUS at the host's position.
  output logic                 rep_hit_o,
  output logic                 rep_near_o,
  // Offset searches.
  output logic                 off_on_o,
  output logic [4:0]           off_depth_o,
  output logic                 off_condition_o, // the alternatives' count enables the extension
  output logic [1:0]           alt_limit_o
);
  // ---------------------------------------------------------------- parameters
  logic       qs_on, ev_on, rep_on, np_on, ign_stale, rep_tie_on, rep_strive, rep_bound;
  logic       ext_pawn7, ext_pawn6, ext_hung2, ext_hung1, ext_opp_hung;
  logic [1:0] qs_checks, qs_singular;
  logic [4:0] qs_depth;
  assign qs_on        = search_ctrl_i[0];
  assign ev_on        = search_ctrl_i[1];
  assign rep_on       = search_ctrl_i[2];
  assign np_on        = search_ctrl_i[3];
  assign qs_checks    = search_ctrl_i[5:4];  // mating checks
  assign qs_singular  = search_ctrl_i[7:6];
  assign qs_depth     = search_ctrl_i[12:8];
  assign ign_stale    = search_ctrl_i[13];
  assign ext_pawn7    = search_ctrl_i[14];
  assign ext_hung2    = search_ctrl_i[15];
  assign ext_hung1    = search_ctrl_i[16];
  assign ext_opp_hung = search_ctrl_i[17];
  assign rep_tie_on   = search_ctrl_i[18];
  assign rep_strive   = search_ctrl_i[19];
  assign rep_bound    = search_ctrl_i[20];
  assign ext_pawn6    = search_ctrl_i[21];
  logic [15:0] off_margin;
  logic        off_single, off_binary, off_trinary;
  assign off_depth_o = offset_ctrl_i[4:0];
  assign off_single  = offset_ctrl_i[5];
  assign off_binary  = offset_ctrl_i[6];
  assign off_trinary = offset_ctrl_i[7];
  assign off_margin  = offset_ctrl_i[23:8];
  assign off_on_o    = off_single || off_binary || off_trinary;
  assign alt_limit_o = off_trinary ? 2'd3 : (off_binary ? 2'd2 : 2'd1);
  assign off_condition_o = (alt_i == 2'd0 && off_single) || (alt_i == 2'd1 && off_binary) ||
                           (alt_i == 2'd2 && off_trinary);

  // ---------------------------------------------------------------- test values
  // The node being expanded is at ply p = ply_i, rel_p plies below the root; its child at p + 1.
  logic [4:0] pi, ci;
  logic [5:0] rel_p, rel_c, sdepth;
  logic       odd_p, odd_c;
  assign pi    = ply_i[4:0];
  assign ci    = pi + 5'd1;
  assign rel_p = ply_i - base_i;
  assign rel_c = rel_p + 6'd1;
  assign odd_p = rel_p[0];
  assign odd_c = !rel_p[0];
  // The search's depth and test value in the current phase: the offset searches run to the offset
  // depth against the test value less the margin; the extended search one ply deeper.
  always_comb begin
    unique case (phase_i)
      ctrl_pkg::PH_OFFSET: sdepth = {1'b0, off_depth_o};
      ctrl_pkg::PH_EXTEND: sdepth = {1'b0, depth_i} + 6'd1;
      default:             sdepth = {1'b0, depth_i};
    endcase
  end
  logic signed [17:0] tv_s, tv_tb, tv_c;
  assign tv_s  = 18'(signed'(test_value_i)) - ((phase_i == ctrl_pkg::PH_OFFSET) ? {2'd0, off_margin} : 18'd0);
  assign tv_tb = 18'(signed'(test_tie_i));
  assign tv_c  = odd_c ? -tv_s : tv_s;  // the child's test value, its side's view

  // ---------------------------------------------------------------- the node at p
  // Quiescence nodes generate captures (or all moves filtered to captures and checks while the side
  // may still check); a side in check there searches all its moves.
  assign qnode_o     = searching_i && rel_p >= sdepth && !(in_check_i && ev_on) && !extended_i[pi];
  assign checks_ok_o = qs_checks > (pos_i.stm ? qc_i[3:2] : qc_i[1:0]) ||
                       qs_singular > (pos_i.stm ? qc_i[7:6] : qc_i[5:4]);
  // Mate (in check, no legal move) or stalemate; a stalemate one ply above quiescence fails with
  // the flag set. Only a full-width or evasion node can have no legal move.
  logic signed [17:0] mate_value;
  logic               stale_ignored;
  assign mate_value     = in_check_i ? -(18'(chip_pkg::MATE_SCORE) - 18'(rel_p)) : 18'sd0;
  assign stale_ignored  = ign_stale && !in_check_i && rel_p + 6'd1 == sdepth;
  assign none_success_o = !stale_ignored && ctrl_pkg::succeeds(mate_value, 18'sd0, tv_s, tv_tb, odd_p);
  // The offset searches skip the fail-high move at the root; the extended search the others.
  logic root_skip;
  assign root_skip = ply_i == base_i && ((phase_i == ctrl_pkg::PH_OFFSET && mv_i == main_best_i) ||
                                           (phase_i == ctrl_pkg::PH_EXTEND && mv_i != main_best_i));

  // ---------------------------------------------------------------- quiescence checks
  // AIJ 5, parameters 5 and 6, on the child's board: the checking non-capture just made is a
  // "mating" check (no escape square, or a queen contact check), a "singular" one (one escape
  // square, a rook contact check, or the checked side has a hung piece), or neither. In the child
  // the mover is the side not to move (stm = 1: white moved).
  logic       quiet_filtered, contact, check_mating, check_singular, check_allowed;
  logic [2:0] to_type;
  logic [1:0] mover_mating, mover_singular;
  assign quiet_filtered = qfilter_i && cap_i == 4'd0;
  assign to_type        = board_i[{mv_i[11:6], 2'b00} +: 3];
  assign contact        = king_ring_i[mv_i[11:6]];
  assign check_mating   = esc_none_i || (contact && to_type == 3'd5);
  assign check_singular = !check_mating && (esc_one_i || (contact && to_type == 3'd4) || hung_i != 64'd0);
  assign mover_mating   = pos_i.stm ? qc_i[1:0] : qc_i[3:2];
  assign mover_singular = pos_i.stm ? qc_i[5:4] : qc_i[7:6];
  assign check_allowed  = (check_mating && qs_checks > mover_mating) ||
                          (check_singular && qs_singular > mover_singular);
  // The counters after the move at p: a searched checking non-capture counts in its class.
  always_comb begin
    qc_after_o = qc_i;
    if (quiet_filtered) begin
      unique case ({check_mating, pos_i.stm})
        2'b11:   qc_after_o = qc_i + 8'd1;
        2'b10:   qc_after_o = qc_i + 8'd4;
        2'b01:   qc_after_o = qc_i + 8'd16;
        default: qc_after_o = qc_i + 8'd64;
      endcase
    end
  end

  // ---------------------------------------------------------------- quiescence extensions
  // On the child's board in TEST: its side to move's hung pieces (two or more, or one that is
  // pinned to its king), a pawn the move just put on the 7th rank (or flag 9's passed pawn on the
  // 6th whose square ahead is empty), the other side's hung piece; at most one extension per path
  // (plies base+1 .. c-1).
  logic        many_hung, pinned_hung, pawn7, pawn6;
  logic [5:0]  p6_front;
  logic [3:0]  p6_enemy;
  logic [31:0] path_mask;
  assign one_hung_o  = hung_i != 64'd0 && (hung_i & (hung_i - 64'd1)) == 64'd0;
  assign many_hung   = hung_i != 64'd0 && !one_hung_o;
  assign pinned_hung = (hung_i & pinned_i) != 64'd0;
  assign pawn7       = to_type == 3'd1 && mv_i[11:9] == (pos_i.stm ? 3'd6 : 3'd1);
  assign p6_front    = pos_i.stm ? mv_i[11:6] + 6'd8 : mv_i[11:6] - 6'd8;
  assign p6_enemy    = {pos_i.stm, 3'd1};
  assign pawn6       = to_type == 3'd1 && mv_i[11:9] == (pos_i.stm ? 3'd5 : 3'd2) &&
                       board_i[{p6_front, 2'b00} +: 3] == 3'd0 &&
                       (mv_i[8:6] == 3'd0 || board_i[{p6_front - 6'd1, 2'b00} +: 4] != p6_enemy) &&
                       (mv_i[8:6] == 3'd7 || board_i[{p6_front + 6'd1, 2'b00} +: 4] != p6_enemy);
  always_comb begin
    for (int k = 0; k < 32; k++) path_mask[k] = 6'(k) > base_i && 6'(k) < ply_i + 6'd1;
  end
  assign extend_o = ply_i < 6'd31 && (extended_i & path_mask) == 32'd0 &&
                    ((ext_pawn7 && pawn7) || (ext_pawn6 && pawn6) || (ext_hung2 && (many_hung || pinned_hung)) ||
                     (ext_hung1 && one_hung_o && rel_c >= 6'd3 && hung1_i[ci - 5'd2]) ||
                     (ext_opp_hung && opp_hung_i));

  // ---------------------------------------------------------------- repetition detector
  // Entries below the current position's stack index; the same side to move for a repetition,
  // the other for one displaced piece.
  logic [31:0] rep_equal, rep_two, rep_valid, rep_same, rep_white, rep_black, np_valid;
  logic [5:0]  rep_idx;
  logic        np_hit;
  assign rep_idx = test_i ? ply_i + 6'd1 : host_ply_i;
  always_comb begin
    for (int k = 0; k < 32; k++) begin
      rep_valid[k] = 6'(k) < rep_idx;
      rep_same[k]  = (rep_idx[0] == k[0]);
      np_valid[k]  = 6'(k) >= base_i && 7'(k) + 7'd3 <= 7'(rep_idx);
    end
  end
  // "No progress": one piece of the side that just moved displaced from a position of the search
  // path three or more plies up (the other side to move there): it could have moved there at once.
  assign np_hit = |(rep_two & np_valid & ~rep_same &
                    (pos_i.stm ? rep_white & ~rep_black : rep_black & ~rep_white));
  assign rep_hit_o  = |(rep_equal & rep_valid & rep_same);
  assign rep_near_o = |(rep_two & rep_valid & ~rep_same);
  // The tie-breaker of a repetition draw, "moves until repetition" (AIJ 4.3), for the child at
  // rel_c: B - rel_c from the root side's view (B = SEARCH_CTRL[28:22], the host's count at the
  // root, so that chip and host count from the same place), positive when it strives for the draw
  // (an earlier repetition is better), negative when it avoids it (a later one is less bad);
  // negated at odd plies like every value. 0 with SEARCH_CTRL[18] clear.
  logic signed [17:0] rep_tie_mag, rep_tie;
  assign rep_tie_mag = 18'(search_ctrl_i[28:22]) - 18'(rel_c);
  assign rep_tie     = !rep_tie_on ? 18'sd0 : (rep_strive != odd_c) ? rep_tie_mag : -rep_tie_mag;
  // The repeating move (SEARCH_CTRL[20]): at the node being expanded (stack index p), an entry
  // below it with the other side to move from which exactly one piece of the side to move is
  // displaced (two squares differ: one holds that piece now, the other is empty); the lowest such
  // entry is selected and the move puts the piece back on the empty square.
  logic [31:0] rep_empty, rm_cand, rm_sel;
  logic [63:0] rm_diff;
  logic [5:0]  rm_from, rm_to;
  always_comb begin
    for (int k = 0; k < 32; k++) begin
      rm_cand[k] = rep_two[k] && 6'(k) < ply_i && (ply_i[0] != k[0]) && rep_empty[k] &&
                   (pos_i.stm ? rep_black[k] && !rep_white[k] : rep_white[k] && !rep_black[k]);
    end
  end
  assign rm_sel = rm_cand & (~rm_cand + 32'd1);  // the lowest candidate, one-hot
  always_comb begin
    rm_from = 6'd0;
    rm_to   = 6'd0;
    for (int s = 0; s < 64; s++) begin
      if (rm_diff[s] && board_i[s*4 +: 3] != 3'd0) rm_from = rm_from | 6'(s);
      if (rm_diff[s] && board_i[s*4 +: 3] == 3'd0) rm_to   = rm_to | 6'(s);
    end
  end
  // Tried once per node, at its first GEN, below the root, in a search with the detector on.
  assign rm_try_o  = searching_i && rep_on && rep_bound && !last_valid_i && !rtried_i[pi] && ply_i != base_i &&
                     rm_cand != 32'd0;
  assign rm_move_o = {4'b1000, rm_to, rm_from};
  rep_detect u_rep (
    .clk_i,
    .we_i       (make_i),
    .waddr_i    (pi),
    .board_i,
    .castling_i (pos_i.castling),
    .ep_i       ({pos_i.ep_valid, pos_i.ep_sq}),
    .equal_o    (rep_equal),
    .two_o      (rep_two),
    .white_o    (rep_white),
    .black_o    (rep_black),
    .empty_o    (rep_empty),
    .sel_i      (rm_sel),
    .sel_diff_o (rm_diff)
  );

  // ---------------------------------------------------------------- TEST
  logic unused_pos;  // the move clocks
  assign unused_pos = ^{pos_i.half, pos_i.full};
  assign skip_o = king_capture_i || root_skip ||
                  (rtry_i ? !rep_hit_o : quiet_filtered && !(in_check_i && check_allowed));
  assign node_limit_hit_o = node_limit_i != 32'd0 && count_i + 64'd1 >= {32'd0, node_limit_i};
  assign rep_leaf_o       = rep_on && rep_hit_o;
  assign rep_success_o    = ctrl_pkg::succeeds(18'sd0, rep_tie, tv_s, tv_tb, odd_c);
  assign np_leaf_o        = np_on && np_hit;
  assign descend_o        = rel_c < sdepth || (ev_on && in_check_i && ply_i < 6'd31);
  // A drawn ending: score 0, its static value the tie-breaker.
  assign draw_success_o = ctrl_pkg::succeeds(18'sd0, 18'(signed'(pos_i.stm ? 16'd0 - fast_static_i : fast_static_i)),
                                             tv_s, tv_tb, odd_c);
  assign lazy_high_o    = lz_active_i && lz_sum_i - $signed({2'd0, lz_margin_i}) > tv_c;
  assign lazy_low_o     = lz_active_i && lz_sum_i + $signed({2'd0, lz_margin_i}) < tv_c;
  assign slow_success_o = ctrl_pkg::succeeds(18'(signed'(se_total_i)), 18'sd0, tv_s, tv_tb, odd_c);
  // A child whose stand pat failed is searched on in the quiescence search.
  assign can_quiesce_o  = qs_on && 7'(rel_c) < 7'(sdepth) + 7'(qs_depth) && ply_i < 6'd31;
endmodule
