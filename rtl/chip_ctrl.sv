// The chip's controller: the command state machine (GEN, MAKE, UNMAKE, PERFT, CLEAR, EVAL_INIT,
// SLOW_EVAL, LAZY_EVAL, SEARCH, JOB) and the wiring of its blocks:
//   ctrl_regs    host register block: decode, read multiplexer, ERROR, the host-only registers
//   ctrl_job     the JOB command: loads a staged search job and writes its commands in the
//                host's place (CMD and MOVE writes come from the host or from it)
//   ctrl_stack   the move stack
//   ctrl_make    make/unmake and the position registers
//   ctrl_eval    fast and lazy evaluation (placement sum, EVAL_INIT's scan, the slow-eval filter)
//   ctrl_search  the hardware search (AIJ 5): its state, datapath and decisions (ctrl_search.sv
//                explains the search); in a search's TEST, UNMAKE and SEVAL, and when a search's
//                GEN finds no move, its decision (search_step_t) sets the next state here
// Types shared by the blocks are in ctrl_pkg.
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
  input  logic [255:0] board_i,      // bit b of square s's piece at [b*64 + s]
  input  logic [255:0] board_fwd_i,  // the next board but for the late undo (the repetition compare)
  output logic        brd_save_o,       // MAKE: the array keeps the board (and its maps)
  output logic        brd_restore_o,    // the late undo (TEST, SEVAL): the array brings them back
  output logic        stm_o,
  output logic        stm_fwd_o,        // the side to move in the next clock but for the late undo
  output logic [3:0]  castling_o,
  output logic        ep_valid_o,
  output logic [5:0]  ep_sq_o,
  output logic        tgt_en_o,         // the states that read the target side (bids, keys, arbiter)
  output logic        att_en_o,         // ... the attacker side (super piece, bids, keys, arbiter)
  output logic        tgt_capt_only_o,
  output logic        chk_only_o,       // GEN bids only for captures and moves that may give check
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
  input  logic        att_pawn_i,  // the attacker found is a pawn
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
  // UNMAKE: the game phase registers take the stack entry's values (pushed by the MAKE); the late
  // undo (brd_restore_o) does the same.
  output logic        ph_restore_o,
  output logic [39:0] ph_restore_counts_o,
  output logic [71:0] ph_restore_locs_o,
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
  input  logic [31:0] se_tab_rdata_i,   // a table's word, the clock after its address
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
  chip_pkg::ctrl_state_e state_q, state_d;
  logic [31:0] cmd_q, cmd_d;
  logic [15:0] move_q, move_d;            // MOVE register
  logic [15:0] mv_q, mv_d;                // move being made
  logic [5:0]  tgt_q, tgt_d;
  logic        tgt_skip_q, tgt_skip_d;    // GENATT found no attacker of tgt_q: GEN goes on below it
  logic [5:0]  ply_q, ply_d;              // working stack index
  logic [5:0]  base_q, base_d;            // stack index where the command started
  logic [5:0]  host_ply_q, host_ply_d;    // moves made by MAKE
  logic [63:0] count_q, count_d, cycles_q, cycles_d;
  logic [31:0] generated_q, generated_d;
  logic        done_q, done_d, aborted_q, aborted_d, move_valid_q, move_valid_d;
  // Command fields: of the word being written (by the host or by a JOB), and of the running command.
  chip_pkg::cmd_t cmd_w, cmd_f;
  logic [3:0] op_w, op_q;
  logic [2:0] mode_w, mode_q;
  logic [4:0] depth_w, depth_q;
  logic [31:0] cmd_wdata;
  assign cmd_w   = cmd_wdata[chip_pkg::CMD_WIDTH-1:0];
  assign cmd_f   = cmd_q[chip_pkg::CMD_WIDTH-1:0];
  assign op_w    = cmd_w.op;
  assign mode_w  = cmd_w.mode;
  assign depth_w = cmd_w.depth;
  assign op_q    = cmd_f.op;
  assign mode_q  = cmd_f.mode;
  assign depth_q = cmd_f.depth;
  chip_pkg::cmd_t cmd_next;
  logic [4:0] depth_next;  // the running command's depth in the next clock (the search's qnode_o)
  assign cmd_next   = cmd_d[chip_pkg::CMD_WIDTH-1:0];
  assign depth_next = cmd_next.depth;
  logic unused_cmd_next;  // its other fields: the registered command's are read
  assign unused_cmd_next = ^{cmd_next.history, cmd_next.reserved_7, cmd_next.mode, cmd_next.op};
  logic unused_cmd;  // CMD's reserved bit; the history length (ctrl_job reads it)
  assign unused_cmd = ^{cmd_w.reserved_7, cmd_f.reserved_7, cmd_f.history};

  logic busy, searching, ctrl_idle, job_active;
  assign ctrl_idle = (state_q == chip_pkg::S_IDLE) && !se_busy_i;
  assign busy      = !ctrl_idle || job_active;
  assign searching = (op_q == chip_pkg::OP_SEARCH);

  // ---------------------------------------------------------------- blocks
  // Host register block.
  logic        cmd_we, abort_we, move_we, stm_we, castling_we, ep_we, half_we, full_we, board_we, est_we;
  // CMD and MOVE writes, the host's or a JOB's (never both: the host's are refused while a job runs).
  logic        cmd_go, move_go;
  logic [15:0] move_wdata;
  // The JOB command (ctrl_job).
  logic [255:0] job_board;
  logic [511:0] job_hist;
  chip_pkg::job_pos_t job_pos;
  logic        job_load_we, job_pos_we, job_cmd_we, job_move_we;
  logic [5:0]  job_load_sq;
  logic [15:0] job_load_pc, job_move;
  logic [31:0] job_cmd;
  logic        cmd_err;
  logic [7:0]  cmd_err_code;
  logic [15:0] runner_bonus, sep_bonus, test_value, test_tie;
  chip_pkg::search_ctrl_t search_ctrl;
  logic [31:0] node_limit;
  chip_pkg::offset_ctrl_t offset_ctrl;
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
  logic               make, undo, undo_board;
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
  // The search.
  ctrl_pkg::search_step_t step;
  ctrl_pkg::phase_e       phase;
  logic        node_chk_q, node_chk_d;
  logic        qnode, checks_ok, rm_try, rep_hit, rep_near, off_on, stop, child_fail, gen_exhausted, rc_ok;
  logic [15:0] rm_move, best, leaf;
  logic [7:0]  qc, result;
  logic [4:0]  off_depth;

  assign pi   = ply_q[4:0];
  assign make = state_q == chip_pkg::S_MAKE;
  // An unmake writes the move's squares back in UNMAKE, a state known from registers. TEST's undo
  // and the slow evaluation's (its last clock, unless the quiescence search goes on below) are
  // the search's decision, late in their clock, and undo the MAKE of TEST's clock before (the
  // board does not change during a slow evaluation), so the array restores the board MAKE kept
  // instead (mg_array: its ray maps are then computed from registers only).
  assign undo_board    = state_q == chip_pkg::S_UNMAKE;
  assign brd_save_o    = make;
  assign brd_restore_o = undo && (state_q == chip_pkg::S_TEST || state_q == chip_pkg::S_SEVAL);

  ctrl_regs u_regs (
    .clk_i, .rst_ni, .req_i, .we_i, .addr_i, .wdata_i, .rvalid_o, .rdata_o, .err_o, .busy_i(busy),
    .se_reg_hit_i, .se_tab_hit_i, .se_grp_hit_i, .se_too_wide_i, .se_rdata_i, .se_tab_rdata_i, .se_we_o, .cmd_err_i(cmd_err),
    .cmd_err_code_i(cmd_err_code), .cmd_we_o(cmd_we), .abort_we_o(abort_we), .move_we_o(move_we),
    .stm_we_o(stm_we), .castling_we_o(castling_we), .ep_we_o(ep_we), .half_we_o(half_we), .full_we_o(full_we),
    .board_we_o(board_we), .est_we_o(est_we), .pst_we_o, .ph_ram_we_o, .kpk_en_o, .rules_en_o,
    .runner_bonus_o(runner_bonus), .sep_bonus_o(sep_bonus), .test_value_o(test_value), .test_tie_o(test_tie),
    .search_ctrl_o(search_ctrl), .node_limit_o(node_limit), .offset_ctrl_o(offset_ctrl), .job_board_o(job_board),
    .job_hist_o(job_hist), .job_pos_o(job_pos), .cmd_i(cmd_q),
    .done_i(done_q), .in_check_i, .move_valid_i(move_valid_q), .king_capture_i, .aborted_i(aborted_q),
    .pos_i(pos), .move_i(move_q), .host_ply_i(host_ply_q), .count_i(count_q), .cycles_i(cycles_q),
    .generated_i(generated_q), .hung_i, .pinned_i, .board_i, .pst_rdata_i(pst_rdata_a_i), .ph_ram_rdata_i,
    .fast_eval_i(fast_eval), .pst_sum_i(pst_sum), .castle_k_i(castle_k), .castle_q_i(castle_q), .counts_i,
    .locs_i, .phase_i, .rule_draw_i, .kpk_active_i, .kpk_win_i, .runner_w_i, .runner_b_i, .separated_i,
    .white_race_i(white_race), .black_race_i(black_race), .se_value_i, .eg_draw_i(eg_draw), .est_i(est),
    .lazy_i(lazy), .se_draw_i, .result_i(result), .best_i(best), .rep_hit_i(rep_hit), .rep_near_i(rep_near)
  );

  ctrl_job u_job (
    .clk_i, .rst_ni, .start_i(cmd_we && op_w == chip_pkg::OP_JOB && depth_w != 5'd0), .depth_i(depth_w),
    .hist_len_i(cmd_w.history), .abort_i(abort_we && busy), .ctrl_idle_i(ctrl_idle), .cmd_err_i(cmd_err),
    .board_i(job_board), .hist_moves_i(job_hist), .active_o(job_active), .load_we_o(job_load_we),
    .load_sq_o(job_load_sq), .load_pc_o(job_load_pc), .pos_we_o(job_pos_we), .cmd_we_o(job_cmd_we),
    .cmd_o(job_cmd), .move_we_o(job_move_we), .move_o(job_move)
  );
  assign cmd_go     = cmd_we || job_cmd_we;
  assign cmd_wdata  = job_cmd_we ? job_cmd : wdata_i;
  assign move_go    = move_we || job_move_we;
  assign move_wdata = job_move_we ? job_move : wdata_i[15:0];

  // MAKE pushes the position registers, the placement sum, the quiescence check counters,
  // whether the side to move is in check (node_chk_q's value after the unmake) and the game phase
  // registers (eval_phase's, restored by the unmake).
  always_comb begin
    push_full        = push;
    push_full.pst    = pst_sum;
    push_full.qc     = qc;
    push_full.chk    = in_check_i;
    push_full.counts = counts_i;
    push_full.locs   = locs_i;
  end
  assign ph_restore_o        = undo_board;
  assign ph_restore_counts_o = entry.counts;
  assign ph_restore_locs_o   = entry.locs;
  ctrl_stack u_stack (
    .clk_i, .ply_i(pi), .move_o(last), .entry_o(entry), .entry_we_i(stk_we), .entry_wdata_i(push_full),
    .move_we_i(stk_move_we), .move_waddr_i(stk_move_waddr), .move_wdata_i(stk_move_wdata)
  );

  ctrl_make u_make (
    .clk_i, .rst_ni, .board_i, .make_i(make), .mv_i(mv_q), .undo_i(undo), .undo_board_i(undo_board),
    .undo_move_i(last),
    .undo_entry_i(entry), .clear_i(clear_o), .stm_we_i(stm_we), .castling_we_i(castling_we), .ep_we_i(ep_we),
    .half_we_i(half_we), .full_we_i(full_we), .board_we_i(board_we), .board_sq_i(addr_i[5:0]),
    .wdata_i(wdata_i[15:0]), .load_we_i(job_load_we), .load_sq_i(job_load_sq), .load_pc_i(job_load_pc),
    .job_pos_we_i(job_pos_we), .job_pos_i(job_pos), .pos_o(pos), .stm_fwd_o, .push_o(push), .mk_o(mk), .wr_en_o, .wr_sq_o, .wr_pc_o,
    .ph_ev_valid_o(mk_ph_valid), .ph_ev_piece_o(mk_ph_piece), .ph_ev_loc_o(mk_ph_loc),
    .ph_ev_delta_o(mk_ph_delta)
  );

  ctrl_eval u_eval (
    .clk_i, .rst_ni, .einit_i(state_q == chip_pkg::S_EINIT),
    .host_addr_i(addr_i[8:0]), .board_i, .stm_i(pos.stm), .make_i(make), .mk_i(mk), .undo_i(undo),
    .undo_pst_i(entry.pst), .einit_start_i(cmd_go && op_w == chip_pkg::OP_EVAL_INIT && host_ply_q == 6'd0),
    .lazy_start_i(cmd_go && op_w == chip_pkg::OP_LAZY_EVAL), .abort_i(abort_we && busy), .est_we_i(est_we),
    .wdata_i(wdata_i[15:0]), .pst_raddr_a_o, .pst_raddr_b_o, .pst_raddr_c_o, .pst_rdata_a_i, .pst_rdata_b_i,
    .pst_rdata_c_i, .phase_i, .counts_i, .kpk_active_i, .kpk_win_i, .rule_draw_i, .runner_w_i, .runner_b_i,
    .separated_i, .runner_bonus_i(runner_bonus), .sep_bonus_i(sep_bonus), .test_value_i(test_value),
    .se_finish_i, .se_white_i, .se_lazy_ctrl_i, .pst_o(pst_sum), .castle_k_o(castle_k), .castle_q_o(castle_q),
    .fast_eval_o(fast_eval), .fast_static_o(fast_static), .eg_draw_o(eg_draw), .white_race_o(white_race),
    .black_race_o(black_race), .se_total_o(se_total), .est_o(est), .lazy_o(lazy), .lz_active_o(lz_active),
    .lz_sum_o(lz_sum), .lz_margin_o(lz_margin), .einit_done_o(einit_done), .lazy_done_o(lazy_done),
    .lazy_slow_o(lazy_slow), .ph_ev_valid_o(ei_ph_valid), .ph_ev_piece_o(ei_ph_piece),
    .ph_ev_loc_o(ei_ph_loc), .ph_ev_delta_o(ei_ph_delta)
  );

  ctrl_search u_search (
    .clk_i, .rst_ni, .search_ctrl_i(search_ctrl), .offset_ctrl_i(offset_ctrl), .test_value_i(test_value),
    .test_tie_i(test_tie), .node_limit_i(node_limit), .state_i(state_q), .searching_i(searching),
    .start_i(cmd_go && op_w == chip_pkg::OP_SEARCH), .exhausted_i(gen_exhausted),
    .repchk_ok_i(state_q == chip_pkg::S_REPCHK && rc_ok), .se_finish_i, .ply_i(ply_q), .base_i(base_q),
    .host_ply_i(host_ply_q), .depth_i(depth_q), .ply_next_i(ply_d), .base_next_i(base_d),
    .depth_next_i(depth_next), .count_i(count_q), .mv_i(mv_q), .last_i(last),
    .entry_i(entry), .pos_i(pos), .board_i, .board_fwd_i, .restore_i(brd_restore_o), .in_check_i, .node_chk_i(node_chk_q), .king_capture_i, .hung_i, .opp_hung_i, .pinned_i,
    .king_ring_i, .esc_none_i, .esc_one_i, .fast_eval_i(fast_eval), .fast_static_i(fast_static),
    .eg_draw_i(eg_draw), .lz_active_i(lz_active), .lz_sum_i(lz_sum), .lz_margin_i(lz_margin),
    .se_total_i(se_total), .step_o(step), .qnode_o(qnode), .checks_ok_o(checks_ok), .rm_try_o(rm_try),
    .rm_move_o(rm_move), .qc_o(qc), .result_o(result), .best_o(best), .leaf_o(leaf), .phase_o(phase),
    .stop_o(stop), .child_fail_o(child_fail), .rep_hit_o(rep_hit), .rep_near_o(rep_near), .off_on_o(off_on),
    .off_depth_o(off_depth)
  );

  // ---------------------------------------------------------------- array and evaluation ports
  logic last_valid, last_promo;
  assign last_valid      = last[15];
  assign last_promo      = last[14];
  assign stm_o           = pos.stm;
  assign castling_o      = pos.castling;
  assign ep_valid_o      = pos.ep_valid;
  assign ep_sq_o         = pos.ep_sq;
  // The array's target side is read in CHECK and REPCHK (the host's or the repeating move's
  // target) and GEN (the next target); its attacker side in those and GENATT (the next attacker),
  // and in TEST for the ATTACKS mode's test (the reach of the piece that moved).
  assign tgt_en_o        = state_q == chip_pkg::S_CHECK || state_q == chip_pkg::S_GEN ||
                           state_q == chip_pkg::S_REPCHK;
  assign att_en_o        = tgt_en_o || state_q == chip_pkg::S_GENATT ||
                           (state_q == chip_pkg::S_TEST && mode_q == chip_pkg::MODE_ATTACKS);
  assign tgt_mask_en_o   = (state_q == chip_pkg::S_GEN) && (last_valid || tgt_skip_q);
  assign tgt_last_sq_o   = tgt_skip_q ? tgt_q : last[11:6];
  assign att_mask_en_o   = (state_q == chip_pkg::S_GEN);
  assign att_last_sq_o   = last[5:0];
  assign tgt_capt_only_o = (((mode_q == chip_pkg::MODE_CAPTURES) && (op_q == chip_pkg::OP_GEN)) ||
                            (qnode && !checks_ok)) && (state_q == chip_pkg::S_GEN);
  // The checks filter: the CHECKS mode of GEN, a quiescence node whose side may still check.
  assign chk_only_o      = (((mode_q == chip_pkg::MODE_CHECKS) && (op_q == chip_pkg::OP_GEN)) ||
                            (qnode && checks_ok)) &&
                           (state_q == chip_pkg::S_GEN || state_q == chip_pkg::S_GENATT);
  always_comb begin
    unique case (state_q)
      chip_pkg::S_CHECK:  tsel_sq_o = move_q[11:6];
      chip_pkg::S_GEN:    tsel_sq_o = last[11:6];
      chip_pkg::S_GENATT: tsel_sq_o = tgt_q;
      default:            tsel_sq_o = mv_q[11:6];
    endcase
  end
  assign pst_waddr_o   = addr_i[8:0];
  assign pst_wdata_o   = wdata_i[15:0];
  assign ph_ev_valid_o = mk_ph_valid | ei_ph_valid;  // MAKE and EVAL_INIT never share a clock
  assign ph_ev_piece_o = mk_ph_piece | ei_ph_piece;
  assign ph_ev_loc_o   = mk_ph_loc | ei_ph_loc;
  assign ph_ev_delta_o = mk_ph_delta | ei_ph_delta;

  // ---------------------------------------------------------------- move generation
  // Is the host's move (MOVE) pseudo-legal here? The repeating move (no promotion) passes the same
  // checks in S_REPCHK.
  logic [2:0] chk_type;
  logic       chk_ok;
  assign chk_type = ctrl_pkg::board_type(board_i, move_q[5:0]);
  assign chk_ok = move_q[15] && att_cand_i[move_q[5:0]] && tgt_cand_i[move_q[11:6]] &&
                  (move_q[14] == ctrl_pkg::is_promotion(chk_type, move_q[11:9], pos.stm)) &&
                  (move_q[14] || move_q[13:12] == 2'd0);
  assign rc_ok = att_cand_i[mv_q[5:0]] && tgt_cand_i[mv_q[11:6]] &&
                 !ctrl_pkg::is_promotion(ctrl_pkg::board_type(board_i, mv_q[5:0]), mv_q[11:9], pos.stm);
  // The move the generator produces in S_GEN / S_GENATT.
  logic [15:0] gen_att_move, gen_tgt_move, gen_promo_move;
  // (A pawn from the arbiter's class, not from the board at att_sq_i: issue 22's logic depth.)
  assign gen_att_move   = {1'b1, att_pawn_i && ctrl_pkg::is_last_rank(last[11:9], pos.stm), 2'd0, last[11:6], att_sq_i};
  assign gen_tgt_move   = {1'b1, att_pawn_i && ctrl_pkg::is_last_rank(tgt_q[5:3], pos.stm), 2'd0, tgt_q, att_sq_i};
  assign gen_promo_move = {last[15:14], last[13:12] + 2'd1, last[11:0]};
  // GEN's choices in order: the repeating move, the next promotion piece of the last move, the
  // last target's next attacker, the next target; none left ends the ply.
  logic gen_promo, gen_att;
  assign gen_promo     = last_valid && last_promo && last[13:12] != 2'd3;
  assign gen_att       = last_valid && att_found_i;
  assign gen_exhausted = state_q == chip_pkg::S_GEN && searching && !rm_try && !gen_promo && !gen_att && !tgt_found_i;
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

  // ---------------------------------------------------------------- a command's start
  ctrl_pkg::cmd_start_t  start;
  chip_pkg::ctrl_state_e start_state;
  ctrl_cmd u_cmd (
    .op_i        (op_w),
    .mode_i      (mode_w),
    .depth_i     (depth_w),
    .host_ply_i  (host_ply_q),
    .move_i      (move_q),
    .in_check_i,
    .off_on_i    (off_on),
    .off_depth_i (off_depth),
    .lazy_done_i (lazy_done),
    .lazy_slow_i (lazy_slow),
    .start_o     (start),
    .state_o     (start_state)
  );

  // ---------------------------------------------------------------- next state
  logic [4:0] ci;  // the child's stack index
  assign ci = pi + 5'd1;
  always_comb begin
    // Defaults: hold.
    state_d        = state_q;
    cmd_d          = cmd_q;
    move_d         = move_q;
    mv_d           = mv_q;
    tgt_d          = tgt_q;
    tgt_skip_d     = 1'b0;
    ply_d          = ply_q;
    base_d         = base_q;
    host_ply_d     = host_ply_q;
    count_d        = count_q;
    cycles_d       = cycles_q;
    generated_d    = generated_q;
    done_d         = done_q;
    aborted_d      = aborted_q;
    move_valid_d   = move_valid_q;
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

    if (busy) cycles_d = cycles_q + 64'd1;
    if (se_finish_i && state_q == chip_pkg::S_IDLE) done_d = 1'b1;  // SLOW_EVAL or LAZY_EVAL

    unique case (state_q)
      chip_pkg::S_CHECK: begin
        if (!chk_ok) begin
          state_d      = chip_pkg::S_IDLE;
          done_d       = 1'b1;
          cmd_err      = 1'b1;
          cmd_err_code = chip_pkg::ERR_BAD_MOVE;
        end else if (op_q == chip_pkg::OP_MAKE) begin
          mv_d    = move_q;
          state_d = chip_pkg::S_MAKE;
        end else begin
          state_d = chip_pkg::S_GEN;
        end
      end
      chip_pkg::S_GEN: begin
        if (rm_try) begin
          mv_d    = rm_move;  // the node's repeating move first (not counted as generated)
          state_d = chip_pkg::S_REPCHK;
        end else if (gen_promo) begin
          mv_d        = gen_promo_move;
          state_d     = chip_pkg::S_MAKE;
          generated_d = generated_q + 32'd1;
        end else if (gen_att) begin
          mv_d        = gen_att_move;
          state_d     = chip_pkg::S_MAKE;
          generated_d = generated_q + 32'd1;
        end else if (tgt_found_i) begin
          tgt_d   = tgt_sq_i;
          state_d = chip_pkg::S_GENATT;
        end else if (op_q == chip_pkg::OP_PERFT && ply_q != base_q) begin
          ply_d   = ply_q - 6'd1;
          state_d = chip_pkg::S_UNMAKE;
        end else if (!searching) begin
          // Exhausted: PERFT at its root ply is finished; GEN found nothing. (A search's
          // exhausted node: the search decides.)
          state_d      = chip_pkg::S_IDLE;
          done_d       = 1'b1;
          move_valid_d = 1'b0;
        end
      end
      chip_pkg::S_GENATT: begin
        // Under the checks filter a target may have no attacker that checks from it: GEN goes on
        // below it.
        if (att_found_i) begin
          mv_d        = gen_tgt_move;
          state_d     = chip_pkg::S_MAKE;
          generated_d = generated_q + 32'd1;
        end else begin
          tgt_skip_d = 1'b1;
          state_d    = chip_pkg::S_GEN;
        end
      end
      chip_pkg::S_REPCHK: begin
        // The repeating move is made only if the piece can move there (the checks of a host
        // move); otherwise the node generates its moves as usual.
        state_d = rc_ok ? chip_pkg::S_MAKE : chip_pkg::S_GEN;
      end
      chip_pkg::S_MAKE: begin
        stk_we         = 1'b1;
        stk_move_we    = 1'b1;
        stk_move_wdata = mv_q;
        state_d        = chip_pkg::S_TEST;
      end
      chip_pkg::S_TEST: begin
        undo = 1'b1;
        unique case (op_q)
          chip_pkg::OP_SEARCH: ;  // the search decides
          chip_pkg::OP_PERFT: begin
            if (king_capture_i) begin
              state_d = chip_pkg::S_GEN;
            end else if (ply_q + 6'd1 == base_q + 6'(depth_q)) begin
              count_d = count_q + 64'd1;
              state_d = chip_pkg::S_GEN;
            end else begin
              undo           = 1'b0;
              ply_d          = ply_q + 6'd1;
              stk_move_we    = 1'b1;
              stk_move_waddr = ci;
              state_d        = chip_pkg::S_GEN;
            end
          end
          chip_pkg::OP_MAKE: begin
            if (king_capture_i) begin
              state_d      = chip_pkg::S_IDLE;
              done_d       = 1'b1;
              cmd_err      = 1'b1;
              cmd_err_code = chip_pkg::ERR_BAD_MOVE;
            end else begin
              undo       = 1'b0;
              host_ply_d = host_ply_q + 6'd1;
              state_d    = chip_pkg::S_IDLE;
              done_d     = 1'b1;
            end
          end
          default: begin  // OP_GEN
            if (!king_capture_i && test_accept) begin
              move_d       = mv_q;
              move_valid_d = 1'b1;
              state_d      = chip_pkg::S_IDLE;
              done_d       = 1'b1;
            end else begin
              state_d = chip_pkg::S_GEN;
            end
          end
        endcase
      end
      chip_pkg::S_UNMAKE: begin
        // PERFT backing up a ply, the UNMAKE command, a search going on at the ply above (or
        // unwinding: the search decides).
        undo = 1'b1;
        if (op_q == chip_pkg::OP_UNMAKE) begin
          host_ply_d = ply_q;
          state_d    = chip_pkg::S_IDLE;
          done_d     = 1'b1;
        end else begin
          state_d = chip_pkg::S_GEN;
        end
      end
      chip_pkg::S_EINIT: begin
        if (einit_done) begin
          state_d = chip_pkg::S_IDLE;
          done_d  = 1'b1;
        end
      end
      default: ;  // S_IDLE; S_SEVAL waits for the search's decision
    endcase

    // The search's decision.
    if (step.go) begin
      unique case (step.next)
        ctrl_pkg::NEXT_GEN:    state_d = chip_pkg::S_GEN;
        ctrl_pkg::NEXT_UNMAKE: state_d = chip_pkg::S_UNMAKE;
        ctrl_pkg::NEXT_SEVAL:  state_d = chip_pkg::S_SEVAL;
        ctrl_pkg::NEXT_IDLE:   state_d = chip_pkg::S_IDLE;
        default:               state_d = state_q;  // NEXT_HOLD
      endcase
      undo    = step.undo;
      if (step.ply_up) ply_d = ply_q + 6'd1;
      if (step.ply_down) ply_d = ply_q - 6'd1;
      if (step.move_we) begin
        stk_move_we    = 1'b1;
        stk_move_waddr = step.move_waddr;
        stk_move_wdata = 16'd0;
      end
      if (step.count) count_d = count_q + 64'd1;
      if (step.done) done_d = 1'b1;
      if (step.se_start) se_start_o = 1'b1;
    end

    // Host writes.
    if (abort_we && busy) begin
      state_d    = chip_pkg::S_IDLE;
      se_abort_o = 1'b1;
      aborted_d  = 1'b1;
      done_d     = 1'b1;
      host_ply_d = 6'd0;  // moves made by the command stay on the board: reload the position
    end
    if (stm_we || castling_we || ep_we || half_we || full_we || board_we || job_load_we) host_ply_d = 6'd0;
    if (move_go) move_d = move_wdata;
    if (cmd_go) begin
      cmd_d       = cmd_wdata;
      cycles_d    = 64'd0;
      generated_d = 32'd0;
      done_d      = start.done;
      aborted_d   = 1'b0;
      ply_d       = start.ply;
      base_d      = host_ply_q;
      if (start.go) state_d = start_state;
      if (start.err) begin
        cmd_err      = 1'b1;
        cmd_err_code = start.err_code;
      end
      if (start.clear) begin
        clear_o    = 1'b1;
        host_ply_d = 6'd0;
      end
      if (start.ph_clear) ph_clear_o = 1'b1;
      if (start.se_start) se_start_o = 1'b1;
      if (start.move_invalid) move_valid_d = 1'b0;
      if (start.count_clear) count_d = 64'd0;
      if (start.stk_we) begin
        stk_move_we    = 1'b1;
        stk_move_waddr = host_ply_q[4:0];
        stk_move_wdata = start.stk_wdata;
      end
    end
  end

  // Whether the side to move is in check on the next clock's board, for the quiescence node test
  // (ctrl_search's qnode_o, the generator's capture and checks filters in GEN and GENATT). The
  // array's in_check_o is the board's, deep behind the board registers; the filters in front of
  // the arbiters made it part of the generator's clock (issue 22: logic depth). An unmake restores
  // the board its move's MAKE saw, whose check the stack entry kept; in every other clock the
  // board the next one sees is this one's (MAKE is followed by TEST, which sets it again; host and
  // job loads by IDLE), so the array's answer now is the answer then.
  assign node_chk_d = undo ? entry.chk : in_check_i;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) node_chk_q <= 1'b0;
    else node_chk_q <= node_chk_d;
  end

  // ---------------------------------------------------------------- flops
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q      <= chip_pkg::S_IDLE;
      cmd_q        <= 32'd0;
      move_q       <= 16'd0;
      mv_q         <= 16'd0;
      tgt_q        <= 6'd0;
      tgt_skip_q   <= 1'b0;
      ply_q        <= 6'd0;
      base_q       <= 6'd0;
      host_ply_q   <= 6'd0;
      count_q      <= 64'd0;
      cycles_q     <= 64'd0;
      generated_q  <= 32'd0;
      done_q       <= 1'b0;
      aborted_q    <= 1'b0;
      move_valid_q <= 1'b0;
    end else begin
      state_q      <= state_d;
      cmd_q        <= cmd_d;
      move_q       <= move_d;
      mv_q         <= mv_d;
      tgt_q        <= tgt_d;
      tgt_skip_q   <= tgt_skip_d;
      ply_q        <= ply_d;
      base_q       <= base_d;
      host_ply_q   <= host_ply_d;
      count_q      <= count_d;
      cycles_q     <= cycles_d;
      generated_q  <= generated_d;
      done_q       <= done_d;
      aborted_q    <= aborted_d;
      move_valid_q <= move_valid_d;
    end
  end

`ifdef VERILATOR
  // Assertions (verilated with --assert in the regression's second configuration).
  // The stack index stays on the stack while a command runs, and the host's moves fit it.
  a_ply_bound: assert property (@(posedge clk_i) disable iff (!rst_ni)
      state_q != chip_pkg::S_IDLE |-> ply_q < 6'(StackDepth));
  a_host_ply_bound: assert property (@(posedge clk_i) disable iff (!rst_ni) host_ply_q <= 6'(StackDepth));
  // Legal state transitions (ABORT may end any command).
  a_from_idle: assert property (@(posedge clk_i) disable iff (!rst_ni)
      state_q == chip_pkg::S_IDLE |=> state_q inside {chip_pkg::S_IDLE, chip_pkg::S_CHECK, chip_pkg::S_GEN,
                                                      chip_pkg::S_UNMAKE, chip_pkg::S_EINIT});
  a_from_check: assert property (@(posedge clk_i) disable iff (!rst_ni)
      state_q == chip_pkg::S_CHECK |=> state_q inside {chip_pkg::S_IDLE, chip_pkg::S_MAKE, chip_pkg::S_GEN});
  a_from_genatt: assert property (@(posedge clk_i) disable iff (!rst_ni)
      state_q == chip_pkg::S_GENATT |=> state_q inside {chip_pkg::S_IDLE, chip_pkg::S_MAKE, chip_pkg::S_GEN});
  a_from_make: assert property (@(posedge clk_i) disable iff (!rst_ni)
      state_q == chip_pkg::S_MAKE |=> state_q inside {chip_pkg::S_IDLE, chip_pkg::S_TEST});
  a_from_repchk: assert property (@(posedge clk_i) disable iff (!rst_ni)
      state_q == chip_pkg::S_REPCHK |=> state_q inside {chip_pkg::S_IDLE, chip_pkg::S_MAKE, chip_pkg::S_GEN});
  a_from_einit: assert property (@(posedge clk_i) disable iff (!rst_ni)
      state_q == chip_pkg::S_EINIT |=> state_q inside {chip_pkg::S_IDLE, chip_pkg::S_EINIT});
  a_from_seval: assert property (@(posedge clk_i) disable iff (!rst_ni)
      state_q == chip_pkg::S_SEVAL |=> state_q inside {chip_pkg::S_IDLE, chip_pkg::S_SEVAL, chip_pkg::S_GEN,
                                                       chip_pkg::S_UNMAKE});
  a_search_states: assert property (@(posedge clk_i) disable iff (!rst_ni)
      state_q inside {chip_pkg::S_SEVAL, chip_pkg::S_REPCHK} |-> searching);
  // The registered check is the board's wherever the search's generator reads it.
  a_node_chk: assert property (@(posedge clk_i) disable iff (!rst_ni)
      searching && state_q inside {chip_pkg::S_GEN, chip_pkg::S_GENATT} |-> node_chk_q == in_check_i);
  // The game phase's event port is shared: MAKE and EVAL_INIT never drive it together. An
  // unmake's restore replaces the phase registers whole, so no event and no clear may come in its
  // clock (eval_phase would let the restore win over the events, and the clear over the restore).
  a_phase_events: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !(mk_ph_valid != 4'd0 && ei_ph_valid != 4'd0));
  // Every unmake is either written by ctrl_make (UNMAKE) or restored by the array (TEST, the slow
  // evaluation's last clock), never both.
  a_undo_split: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (undo && !brd_restore_o) == undo_board);
  a_phase_restore_alone: assert property (@(posedge clk_i) disable iff (!rst_ni)
      undo |-> ph_ev_valid_o == 4'd0 && !ph_clear_o);
`endif

  assign dbg_state_o = state_q;
  assign dbg_ply_o   = ply_q;
  assign dbg_move_o  = mv_q;
  assign dbg_nodes_o = count_q[31:0];
  assign dbg_leaf_o  = leaf;
  assign dbg_flags_o = {phase, stop, child_fail, result[3:0]};
endmodule
