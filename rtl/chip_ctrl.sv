// The chip's controller: host register file, position state, move stack, make/unmake, and the
// command state machine (GEN, MAKE, UNMAKE, PERFT, CLEAR, EVAL_INIT, SLOW_EVAL, LAZY_EVAL, SEARCH).
//
// SEARCH is the hardware search (AIJ section 5, Micro "Search control"): a minimum-window
// alpha-beta search with no value stack. Each node only learns whether it reaches its side's test
// value ("succeeds"): a node succeeds as soon as one child fails, and fails when all its children
// succeed. So a child's failure pops two plies and its success one; all the state a ply needs is
// the move on the stack, a bit for "a legal move was searched here" and the quiescence check
// counters. Scores are (score, tie-breaker) pairs compared lexicographically (AIJ 4.3).
//
// The move generator is "stateless": the next move at a ply comes from the position and the move
// last searched at that ply (its target and attacker set the arbiters' masks), so the stack holds
// only what unmake needs. Every state below takes exactly one clock; host/chip/chip_model.cpp
// is the same machine in C++ and must stay in step with it, clock for clock.
module chip_ctrl (
  input  logic        clk_i,
  input  logic        rst_ni,
  // Host bus: one request per clock, response (rdata, err) on the next clock.
  input  logic        req_i,
  input  logic        we_i,
  input  logic [16:0] addr_i,
  input  logic [31:0] wdata_i,
  output logic        rvalid_o,
  output logic [31:0] rdata_o,
  output logic        err_o,
  // Move-generator array.
  output logic        clear_o,
  output logic [3:0]  wr_en_o,
  output logic [23:0] wr_sq_o,
  output logic [15:0] wr_pc_o,
  input  logic [255:0] board_i,      // piece of square s at [s*4 +: 4]
  output logic        stm_o,
  output logic [3:0]  castling_o,
  output logic        ep_valid_o,
  output logic [5:0]  ep_sq_o,
  output logic        tgt_capt_only_o,
  output logic        tgt_mask_en_o,
  output logic [5:0]  tgt_last_sq_o,
  input  logic        tgt_found_i,
  input  logic [5:0]  tgt_sq_i,
  input  logic [63:0] tgt_cand_i,
  output logic [5:0]  tsel_sq_o,
  output logic        att_mask_en_o,
  output logic [5:0]  att_last_sq_o,
  input  logic        att_found_i,
  input  logic [5:0]  att_sq_i,
  input  logic [63:0] att_cand_i,
  input  logic        tsel_attacks_i,
  input  logic        in_check_i,
  input  logic        king_capture_i,
  input  logic [63:0] hung_i,
  input  logic        opp_hung_i,
  input  logic [63:0] pinned_i,
  input  logic [63:0] king_ring_i,
  input  logic        esc_none_i,
  input  logic        esc_one_i,
  // Piece placement table (eval_pst): host writes, three read ports.
  output logic        pst_we_o,
  output logic [8:0]  pst_waddr_o,
  output logic [15:0] pst_wdata_o,
  output logic [8:0]  pst_raddr_a_o,
  output logic [8:0]  pst_raddr_b_o,
  output logic [8:0]  pst_raddr_c_o,
  input  logic [15:0] pst_rdata_a_i,
  input  logic [15:0] pst_rdata_b_i,
  input  logic [15:0] pst_rdata_c_i,
  // Game phase control (eval_phase).
  output logic        ph_clear_o,
  output logic [3:0]  ph_ev_valid_o,
  output logic [15:0] ph_ev_piece_o,
  output logic [23:0] ph_ev_loc_o,
  output logic [7:0]  ph_ev_delta_o,
  output logic        ph_ram_we_o,
  input  logic [15:0] ph_ram_rdata_i,
  input  logic [15:0] phase_i,
  input  logic [39:0] counts_i,
  input  logic [71:0] locs_i,
  // Endgame logic (eval_kpk).
  output logic        kpk_en_o,
  input  logic        kpk_active_i,
  input  logic        kpk_win_i,
  output logic        rules_en_o,
  input  logic [2:0]  rule_draw_i,      // {KRPKR, KRKP, KQKP}
  input  logic [2:0]  runner_w_i,       // king-and-pawn array (eval_kpa)
  input  logic [2:0]  runner_b_i,
  input  logic [1:0]  separated_i,      // widely separated passed pawns, [0] white, [1] black
  // Slow evaluation (eval_slow): start and abort, its host port decode, its results.
  output logic        se_start_o,
  output logic        se_abort_o,
  output logic        se_we_o,
  input  logic        se_busy_i,
  input  logic        se_finish_i,
  input  logic        se_reg_hit_i,
  input  logic        se_tab_hit_i,
  input  logic        se_too_wide_i,
  input  logic [31:0] se_rdata_i,
  input  logic [15:0] se_value_i,
  input  logic        se_grp_hit_i,     // the SE_GROUP block (read-only)
  input  logic [15:0] se_white_i,       // the finishing slow evaluation's value, white's view
  input  logic [31:0] se_lazy_ctrl_i,   // EVAL_CONTROL word 1
  input  logic [15:0] se_draw_i,        // DRAW_SCORE
  // Debug port for lock-step co-simulation (nothing inside depends on it).
  output logic [3:0]  dbg_state_o,
  output logic [5:0]  dbg_ply_o,
  output logic [15:0] dbg_move_o,
  output logic [31:0] dbg_nodes_o,
  output logic [15:0] dbg_leaf_o,
  output logic [7:0]  dbg_flags_o
);
  localparam int StackDepth = chip_pkg::STACK_DEPTH;

  typedef enum logic [3:0] {
    S_IDLE   = 4'd0,
    S_CHECK  = 4'd1,  // is the host's move pseudo-legal here? (GEN with a last move, MAKE)
    S_GEN    = 4'd2,  // next move after the last one at this ply, or the next target
    S_GENATT = 4'd3,  // best attacker of the registered target
    S_MAKE   = 4'd4,
    S_TEST   = 4'd5,  // legality and mode filter; unmake in the same clock unless descending
    S_UNMAKE = 4'd6,
    S_EINIT  = 4'd7,  // EVAL_INIT: sum the placement table over the board, then the castling deltas
    S_SEVAL  = 4'd8,  // SEARCH: a stand pat waits for the slow evaluation
    S_REPCHK = 4'd9   // SEARCH: is the repeating move pseudo-legal? (SEARCH_CTRL[20])
  } state_e;

  // ---------------------------------------------------------------- registers
  state_e      state_q, state_d;
  logic        stm_q, stm_d;
  logic [3:0]  castling_q, castling_d;
  logic        ep_valid_q, ep_valid_d;
  logic [5:0]  ep_sq_q, ep_sq_d;
  logic [15:0] half_q, half_d, full_q, full_d;
  logic [31:0] cmd_q, cmd_d;
  logic [15:0] move_q, move_d;            // MOVE register
  logic [15:0] mv_q, mv_d;                // move being made
  logic [5:0]  tgt_q, tgt_d;
  logic [5:0]  ply_q, ply_d;              // working stack index
  logic [5:0]  base_q, base_d;            // stack index where the command started
  logic [5:0]  host_ply_q, host_ply_d;    // moves made by MAKE
  logic [63:0] count_q, count_d, cycles_q, cycles_d;
  logic [31:0] generated_q, generated_d;
  logic        done_q, done_d, aborted_q, aborted_d, move_valid_q, move_valid_d;
  logic [7:0]  err_code_q, err_code_d;
  logic [16:0] err_addr_q, err_addr_d;
  logic        rvalid_q, err_q, err_d;
  logic [15:0] pst_q, pst_d;              // piece-placement sum, white's view
  logic [15:0] castle_k_q, castle_k_d, castle_q_q, castle_q_d;
  logic [7:0]  eval_ctrl_q, eval_ctrl_d;
  logic [6:0]  scan_q, scan_d;            // EVAL_INIT square counter
  logic [15:0] runner_bonus_q, runner_bonus_d;
  logic [15:0] sep_bonus_q, sep_bonus_d;  // value of widely separated passed pawns
  logic [31:0] rdata_q, rdata_d;
  // Lazy evaluation: test value, the low-pass filter's estimate of the slow evaluation (white's
  // view), the last LAZY_EVAL result, and a LAZY_EVAL waiting for its slow evaluation.
  logic [15:0] test_value_q, test_value_d, est_q, est_d;
  logic [2:0]  lazy_q, lazy_d;
  logic        lazy_pend_q, lazy_pend_d;
  // Hardware search: parameters, results, "a legal move was searched at ply p", the unwinding
  // flags, quiescence checks played (mating: [1:0] white, [3:2] black; singular: [5:4], [7:6]), the
  // quiescence check filter of the node being expanded (set in GEN), and the last leaf value
  // (debug port).
  logic [28:0] search_ctrl_q, search_ctrl_d;
  // Repeating-move bound (SEARCH_CTRL[20]): the move in MAKE/TEST is a node's repeating move; the
  // plies whose repeating move was tried (or found not pseudo-legal).
  logic        rtry_q, rtry_d;
  logic [31:0] rtried_q, rtried_d;
  // Quiescence extensions: plies searched full width by an extension; plies whose side to move had
  // exactly one hung piece.
  logic [31:0] extended_q, extended_d, hung1_q, hung1_d;
  logic [15:0] test_tie_q, test_tie_d, best_q, best_d, leaf_q, leaf_d;
  logic [31:0] node_limit_q, node_limit_d, legal_q, legal_d;
  logic [7:0]  result_q, result_d;
  logic [7:0]  qc_q, qc_d;
  // Offset searches at the root (OFFSET_CTRL): the phase (the search, the offset searches of the
  // alternatives, the extended search of the fail-high move), the alternatives that reached the
  // offset test value, and the search's fail-high move.
  localparam logic [1:0] PH_MAIN = 2'd0, PH_OFFSET = 2'd1, PH_EXTEND = 2'd2;
  logic [23:0] offset_ctrl_q, offset_ctrl_d;
  logic [1:0]  phase_q, phase_d, alt_q, alt_d;
  logic [15:0] main_best_q, main_best_d;
  logic        child_fail_q, child_fail_d, stop_q, stop_d, qfilter_q, qfilter_d;

  // Move stack.
  logic [15:0] stk_move_q [StackDepth];
  logic [3:0]  stk_cap_q  [StackDepth];
  logic [3:0]  stk_cast_q [StackDepth];
  logic [6:0]  stk_ep_q   [StackDepth];
  logic [15:0] stk_half_q [StackDepth];
  logic [1:0]  stk_flag_q [StackDepth];   // {castle, en passant}
  logic [15:0] stk_pst_q  [StackDepth];
  logic [7:0]  stk_qc_q   [StackDepth];   // quiescence checks played before the move
  logic        stk_we, stk_move_we;
  logic [4:0]  stk_waddr, stk_move_waddr;
  logic [15:0] stk_move_wdata;
  logic [3:0]  stk_cap_w, stk_cast_w;
  logic [6:0]  stk_ep_w;
  logic [15:0] stk_half_w;
  logic [1:0]  stk_flag_w;
  logic [15:0] stk_pst_w;
  logic [7:0]  stk_qc_w;

  // Command fields.
  logic [3:0] op_w;
  logic [2:0] mode_w, mode_q;
  logic [4:0] depth_w, depth_q;
  assign op_w    = wdata_i[3:0];
  assign mode_w  = wdata_i[6:4];
  assign depth_w = wdata_i[12:8];
  assign mode_q  = cmd_q[6:4];
  assign depth_q = cmd_q[12:8];
  logic [3:0] op_q;
  assign op_q = cmd_q[3:0];

  logic busy;
  assign busy = (state_q != S_IDLE) || se_busy_i;

  // ---------------------------------------------------------------- array inputs
  logic [4:0]  pi;           // current ply index into the stack
  logic [15:0] last;
  assign pi   = ply_q[4:0];
  assign last = stk_move_q[pi];
  logic last_valid, last_promo;
  assign last_valid = last[15];
  assign last_promo = last[14];

  assign stm_o           = stm_q;
  assign castling_o      = castling_q;
  assign ep_valid_o      = ep_valid_q;
  assign ep_sq_o         = ep_sq_q;
  assign tgt_mask_en_o   = (state_q == S_GEN) && last_valid;
  assign tgt_last_sq_o   = last[11:6];
  assign att_mask_en_o   = (state_q == S_GEN);
  assign att_last_sq_o   = last[5:0];
  always_comb begin
    unique case (state_q)
      S_CHECK:  tsel_sq_o = move_q[11:6];
      S_GEN:    tsel_sq_o = last[11:6];
      S_GENATT: tsel_sq_o = tgt_q;
      default:  tsel_sq_o = mv_q[11:6];
    endcase
  end

  // ---------------------------------------------------------------- search datapath
  logic searching;
  assign searching = (op_q == chip_pkg::OP_SEARCH);
  logic       qs_on, ev_on, rep_on, np_on, ign_stale, rep_tie_on, rep_strive, rep_bound;
  logic [1:0] qs_checks;
  logic [4:0] qs_depth;
  assign qs_on     = search_ctrl_q[0];
  assign ev_on     = search_ctrl_q[1];
  assign rep_on    = search_ctrl_q[2];
  assign np_on     = search_ctrl_q[3];
  assign ign_stale = search_ctrl_q[13];
  assign rep_tie_on = search_ctrl_q[18];
  assign rep_strive = search_ctrl_q[19];
  assign rep_bound  = search_ctrl_q[20];
  logic ext_pawn7, ext_pawn6, ext_hung2, ext_hung1, ext_opp_hung;
  logic [1:0] qs_singular;
  assign ext_pawn7    = search_ctrl_q[14];
  assign ext_hung2    = search_ctrl_q[15];
  assign ext_hung1    = search_ctrl_q[16];
  assign ext_opp_hung = search_ctrl_q[17];
  assign ext_pawn6    = search_ctrl_q[21];
  assign qs_checks    = search_ctrl_q[5:4];  // mating checks
  assign qs_singular  = search_ctrl_q[7:6];
  assign qs_depth  = search_ctrl_q[12:8];
  // The node being expanded is at ply p = ply_q, rel_p plies below the root; its child at p + 1.
  logic [5:0] rel_p, rel_c;
  logic       odd_p, odd_c;
  assign rel_p = ply_q - base_q;
  assign rel_c = rel_p + 6'd1;
  assign odd_p = rel_p[0];
  assign odd_c = !rel_p[0];
  // Even plies test "value >= (V, Vtb)", odd plies "value > (-V, -Vtb)" (18 bits: no overflow).
  logic signed [17:0] tv_s, tv_tb;
  // The search's depth and test value in the current phase: the offset searches run to the offset
  // depth against the test value less the margin; the extended search one ply deeper.
  logic [4:0]  off_depth;
  logic [15:0] off_margin;
  logic        off_single, off_binary, off_trinary, off_on, off_condition;
  logic [1:0]  alt_limit;
  logic [5:0]  sdepth;
  assign off_depth   = offset_ctrl_q[4:0];
  assign off_single  = offset_ctrl_q[5];
  assign off_binary  = offset_ctrl_q[6];
  assign off_trinary = offset_ctrl_q[7];
  assign off_margin  = offset_ctrl_q[23:8];
  assign off_on      = off_single || off_binary || off_trinary;
  assign alt_limit   = off_trinary ? 2'd3 : (off_binary ? 2'd2 : 2'd1);
  assign off_condition = (alt_q == 2'd0 && off_single) || (alt_q == 2'd1 && off_binary) ||
                         (alt_q == 2'd2 && off_trinary);
  always_comb begin
    unique case (phase_q)
      PH_OFFSET: sdepth = {1'b0, off_depth};
      PH_EXTEND: sdepth = {1'b0, depth_q} + 6'd1;
      default:   sdepth = {1'b0, depth_q};
    endcase
  end
  assign tv_s  = 18'(signed'(test_value_q)) - ((phase_q == PH_OFFSET) ? {2'd0, off_margin} : 18'd0);
  assign tv_tb = 18'(signed'(test_tie_q));
  function automatic logic succeeds(input logic signed [17:0] s, input logic signed [17:0] tb,
                                    input logic signed [17:0] v, input logic signed [17:0] vtb, input logic odd);
    if (odd) succeeds = (s > -v) || (s == -v && tb > -vtb);
    else     succeeds = (s > v) || (s == v && tb >= vtb);
  endfunction
  // Quiescence nodes generate captures (or all moves filtered to captures and checks while the side
  // may still check); a side in check there searches all its moves.
  logic qnode, checks_ok;
  assign qnode     = searching && rel_p >= sdepth && !(in_check_i && ev_on) && !extended_q[pi];
  assign checks_ok = qs_checks > (stm_q ? qc_q[3:2] : qc_q[1:0]) ||
                     qs_singular > (stm_q ? qc_q[7:6] : qc_q[5:4]);
  // Mate (in check, no legal move) or stalemate at the node being expanded.
  logic signed [17:0] mate_value;
  assign mate_value = in_check_i ? -(18'(chip_pkg::MATE_SCORE) - 18'(rel_p)) : 18'sd0;
  logic stale_ignored;  // no legal move, not in check, one ply above quiescence, flag set: fails
  assign stale_ignored = ign_stale && !in_check_i && rel_p + 6'd1 == sdepth;
  // Quiescence checks (AIJ 5, parameters 5 and 6), on the child's board: the checking non-capture
  // just made is a "mating" check (no escape square, or a queen contact check), a "singular" one
  // (one escape square, a rook contact check, or the checked side has a hung piece), or neither.
  // In the child the mover is the side not to move (stm_q = 1: white moved).
  logic       quiet_filtered, contact, check_mating, check_singular, check_allowed;
  logic [2:0] to_type;
  logic [1:0] mover_mating, mover_singular;
  logic [7:0] qc_after;
  assign quiet_filtered = qfilter_q && stk_cap_q[pi] == 4'd0;
  assign to_type        = board_i[{mv_q[11:6], 2'b00} +: 3];
  assign contact        = king_ring_i[mv_q[11:6]];
  assign check_mating   = esc_none_i || (contact && to_type == 3'd5);
  assign check_singular = !check_mating && (esc_one_i || (contact && to_type == 3'd4) || hung_i != 64'd0);
  assign mover_mating   = stm_q ? qc_q[1:0] : qc_q[3:2];
  assign mover_singular = stm_q ? qc_q[5:4] : qc_q[7:6];
  assign check_allowed  = (check_mating && qs_checks > mover_mating) ||
                          (check_singular && qs_singular > mover_singular);
  // The counters after the move at p: a searched checking non-capture counts in its class.
  always_comb begin
    qc_after = qc_q;
    if (quiet_filtered) begin
      unique case ({check_mating, stm_q})
        2'b11:   qc_after = qc_q + 8'd1;
        2'b10:   qc_after = qc_q + 8'd4;
        2'b01:   qc_after = qc_q + 8'd16;
        default: qc_after = qc_q + 8'd64;
      endcase
    end
  end
  logic can_quiesce;  // a child whose stand pat failed is searched on in the quiescence search
  assign can_quiesce = qs_on && 7'(rel_c) < 7'(sdepth) + 7'(qs_depth) && ply_q < 6'd31;
  // Quiescence extensions, on the child's board in TEST: its side to move's hung pieces (two or
  // more, or one that is pinned to its king), a pawn the move just put on the 7th rank; at most one
  // extension per path (plies base+1 .. c-1).
  logic        one_hung, many_hung, pinned_hung, pawn7, extend;
  logic [4:0]  ci;
  logic [31:0] path_mask;
  assign ci        = pi + 5'd1;
  assign one_hung  = hung_i != 64'd0 && (hung_i & (hung_i - 64'd1)) == 64'd0;
  assign many_hung = hung_i != 64'd0 && !one_hung;
  assign pinned_hung = (hung_i & pinned_i) != 64'd0;
  assign pawn7     = board_i[{mv_q[11:6], 2'b00} +: 3] == 3'd1 && mv_q[11:9] == (stm_q ? 3'd6 : 3'd1);
  // Flag 9's "pawn to the 6th in some cases" (SEARCH_CTRL[21]): a passed pawn on the 6th whose
  // square ahead is empty (no pawn of the side to move on the 7th rank on its file or beside it).
  logic       pawn6;
  logic [5:0] p6_front;
  logic [3:0] p6_enemy;
  assign p6_front = stm_q ? mv_q[11:6] + 6'd8 : mv_q[11:6] - 6'd8;
  assign p6_enemy = {stm_q, 3'd1};
  assign pawn6    = board_i[{mv_q[11:6], 2'b00} +: 3] == 3'd1 && mv_q[11:9] == (stm_q ? 3'd5 : 3'd2) &&
                    board_i[{p6_front, 2'b00} +: 3] == 3'd0 &&
                    (mv_q[8:6] == 3'd0 || board_i[{p6_front - 6'd1, 2'b00} +: 4] != p6_enemy) &&
                    (mv_q[8:6] == 3'd7 || board_i[{p6_front + 6'd1, 2'b00} +: 4] != p6_enemy);
  always_comb begin
    for (int k = 0; k < 32; k++) path_mask[k] = 6'(k) > base_q && 6'(k) < ply_q + 6'd1;
  end
  assign extend = ply_q < 6'd31 && (extended_q & path_mask) == 32'd0 &&
                  ((ext_pawn7 && pawn7) || (ext_pawn6 && pawn6) || (ext_hung2 && (many_hung || pinned_hung)) ||
                   (ext_hung1 && one_hung && rel_c >= 6'd3 && hung1_q[ci - 5'd2]) ||
                   (ext_opp_hung && opp_hung_i));
  logic node_limit_hit;
  assign node_limit_hit = node_limit_q != 32'd0 && count_q + 64'd1 >= {32'd0, node_limit_q};

  // Repetition detector: entries below the current position's stack index; the same side to move
  // for a repetition, the other for one displaced piece.
  logic [31:0] rep_equal, rep_two, rep_valid, rep_same, rep_white, rep_black, np_valid;
  logic [5:0]  rep_idx;
  logic        rep_hit, rep_near, np_hit;
  assign rep_idx = (state_q == S_TEST) ? ply_q + 6'd1 : host_ply_q;
  always_comb begin
    for (int k = 0; k < 32; k++) begin
      rep_valid[k] = 6'(k) < rep_idx;
      rep_same[k]  = (rep_idx[0] == k[0]);
      np_valid[k]  = 6'(k) >= base_q && 7'(k) + 7'd3 <= 7'(rep_idx);
    end
  end
  // "No progress": one piece of the side that just moved displaced from a position of the search
  // path three or more plies up (the other side to move there): it could have moved there at once.
  assign np_hit = |(rep_two & np_valid & ~rep_same & (stm_q ? rep_white & ~rep_black : rep_black & ~rep_white));
  assign rep_hit  = |(rep_equal & rep_valid & rep_same);
  assign rep_near = |(rep_two & rep_valid & ~rep_same);
  // The tie-breaker of a repetition draw, "moves until repetition" (AIJ 4.3), for the child at
  // rel_c: B - rel_c from the root side's view (B = SEARCH_CTRL[28:22], the host's count at the
  // root, so that chip and host count from the same place), positive when it strives for the draw
  // (an earlier repetition is better), negative when it avoids it (a later one is less bad);
  // negated at odd plies like every value. 0 with SEARCH_CTRL[18] clear.
  logic signed [17:0] rep_tie_mag, rep_tie;
  assign rep_tie_mag = 18'(search_ctrl_q[28:22]) - 18'(rel_c);
  assign rep_tie     = !rep_tie_on ? 18'sd0 : (rep_strive != odd_c) ? rep_tie_mag : -rep_tie_mag;
  // The repeating move (SEARCH_CTRL[20]): at the node being expanded (stack index ply_q), an entry
  // below it with the other side to move from which exactly one piece of the side to move is
  // displaced (two squares differ: one holds that piece now, the other is empty); the lowest such
  // entry is selected and the move puts the piece back on the empty square.
  logic [31:0] rep_empty, rm_cand, rm_sel;
  logic [63:0] rm_diff;
  logic [5:0]  rm_from, rm_to;
  logic        rm_try;
  always_comb begin
    for (int k = 0; k < 32; k++) begin
      rm_cand[k] = rep_two[k] && 6'(k) < ply_q && (ply_q[0] != k[0]) && rep_empty[k] &&
                   (stm_q ? rep_black[k] && !rep_white[k] : rep_white[k] && !rep_black[k]);
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
  assign rm_try = searching && rep_on && rep_bound && !last_valid && !rtried_q[pi] && ply_q != base_q &&
                  rm_cand != 32'd0;
  rep_detect u_rep (
    .clk_i,
    .we_i       (state_q == S_MAKE),
    .waddr_i    (pi),
    .board_i,
    .castling_i (castling_q),
    .ep_i       ({ep_valid_q, ep_sq_q}),
    .equal_o    (rep_equal),
    .two_o      (rep_two),
    .white_o    (rep_white),
    .black_o    (rep_black),
    .empty_o    (rep_empty),
    .sel_i      (rm_sel),
    .sel_diff_o (rm_diff)
  );
  assign tgt_capt_only_o = (((mode_q == chip_pkg::MODE_CAPTURES) && (op_q == chip_pkg::OP_GEN)) ||
                            (qnode && !checks_ok)) && (state_q == S_GEN);

  // ---------------------------------------------------------------- make / unmake
  logic [5:0] base_sq;
  assign base_sq = stm_q ? 6'd56 : 6'd0;

  function automatic logic [3:0] castle_mask(input logic [5:0] sq);
    unique case (sq)
      6'd0:    castle_mask = 4'b0010;
      6'd4:    castle_mask = 4'b0011;
      6'd7:    castle_mask = 4'b0001;
      6'd56:   castle_mask = 4'b1000;
      6'd60:   castle_mask = 4'b1100;
      6'd63:   castle_mask = 4'b0100;
      default: castle_mask = 4'b0000;
    endcase
  endfunction

  function automatic logic [2:0] promo_type(input logic [1:0] idx);
    unique case (idx)
      2'd0:    promo_type = 3'd5;
      2'd1:    promo_type = 3'd4;
      2'd2:    promo_type = 3'd3;
      default: promo_type = 3'd2;
    endcase
  endfunction

  // A pawn moving to its last rank promotes.
  function automatic logic is_promotion(input logic [2:0] ptype, input logic [2:0] to_rank, input logic side);
    is_promotion = (ptype == 3'd1) && (to_rank == (side ? 3'd0 : 3'd7));
  endfunction

  // Make mv_q (side to move = mover).
  logic [5:0] mk_from, mk_to, mk_rook_from, mk_rook_to;
  logic [3:0] mk_pc, mk_victim, mk_cap, mk_new;
  logic       mk_pawn, mk_ep, mk_castle;
  assign mk_from      = mv_q[5:0];
  assign mk_to        = mv_q[11:6];
  assign mk_pc        = board_i[{mk_from, 2'b00} +: 4];
  assign mk_victim    = board_i[{mk_to, 2'b00} +: 4];
  assign mk_pawn      = (mk_pc[2:0] == 3'd1);
  assign mk_ep        = mk_pawn && ep_valid_q && (mk_to == ep_sq_q);
  assign mk_castle    = (mk_pc[2:0] == 3'd6) && (mk_from == base_sq + 6'd4) &&
                        (mk_to == base_sq + 6'd6 || mk_to == base_sq + 6'd2);
  assign mk_cap       = mk_ep ? {!stm_q, 3'd1} : mk_victim;
  assign mk_new       = mv_q[14] ? {stm_q, promo_type(mv_q[13:12])} : mk_pc;
  assign mk_rook_from = (mk_to == base_sq + 6'd6) ? base_sq + 6'd7 : base_sq;
  assign mk_rook_to   = (mk_to == base_sq + 6'd6) ? base_sq + 6'd5 : base_sq + 6'd3;

  // Unmake the stack entry at ply p (side to move = the mover's opponent).
  logic        um_promo;
  logic [5:0]  um_from, um_to, um_rook_from, um_rook_to, um_base;
  logic [3:0]  um_cap, um_orig;
  logic        um_mover, um_ep, um_castle;
  assign um_promo     = stk_move_q[pi][14];
  assign um_from      = stk_move_q[pi][5:0];
  assign um_to        = stk_move_q[pi][11:6];
  assign um_cap       = stk_cap_q[pi];
  assign um_ep        = stk_flag_q[pi][0];
  assign um_castle    = stk_flag_q[pi][1];
  assign um_mover     = !stm_q;
  assign um_base      = um_mover ? 6'd56 : 6'd0;
  assign um_orig      = um_promo ? {um_mover, 3'd1} : board_i[{um_to, 2'b00} +: 4];
  assign um_rook_from = (um_to == um_base + 6'd6) ? um_base + 6'd7 : um_base;
  assign um_rook_to   = (um_to == um_base + 6'd6) ? um_base + 6'd5 : um_base + 6'd3;

  // ---------------------------------------------------------------- piece placement
  // Table index of a piece on a square: {type, square relative to its owner}.
  function automatic logic [8:0] pst_index(input logic [3:0] pc, input logic [5:0] sq);
    pst_index = {pc[2:0], sq ^ (pc[3] ? 6'd56 : 6'd0)};
  endfunction
  logic [5:0]  mk_capsq;
  logic [3:0]  scan_pc;
  logic [15:0] pst_va, pst_vb, pst_vc, mk_cdelta, mk_delta;
  assign mk_capsq = mk_ep ? (mk_to ^ 6'd8) : mk_to;
  assign scan_pc  = board_i[{scan_q[5:0], 2'b00} +: 4];
  always_comb begin
    pst_raddr_a_o = pst_index(mk_pc, mk_from);
    pst_raddr_b_o = pst_index(mk_new, mk_to);
    pst_raddr_c_o = pst_index(mk_cap, mk_capsq);
    if (state_q == S_EINIT) begin
      if (scan_q[6]) begin
        // Clock 64: the O-O rook (h1 to f1); clock 65: the O-O-O rook (a1 to d1); relative squares.
        pst_raddr_a_o = {3'd4, scan_q[0] ? 6'd0 : 6'd7};
        pst_raddr_b_o = {3'd4, scan_q[0] ? 6'd3 : 6'd5};
      end else begin
        pst_raddr_a_o = pst_index(scan_pc, scan_q[5:0]);
      end
    end else if (state_q == S_IDLE) begin
      pst_raddr_a_o = addr_i[8:0];  // PST_BASE is 512-aligned: the low bits are the index
    end
  end
  // Empty squares are worth nothing, whatever the table's type-0 words hold.
  assign pst_va    = (state_q == S_EINIT && !scan_q[6] && scan_pc[2:0] == 3'd0) ? 16'd0 : pst_rdata_a_i;
  assign pst_vb    = pst_rdata_b_i;
  assign pst_vc    = (mk_cap[2:0] == 3'd0) ? 16'd0 : pst_rdata_c_i;
  assign mk_cdelta = !mk_castle ? 16'd0 : (mk_to == base_sq + 6'd6) ? castle_k_q : castle_q_q;
  // White's view: the mover's pieces count positive for white, negative for black.
  assign mk_delta  = pst_vb - pst_va + pst_vc + mk_cdelta;

  // Fast evaluation: placement plus the game phase RAM's material-combination bonus.
  logic [15:0] fast_white, fast_eval;
  // A king-and-pawn ending the ROM calls a draw is worth nothing.
  // The pawn race: the side whose runner promotes first (the side to move first on a tie).
  logic white_race, black_race;
  logic [15:0] race;
  assign white_race = runner_w_i != 3'd7 &&
                      (runner_b_i == 3'd7 || (stm_q ? runner_w_i < runner_b_i : runner_w_i <= runner_b_i));
  assign black_race = runner_b_i != 3'd7 &&
                      (runner_w_i == 3'd7 || (stm_q ? runner_b_i <= runner_w_i : runner_b_i < runner_w_i));
  assign race       = (white_race ? runner_bonus_q : black_race ? 16'd0 - runner_bonus_q : 16'd0) +
                      (separated_i[0] ? sep_bonus_q : 16'd0) - (separated_i[1] ? sep_bonus_q : 16'd0);
  // So is an ending an endgame rule calls a draw.
  logic eg_draw;  // the endgame logic calls the position a draw: the whole evaluation is 0
  assign eg_draw    = (kpk_active_i && !kpk_win_i) || rule_draw_i != 3'd0;
  logic [15:0] fast_static;  // before the endgame logic: the tie-breaker of a drawn ending
  assign fast_static = pst_q + {{8{phase_i[7]}}, phase_i[7:0]} + race;
  assign fast_white  = eg_draw ? 16'd0 : fast_static;
  assign kpk_en_o   = eval_ctrl_q[1];
  assign rules_en_o = eval_ctrl_q[0];
  assign fast_eval  = stm_q ? 16'd0 - fast_white : fast_white;

  // ---------------------------------------------------------------- lazy evaluation
  // Decide "evaluation >= TEST_VALUE" from the fast value plus the filter's estimate of the slow
  // one when they clear the margin; otherwise run the slow evaluation. Off when pieces are few
  // (an unusual position: Micro, "Search control").
  logic [15:0] lz_margin;
  logic [3:0]  lz_shift, lz_min;
  logic        lz_on, lz_active, lz_high, lz_low;
  logic [6:0]  lz_pieces;
  logic signed [17:0] lz_sum;
  assign lz_margin = se_lazy_ctrl_i[15:0];
  assign lz_shift  = se_lazy_ctrl_i[19:16];
  assign lz_on     = se_lazy_ctrl_i[20];
  assign lz_min    = se_lazy_ctrl_i[27:24];
  assign lz_pieces = 7'(counts_i[7:4]) + 7'(counts_i[11:8]) + 7'(counts_i[15:12]) + 7'(counts_i[19:16]) +
                     7'(counts_i[27:24]) + 7'(counts_i[31:28]) + 7'(counts_i[35:32]) + 7'(counts_i[39:36]);
  assign lz_active = lz_on && lz_pieces >= 7'(lz_min);
  assign lz_sum    = $signed({{2{fast_eval[15]}}, fast_eval}) +
                     (stm_q ? -$signed({{2{est_q[15]}}, est_q}) : $signed({{2{est_q[15]}}, est_q}));
  assign lz_high   = lz_sum - $signed({2'd0, lz_margin}) >= $signed({{2{test_value_q[15]}}, test_value_q});
  assign lz_low    = lz_sum + $signed({2'd0, lz_margin}) < $signed({{2{test_value_q[15]}}, test_value_q});
  // The filter's step after a slow evaluation, and the full value it gives (side to move's view).
  logic signed [16:0] est_step;
  logic [15:0] se_stm, se_total;
  assign est_step = ($signed({se_white_i[15], se_white_i}) - $signed({est_q[15], est_q})) >>> lz_shift;
  assign se_stm   = stm_q ? 16'd0 - se_white_i : se_white_i;
  assign se_total = fast_eval + se_stm;
  logic unused_lazy;  // reserved bits of EVAL_CONTROL word 1; the step always fits 16 bits
  assign unused_lazy = ^{se_lazy_ctrl_i[31:28], se_lazy_ctrl_i[23:21], est_step[16]};

  // ---------------------------------------------------------------- checks used by commands
  logic [2:0] chk_type;
  logic       chk_ok;
  assign chk_type = board_i[{move_q[5:0], 2'b00} +: 3];
  assign chk_ok = move_q[15] && att_cand_i[move_q[5:0]] && tgt_cand_i[move_q[11:6]] &&
                  (move_q[14] == is_promotion(chk_type, move_q[11:9], stm_q)) &&
                  (move_q[14] || move_q[13:12] == 2'd0);
  // The repeating move (mv_q, no promotion) passes the same checks in S_REPCHK.
  logic rc_ok;
  assign rc_ok = att_cand_i[mv_q[5:0]] && tgt_cand_i[mv_q[11:6]] &&
                 !is_promotion(board_i[{mv_q[5:0], 2'b00} +: 3], mv_q[11:9], stm_q);

  // The move the generator produces in S_GEN / S_GENATT.
  logic [2:0]  att_type;
  assign att_type = board_i[{att_sq_i, 2'b00} +: 3];
  logic [15:0] gen_att_move, gen_tgt_move, gen_promo_move;
  assign gen_att_move   = {1'b1, is_promotion(att_type, last[11:9], stm_q), 2'd0, last[11:6], att_sq_i};
  assign gen_tgt_move   = {1'b1, is_promotion(att_type, tgt_q[5:3], stm_q), 2'd0, tgt_q, att_sq_i};
  assign gen_promo_move = {last[15:14], last[13:12] + 2'd1, last[11:0]};

  logic undo;  // this clock unmakes the move at ply p
  // Search actions decided in the state case and carried out after it.
  logic leaf_go, leaf_success, leaf_terminal, do_descend, ext_mark, root_done, root_success, root_none, gen_none;
  logic [15:0] root_best, final_best;
  logic        final_go, final_success, restart_root, root_skip;
  logic [3:0]  final_flags;
  // The offset searches skip the fail-high move at the root; the extended search the others.
  assign root_skip = ply_q == base_q && ((phase_q == PH_OFFSET && mv_q == main_best_q) ||
                                         (phase_q == PH_EXTEND && mv_q != main_best_q));
  logic test_accept;
  always_comb begin
    unique case (mode_q)
      chip_pkg::MODE_CAPTURES: test_accept = (stk_cap_q[pi] != 4'd0);
      chip_pkg::MODE_CHECKS:   test_accept = in_check_i;
      chip_pkg::MODE_ATTACKS:  test_accept = (stk_cap_q[pi] == 4'd0) && tsel_attacks_i;
      default:                 test_accept = 1'b1;
    endcase
  end

  // ---------------------------------------------------------------- address decode
  logic is_board, is_pst, is_phase_ram, is_reg_ro, is_reg_rw, mapped;
  assign is_phase_ram = (addr_i >= chip_pkg::PHASE_RAM_BASE) &&
                        (addr_i < chip_pkg::PHASE_RAM_BASE + 17'(chip_pkg::PHASE_RAM_COUNT));
  assign is_pst = (addr_i >= chip_pkg::PST_BASE) && (addr_i < chip_pkg::PST_BASE + 17'(chip_pkg::PST_COUNT));
  assign is_board = (addr_i >= chip_pkg::BOARD_BASE) &&
                    (addr_i < chip_pkg::BOARD_BASE + 17'(chip_pkg::BOARD_COUNT));
  always_comb begin
    is_reg_ro = 1'b0;
    is_reg_rw = 1'b0;
    unique case (addr_i)
      chip_pkg::REG_ID, chip_pkg::REG_VERSION, chip_pkg::REG_STATUS, chip_pkg::REG_PLY,
      chip_pkg::REG_COUNT_LO, chip_pkg::REG_COUNT_HI, chip_pkg::REG_CYCLES_LO,
      chip_pkg::REG_CYCLES_HI, chip_pkg::REG_HUNG_LO, chip_pkg::REG_HUNG_HI,
      chip_pkg::REG_PINNED_LO, chip_pkg::REG_PINNED_HI,
      chip_pkg::REG_GENERATED, chip_pkg::REG_FAST_EVAL, chip_pkg::REG_PST_SUM,
      chip_pkg::REG_CASTLE_DELTA, chip_pkg::REG_PIECE_COUNT_W, chip_pkg::REG_PIECE_COUNT_B,
      chip_pkg::REG_PIECE_LOC_W, chip_pkg::REG_PIECE_LOC_B, chip_pkg::REG_KING_SQ,
      chip_pkg::REG_PHASE, chip_pkg::REG_ENDGAME, chip_pkg::REG_KPA, chip_pkg::REG_SLOW_EVAL,
      chip_pkg::REG_EVAL_TOTAL, chip_pkg::REG_LAZY, chip_pkg::REG_DRAW_SCORE, chip_pkg::REG_RESULT,
      chip_pkg::REG_BEST_MOVE, chip_pkg::REG_REP_STATUS: is_reg_ro = 1'b1;
      chip_pkg::REG_CMD, chip_pkg::REG_ABORT, chip_pkg::REG_ERROR, chip_pkg::REG_STM,
      chip_pkg::REG_CASTLING, chip_pkg::REG_EP, chip_pkg::REG_HALFMOVE, chip_pkg::REG_FULLMOVE,
      chip_pkg::REG_MOVE, chip_pkg::REG_EVAL_CTRL, chip_pkg::REG_RUNNER_BONUS, chip_pkg::REG_TEST_VALUE,
      chip_pkg::REG_SLOW_EST, chip_pkg::REG_SEP_BONUS, chip_pkg::REG_SEARCH_CTRL, chip_pkg::REG_TEST_TIE,
      chip_pkg::REG_NODE_LIMIT, chip_pkg::REG_OFFSET_CTRL: is_reg_rw = 1'b1;
      default: ;
    endcase
  end
  assign mapped = is_board || is_pst || is_phase_ram || is_reg_ro || is_reg_rw || se_reg_hit_i || se_tab_hit_i ||
                  se_grp_hit_i;

  logic [31:0] status_w;
  assign status_w = {16'd0, err_code_q, 1'b0, aborted_q, !king_capture_i, move_valid_q,
                     in_check_i, (err_code_q != 8'd0), done_q, busy};

  always_comb begin
    rdata_d = 32'd0;
    if (se_reg_hit_i || se_grp_hit_i) rdata_d = se_rdata_i;
    else if (se_tab_hit_i) rdata_d = busy ? 32'd0 : se_rdata_i;  // the RAMs' read ports serve the scan
    else if (is_board) rdata_d = {28'd0, board_i[{addr_i[5:0], 2'b00} +: 4]};
    else if (is_pst) rdata_d = busy ? 32'd0 : {16'd0, pst_rdata_a_i};  // port A serves the host while idle
    else if (is_phase_ram) rdata_d = {16'd0, ph_ram_rdata_i};
    else begin
      unique case (addr_i)
        chip_pkg::REG_ID:        rdata_d = chip_pkg::CHIP_ID;
        chip_pkg::REG_VERSION:   rdata_d = 32'(chip_pkg::CHIP_VERSION);
        chip_pkg::REG_CMD:       rdata_d = cmd_q;
        chip_pkg::REG_STATUS:    rdata_d = status_w;
        chip_pkg::REG_ERROR:     rdata_d = {7'd0, err_addr_q, err_code_q};
        chip_pkg::REG_STM:       rdata_d = {31'd0, stm_q};
        chip_pkg::REG_CASTLING:  rdata_d = {28'd0, castling_q};
        chip_pkg::REG_EP:        rdata_d = {25'd0, ep_valid_q, ep_sq_q};
        chip_pkg::REG_HALFMOVE:  rdata_d = {16'd0, half_q};
        chip_pkg::REG_FULLMOVE:  rdata_d = {16'd0, full_q};
        chip_pkg::REG_MOVE:      rdata_d = {16'd0, move_q};
        chip_pkg::REG_PLY:       rdata_d = {26'd0, host_ply_q};
        chip_pkg::REG_COUNT_LO:  rdata_d = count_q[31:0];
        chip_pkg::REG_COUNT_HI:  rdata_d = count_q[63:32];
        chip_pkg::REG_CYCLES_LO: rdata_d = cycles_q[31:0];
        chip_pkg::REG_CYCLES_HI: rdata_d = cycles_q[63:32];
        chip_pkg::REG_HUNG_LO:   rdata_d = hung_i[31:0];
        chip_pkg::REG_HUNG_HI:   rdata_d = hung_i[63:32];
        chip_pkg::REG_PINNED_LO: rdata_d = pinned_i[31:0];
        chip_pkg::REG_PINNED_HI: rdata_d = pinned_i[63:32];
        chip_pkg::REG_GENERATED: rdata_d = generated_q;
        chip_pkg::REG_EVAL_CTRL: rdata_d = {24'd0, eval_ctrl_q};
        chip_pkg::REG_FAST_EVAL: rdata_d = {16'd0, fast_eval};
        chip_pkg::REG_PIECE_COUNT_W: rdata_d = {12'd0, counts_i[19:0]};
        chip_pkg::REG_PIECE_COUNT_B: rdata_d = {12'd0, counts_i[39:20]};
        chip_pkg::REG_PIECE_LOC_W:   rdata_d = {2'd0, locs_i[29:0]};
        chip_pkg::REG_PIECE_LOC_B:   rdata_d = {2'd0, locs_i[65:36]};
        chip_pkg::REG_KING_SQ:       rdata_d = {18'd0, locs_i[71:66], 2'd0, locs_i[35:30]};
        chip_pkg::REG_PHASE:         rdata_d = {16'd0, phase_i};
        chip_pkg::REG_ENDGAME:       rdata_d = {27'd0, rule_draw_i, kpk_active_i && kpk_win_i, kpk_active_i};
        chip_pkg::REG_RUNNER_BONUS:  rdata_d = {16'd0, runner_bonus_q};
        chip_pkg::REG_KPA:           rdata_d = {20'd0, separated_i, black_race, white_race, 1'b0, runner_b_i, 1'b0, runner_w_i};
        chip_pkg::REG_SEP_BONUS:     rdata_d = {16'd0, sep_bonus_q};
        chip_pkg::REG_PST_SUM:   rdata_d = {16'd0, pst_q};
        chip_pkg::REG_SLOW_EVAL: rdata_d = {16'd0, se_value_i};
        chip_pkg::REG_EVAL_TOTAL: rdata_d = {16'd0, eg_draw ? 16'd0 : fast_eval + se_value_i};
        chip_pkg::REG_TEST_VALUE:     rdata_d = {16'd0, test_value_q};
        chip_pkg::REG_SLOW_EST:       rdata_d = {16'd0, est_q};
        chip_pkg::REG_LAZY:           rdata_d = {29'd0, lazy_q};
        chip_pkg::REG_DRAW_SCORE:     rdata_d = {16'd0, se_draw_i};
        chip_pkg::REG_CASTLE_DELTA: rdata_d = {castle_q_q, castle_k_q};
        chip_pkg::REG_SEARCH_CTRL:  rdata_d = {3'd0, search_ctrl_q};
        chip_pkg::REG_TEST_TIE:     rdata_d = {16'd0, test_tie_q};
        chip_pkg::REG_NODE_LIMIT:   rdata_d = node_limit_q;
        chip_pkg::REG_RESULT:       rdata_d = {24'd0, result_q};
        chip_pkg::REG_OFFSET_CTRL:  rdata_d = {8'd0, offset_ctrl_q};
        chip_pkg::REG_BEST_MOVE:    rdata_d = {16'd0, best_q};
        chip_pkg::REG_REP_STATUS:   rdata_d = {30'd0, rep_near, rep_hit};
        default:                 rdata_d = 32'd0;
      endcase
    end
  end

  // ---------------------------------------------------------------- next state
  always_comb begin
    // Defaults: hold.
    state_d      = state_q;
    stm_d        = stm_q;
    castling_d   = castling_q;
    ep_valid_d   = ep_valid_q;
    ep_sq_d      = ep_sq_q;
    half_d       = half_q;
    full_d       = full_q;
    cmd_d        = cmd_q;
    move_d       = move_q;
    mv_d         = mv_q;
    tgt_d        = tgt_q;
    ply_d        = ply_q;
    base_d       = base_q;
    host_ply_d   = host_ply_q;
    count_d      = count_q;
    cycles_d     = cycles_q;
    generated_d  = generated_q;
    done_d       = done_q;
    aborted_d    = aborted_q;
    move_valid_d = move_valid_q;
    err_code_d   = err_code_q;
    err_addr_d   = err_addr_q;
    err_d        = 1'b0;
    clear_o      = 1'b0;
    wr_en_o      = 4'd0;
    wr_sq_o      = 24'd0;
    wr_pc_o      = 16'd0;
    stk_we         = 1'b0;
    stk_waddr      = pi;
    stk_cap_w      = mk_cap;
    stk_cast_w     = castling_q;
    stk_ep_w       = {ep_valid_q, ep_sq_q};
    stk_half_w     = half_q;
    stk_flag_w     = {mk_castle, mk_ep};
    stk_move_we    = 1'b0;
    stk_move_waddr = pi;
    stk_move_wdata = 16'd0;
    undo           = 1'b0;
    pst_d          = pst_q;
    castle_k_d     = castle_k_q;
    castle_q_d     = castle_q_q;
    eval_ctrl_d    = eval_ctrl_q;
    runner_bonus_d = runner_bonus_q;
    sep_bonus_d    = sep_bonus_q;
    scan_d         = scan_q;
    stk_pst_w      = pst_q;
    pst_we_o       = 1'b0;
    ph_clear_o     = 1'b0;
    ph_ev_valid_o  = 4'd0;
    ph_ev_piece_o  = 16'd0;
    ph_ev_loc_o    = 24'd0;
    ph_ev_delta_o  = 8'd0;
    ph_ram_we_o    = 1'b0;
    pst_waddr_o    = addr_i[8:0];
    pst_wdata_o    = wdata_i[15:0];
    se_start_o     = 1'b0;
    se_abort_o     = 1'b0;
    se_we_o        = 1'b0;
    test_value_d   = test_value_q;
    est_d          = est_q;
    lazy_d         = lazy_q;
    lazy_pend_d    = lazy_pend_q;
    search_ctrl_d  = search_ctrl_q;
    rtry_d         = rtry_q;
    rtried_d       = rtried_q;
    test_tie_d     = test_tie_q;
    node_limit_d   = node_limit_q;
    best_d         = best_q;
    leaf_d         = leaf_q;
    legal_d        = legal_q;
    result_d       = result_q;
    qc_d           = qc_q;
    child_fail_d   = child_fail_q;
    stop_d         = stop_q;
    qfilter_d      = qfilter_q;
    stk_qc_w       = qc_q;
    leaf_go        = 1'b0;
    leaf_success   = 1'b0;
    leaf_terminal  = 1'b0;
    do_descend     = 1'b0;
    ext_mark       = 1'b0;
    extended_d     = extended_q;
    hung1_d        = hung1_q;
    root_done      = 1'b0;
    root_success   = 1'b0;
    root_none      = 1'b0;
    root_best      = 16'd0;
    gen_none       = 1'b0;
    final_go       = 1'b0;
    final_success  = 1'b0;
    final_best     = 16'd0;
    final_flags    = 4'd0;
    restart_root   = 1'b0;
    offset_ctrl_d  = offset_ctrl_q;
    phase_d        = phase_q;
    alt_d          = alt_q;
    main_best_d    = main_best_q;

    if (busy) cycles_d = cycles_q + 64'd1;
    if (se_finish_i) begin
      if (state_q == S_IDLE) done_d = 1'b1;  // SLOW_EVAL or LAZY_EVAL, not a search's stand pat
      est_d  = est_q + est_step[15:0];
      if (lazy_pend_q) begin
        lazy_d      = {1'b1, $signed(se_total) >= $signed(test_value_q), 1'b0};
        lazy_pend_d = 1'b0;
      end
    end

    unique case (state_q)
      S_CHECK: begin
        if (!chk_ok) begin
          state_d    = S_IDLE;
          done_d     = 1'b1;
          err_code_d = chip_pkg::ERR_BAD_MOVE;
          err_addr_d = chip_pkg::REG_CMD;
        end else if (op_q == chip_pkg::OP_MAKE) begin
          mv_d    = move_q;
          state_d = S_MAKE;
        end else begin
          state_d = S_GEN;
        end
      end
      S_GEN: begin
        qfilter_d = qnode && checks_ok;
        if (rm_try) begin
          // The node's repeating move first (not counted as generated).
          mv_d           = {4'b1000, rm_to, rm_from};
          rtried_d[pi]   = 1'b1;
          state_d        = S_REPCHK;
        end else if (last_valid && last_promo && last[13:12] != 2'd3) begin
          mv_d    = gen_promo_move;
          state_d = S_MAKE;
          generated_d = generated_q + 32'd1;
        end else if (last_valid && att_found_i) begin
          mv_d    = gen_att_move;
          state_d = S_MAKE;
          generated_d = generated_q + 32'd1;
        end else if (tgt_found_i) begin
          tgt_d   = tgt_sq_i;
          state_d = S_GENATT;
        end else if (op_q == chip_pkg::OP_PERFT && ply_q != base_q) begin
          ply_d   = ply_q - 6'd1;
          state_d = S_UNMAKE;
        end else if (searching) begin
          // Exhausted: every move failed, unless there was none (mate or stalemate) at a full-width
          // or evasion node.
          gen_none = !qnode && !legal_q[pi];
          if (ply_q == base_q) begin
            root_done    = 1'b1;
            // Only the search proper scores a mate or stalemate at the root.
            root_success = phase_q == PH_MAIN && gen_none && !stale_ignored &&
                           succeeds(mate_value, 18'sd0, tv_s, tv_tb, odd_p);
            root_none    = phase_q == PH_MAIN && gen_none;
          end else begin
            ply_d        = ply_q - 6'd1;
            child_fail_d = !(gen_none && !stale_ignored && succeeds(mate_value, 18'sd0, tv_s, tv_tb, odd_p));
            state_d      = S_UNMAKE;
          end
        end else begin
          // Exhausted: PERFT at its root ply is finished; GEN found nothing.
          state_d      = S_IDLE;
          done_d       = 1'b1;
          move_valid_d = 1'b0;
        end
      end
      S_GENATT: begin
        mv_d    = gen_tgt_move;
        state_d = S_MAKE;
        generated_d = generated_q + 32'd1;
      end
      S_REPCHK: begin
        // The repeating move is made only if the piece can move there (the checks of a host
        // move); otherwise the node generates its moves as usual.
        if (rc_ok) begin
          rtry_d  = 1'b1;
          state_d = S_MAKE;
        end else begin
          state_d = S_GEN;
        end
      end
      S_MAKE: begin
        wr_en_o = {mk_castle, mk_ep || mk_castle, 2'b11};
        wr_sq_o = {mk_rook_to, mk_ep ? (mk_to ^ 6'd8) : mk_rook_from, mk_to, mk_from};
        wr_pc_o = {stm_q, 3'd4, 4'd0, mk_new, 4'd0};
        stk_we         = 1'b1;
        stk_move_we    = 1'b1;
        stk_move_wdata = mv_q;
        stm_d      = !stm_q;
        castling_d = castling_q & ~(castle_mask(mk_from) | castle_mask(mk_to));
        ep_valid_d = mk_pawn && ((mk_from ^ mk_to) == 6'd16);
        ep_sq_d    = (mk_pawn && ((mk_from ^ mk_to) == 6'd16)) ? 6'((7'(mk_from) + 7'(mk_to)) >> 1) : 6'd0;
        half_d     = (mk_pawn || mk_cap != 4'd0) ? 16'd0 : half_q + 16'd1;
        full_d     = full_q + {15'd0, stm_q};
        pst_d      = stm_q ? pst_q - mk_delta : pst_q + mk_delta;
        // Game phase: the mover leaves from and lands on to (a promotion changes the counts), the
        // captured piece goes, the castling rook moves.
        ph_ev_valid_o = {mk_castle, mk_cap[2:0] != 3'd0, 2'b11};
        ph_ev_piece_o = {stm_q, 3'd4, mk_cap, mk_new, mk_pc};
        ph_ev_loc_o   = {mk_rook_from ^ mk_rook_to, mk_capsq, mk_to, mk_from};
        ph_ev_delta_o = {2'b00, 2'b11, mv_q[14] ? 2'b01 : 2'b00, mv_q[14] ? 2'b11 : 2'b00};
        state_d    = S_TEST;
      end
      S_TEST, S_UNMAKE: begin
        undo = 1'b1;
        if (state_q == S_TEST) begin
          unique case (op_q)
            chip_pkg::OP_SEARCH: begin
              rtry_d = 1'b0;
              if (rtry_q) begin
                stk_move_we    = 1'b1;  // the node's generation starts from its first move
                stk_move_waddr = pi;
                stk_move_wdata = 16'd0;
              end
              if (king_capture_i || root_skip ||
                  (rtry_q ? !rep_hit : quiet_filtered && !(in_check_i && check_allowed))) begin
                // Illegal, filtered out, skipped; a repeating move that does not repeat the
                // position (castling rights or en passant differ) is not scored either.
                state_d = S_GEN;
              end else begin
                count_d = count_q + 64'd1;
                legal_d = legal_q | (32'd1 << pi);
                hung1_d = (hung1_q & ~(32'd1 << ci)) | ({31'd0, one_hung} << ci);
                if (node_limit_hit) begin
                  stop_d   = 1'b1;
                  result_d = 8'd4;
                  if (ply_q == base_q) begin
                    state_d = S_IDLE;
                    done_d  = 1'b1;
                  end else begin
                    ply_d   = ply_q - 6'd1;
                    state_d = S_UNMAKE;
                  end
                end else if (rep_on && rep_hit) begin
                  leaf_d        = 16'd0;
                  leaf_go       = 1'b1;
                  leaf_terminal = 1'b1;
                  leaf_success  = succeeds(18'sd0, rep_tie, tv_s, tv_tb, odd_c);
                end else if (np_on && np_hit) begin
                  // No progress: the move fails low for its mover, so the child succeeds.
                  leaf_go       = 1'b1;
                  leaf_terminal = 1'b1;
                  leaf_success  = 1'b1;
                end else if (rel_c < sdepth || (ev_on && in_check_i && ply_q < 6'd31)) begin
                  do_descend = 1'b1;
                end else if (extend) begin
                  do_descend = 1'b1;
                  ext_mark   = 1'b1;  // searched full width, no stand pat
                end else if (eg_draw) begin
                  // Stand pat. A drawn ending: score 0, its static value the tie-breaker.
                  leaf_d       = 16'd0;
                  leaf_go      = 1'b1;
                  leaf_success = succeeds(18'sd0, 18'(signed'(stm_q ? 16'd0 - fast_static : fast_static)),
                                          tv_s, tv_tb, odd_c);
                end else if (lz_active && lz_sum - $signed({2'd0, lz_margin}) > (odd_c ? -tv_s : tv_s)) begin
                  leaf_d       = fast_eval;
                  leaf_go      = 1'b1;
                  leaf_success = 1'b1;
                end else if (lz_active && lz_sum + $signed({2'd0, lz_margin}) < (odd_c ? -tv_s : tv_s)) begin
                  leaf_d       = fast_eval;
                  leaf_go      = 1'b1;
                  leaf_success = 1'b0;
                end else begin
                  undo       = 1'b0;
                  se_start_o = 1'b1;
                  state_d    = S_SEVAL;
                end
              end
            end
            chip_pkg::OP_PERFT: begin
              if (king_capture_i) begin
                state_d = S_GEN;
              end else if (ply_q + 6'd1 == base_q + 6'(depth_q)) begin
                count_d = count_q + 64'd1;
                state_d = S_GEN;
              end else begin
                undo           = 1'b0;
                ply_d          = ply_q + 6'd1;
                stk_move_we    = 1'b1;
                stk_move_waddr = pi + 5'd1;
                stk_move_wdata = 16'd0;
                state_d        = S_GEN;
              end
            end
            chip_pkg::OP_MAKE: begin
              if (king_capture_i) begin
                state_d    = S_IDLE;
                done_d     = 1'b1;
                err_code_d = chip_pkg::ERR_BAD_MOVE;
                err_addr_d = chip_pkg::REG_CMD;
              end else begin
                undo       = 1'b0;
                host_ply_d = host_ply_q + 6'd1;
                state_d    = S_IDLE;
                done_d     = 1'b1;
              end
            end
            default: begin  // OP_GEN
              if (!king_capture_i && test_accept) begin
                move_d       = mv_q;
                move_valid_d = 1'b1;
                state_d      = S_IDLE;
                done_d       = 1'b1;
              end else begin
                state_d = S_GEN;
              end
            end
          endcase
        end else begin
          // S_UNMAKE: PERFT backing up a ply, or the UNMAKE command.
          if (op_q == chip_pkg::OP_UNMAKE) begin
            host_ply_d = ply_q;
            state_d    = S_IDLE;
            done_d     = 1'b1;
          end else if (searching && (stop_q || child_fail_q)) begin
            // Stopping unwinds to the root; a failed child means this node succeeded.
            if (ply_q == base_q) begin
              if (stop_q) begin
                state_d = S_IDLE;
                done_d  = 1'b1;
              end else begin
                root_done    = 1'b1;
                root_success = 1'b1;
                root_best    = stk_move_q[pi];
              end
            end else begin
              ply_d        = ply_q - 6'd1;
              child_fail_d = 1'b0;
            end
          end else begin
            state_d = S_GEN;
          end
        end
      end
      S_SEVAL: begin
        // The stand pat waits for the slow evaluation; its last clock decides.
        if (se_finish_i) begin
          leaf_d       = se_total;
          undo         = 1'b1;
          leaf_go      = 1'b1;
          leaf_success = succeeds(18'(signed'(se_total)), 18'sd0, tv_s, tv_tb, odd_c);
        end
      end
      S_EINIT: begin
        scan_d = scan_q + 7'd1;
        if (!scan_q[6]) begin
          pst_d = scan_pc[3] ? pst_q - pst_va : pst_q + pst_va;
          ph_ev_valid_o = 4'b0001;
          ph_ev_piece_o = {12'd0, scan_pc};
          ph_ev_loc_o   = {18'd0, scan_q[5:0]};
          ph_ev_delta_o = 8'b0000_0001;
        end else if (!scan_q[0]) begin
          castle_k_d = pst_vb - pst_va;
        end else begin
          castle_q_d = pst_vb - pst_va;
          state_d    = S_IDLE;
          done_d     = 1'b1;
        end
      end
      default: ;  // S_IDLE
    endcase

    // Search: a leaf (a stand pat, or a repetition: terminal) decided whether the child succeeds. If
    // a stand pat failed, the quiescence search goes on below it when it may; otherwise the node at
    // p succeeds.
    if (leaf_go) begin
      if (leaf_success) begin
        state_d = S_GEN;
      end else if (can_quiesce && !leaf_terminal) begin
        do_descend = 1'b1;
      end else if (ply_q == base_q) begin
        root_done    = 1'b1;
        root_success = 1'b1;
        root_best    = mv_q;
      end else begin
        ply_d        = ply_q - 6'd1;
        child_fail_d = 1'b0;
        state_d      = S_UNMAKE;
      end
    end
    if (do_descend) begin
      undo           = 1'b0;
      ply_d          = ply_q + 6'd1;
      stk_move_we    = 1'b1;
      stk_move_waddr = pi + 5'd1;
      stk_move_wdata = 16'd0;
      legal_d        = legal_d & ~(32'd1 << (pi + 5'd1));
      rtried_d       = rtried_q & ~(32'd1 << ci);
      extended_d     = (extended_q & ~(32'd1 << ci)) | ({31'd0, ext_mark} << ci);
      qc_d           = qc_after;
      state_d        = S_GEN;
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
        PH_MAIN: begin
          if (root_success && off_on && root_best != 16'd0) begin
            final_go     = 1'b0;
            restart_root = 1'b1;
            phase_d      = PH_OFFSET;
            main_best_d  = root_best;
            alt_d        = 2'd0;
          end
        end
        PH_OFFSET: begin
          final_success = 1'b1;
          final_best    = main_best_q;
          final_flags   = {2'b01, alt_q};
          if (root_success && alt_q + 2'd1 == alt_limit) begin
            final_flags = {2'b01, alt_limit};
          end else if (root_success) begin
            final_go     = 1'b0;           // go on with the next root move
            alt_d        = alt_q + 2'd1;
            child_fail_d = 1'b0;
            state_d      = S_GEN;
          end else if (off_condition) begin
            final_go     = 1'b0;
            restart_root = 1'b1;
            phase_d      = PH_EXTEND;
          end
        end
        default: final_flags = {2'b11, alt_q};
      endcase
      if (restart_root) begin
        stk_move_we    = 1'b1;
        stk_move_waddr = base_q[4:0];
        stk_move_wdata = 16'd0;
        legal_d        = legal_d & ~(32'd1 << base_q[4:0]);
        child_fail_d   = 1'b0;
        state_d        = S_GEN;
      end
      if (final_go) begin
        result_d = {final_flags, root_none, 1'b0, final_success, 1'b1};
        best_d   = final_success ? final_best : 16'd0;
        state_d  = S_IDLE;
        done_d   = 1'b1;
      end
    end
    if (undo) begin
      wr_en_o = {um_castle, um_ep || um_castle, 2'b11};
      wr_sq_o = {um_rook_from, um_ep ? (um_to ^ 6'd8) : um_rook_to, um_to, um_from};
      wr_pc_o = {um_mover, 3'd4, um_ep ? um_cap : 4'd0, um_ep ? 4'd0 : um_cap, um_orig};
      stm_d      = um_mover;
      castling_d = stk_cast_q[pi];
      ep_valid_d = stk_ep_q[pi][6];
      ep_sq_d    = stk_ep_q[pi][5:0];
      half_d     = stk_half_q[pi];
      full_d     = full_q - {15'd0, um_mover};
      pst_d      = stk_pst_q[pi];
      qc_d       = stk_qc_q[pi];
      // The same game phase events as MAKE, counts reversed (locations toggle back).
      ph_ev_valid_o = {um_castle, um_cap[2:0] != 3'd0, 2'b11};
      ph_ev_piece_o = {um_mover, 3'd4, um_cap, board_i[{um_to, 2'b00} +: 4], um_orig};
      ph_ev_loc_o   = {um_rook_from ^ um_rook_to, um_ep ? (um_to ^ 6'd8) : um_to, um_to, um_from};
      ph_ev_delta_o = {2'b00, 2'b01, um_promo ? 2'b11 : 2'b00, um_promo ? 2'b01 : 2'b00};
    end

    // Host bus.
    if (req_i) begin
      if (!mapped) begin
        err_d      = 1'b1;
        err_code_d = chip_pkg::ERR_BAD_ADDRESS;
        err_addr_d = addr_i;
      end else if (!we_i && (is_pst || se_tab_hit_i) && busy) begin
        // The table's host port is in use by the running command.
        err_d      = 1'b1;
        err_code_d = chip_pkg::ERR_BUSY;
        err_addr_d = addr_i;
      end else if (we_i) begin
        if (addr_i == chip_pkg::REG_ABORT) begin
          if (busy) begin
            state_d    = S_IDLE;
            se_abort_o = 1'b1;
            lazy_pend_d = 1'b0;
            aborted_d  = 1'b1;
            done_d     = 1'b1;
            host_ply_d = 6'd0;  // moves made by the command stay on the board: reload the position
          end
        end else if (addr_i == chip_pkg::REG_ERROR) begin
          err_code_d = chip_pkg::ERR_NONE;
          err_addr_d = 17'd0;
        end else if (busy) begin
          err_d      = 1'b1;
          err_code_d = chip_pkg::ERR_BUSY;
          err_addr_d = addr_i;
        end else if (is_reg_ro || se_grp_hit_i) begin
          err_d      = 1'b1;
          err_code_d = chip_pkg::ERR_READ_ONLY;
          err_addr_d = addr_i;
        end else if (se_reg_hit_i || se_tab_hit_i) begin
          if (se_too_wide_i) begin
            err_d      = 1'b1;
            err_code_d = chip_pkg::ERR_BAD_ARGUMENT;
            err_addr_d = addr_i;
          end else begin
            se_we_o = 1'b1;
          end
        end else if (is_phase_ram) begin
          if (wdata_i[31:16] != 16'd0) begin
            err_d      = 1'b1;
            err_code_d = chip_pkg::ERR_BAD_ARGUMENT;
            err_addr_d = addr_i;
          end else begin
            ph_ram_we_o = 1'b1;
          end
        end else if (is_pst) begin
          if (wdata_i[31:16] != 16'd0) begin
            err_d      = 1'b1;
            err_code_d = chip_pkg::ERR_BAD_ARGUMENT;
            err_addr_d = addr_i;
          end else begin
            pst_we_o = 1'b1;
          end
        end else if (is_board) begin
          if (wdata_i[2:0] == 3'd7 || wdata_i[3:0] == 4'd8 || wdata_i[31:4] != 28'd0) begin
            err_d      = 1'b1;
            err_code_d = chip_pkg::ERR_BAD_ARGUMENT;
            err_addr_d = addr_i;
          end else begin
            wr_en_o    = 4'b0001;
            wr_sq_o    = {18'd0, addr_i[5:0]};
            wr_pc_o    = {12'd0, wdata_i[3:0]};
            host_ply_d = 6'd0;
          end
        end else begin
          unique case (addr_i)
            chip_pkg::REG_STM:      begin stm_d = wdata_i[0]; host_ply_d = 6'd0; end
            chip_pkg::REG_CASTLING: begin castling_d = wdata_i[3:0]; host_ply_d = 6'd0; end
            chip_pkg::REG_EP:       begin ep_valid_d = wdata_i[6]; ep_sq_d = wdata_i[5:0]; host_ply_d = 6'd0; end
            chip_pkg::REG_HALFMOVE: begin half_d = wdata_i[15:0]; host_ply_d = 6'd0; end
            chip_pkg::REG_FULLMOVE: begin full_d = wdata_i[15:0]; host_ply_d = 6'd0; end
            chip_pkg::REG_MOVE:     move_d = wdata_i[15:0];
            // The 16-bit registers: one width check.
            chip_pkg::REG_TEST_VALUE, chip_pkg::REG_SLOW_EST, chip_pkg::REG_SEP_BONUS,
            chip_pkg::REG_RUNNER_BONUS, chip_pkg::REG_TEST_TIE: begin
              if (wdata_i[31:16] != 16'd0) begin
                err_d = 1'b1; err_code_d = chip_pkg::ERR_BAD_ARGUMENT; err_addr_d = addr_i;
              end else begin
                unique case (addr_i)
                  chip_pkg::REG_TEST_VALUE:   test_value_d   = wdata_i[15:0];
                  chip_pkg::REG_SLOW_EST:     est_d          = wdata_i[15:0];
                  chip_pkg::REG_SEP_BONUS:    sep_bonus_d    = wdata_i[15:0];
                  chip_pkg::REG_RUNNER_BONUS: runner_bonus_d = wdata_i[15:0];
                  default:                    test_tie_d     = wdata_i[15:0];
                endcase
              end
            end
            chip_pkg::REG_SEARCH_CTRL: begin
              if (wdata_i[31:29] != 3'd0) begin
                err_d = 1'b1; err_code_d = chip_pkg::ERR_BAD_ARGUMENT; err_addr_d = addr_i;
              end else begin
                search_ctrl_d = wdata_i[28:0];
              end
            end
            chip_pkg::REG_NODE_LIMIT: node_limit_d = wdata_i;
            chip_pkg::REG_OFFSET_CTRL: begin
              if (wdata_i[31:24] != 8'd0) begin
                err_d = 1'b1; err_code_d = chip_pkg::ERR_BAD_ARGUMENT; err_addr_d = addr_i;
              end else begin
                offset_ctrl_d = wdata_i[23:0];
              end
            end
            chip_pkg::REG_EVAL_CTRL: begin
              if (wdata_i[31:8] != 24'd0) begin
                err_d = 1'b1; err_code_d = chip_pkg::ERR_BAD_ARGUMENT; err_addr_d = addr_i;
              end else begin
                eval_ctrl_d = wdata_i[7:0];
              end
            end
            chip_pkg::REG_CMD: begin
              cmd_d        = wdata_i;
              cycles_d     = 64'd0;
              generated_d  = 32'd0;
              done_d       = 1'b0;
              aborted_d    = 1'b0;
              ply_d        = host_ply_q;
              base_d       = host_ply_q;
              unique case (op_w)
                chip_pkg::OP_CLEAR: begin
                  clear_o    = 1'b1;
                  stm_d      = 1'b0;
                  castling_d = 4'd0;
                  ep_valid_d = 1'b0;
                  ep_sq_d    = 6'd0;
                  half_d     = 16'd0;
                  full_d     = 16'd1;
                  host_ply_d = 6'd0;
                  done_d     = 1'b1;
                end
                chip_pkg::OP_GEN: begin
                  move_valid_d = 1'b0;
                  if (mode_w > chip_pkg::MODE_ATTACKS) begin
                    err_d = 1'b1; err_code_d = chip_pkg::ERR_BAD_ARGUMENT; err_addr_d = addr_i; done_d = 1'b1;
                  end else if (host_ply_q >= 6'(StackDepth)) begin
                    err_d = 1'b1; err_code_d = chip_pkg::ERR_STACK; err_addr_d = addr_i; done_d = 1'b1;
                  end else if (mode_w == chip_pkg::MODE_EVASIONS && !in_check_i) begin
                    done_d = 1'b1;  // nothing to evade
                  end else begin
                    stk_move_we    = 1'b1;
                    stk_move_waddr = host_ply_q[4:0];
                    stk_move_wdata = move_q;
                    state_d        = move_q[15] ? S_CHECK : S_GEN;
                  end
                end
                chip_pkg::OP_MAKE: begin
                  if (host_ply_q >= 6'(StackDepth)) begin
                    err_d = 1'b1; err_code_d = chip_pkg::ERR_STACK; err_addr_d = addr_i; done_d = 1'b1;
                  end else begin
                    state_d = S_CHECK;
                  end
                end
                chip_pkg::OP_UNMAKE: begin
                  if (host_ply_q == 6'd0) begin
                    err_d = 1'b1; err_code_d = chip_pkg::ERR_STACK; err_addr_d = addr_i; done_d = 1'b1;
                  end else begin
                    ply_d   = host_ply_q - 6'd1;
                    state_d = S_UNMAKE;
                  end
                end
                chip_pkg::OP_PERFT: begin
                  count_d = 64'd0;
                  if (depth_w == 5'd0 || 7'(host_ply_q) + 7'(depth_w) > 7'(StackDepth)) begin
                    err_d = 1'b1; err_code_d = chip_pkg::ERR_BAD_ARGUMENT; err_addr_d = addr_i; done_d = 1'b1;
                  end else begin
                    stk_move_we    = 1'b1;
                    stk_move_waddr = host_ply_q[4:0];
                    stk_move_wdata = 16'd0;
                    state_d        = S_GEN;
                  end
                end
                chip_pkg::OP_EVAL_INIT: begin
                  if (host_ply_q != 6'd0) begin
                    err_d = 1'b1; err_code_d = chip_pkg::ERR_STACK; err_addr_d = addr_i; done_d = 1'b1;
                  end else begin
                    pst_d      = 16'd0;
                    scan_d     = 7'd0;
                    ph_clear_o = 1'b1;
                    state_d    = S_EINIT;
                  end
                end
                chip_pkg::OP_SLOW_EVAL: se_start_o = 1'b1;
                chip_pkg::OP_SEARCH: begin
                  count_d      = 64'd0;
                  result_d     = 8'd0;
                  best_d       = 16'd0;
                  legal_d      = 32'd0;
                  extended_d   = 32'd0;
                  hung1_d      = 32'd0;
                  qc_d         = 8'd0;
                  stop_d       = 1'b0;
                  child_fail_d = 1'b0;
                  phase_d      = PH_MAIN;
                  alt_d        = 2'd0;
                  main_best_d  = 16'd0;
                  rtry_d       = 1'b0;
                  // Offset searches need an offset depth of 1..depth and room for the extension.
                  if (depth_w == 5'd0 || 7'(host_ply_q) + 7'(depth_w) > 7'(StackDepth) ||
                      (off_on && (off_depth == 5'd0 || off_depth > depth_w ||
                                  7'(host_ply_q) + 7'(depth_w) + 7'd1 > 7'(StackDepth)))) begin
                    err_d = 1'b1; err_code_d = chip_pkg::ERR_BAD_ARGUMENT; err_addr_d = addr_i; done_d = 1'b1;
                  end else begin
                    stk_move_we    = 1'b1;
                    stk_move_waddr = host_ply_q[4:0];
                    stk_move_wdata = 16'd0;
                    state_d        = S_GEN;
                  end
                end
                chip_pkg::OP_LAZY_EVAL: begin
                  if (eg_draw) begin
                    lazy_d = {1'b0, test_value_q[15] || test_value_q == 16'd0, 1'b1};  // a draw: 0 >= test value?
                    done_d = 1'b1;
                  end else if (lz_active && (lz_high || lz_low)) begin
                    lazy_d = {1'b0, lz_high, 1'b1};
                    done_d = 1'b1;
                  end else begin
                    se_start_o  = 1'b1;
                    lazy_pend_d = 1'b1;
                  end
                end
                default: begin
                  err_d = 1'b1; err_code_d = chip_pkg::ERR_BAD_COMMAND; err_addr_d = addr_i; done_d = 1'b1;
                end
              endcase
            end
            default: ;
          endcase
        end
      end
    end
  end

  // ---------------------------------------------------------------- flops
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q      <= S_IDLE;
      stm_q        <= 1'b0;
      castling_q   <= 4'd0;
      ep_valid_q   <= 1'b0;
      ep_sq_q      <= 6'd0;
      half_q       <= 16'd0;
      full_q       <= 16'd1;
      cmd_q        <= 32'd0;
      move_q       <= 16'd0;
      mv_q         <= 16'd0;
      tgt_q        <= 6'd0;
      ply_q        <= 6'd0;
      base_q       <= 6'd0;
      host_ply_q   <= 6'd0;
      count_q      <= 64'd0;
      cycles_q     <= 64'd0;
      generated_q  <= 32'd0;
      done_q       <= 1'b0;
      aborted_q    <= 1'b0;
      move_valid_q <= 1'b0;
      err_code_q   <= 8'd0;
      err_addr_q   <= 17'd0;
      rvalid_q     <= 1'b0;
      rdata_q      <= 32'd0;
      err_q        <= 1'b0;
      pst_q        <= 16'd0;
      castle_k_q   <= 16'd0;
      castle_q_q   <= 16'd0;
      eval_ctrl_q  <= 8'd0;
      scan_q       <= 7'd0;
      runner_bonus_q <= 16'd0;
      sep_bonus_q    <= 16'd0;
      test_value_q <= 16'd0;
      est_q        <= 16'd0;
      lazy_q       <= 3'd0;
      lazy_pend_q  <= 1'b0;
      search_ctrl_q <= 29'd0;
      rtry_q       <= 1'b0;
      rtried_q     <= 32'd0;
      extended_q   <= 32'd0;
      hung1_q      <= 32'd0;
      test_tie_q   <= 16'd0;
      node_limit_q <= 32'd0;
      best_q       <= 16'd0;
      leaf_q       <= 16'd0;
      legal_q      <= 32'd0;
      result_q     <= 8'd0;
      qc_q         <= 8'd0;
      offset_ctrl_q <= 24'd0;
      phase_q      <= PH_MAIN;
      alt_q        <= 2'd0;
      main_best_q  <= 16'd0;
      child_fail_q <= 1'b0;
      stop_q       <= 1'b0;
      qfilter_q    <= 1'b0;
    end else begin
      state_q      <= state_d;
      stm_q        <= stm_d;
      castling_q   <= castling_d;
      ep_valid_q   <= ep_valid_d;
      ep_sq_q      <= ep_sq_d;
      half_q       <= half_d;
      full_q       <= full_d;
      cmd_q        <= cmd_d;
      move_q       <= move_d;
      mv_q         <= mv_d;
      tgt_q        <= tgt_d;
      ply_q        <= ply_d;
      base_q       <= base_d;
      host_ply_q   <= host_ply_d;
      count_q      <= count_d;
      cycles_q     <= cycles_d;
      generated_q  <= generated_d;
      done_q       <= done_d;
      aborted_q    <= aborted_d;
      move_valid_q <= move_valid_d;
      err_code_q   <= err_code_d;
      err_addr_q   <= err_addr_d;
      rvalid_q     <= req_i;
      rdata_q      <= rdata_d;
      err_q        <= err_d;
      pst_q        <= pst_d;
      castle_k_q   <= castle_k_d;
      castle_q_q   <= castle_q_d;
      eval_ctrl_q  <= eval_ctrl_d;
      scan_q       <= scan_d;
      runner_bonus_q <= runner_bonus_d;
      sep_bonus_q    <= sep_bonus_d;
      test_value_q <= test_value_d;
      est_q        <= est_d;
      lazy_q       <= lazy_d;
      lazy_pend_q  <= lazy_pend_d;
      search_ctrl_q <= search_ctrl_d;
      rtry_q       <= rtry_d;
      rtried_q     <= rtried_d;
      extended_q   <= extended_d;
      hung1_q      <= hung1_d;
      test_tie_q   <= test_tie_d;
      node_limit_q <= node_limit_d;
      best_q       <= best_d;
      leaf_q       <= leaf_d;
      legal_q      <= legal_d;
      result_q     <= result_d;
      qc_q         <= qc_d;
      offset_ctrl_q <= offset_ctrl_d;
      phase_q      <= phase_d;
      alt_q        <= alt_d;
      main_best_q  <= main_best_d;
      child_fail_q <= child_fail_d;
      stop_q       <= stop_d;
      qfilter_q    <= qfilter_d;
    end
  end

  // Stack memory: no reset needed (entries are written before they are read).
  always_ff @(posedge clk_i) begin
    if (stk_we) begin
      stk_cap_q[stk_waddr]  <= stk_cap_w;
      stk_cast_q[stk_waddr] <= stk_cast_w;
      stk_ep_q[stk_waddr]   <= stk_ep_w;
      stk_half_q[stk_waddr] <= stk_half_w;
      stk_flag_q[stk_waddr] <= stk_flag_w;
      stk_pst_q[stk_waddr]  <= stk_pst_w;
      stk_qc_q[stk_waddr]   <= stk_qc_w;
    end
    if (stk_move_we) stk_move_q[stk_move_waddr] <= stk_move_wdata;
  end

  assign rvalid_o    = rvalid_q;
  assign rdata_o     = rdata_q;
  assign err_o       = err_q;
  assign dbg_state_o = state_q;
  assign dbg_ply_o   = ply_q;
  assign dbg_move_o  = mv_q;
  assign dbg_nodes_o = count_q[31:0];
  assign dbg_leaf_o  = leaf_q;
  assign dbg_flags_o = {phase_q, stop_q, child_fail_q, result_q[3:0]};
endmodule
