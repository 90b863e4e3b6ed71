// The chip's controller: the command state machine (GEN, MAKE, UNMAKE, PERFT, CLEAR, EVAL_INIT,
// SLOW_EVAL, LAZY_EVAL, SEARCH) and the wiring of its blocks:
//   ctrl_regs    host register block: decode, read multiplexer, ERROR, the host-only registers
//   ctrl_stack   the move stack
//   ctrl_make    make/unmake and the position registers
//   ctrl_eval    fast and lazy evaluation (placement sum, EVAL_INIT's scan, the slow-eval filter)
//   ctrl_search  the hardware search's datapath (test values, leaf decisions, repetition detector)
// Types shared by the blocks are in ctrl_pkg.
//
// SEARCH is the hardware search (AIJ section 5, Micro "Search control"): a minimum-window
// alpha-beta search with no value stack. Each node only learns whether it reaches its side's test
// value ("succeeds"): a node succeeds as soon as one child fails, and fails when all its children
// succeed. So a child's failure pops two plies and its success one; all the state a ply needs is
// the move on the stack, a bit for "a legal move was searched here" and the quiescence check
// counters, which this module keeps with the search's other per-ply bits.
//
// The move generator is "stateless": the next move at a ply comes from the position and the move
// last searched at that ply (its target and attacker set the arbiters' masks), so the stack holds
// only what unmake needs. Every state takes exactly one clock; host/chip/model/ is the same
// machine in C++, one file per block with the same names, and must stay in step with it, clock
// for clock.
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

  // ---------------------------------------------------------------- registers
  ctrl_pkg::state_e state_q, state_d;
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
  // Hardware search: "a legal move was searched at ply p", the unwinding flags (the child failed;
  // stopping at the node limit), quiescence checks played (mating: [1:0] white, [3:2] black;
  // singular: [5:4], [7:6]), the quiescence check filter of the node being expanded (set in GEN),
  // plies searched full width by an extension, plies whose side to move had exactly one hung
  // piece, the repeating-move bound's state (the move in MAKE/TEST is a node's repeating move; the
  // plies whose repeating move was tried), the results, and the last leaf value (debug port).
  logic [31:0] legal_q, legal_d, extended_q, extended_d, hung1_q, hung1_d, rtried_q, rtried_d;
  logic [7:0]  qc_q, qc_d, result_q, result_d;
  logic        child_fail_q, child_fail_d, stop_q, stop_d, qfilter_q, qfilter_d, rtry_q, rtry_d;
  logic [15:0] best_q, best_d, leaf_q, leaf_d;
  // Offset searches at the root: the phase, the alternatives that reached the offset test value,
  // and the search's fail-high move.
  ctrl_pkg::phase_e phase_q, phase_d;
  logic [1:0]  alt_q, alt_d;
  logic [15:0] main_best_q, main_best_d;

  // Command fields: of the word being written, and of the running command.
  logic [3:0] op_w, op_q;
  logic [2:0] mode_w, mode_q;
  logic [4:0] depth_w, depth_q;
  assign op_w    = wdata_i[3:0];
  assign mode_w  = wdata_i[6:4];
  assign depth_w = wdata_i[12:8];
  assign op_q    = cmd_q[3:0];
  assign mode_q  = cmd_q[6:4];
  assign depth_q = cmd_q[12:8];

  logic busy, searching;
  assign busy      = (state_q != ctrl_pkg::S_IDLE) || se_busy_i;
  assign searching = (op_q == chip_pkg::OP_SEARCH);

  // ---------------------------------------------------------------- blocks
  // Host register block.
  logic        cmd_we, abort_we, move_we, stm_we, castling_we, ep_we, half_we, full_we, board_we, est_we;
  logic        cmd_err;
  logic [7:0]  cmd_err_code;
  logic [1:0]  eval_ctrl;
  logic [15:0] runner_bonus, sep_bonus, test_value, test_tie;
  logic [28:0] search_ctrl;
  logic [31:0] node_limit;
  logic [23:0] offset_ctrl;
  // Move stack.
  logic [4:0]  pi;  // current ply index into the stack
  logic [15:0] last;
  ctrl_pkg::stk_entry_t entry, push, push_full;
  logic        stk_we, stk_move_we;
  logic [4:0]  stk_move_waddr;
  logic [15:0] stk_move_wdata;
  // Make/unmake.
  ctrl_pkg::pos_t     pos;
  ctrl_pkg::mk_view_t mk;
  logic               make, undo;
  logic [3:0]  mk_ph_valid, ei_ph_valid;
  logic [15:0] mk_ph_piece, ei_ph_piece;
  logic [23:0] mk_ph_loc, ei_ph_loc;
  logic [7:0]  mk_ph_delta, ei_ph_delta;
  // Evaluation.
  logic [15:0] pst_sum, castle_k, castle_q, fast_eval, fast_static, se_total, est;
  logic [2:0]  lazy;
  logic        eg_draw, white_race, black_race, lz_active, einit_done, lazy_done, lazy_slow;
  logic signed [17:0] lz_sum;
  logic [15:0] lz_margin;
  // Search datapath.
  logic        qnode, checks_ok, none_success, rm_try, skip, node_limit_hit;
  logic        rep_leaf, rep_success, np_leaf, descend, extend, draw_success, lazy_high, lazy_low;
  logic        slow_success, can_quiesce, one_hung, rep_hit, rep_near, off_on, off_condition;
  logic [15:0] rm_move;
  logic [7:0]  qc_after;
  logic [4:0]  off_depth;
  logic [1:0]  alt_limit;

  assign pi   = ply_q[4:0];
  assign make = state_q == ctrl_pkg::S_MAKE;

  ctrl_regs u_regs (
    .clk_i, .rst_ni, .req_i, .we_i, .addr_i, .wdata_i, .rvalid_o, .rdata_o, .err_o,
    .busy_i          (busy),
    .se_reg_hit_i, .se_tab_hit_i, .se_grp_hit_i, .se_too_wide_i, .se_rdata_i,
    .se_we_o,
    .cmd_err_i       (cmd_err),
    .cmd_err_code_i  (cmd_err_code),
    .cmd_we_o        (cmd_we),
    .abort_we_o      (abort_we),
    .move_we_o       (move_we),
    .stm_we_o        (stm_we),
    .castling_we_o   (castling_we),
    .ep_we_o         (ep_we),
    .half_we_o       (half_we),
    .full_we_o       (full_we),
    .board_we_o      (board_we),
    .est_we_o        (est_we),
    .pst_we_o,
    .ph_ram_we_o,
    .eval_ctrl_o     (eval_ctrl),
    .runner_bonus_o  (runner_bonus),
    .sep_bonus_o     (sep_bonus),
    .test_value_o    (test_value),
    .test_tie_o      (test_tie),
    .search_ctrl_o   (search_ctrl),
    .node_limit_o    (node_limit),
    .offset_ctrl_o   (offset_ctrl),
    .cmd_i           (cmd_q),
    .done_i          (done_q),
    .in_check_i,
    .move_valid_i    (move_valid_q),
    .king_capture_i,
    .aborted_i       (aborted_q),
    .pos_i           (pos),
    .move_i          (move_q),
    .host_ply_i      (host_ply_q),
    .count_i         (count_q),
    .cycles_i        (cycles_q),
    .generated_i     (generated_q),
    .hung_i, .pinned_i, .board_i,
    .pst_rdata_i     (pst_rdata_a_i),
    .ph_ram_rdata_i,
    .fast_eval_i     (fast_eval),
    .pst_sum_i       (pst_sum),
    .castle_k_i      (castle_k),
    .castle_q_i      (castle_q),
    .counts_i, .locs_i, .phase_i, .rule_draw_i, .kpk_active_i, .kpk_win_i, .runner_w_i, .runner_b_i,
    .separated_i,
    .white_race_i    (white_race),
    .black_race_i    (black_race),
    .se_value_i,
    .eg_draw_i       (eg_draw),
    .est_i           (est),
    .lazy_i          (lazy),
    .se_draw_i,
    .result_i        (result_q),
    .best_i          (best_q),
    .rep_hit_i       (rep_hit),
    .rep_near_i      (rep_near)
  );

  // MAKE pushes the position registers, the placement sum and the quiescence check counters.
  always_comb begin
    push_full     = push;
    push_full.pst = pst_sum;
    push_full.qc  = qc_q;
  end
  ctrl_stack u_stack (
    .clk_i,
    .ply_i         (pi),
    .move_o        (last),
    .entry_o       (entry),
    .entry_we_i    (stk_we),
    .entry_wdata_i (push_full),
    .move_we_i     (stk_move_we),
    .move_waddr_i  (stk_move_waddr),
    .move_wdata_i  (stk_move_wdata)
  );

  ctrl_make u_make (
    .clk_i, .rst_ni, .board_i,
    .make_i        (make),
    .mv_i          (mv_q),
    .undo_i        (undo),
    .undo_move_i   (last),
    .undo_entry_i  (entry),
    .clear_i       (clear_o),
    .stm_we_i      (stm_we),
    .castling_we_i (castling_we),
    .ep_we_i       (ep_we),
    .half_we_i     (half_we),
    .full_we_i     (full_we),
    .board_we_i    (board_we),
    .board_sq_i    (addr_i[5:0]),
    .wdata_i       (wdata_i[15:0]),
    .pos_o         (pos),
    .push_o        (push),
    .mk_o          (mk),
    .wr_en_o, .wr_sq_o, .wr_pc_o,
    .ph_ev_valid_o (mk_ph_valid),
    .ph_ev_piece_o (mk_ph_piece),
    .ph_ev_loc_o   (mk_ph_loc),
    .ph_ev_delta_o (mk_ph_delta)
  );

  ctrl_eval u_eval (
    .clk_i, .rst_ni,
    .einit_i        (state_q == ctrl_pkg::S_EINIT),
    .idle_i         (state_q == ctrl_pkg::S_IDLE),
    .host_addr_i    (addr_i[8:0]),
    .board_i,
    .stm_i          (pos.stm),
    .make_i         (make),
    .mk_i           (mk),
    .undo_i         (undo),
    .undo_pst_i     (entry.pst),
    .einit_start_i  (cmd_we && op_w == chip_pkg::OP_EVAL_INIT && host_ply_q == 6'd0),
    .lazy_start_i   (cmd_we && op_w == chip_pkg::OP_LAZY_EVAL),
    .abort_i        (abort_we && busy),
    .est_we_i       (est_we),
    .wdata_i        (wdata_i[15:0]),
    .pst_raddr_a_o, .pst_raddr_b_o, .pst_raddr_c_o, .pst_rdata_a_i, .pst_rdata_b_i, .pst_rdata_c_i,
    .phase_i, .counts_i, .kpk_active_i, .kpk_win_i, .rule_draw_i, .runner_w_i, .runner_b_i, .separated_i,
    .runner_bonus_i (runner_bonus),
    .sep_bonus_i    (sep_bonus),
    .test_value_i   (test_value),
    .se_finish_i, .se_white_i, .se_lazy_ctrl_i,
    .pst_o          (pst_sum),
    .castle_k_o     (castle_k),
    .castle_q_o     (castle_q),
    .fast_eval_o    (fast_eval),
    .fast_static_o  (fast_static),
    .eg_draw_o      (eg_draw),
    .white_race_o   (white_race),
    .black_race_o   (black_race),
    .se_total_o     (se_total),
    .est_o          (est),
    .lazy_o         (lazy),
    .lz_active_o    (lz_active),
    .lz_sum_o       (lz_sum),
    .lz_margin_o    (lz_margin),
    .einit_done_o   (einit_done),
    .lazy_done_o    (lazy_done),
    .lazy_slow_o    (lazy_slow),
    .ph_ev_valid_o  (ei_ph_valid),
    .ph_ev_piece_o  (ei_ph_piece),
    .ph_ev_loc_o    (ei_ph_loc),
    .ph_ev_delta_o  (ei_ph_delta)
  );

  ctrl_search u_search (
    .clk_i,
    .search_ctrl_i    (search_ctrl),
    .offset_ctrl_i    (offset_ctrl),
    .test_value_i     (test_value),
    .test_tie_i       (test_tie),
    .node_limit_i     (node_limit),
    .searching_i      (searching),
    .make_i           (make),
    .test_i           (state_q == ctrl_pkg::S_TEST),
    .ply_i            (ply_q),
    .base_i           (base_q),
    .host_ply_i       (host_ply_q),
    .depth_i          (depth_q),
    .phase_i          (phase_q),
    .alt_i            (alt_q),
    .main_best_i      (main_best_q),
    .count_i          (count_q),
    .qc_i             (qc_q),
    .qfilter_i        (qfilter_q),
    .extended_i       (extended_q),
    .hung1_i          (hung1_q),
    .rtried_i         (rtried_q),
    .rtry_i           (rtry_q),
    .mv_i             (mv_q),
    .last_valid_i     (last[15]),
    .cap_i            (entry.cap),
    .pos_i            (pos),
    .board_i, .in_check_i, .king_capture_i, .hung_i, .opp_hung_i, .pinned_i, .king_ring_i, .esc_none_i,
    .esc_one_i,
    .fast_static_i    (fast_static),
    .lz_active_i      (lz_active),
    .lz_sum_i         (lz_sum),
    .lz_margin_i      (lz_margin),
    .se_total_i       (se_total),
    .qnode_o          (qnode),
    .checks_ok_o      (checks_ok),
    .none_success_o   (none_success),
    .rm_try_o         (rm_try),
    .rm_move_o        (rm_move),
    .skip_o           (skip),
    .node_limit_hit_o (node_limit_hit),
    .rep_leaf_o       (rep_leaf),
    .rep_success_o    (rep_success),
    .np_leaf_o        (np_leaf),
    .descend_o        (descend),
    .extend_o         (extend),
    .draw_success_o   (draw_success),
    .lazy_high_o      (lazy_high),
    .lazy_low_o       (lazy_low),
    .slow_success_o   (slow_success),
    .can_quiesce_o    (can_quiesce),
    .one_hung_o       (one_hung),
    .qc_after_o       (qc_after),
    .rep_hit_o        (rep_hit),
    .rep_near_o       (rep_near),
    .off_on_o         (off_on),
    .off_depth_o      (off_depth),
    .off_condition_o  (off_condition),
    .alt_limit_o      (alt_limit)
  );

  // ---------------------------------------------------------------- array and evaluation ports
  logic last_valid, last_promo;
  assign last_valid      = last[15];
  assign last_promo      = last[14];
  assign stm_o           = pos.stm;
  assign castling_o      = pos.castling;
  assign ep_valid_o      = pos.ep_valid;
  assign ep_sq_o         = pos.ep_sq;
  assign tgt_mask_en_o   = (state_q == ctrl_pkg::S_GEN) && last_valid;
  assign tgt_last_sq_o   = last[11:6];
  assign att_mask_en_o   = (state_q == ctrl_pkg::S_GEN);
  assign att_last_sq_o   = last[5:0];
  assign tgt_capt_only_o = (((mode_q == chip_pkg::MODE_CAPTURES) && (op_q == chip_pkg::OP_GEN)) ||
                            (qnode && !checks_ok)) && (state_q == ctrl_pkg::S_GEN);
  always_comb begin
    unique case (state_q)
      ctrl_pkg::S_CHECK:  tsel_sq_o = move_q[11:6];
      ctrl_pkg::S_GEN:    tsel_sq_o = last[11:6];
      ctrl_pkg::S_GENATT: tsel_sq_o = tgt_q;
      default:            tsel_sq_o = mv_q[11:6];
    endcase
  end
  assign pst_waddr_o   = addr_i[8:0];
  assign pst_wdata_o   = wdata_i[15:0];
  assign ph_ev_valid_o = mk_ph_valid | ei_ph_valid;  // MAKE/unmake and EVAL_INIT never share a clock
  assign ph_ev_piece_o = mk_ph_piece | ei_ph_piece;
  assign ph_ev_loc_o   = mk_ph_loc | ei_ph_loc;
  assign ph_ev_delta_o = mk_ph_delta | ei_ph_delta;
  assign kpk_en_o      = eval_ctrl[1];
  assign rules_en_o    = eval_ctrl[0];

  // ---------------------------------------------------------------- move generation
  // Is the host's move (MOVE) pseudo-legal here? The repeating move (no promotion) passes the same
  // checks in S_REPCHK.
  logic [2:0] chk_type, att_type;
  logic       chk_ok, rc_ok;
  assign chk_type = board_i[{move_q[5:0], 2'b00} +: 3];
  assign chk_ok = move_q[15] && att_cand_i[move_q[5:0]] && tgt_cand_i[move_q[11:6]] &&
                  (move_q[14] == ctrl_pkg::is_promotion(chk_type, move_q[11:9], pos.stm)) &&
                  (move_q[14] || move_q[13:12] == 2'd0);
  assign rc_ok = att_cand_i[mv_q[5:0]] && tgt_cand_i[mv_q[11:6]] &&
                 !ctrl_pkg::is_promotion(board_i[{mv_q[5:0], 2'b00} +: 3], mv_q[11:9], pos.stm);
  // The move the generator produces in S_GEN / S_GENATT.
  logic [15:0] gen_att_move, gen_tgt_move, gen_promo_move;
  assign att_type       = board_i[{att_sq_i, 2'b00} +: 3];
  assign gen_att_move   = {1'b1, ctrl_pkg::is_promotion(att_type, last[11:9], pos.stm), 2'd0, last[11:6], att_sq_i};
  assign gen_tgt_move   = {1'b1, ctrl_pkg::is_promotion(att_type, tgt_q[5:3], pos.stm), 2'd0, tgt_q, att_sq_i};
  assign gen_promo_move = {last[15:14], last[13:12] + 2'd1, last[11:0]};
  // GEN's mode filter on the move made.
  logic test_accept;
  always_comb begin
    unique case (mode_q)
      chip_pkg::MODE_CAPTURES: test_accept = (entry.cap != 4'd0);
      chip_pkg::MODE_CHECKS:   test_accept = in_check_i;
      chip_pkg::MODE_ATTACKS:  test_accept = (entry.cap == 4'd0) && tsel_attacks_i;
      default:                 test_accept = 1'b1;
    endcase
  end

  // ---------------------------------------------------------------- next state
  // Search actions decided in the state case and carried out after it.
  logic leaf_go, leaf_success, leaf_terminal, do_descend, ext_mark, root_done, root_success, root_none;
  logic [15:0] root_best, final_best;
  logic        final_go, final_success, restart_root;
  logic [3:0]  final_flags;
  logic [4:0]  ci;
  assign ci = pi + 5'd1;
  always_comb begin
    // Defaults: hold.
    state_d        = state_q;
    cmd_d          = cmd_q;
    move_d         = move_q;
    mv_d           = mv_q;
    tgt_d          = tgt_q;
    ply_d          = ply_q;
    base_d         = base_q;
    host_ply_d     = host_ply_q;
    count_d        = count_q;
    cycles_d       = cycles_q;
    generated_d    = generated_q;
    done_d         = done_q;
    aborted_d      = aborted_q;
    move_valid_d   = move_valid_q;
    legal_d        = legal_q;
    extended_d     = extended_q;
    hung1_d        = hung1_q;
    rtried_d       = rtried_q;
    qc_d           = qc_q;
    result_d       = result_q;
    child_fail_d   = child_fail_q;
    stop_d         = stop_q;
    qfilter_d      = qfilter_q;
    rtry_d         = rtry_q;
    best_d         = best_q;
    leaf_d         = leaf_q;
    phase_d        = phase_q;
    alt_d          = alt_q;
    main_best_d    = main_best_q;
    cmd_err        = 1'b0;
    cmd_err_code   = chip_pkg::ERR_NONE;
    clear_o        = 1'b0;
    ph_clear_o     = 1'b0;
    se_start_o     = 1'b0;
    se_abort_o     = 1'b0;
    stk_we         = 1'b0;
    stk_move_we    = 1'b0;
    stk_move_waddr = pi;
    stk_move_wdata = 16'd0;
    undo           = 1'b0;
    leaf_go        = 1'b0;
    leaf_success   = 1'b0;
    leaf_terminal  = 1'b0;
    do_descend     = 1'b0;
    ext_mark       = 1'b0;
    root_done      = 1'b0;
    root_success   = 1'b0;
    root_none      = 1'b0;
    root_best      = 16'd0;
    final_go       = 1'b0;
    final_success  = 1'b0;
    final_best     = 16'd0;
    final_flags    = 4'd0;
    restart_root   = 1'b0;

    if (busy) cycles_d = cycles_q + 64'd1;
    if (se_finish_i && state_q == ctrl_pkg::S_IDLE) done_d = 1'b1;  // SLOW_EVAL or LAZY_EVAL

    unique case (state_q)
      ctrl_pkg::S_CHECK: begin
        if (!chk_ok) begin
          state_d      = ctrl_pkg::S_IDLE;
          done_d       = 1'b1;
          cmd_err      = 1'b1;
          cmd_err_code = chip_pkg::ERR_BAD_MOVE;
        end else if (op_q == chip_pkg::OP_MAKE) begin
          mv_d    = move_q;
          state_d = ctrl_pkg::S_MAKE;
        end else begin
          state_d = ctrl_pkg::S_GEN;
        end
      end
      ctrl_pkg::S_GEN: begin
        qfilter_d = qnode && checks_ok;
        if (rm_try) begin
          // The node's repeating move first (not counted as generated).
          mv_d         = rm_move;
          rtried_d[pi] = 1'b1;
          state_d      = ctrl_pkg::S_REPCHK;
        end else if (last_valid && last_promo && last[13:12] != 2'd3) begin
          mv_d        = gen_promo_move;
          state_d     = ctrl_pkg::S_MAKE;
          generated_d = generated_q + 32'd1;
        end else if (last_valid && att_found_i) begin
          mv_d        = gen_att_move;
          state_d     = ctrl_pkg::S_MAKE;
          generated_d = generated_q + 32'd1;
        end else if (tgt_found_i) begin
          tgt_d   = tgt_sq_i;
          state_d = ctrl_pkg::S_GENATT;
        end else if (op_q == chip_pkg::OP_PERFT && ply_q != base_q) begin
          ply_d   = ply_q - 6'd1;
          state_d = ctrl_pkg::S_UNMAKE;
        end else if (searching) begin
          // Exhausted: every move failed, unless there was none (mate or stalemate) at a full-width
          // or evasion node. Only the search proper scores a mate or stalemate at the root.
          if (ply_q == base_q) begin
            root_done    = 1'b1;
            root_none    = phase_q == ctrl_pkg::PH_MAIN && !qnode && !legal_q[pi];
            root_success = root_none && none_success;
          end else begin
            ply_d        = ply_q - 6'd1;
            child_fail_d = !(!qnode && !legal_q[pi] && none_success);
            state_d      = ctrl_pkg::S_UNMAKE;
          end
        end else begin
          // Exhausted: PERFT at its root ply is finished; GEN found nothing.
          state_d      = ctrl_pkg::S_IDLE;
          done_d       = 1'b1;
          move_valid_d = 1'b0;
        end
      end
      ctrl_pkg::S_GENATT: begin
        mv_d        = gen_tgt_move;
        state_d     = ctrl_pkg::S_MAKE;
        generated_d = generated_q + 32'd1;
      end
      ctrl_pkg::S_REPCHK: begin
        // The repeating move is made only if the piece can move there (the checks of a host
        // move); otherwise the node generates its moves as usual.
        if (rc_ok) begin
          rtry_d  = 1'b1;
          state_d = ctrl_pkg::S_MAKE;
        end else begin
          state_d = ctrl_pkg::S_GEN;
        end
      end
      ctrl_pkg::S_MAKE: begin
        stk_we         = 1'b1;
        stk_move_we    = 1'b1;
        stk_move_wdata = mv_q;
        state_d        = ctrl_pkg::S_TEST;
      end
      ctrl_pkg::S_TEST: begin
        undo = 1'b1;
        unique case (op_q)
          chip_pkg::OP_SEARCH: begin
            rtry_d = 1'b0;
            if (rtry_q) begin
              stk_move_we    = 1'b1;  // the node's generation starts from its first move
              stk_move_wdata = 16'd0;
            end
            if (skip) begin
              // Illegal, filtered out, skipped; a repeating move that does not repeat the position
              // (castling rights or en passant differ) is not scored either.
              state_d = ctrl_pkg::S_GEN;
            end else begin
              count_d = count_q + 64'd1;
              legal_d = legal_q | (32'd1 << pi);
              hung1_d = (hung1_q & ~(32'd1 << ci)) | ({31'd0, one_hung} << ci);
              if (node_limit_hit) begin
                stop_d   = 1'b1;
                result_d = 8'd4;
                if (ply_q == base_q) begin
                  state_d = ctrl_pkg::S_IDLE;
                  done_d  = 1'b1;
                end else begin
                  ply_d   = ply_q - 6'd1;
                  state_d = ctrl_pkg::S_UNMAKE;
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
              end else if (eg_draw) begin
                // Stand pat. A drawn ending: score 0, its static value the tie-breaker.
                leaf_d       = 16'd0;
                leaf_go      = 1'b1;
                leaf_success = draw_success;
              end else if (lazy_high || lazy_low) begin
                leaf_d       = fast_eval;
                leaf_go      = 1'b1;
                leaf_success = lazy_high;
              end else begin
                undo       = 1'b0;
                se_start_o = 1'b1;
                state_d    = ctrl_pkg::S_SEVAL;
              end
            end
          end
          chip_pkg::OP_PERFT: begin
            if (king_capture_i) begin
              state_d = ctrl_pkg::S_GEN;
            end else if (ply_q + 6'd1 == base_q + 6'(depth_q)) begin
              count_d = count_q + 64'd1;
              state_d = ctrl_pkg::S_GEN;
            end else begin
              undo           = 1'b0;
              ply_d          = ply_q + 6'd1;
              stk_move_we    = 1'b1;
              stk_move_waddr = ci;
              state_d        = ctrl_pkg::S_GEN;
            end
          end
          chip_pkg::OP_MAKE: begin
            if (king_capture_i) begin
              state_d      = ctrl_pkg::S_IDLE;
              done_d       = 1'b1;
              cmd_err      = 1'b1;
              cmd_err_code = chip_pkg::ERR_BAD_MOVE;
            end else begin
              undo       = 1'b0;
              host_ply_d = host_ply_q + 6'd1;
              state_d    = ctrl_pkg::S_IDLE;
              done_d     = 1'b1;
            end
          end
          default: begin  // OP_GEN
            if (!king_capture_i && test_accept) begin
              move_d       = mv_q;
              move_valid_d = 1'b1;
              state_d      = ctrl_pkg::S_IDLE;
              done_d       = 1'b1;
            end else begin
              state_d = ctrl_pkg::S_GEN;
            end
          end
        endcase
      end
      ctrl_pkg::S_UNMAKE: begin
        // PERFT backing up a ply, the UNMAKE command, or the search unwinding.
        undo = 1'b1;
        if (op_q == chip_pkg::OP_UNMAKE) begin
          host_ply_d = ply_q;
          state_d    = ctrl_pkg::S_IDLE;
          done_d     = 1'b1;
        end else if (searching && (stop_q || child_fail_q)) begin
          // Stopping unwinds to the root; a failed child means this node succeeded.
          if (ply_q == base_q) begin
            if (stop_q) begin
              state_d = ctrl_pkg::S_IDLE;
              done_d  = 1'b1;
            end else begin
              root_done    = 1'b1;
              root_success = 1'b1;
              root_best    = last;
            end
          end else begin
            ply_d        = ply_q - 6'd1;
            child_fail_d = 1'b0;
          end
        end else begin
          state_d = ctrl_pkg::S_GEN;
        end
      end
      ctrl_pkg::S_SEVAL: begin
        // The stand pat waits for the slow evaluation; its last clock decides.
        if (se_finish_i) begin
          leaf_d       = se_total;
          undo         = 1'b1;
          leaf_go      = 1'b1;
          leaf_success = slow_success;
        end
      end
      ctrl_pkg::S_EINIT: begin
        if (einit_done) begin
          state_d = ctrl_pkg::S_IDLE;
          done_d  = 1'b1;
        end
      end
      default: ;  // S_IDLE
    endcase

    // Search: a leaf (a stand pat, or a repetition: terminal) decided whether the child succeeds. If
    // a stand pat failed, the quiescence search goes on below it when it may; otherwise the node at
    // p succeeds.
    if (leaf_go) begin
      if (leaf_success) begin
        state_d = ctrl_pkg::S_GEN;
      end else if (can_quiesce && !leaf_terminal) begin
        do_descend = 1'b1;
      end else if (ply_q == base_q) begin
        root_done    = 1'b1;
        root_success = 1'b1;
        root_best    = mv_q;
      end else begin
        ply_d        = ply_q - 6'd1;
        child_fail_d = 1'b0;
        state_d      = ctrl_pkg::S_UNMAKE;
      end
    end
    if (do_descend) begin
      undo           = 1'b0;
      ply_d          = ply_q + 6'd1;
      stk_move_we    = 1'b1;
      stk_move_waddr = ci;
      stk_move_wdata = 16'd0;
      legal_d        = legal_d & ~(32'd1 << ci);
      rtried_d       = rtried_q & ~(32'd1 << ci);
      extended_d     = (extended_q & ~(32'd1 << ci)) | ({31'd0, ext_mark} << ci);
      qc_d           = qc_after;
      state_d        = ctrl_pkg::S_GEN;
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
          if (root_success && off_on && root_best != 16'd0) begin
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
            final_go     = 1'b0;           // go on with the next root move
            alt_d        = alt_q + 2'd1;
            child_fail_d = 1'b0;
            state_d      = ctrl_pkg::S_GEN;
          end else if (off_condition) begin
            final_go     = 1'b0;
            restart_root = 1'b1;
            phase_d      = ctrl_pkg::PH_EXTEND;
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
        state_d        = ctrl_pkg::S_GEN;
      end
      if (final_go) begin
        result_d = {final_flags, root_none, 1'b0, final_success, 1'b1};
        best_d   = final_success ? final_best : 16'd0;
        state_d  = ctrl_pkg::S_IDLE;
        done_d   = 1'b1;
      end
    end
    if (undo) qc_d = entry.qc;

    // Host writes.
    if (abort_we && busy) begin
      state_d    = ctrl_pkg::S_IDLE;
      se_abort_o = 1'b1;
      aborted_d  = 1'b1;
      done_d     = 1'b1;
      host_ply_d = 6'd0;  // moves made by the command stay on the board: reload the position
    end
    if (stm_we || castling_we || ep_we || half_we || full_we || board_we) host_ply_d = 6'd0;
    if (move_we) move_d = wdata_i[15:0];
    if (cmd_we) begin
      cmd_d       = wdata_i;
      cycles_d    = 64'd0;
      generated_d = 32'd0;
      done_d      = 1'b0;
      aborted_d   = 1'b0;
      ply_d       = host_ply_q;
      base_d      = host_ply_q;
      unique case (op_w)
        chip_pkg::OP_CLEAR: begin
          clear_o    = 1'b1;
          host_ply_d = 6'd0;
          done_d     = 1'b1;
        end
        chip_pkg::OP_GEN: begin
          move_valid_d = 1'b0;
          if (mode_w > chip_pkg::MODE_ATTACKS) begin
            cmd_err = 1'b1; cmd_err_code = chip_pkg::ERR_BAD_ARGUMENT; done_d = 1'b1;
          end else if (host_ply_q >= 6'(StackDepth)) begin
            cmd_err = 1'b1; cmd_err_code = chip_pkg::ERR_STACK; done_d = 1'b1;
          end else if (mode_w == chip_pkg::MODE_EVASIONS && !in_check_i) begin
            done_d = 1'b1;  // nothing to evade
          end else begin
            stk_move_we    = 1'b1;
            stk_move_waddr = host_ply_q[4:0];
            stk_move_wdata = move_q;
            state_d        = move_q[15] ? ctrl_pkg::S_CHECK : ctrl_pkg::S_GEN;
          end
        end
        chip_pkg::OP_MAKE: begin
          if (host_ply_q >= 6'(StackDepth)) begin
            cmd_err = 1'b1; cmd_err_code = chip_pkg::ERR_STACK; done_d = 1'b1;
          end else begin
            state_d = ctrl_pkg::S_CHECK;
          end
        end
        chip_pkg::OP_UNMAKE: begin
          if (host_ply_q == 6'd0) begin
            cmd_err = 1'b1; cmd_err_code = chip_pkg::ERR_STACK; done_d = 1'b1;
          end else begin
            ply_d   = host_ply_q - 6'd1;
            state_d = ctrl_pkg::S_UNMAKE;
          end
        end
        chip_pkg::OP_PERFT: begin
          count_d = 64'd0;
          if (depth_w == 5'd0 || 7'(host_ply_q) + 7'(depth_w) > 7'(StackDepth)) begin
            cmd_err = 1'b1; cmd_err_code = chip_pkg::ERR_BAD_ARGUMENT; done_d = 1'b1;
          end else begin
            stk_move_we    = 1'b1;
            stk_move_waddr = host_ply_q[4:0];
            state_d        = ctrl_pkg::S_GEN;
          end
        end
        chip_pkg::OP_EVAL_INIT: begin
          if (host_ply_q != 6'd0) begin
            cmd_err = 1'b1; cmd_err_code = chip_pkg::ERR_STACK; done_d = 1'b1;
          end else begin
            ph_clear_o = 1'b1;
            state_d    = ctrl_pkg::S_EINIT;
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
          phase_d      = ctrl_pkg::PH_MAIN;
          alt_d        = 2'd0;
          main_best_d  = 16'd0;
          rtry_d       = 1'b0;
          // Offset searches need an offset depth of 1..depth and room for the extension.
          if (depth_w == 5'd0 || 7'(host_ply_q) + 7'(depth_w) > 7'(StackDepth) ||
              (off_on && (off_depth == 5'd0 || off_depth > depth_w ||
                          7'(host_ply_q) + 7'(depth_w) + 7'd1 > 7'(StackDepth)))) begin
            cmd_err = 1'b1; cmd_err_code = chip_pkg::ERR_BAD_ARGUMENT; done_d = 1'b1;
          end else begin
            stk_move_we    = 1'b1;
            stk_move_waddr = host_ply_q[4:0];
            state_d        = ctrl_pkg::S_GEN;
          end
        end
        chip_pkg::OP_LAZY_EVAL: begin
          if (lazy_done) done_d = 1'b1;
          if (lazy_slow) se_start_o = 1'b1;
        end
        default: begin
          cmd_err = 1'b1; cmd_err_code = chip_pkg::ERR_BAD_COMMAND; done_d = 1'b1;
        end
      endcase
    end
  end

  // ---------------------------------------------------------------- flops
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q      <= ctrl_pkg::S_IDLE;
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
      legal_q      <= 32'd0;
      extended_q   <= 32'd0;
      hung1_q      <= 32'd0;
      rtried_q     <= 32'd0;
      qc_q         <= 8'd0;
      result_q     <= 8'd0;
      child_fail_q <= 1'b0;
      stop_q       <= 1'b0;
      qfilter_q    <= 1'b0;
      rtry_q       <= 1'b0;
      best_q       <= 16'd0;
      leaf_q       <= 16'd0;
      phase_q      <= ctrl_pkg::PH_MAIN;
      alt_q        <= 2'd0;
      main_best_q  <= 16'd0;
    end else begin
      state_q      <= state_d;
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
      legal_q      <= legal_d;
      extended_q   <= extended_d;
      hung1_q      <= hung1_d;
      rtried_q     <= rtried_d;
      qc_q         <= qc_d;
      result_q     <= result_d;
      child_fail_q <= child_fail_d;
      stop_q       <= stop_d;
      qfilter_q    <= qfilter_d;
      rtry_q       <= rtry_d;
      best_q       <= best_d;
      leaf_q       <= leaf_d;
      phase_q      <= phase_d;
      alt_q        <= alt_d;
      main_best_q  <= main_best_d;
    end
  end

  assign dbg_state_o = state_q;
  assign dbg_ply_o   = ply_q;
  assign dbg_move_o  = mv_q;
  assign dbg_nodes_o = count_q[31:0];
  assign dbg_leaf_o  = leaf_q;
  assign dbg_flags_o = {phase_q, stop_q, child_fail_q, result_q[3:0]};
endmodule
