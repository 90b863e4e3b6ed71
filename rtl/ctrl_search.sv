// The hardware search (AIJ 5, Micro "Search control"): a minimum-window alpha-beta search with no
// value stack. Each node only learns whether it reaches its side's test value ("succeeds"): a node
// succeeds as soon as one child fails, and fails when all its children succeed. So a child's
// failure pops two plies and its success one; all the state a ply needs is the move on the stack,
// a bit for "a legal move was searched here", and the quiescence check counters.
//
// This block holds the search's state (per-ply bits, the unwinding flags, the root's offset
// phases, the results) and its datapath: the parameters decoded, the test values, what a TEST
// clock decides about the move just made (skipped, a terminal leaf, a stand pat decided by lazy or
// slow evaluation, a full-width child, a quiescence extension), the quiescence check classes and
// the root's offset searches; the repetitions are ctrl_repeat's. Its decision for
// the clock (ctrl_pkg::search_step_t) tells the state machine where to go. Model twin:
// host/chip/model/ctrl_search.h.
module ctrl_search (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // Parameters (host registers).
  input  chip_pkg::search_ctrl_t search_ctrl_i,
  input  chip_pkg::offset_ctrl_t offset_ctrl_i,
  input  logic [15:0]            test_value_i,
  input  logic [15:0]            test_tie_i,
  input  logic [31:0]            node_limit_i,
  // The controller.
  input  chip_pkg::ctrl_state_e       state_i,
  input  logic                   searching_i,    // the command is SEARCH
  input  logic                   start_i,        // SEARCH is written: the search's state starts afresh
  input  logic                   exhausted_i,    // GEN of a search found no move left at p
  input  logic                   repchk_ok_i,    // REPCHK: the repeating move is made
  input  logic                   se_finish_i,    // the slow evaluation's last clock
  input  logic [5:0]             ply_i,          // the node being expanded is at ply p
  input  logic [5:0]             base_i,         // the search's root ply
  input  logic [5:0]             host_ply_i,     // moves made by the host (REP_STATUS's position)
  input  logic [4:0]             depth_i,        // the command's depth
  // The next clock's ply, root ply and command depth (chip_ctrl's ply_d, base_d, and cmd_d's
  // depth): the quiescence test's depth part is registered from them (qnode_o).
  input  logic [5:0]             ply_next_i,
  input  logic [5:0]             base_next_i,
  input  logic [4:0]             depth_next_i,
  input  logic [63:0]            count_i,        // nodes searched
  input  logic [15:0]            mv_i,           // the move being made
  input  logic [15:0]            last_i,         // the stack's move at p
  input  ctrl_pkg::stk_entry_t   entry_i,        // the stack's entry at p
  input  ctrl_pkg::pos_t         pos_i,
  input  logic [255:0]           board_i,  // bit b of square s's piece at [b*64 + s]
  input  logic [255:0]           board_fwd_i,    // the next board but for the late undo (mg_array)
  input  logic                   restore_i,      // the late undo (chip_ctrl's brd_restore_o)
  // The array, on the current board.
  input  logic                   in_check_i,
  input  logic                   node_chk_i,     // in_check_i, registered (chip_ctrl's node_chk_q)
  input  logic                   king_capture_i,
  input  logic [63:0]            hung_i,
  input  logic                   opp_hung_i,
  input  logic [63:0]            pinned_i,
  input  logic [63:0]            king_ring_i,
  input  logic                   esc_none_i,
  input  logic                   esc_one_i,
  // The evaluation.
  input  logic [15:0]            fast_eval_i,
  input  logic [15:0]            fast_static_i,
  input  logic                   eg_draw_i,
  input  logic                   lz_active_i,
  input  logic signed [17:0]     lz_sum_i,
  input  logic [15:0]            lz_margin_i,
  input  logic [15:0]            se_total_i,
  // The decision, and what the state machine needs while generating.
  output ctrl_pkg::search_step_t step_o,
  output logic                   qnode_o,        // p is a quiescence node (captures, or captures and checks)
  output logic                   checks_ok_o,    // its side may still play quiescence checks
  output logic                   rm_try_o,       // p's repeating move is tried first
  output logic [15:0]            rm_move_o,
  // The state the host and the debug port see.
  output logic [7:0]             qc_o,           // quiescence checks played (pushed with a move)
  output logic [7:0]             result_o,       // RESULT
  output logic [15:0]            best_o,         // BEST_MOVE
  output logic [15:0]            leaf_o,         // the last leaf value
  output ctrl_pkg::phase_e       phase_o,
  output logic                   stop_o,
  output logic                   child_fail_o,
  output logic                   rep_hit_o,      // REP_STATUS at the host's position
  output logic                   rep_near_o,
  // The command's checks of the offset parameters.
  output logic                   off_on_o,
  output logic [4:0]             off_depth_o
);
  // ---------------------------------------------------------------- registers
  // Per ply: a legal move was searched, searched full width by an extension, its side to move had
  // exactly one hung piece, its repeating move was tried. The quiescence checks played (mating:
  // [1:0] white, [3:2] black; singular: [5:4], [7:6]), the node's quiescence check filter (set in
  // GEN), the move in MAKE/TEST is the repeating move, the unwinding flags (the child failed;
  // stopping at the node limit). Offset searches at the root: the phase, the alternatives that
  // reached the offset test value, the search's fail-high move.
  logic [31:0]      legal_q, legal_d, extended_q, extended_d, hung1_q, hung1_d, rtried_q, rtried_d;
  logic [7:0]       qc_q, qc_d, result_q, result_d;
  logic             qfilter_q, qfilter_d, rtry_q, rtry_d, child_fail_q, child_fail_d, stop_q, stop_d;
  logic [15:0]      best_q, best_d, leaf_q, leaf_d, main_best_q, main_best_d;
  ctrl_pkg::phase_e phase_q, phase_d;
  logic [1:0]       alt_q, alt_d;
  // ---------------------------------------------------------------- parameters
  logic       qs_on, ev_on, rep_on, np_on, ign_stale;
  logic       ext_pawn7, ext_pawn6, ext_hung2, ext_hung1, ext_opp_hung;
  logic [1:0] qs_checks, qs_singular;
  logic [4:0] qs_depth;
  assign qs_on        = search_ctrl_i.quiescence;
  assign ev_on        = search_ctrl_i.evasions;
  assign rep_on       = search_ctrl_i.repetition;
  assign np_on        = search_ctrl_i.no_progress;
  assign qs_checks    = search_ctrl_i.mating_checks;  // mating checks
  assign qs_singular  = search_ctrl_i.singular_checks;
  assign qs_depth     = search_ctrl_i.qs_depth;
  assign ign_stale    = search_ctrl_i.ignore_stalemate;
  assign ext_pawn7    = search_ctrl_i.ext_pawn7;
  assign ext_hung2    = search_ctrl_i.ext_hung2;
  assign ext_hung1    = search_ctrl_i.ext_hung1;
  assign ext_opp_hung = search_ctrl_i.ext_opp_hung;
  assign ext_pawn6    = search_ctrl_i.ext_pawn6;
  logic [15:0] off_margin;
  logic        off_single, off_binary, off_trinary;
  assign off_depth_o = offset_ctrl_i.depth;
  assign off_single  = offset_ctrl_i.singular;
  assign off_binary  = offset_ctrl_i.binary;
  assign off_trinary = offset_ctrl_i.trinary;
  assign off_margin  = offset_ctrl_i.margin;
  assign off_on_o    = off_single || off_binary || off_trinary;
  // The alternatives counted stop at the limit: no condition is left beyond it.
  logic [1:0] alt_limit;
  logic       off_condition;  // the alternatives' count enables the extended search
  assign alt_limit     = off_trinary ? 2'd3 : (off_binary ? 2'd2 : 2'd1);
  assign off_condition = (alt_q == 2'd0 && off_single) || (alt_q == 2'd1 && off_binary) ||
                         (alt_q == 2'd2 && off_trinary);

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
  function automatic logic [5:0] phase_depth(input ctrl_pkg::phase_e phase, input logic [4:0] depth,
                                             input logic [4:0] off_depth);
    unique case (phase)
      ctrl_pkg::PH_OFFSET: phase_depth = {1'b0, off_depth};
      ctrl_pkg::PH_EXTEND: phase_depth = {1'b0, depth} + 6'd1;
      default:             phase_depth = {1'b0, depth};
    endcase
  endfunction
  assign sdepth = phase_depth(phase_q, depth_i, off_depth_o);
  logic signed [17:0] tv_s, tv_tb, tv_c;
  assign tv_s  = 18'(signed'(test_value_i)) - ((phase_q == ctrl_pkg::PH_OFFSET) ? {2'd0, off_margin} : 18'd0);
  assign tv_tb = 18'(signed'(test_tie_i));
  assign tv_c  = odd_c ? -tv_s : tv_s;  // the child's test value, its side's view

  // ---------------------------------------------------------------- the node at p
  // Quiescence nodes generate captures (or all moves filtered to captures and checks while the side
  // may still check); a side in check there searches all its moves. qnode_o sets the generator's
  // filters in GEN, in front of its arbiters, so every part of it is a register: the check is the
  // registered copy, and "p at or below the search's depth, not extended" (a subtraction, a
  // comparison and a 32-way select, eight LUT levels at the head of the generator's clock) is
  // registered from the next clock's ply, root, phase, depth and extensions (issue 22: logic
  // depth). qnode_ref is the same test from this clock's values, for the assertion.
  logic [5:0] sdepth_next, rel_next;
  logic       deep_d, deep_q, qnode_ref;
  assign sdepth_next = phase_depth(phase_d, depth_next_i, off_depth_o);
  assign rel_next = ply_next_i - base_next_i;
  assign deep_d   = rel_next >= sdepth_next && !extended_d[ply_next_i[4:0]];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) deep_q <= 1'b0;
    else deep_q <= deep_d;
  end
  assign qnode_o     = searching_i && deep_q && !(node_chk_i && ev_on);
  assign qnode_ref   = searching_i && rel_p >= sdepth && !(node_chk_i && ev_on) && !extended_q[pi];
  assign checks_ok_o = qs_checks > (pos_i.stm ? qc_q[3:2] : qc_q[1:0]) ||
                       qs_singular > (pos_i.stm ? qc_q[7:6] : qc_q[5:4]);
  // Mate (in check, no legal move) or stalemate; a stalemate one ply above quiescence fails with
  // the flag set. Only a full-width or evasion node can have no legal move.
  logic signed [17:0] mate_value;
  logic               stale_ignored, none_success;
  // Read in GEN only, where the registered check is the board's: the decision at an exhausted node
  // then starts from registers, not from the array's check logic.
  assign mate_value    = node_chk_i ? -(18'(chip_pkg::MATE_SCORE) - 18'(rel_p)) : 18'sd0;
  assign stale_ignored = ign_stale && !node_chk_i && rel_p + 6'd1 == sdepth;
  assign none_success  = !stale_ignored && ctrl_pkg::succeeds(mate_value, 18'sd0, tv_s, tv_tb, odd_p);
  // The offset searches skip the fail-high move at the root; the extended search the others.
  logic root_skip;
  assign root_skip = ply_i == base_i && ((phase_q == ctrl_pkg::PH_OFFSET && mv_i == main_best_q) ||
                                         (phase_q == ctrl_pkg::PH_EXTEND && mv_i != main_best_q));

  // ---------------------------------------------------------------- quiescence checks
  // AIJ 5, parameters 5 and 6, on the child's board: the checking non-capture just made is a
  // "mating" check (no escape square, or a queen contact check), a "singular" one (one escape
  // square, a rook contact check, or the checked side has a hung piece), or neither. In the child
  // the mover is the side not to move (stm = 1: white moved).
  logic       quiet_filtered, contact, check_mating, check_singular, check_allowed;
  logic [2:0] to_type;
  logic [1:0] mover_mating, mover_singular;
  logic [7:0] qc_after;
  assign quiet_filtered = qfilter_q && entry_i.cap == 4'd0;
  assign to_type        = ctrl_pkg::board_type(board_i, mv_i[11:6]);
  assign contact        = king_ring_i[mv_i[11:6]];
  assign check_mating   = esc_none_i || (contact && to_type == 3'd5);
  assign check_singular = !check_mating && (esc_one_i || (contact && to_type == 3'd4) || hung_i != 64'd0);
  assign mover_mating   = pos_i.stm ? qc_q[1:0] : qc_q[3:2];
  assign mover_singular = pos_i.stm ? qc_q[5:4] : qc_q[7:6];
  assign check_allowed  = (check_mating && qs_checks > mover_mating) ||
                          (check_singular && qs_singular > mover_singular);
  // The counters after the move at p: a searched checking non-capture counts in its class.
  always_comb begin
    qc_after = qc_q;
    if (quiet_filtered) begin
      unique case ({check_mating, pos_i.stm})
        2'b11:   qc_after = qc_q + 8'd1;
        2'b10:   qc_after = qc_q + 8'd4;
        2'b01:   qc_after = qc_q + 8'd16;
        default: qc_after = qc_q + 8'd64;
      endcase
    end
  end

  // ---------------------------------------------------------------- quiescence extensions
  // On the child's board in TEST: its side to move's hung pieces (two or more, or one that is
  // pinned to its king), a pawn the move just put on the 7th rank (or flag 9's passed pawn on the
  // 6th whose square ahead is empty), the other side's hung piece; at most one extension per path
  // (plies base+1 .. c-1).
  logic        one_hung, many_hung, pinned_hung, pawn7, pawn6, extend;
  logic [5:0]  p6_front;
  logic [3:0]  p6_enemy;
  logic [31:0] path_mask;
  assign one_hung    = ctrl_pkg::count_upto3(hung_i) == 2'd1;
  assign many_hung   = hung_i != 64'd0 && !one_hung;
  assign pinned_hung = (hung_i & pinned_i) != 64'd0;
  assign pawn7       = to_type == 3'd1 && mv_i[11:9] == (pos_i.stm ? 3'd6 : 3'd1);
  assign p6_front    = pos_i.stm ? mv_i[11:6] + 6'd8 : mv_i[11:6] - 6'd8;
  assign p6_enemy    = {pos_i.stm, 3'd1};
  assign pawn6       = to_type == 3'd1 && mv_i[11:9] == (pos_i.stm ? 3'd5 : 3'd2) &&
                       ctrl_pkg::board_type(board_i, p6_front) == 3'd0 &&
                       (mv_i[8:6] == 3'd0 || ctrl_pkg::board_pc(board_i, p6_front - 6'd1) != p6_enemy) &&
                       (mv_i[8:6] == 3'd7 || ctrl_pkg::board_pc(board_i, p6_front + 6'd1) != p6_enemy);
  always_comb begin
    for (int k = 0; k < 32; k++) path_mask[k] = 6'(k) > base_i && 6'(k) < ply_i + 6'd1;
  end
  assign extend = ply_i < 6'd31 && (extended_q & path_mask) == 32'd0 &&
                    ((ext_pawn7 && pawn7) || (ext_pawn6 && pawn6) || (ext_hung2 && (many_hung || pinned_hung)) ||
                     (ext_hung1 && one_hung && rel_c >= 6'd3 && hung1_q[ci - 5'd2]) ||
                     (ext_opp_hung && opp_hung_i));

  // ---------------------------------------------------------------- repetitions
  logic               np_hit;
  logic signed [17:0] rep_tie;
  ctrl_repeat u_repeat (
    .clk_i,
    .rst_ni,
    .search_ctrl_i,
    .state_i,
    .searching_i,
    .ply_i,
    .base_i,
    .host_ply_i,
    .rel_c,
    .odd_c,
    .last_null_i (last_i[15]),
    .rtried_i    (rtried_q[pi]),
    .pos_i,
    .board_i,
    .board_fwd_i,
    .restore_i,
    .rep_hit_o,
    .rep_near_o,
    .np_hit_o    (np_hit),
    .rep_tie_o   (rep_tie),
    .rm_try_o,
    .rm_move_o
  );

  // ---------------------------------------------------------------- TEST
  // What TEST finds about the move just made (the child at p + 1).
  logic skip, node_limit_hit, rep_leaf, rep_success, np_leaf, descend, draw_success;
  logic lazy_high, lazy_low, slow_success, can_quiesce;
  // Not scored: illegal, filtered out, skipped; a repeating move that does not repeat the position
  // (castling rights or en passant differ) is not scored either.
  assign skip = king_capture_i || root_skip ||
                (rtry_q ? !rep_hit_o : quiet_filtered && !(in_check_i && check_allowed));
  assign node_limit_hit = node_limit_i != 32'd0 && count_i + 64'd1 >= {32'd0, node_limit_i};
  assign rep_leaf       = rep_on && rep_hit_o;
  assign rep_success    = ctrl_pkg::succeeds(18'sd0, rep_tie, tv_s, tv_tb, odd_c);
  assign np_leaf        = np_on && np_hit;
  assign descend        = rel_c < sdepth || (ev_on && in_check_i && ply_i < 6'd31);
  // A drawn ending: score 0, its static value the tie-breaker.
  assign draw_success = ctrl_pkg::succeeds(18'sd0, 18'(signed'(pos_i.stm ? 16'd0 - fast_static_i : fast_static_i)),
                                           tv_s, tv_tb, odd_c);
  assign lazy_high    = lz_active_i && lz_sum_i - $signed({2'd0, lz_margin_i}) > tv_c;
  assign lazy_low     = lz_active_i && lz_sum_i + $signed({2'd0, lz_margin_i}) < tv_c;
  assign slow_success = ctrl_pkg::succeeds(18'(signed'(se_total_i)), 18'sd0, tv_s, tv_tb, odd_c);
  // A child whose stand pat failed is searched on in the quiescence search.
  assign can_quiesce  = qs_on && 7'(rel_c) < 7'(sdepth) + 7'(qs_depth) && ply_i < 6'd31;

  // ---------------------------------------------------------------- the clock's decision
  // Actions decided by the state and carried out after it: a leaf (a stand pat, or a repetition:
  // terminal) decided whether the child succeeds; a child is searched; the root decided.
  logic        leaf_go, leaf_success, leaf_terminal, do_descend, ext_mark, root_done, root_success, root_none;
  logic [15:0] root_best, final_best;
  logic        final_go, final_success, restart_root;
  logic [3:0]  final_flags;
  always_comb begin
    step_o        = '0;
    step_o.next    = ctrl_pkg::NEXT_HOLD;
    legal_d       = legal_q;
    extended_d    = extended_q;
    hung1_d       = hung1_q;
    rtried_d      = rtried_q;
    qc_d          = qc_q;
    result_d      = result_q;
    qfilter_d     = qfilter_q;
    rtry_d        = rtry_q;
    child_fail_d  = child_fail_q;
    stop_d        = stop_q;
    best_d        = best_q;
    leaf_d        = leaf_q;
    phase_d       = phase_q;
    alt_d         = alt_q;
    main_best_d   = main_best_q;
    leaf_go       = 1'b0;
    leaf_success  = 1'b0;
    leaf_terminal = 1'b0;
    do_descend    = 1'b0;
    ext_mark      = 1'b0;
    root_done     = 1'b0;
    root_success  = 1'b0;
    root_none     = 1'b0;
    root_best     = 16'd0;
    final_go      = 1'b0;
    final_success = 1'b0;
    final_best    = 16'd0;
    final_flags   = 4'd0;
    restart_root  = 1'b0;

    unique case (state_i)
      chip_pkg::S_GEN: begin
        qfilter_d = qnode_o && checks_ok_o;
        if (rm_try_o) begin
          rtried_d = rtried_q | (32'd1 << pi);  // the state machine makes the repeating move first
        end else if (exhausted_i) begin
          // Every move failed, unless there was none (mate or stalemate) at a full-width or
          // evasion node. Only the search proper scores a mate or stalemate at the root.
          step_o.go = 1'b1;
          if (ply_i == base_i) begin
            root_done    = 1'b1;
            root_none    = phase_q == ctrl_pkg::PH_MAIN && !qnode_o && !legal_q[pi];
            root_success = root_none && none_success;
          end else begin
            step_o.ply_down = 1'b1;
            step_o.next     = ctrl_pkg::NEXT_UNMAKE;
            child_fail_d    = !(!qnode_o && !legal_q[pi] && none_success);
          end
        end
      end
      chip_pkg::S_REPCHK: begin
        if (repchk_ok_i) rtry_d = 1'b1;
      end
      chip_pkg::S_TEST: begin
        if (searching_i) begin
          step_o.go    = 1'b1;
          step_o.undo  = 1'b1;
          step_o.next  = ctrl_pkg::NEXT_GEN;
          rtry_d       = 1'b0;
          if (rtry_q) begin
            step_o.move_we    = 1'b1;  // the node's generation starts from its first move
            step_o.move_waddr = pi;
          end
          if (!skip) begin
            step_o.count = 1'b1;
            legal_d      = legal_q | (32'd1 << pi);
            hung1_d      = (hung1_q & ~(32'd1 << ci)) | ({31'd0, one_hung} << ci);
            if (node_limit_hit) begin
              stop_d   = 1'b1;
              result_d = 8'd4;
              if (ply_i == base_i) begin
                step_o.next  = ctrl_pkg::NEXT_IDLE;
                step_o.done  = 1'b1;
              end else begin
                step_o.ply_down = 1'b1;
                step_o.next     = ctrl_pkg::NEXT_UNMAKE;
              end
            end else if (rep_leaf) begin
              leaf_d        = 16'd0;
              leaf_go       = 1'b1;
              leaf_terminal = 1'b1;
              leaf_success  = rep_success;
            end else if (np_leaf) begin
              // No progress: the move fails low for its mover, so the child succeeds.
              leaf_go       = 1'b1;
              leaf_terminal = 1'b1;
              leaf_success  = 1'b1;
            end else if (descend) begin
              do_descend = 1'b1;
            end else if (extend) begin
              do_descend = 1'b1;
              ext_mark   = 1'b1;  // searched full width, no stand pat
            end else if (eg_draw_i) begin
              // Stand pat. A drawn ending: score 0, its static value the tie-breaker.
              leaf_d       = 16'd0;
              leaf_go      = 1'b1;
              leaf_success = draw_success;
            end else if (lazy_high || lazy_low) begin
              leaf_d       = fast_eval_i;
              leaf_go      = 1'b1;
              leaf_success = lazy_high;
            end else begin
              step_o.undo     = 1'b0;
              step_o.se_start = 1'b1;
              step_o.next     = ctrl_pkg::NEXT_SEVAL;
            end
          end
        end
      end
      chip_pkg::S_UNMAKE: begin
        // Stopping unwinds to the root; a failed child means this node succeeded.
        if (searching_i && (stop_q || child_fail_q)) begin
          step_o.go   = 1'b1;
          step_o.undo = 1'b1;
          if (ply_i == base_i) begin
            if (stop_q) begin
              step_o.next  = ctrl_pkg::NEXT_IDLE;
              step_o.done  = 1'b1;
            end else begin
              root_done    = 1'b1;
              root_success = 1'b1;
              root_best    = last_i;
            end
          end else begin
            step_o.ply_down = 1'b1;
            child_fail_d    = 1'b0;
          end
        end
      end
      chip_pkg::S_SEVAL: begin
        // The stand pat waits for the slow evaluation; its last clock decides.
        if (se_finish_i) begin
          step_o.go    = 1'b1;
          step_o.undo  = 1'b1;
          leaf_d       = se_total_i;
          leaf_go      = 1'b1;
          leaf_success = slow_success;
        end
      end
      default: ;
    endcase

    // A leaf: if the child succeeds, the node goes on with its next move. If a stand pat failed,
    // the quiescence search goes on below it when it may; otherwise the node at p succeeds.
    if (leaf_go) begin
      if (leaf_success) begin
        step_o.next  = ctrl_pkg::NEXT_GEN;
      end else if (can_quiesce && !leaf_terminal) begin
        do_descend = 1'b1;
      end else if (ply_i == base_i) begin
        root_done    = 1'b1;
        root_success = 1'b1;
        root_best    = mv_i;
      end else begin
        step_o.ply_down = 1'b1;
        step_o.next     = ctrl_pkg::NEXT_UNMAKE;
        child_fail_d    = 1'b0;
      end
    end
    if (do_descend) begin
      step_o.undo       = 1'b0;
      step_o.ply_up     = 1'b1;
      step_o.move_we    = 1'b1;
      step_o.move_waddr = ci;
      step_o.next       = ctrl_pkg::NEXT_GEN;
      legal_d           = legal_d & ~(32'd1 << ci);
      rtried_d          = rtried_q & ~(32'd1 << ci);
      extended_d        = (extended_q & ~(32'd1 << ci)) | ({31'd0, ext_mark} << ci);
      qc_d              = qc_after;
    end
    // The root decided; in the offset phase a success is one alternative that reached the offset
    // test value. RESULT [5:4] alternatives, [6] the offset searches ran, [7] the extended search
    // decided.
    if (root_done) begin
      final_go      = 1'b1;
      final_success = root_success;
      final_best    = root_best;
      final_flags   = 4'd0;
      unique case (phase_q)
        ctrl_pkg::PH_MAIN: begin
          if (root_success && off_on_o && root_best != 16'd0) begin
            final_go     = 1'b0;
            restart_root = 1'b1;
            phase_d      = ctrl_pkg::PH_OFFSET;
            main_best_d  = root_best;
            alt_d        = 2'd0;
          end
        end
        ctrl_pkg::PH_OFFSET: begin
          final_success = 1'b1;
          final_best    = main_best_q;
          final_flags   = {2'b01, alt_q};
          if (root_success && alt_q + 2'd1 == alt_limit) begin
            final_flags = {2'b01, alt_limit};
          end else if (root_success) begin
            final_go     = 1'b0;  // go on with the next root move
            alt_d        = alt_q + 2'd1;
            child_fail_d = 1'b0;
            step_o.next  = ctrl_pkg::NEXT_GEN;
          end else if (off_condition) begin
            final_go     = 1'b0;
            restart_root = 1'b1;
            phase_d      = ctrl_pkg::PH_EXTEND;
          end
        end
        default: final_flags = {2'b11, alt_q};
      endcase
      if (restart_root) begin
        step_o.move_we    = 1'b1;
        step_o.move_waddr = base_i[4:0];
        step_o.next       = ctrl_pkg::NEXT_GEN;
        legal_d           = legal_d & ~(32'd1 << base_i[4:0]);
        child_fail_d      = 1'b0;
      end
      if (final_go) begin
        result_d     = {final_flags, root_none, 1'b0, final_success, 1'b1};
        best_d       = final_success ? final_best : 16'd0;
        step_o.next  = ctrl_pkg::NEXT_IDLE;
        step_o.done  = 1'b1;
      end
    end
    // Unmaking a move brings back the checks played before it (UNMAKE always unmakes).
    if (step_o.undo || state_i == chip_pkg::S_UNMAKE) qc_d = entry_i.qc;

    // SEARCH is written (the state machine is idle): the search starts afresh.
    if (start_i) begin
      result_d     = 8'd0;
      best_d       = 16'd0;
      legal_d      = 32'd0;
      extended_d   = 32'd0;
      hung1_d      = 32'd0;
      qc_d         = 8'd0;
      stop_d       = 1'b0;
      child_fail_d = 1'b0;
      phase_d      = ctrl_pkg::PH_MAIN;
      alt_d        = 2'd0;
      main_best_d  = 16'd0;
      rtry_d       = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      legal_q      <= 32'd0;
      extended_q   <= 32'd0;
      hung1_q      <= 32'd0;
      rtried_q     <= 32'd0;
      qc_q         <= 8'd0;
      result_q     <= 8'd0;
      qfilter_q    <= 1'b0;
      rtry_q       <= 1'b0;
      child_fail_q <= 1'b0;
      stop_q       <= 1'b0;
      best_q       <= 16'd0;
      leaf_q       <= 16'd0;
      main_best_q  <= 16'd0;
      phase_q      <= ctrl_pkg::PH_MAIN;
      alt_q        <= 2'd0;
    end else begin
      legal_q      <= legal_d;
      extended_q   <= extended_d;
      hung1_q      <= hung1_d;
      rtried_q     <= rtried_d;
      qc_q         <= qc_d;
      result_q     <= result_d;
      qfilter_q    <= qfilter_d;
      rtry_q       <= rtry_d;
      child_fail_q <= child_fail_d;
      stop_q       <= stop_d;
      best_q       <= best_d;
      leaf_q       <= leaf_d;
      main_best_q  <= main_best_d;
      phase_q      <= phase_d;
      alt_q        <= alt_d;
    end
  end

`ifdef VERILATOR
  // Assertions (verilated with --assert in the regression's second configuration): a decision
  // moves the ply one way; descending never unmakes; the search's plies stay within the stack and above its root.
  a_ply_one_way: assert property (@(posedge clk_i) disable iff (!rst_ni)
      step_o.go |-> !(step_o.ply_up && step_o.ply_down));
  a_descend_keeps: assert property (@(posedge clk_i) disable iff (!rst_ni)
      step_o.go && step_o.ply_up |-> !step_o.undo && ply_i < 6'd31);
  a_above_root: assert property (@(posedge clk_i) disable iff (!rst_ni)
      searching_i && state_i != chip_pkg::S_IDLE |-> ply_i >= base_i);
  a_no_decision_idle: assert property (@(posedge clk_i) disable iff (!rst_ni)
      state_i == chip_pkg::S_IDLE |-> !step_o.go);
  // The registered quiescence test is this clock's wherever a search runs (the host cannot write
  // the offset depth while busy, and SEARCH's own write sets the rest a clock ahead).
  a_qnode_registered: assert property (@(posedge clk_i) disable iff (!rst_ni)
      searching_i && state_i != chip_pkg::S_IDLE |-> qnode_o == qnode_ref);
`else
  logic unused_qnode_ref;  // read by the assertion only
  assign unused_qnode_ref = qnode_ref;
`endif

  assign qc_o         = qc_q;
  assign result_o     = result_q;
  assign best_o       = best_q;
  assign leaf_o       = leaf_q;
  assign phase_o      = phase_q;
  assign stop_o       = stop_q;
  assign child_fail_o = child_fail_q;
  logic unused_search;  // the move clocks; the entry's parts make/unmake and the evaluation own
  assign unused_search = ^{pos_i.half, pos_i.full, entry_i.cast, entry_i.chk, entry_i.ep, entry_i.half, entry_i.flag,
                           entry_i.pst, entry_i.counts, entry_i.locs};
endmodule
