// The chess chip: host interface and controller (chip_ctrl) driving the 8x8 move-generator
// array (mg_array), and the fast evaluation: piece placement table (eval_pst), game phase
// control (eval_phase), endgame logic: the KPK ROM (eval_kpk) and draw rules (eval_rules),
// and the king-and-pawn array (eval_kpa); the slow evaluation (eval_slow). Host bus: 17-bit word addresses, 32-bit data, one request per
// clock, response on the next clock (register map in docs/chip.md, generated from rtl/regmap.json).
module chip_top (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        req_i,
  input  logic        we_i,
  input  logic [16:0] addr_i,
  input  logic [31:0] wdata_i,
  output logic        rvalid_o,
  output logic [31:0] rdata_o,
  output logic        err_o,
  // Debug port for lock-step co-simulation: controller state, ply, move being made.
  output logic [3:0]  dbg_state_o,
  output logic [5:0]  dbg_ply_o,
  output logic [15:0] dbg_move_o,
  output logic [31:0] dbg_nodes_o,
  output logic [15:0] dbg_leaf_o,
  output logic [7:0]  dbg_flags_o
);
  logic        clear, stm, stm_fwd, ep_valid, tgt_en, att_en, tgt_capt_only, chk_only, tgt_mask_en, att_mask_en;
  logic [3:0]  wr_en, castling;
  logic [23:0] wr_sq;
  logic [15:0] wr_pc;
  logic [255:0] board, board_fwd;
  logic        brd_save, brd_restore;
  logic [5:0]  ep_sq, tgt_last_sq, tsel_sq, att_last_sq, tgt_sq, att_sq;
  logic        tgt_found, att_found, att_pawn, tsel_attacks, in_check, king_capture;
  logic [63:0] tgt_cand, att_cand, hung, pinned, king_ring;
  logic        opp_hung, esc_none, esc_one;
  logic        pst_we;
  logic [8:0]  pst_waddr, pst_raddr_a, pst_raddr_b, pst_raddr_c;
  logic [15:0] pst_wdata, pst_rdata_a, pst_rdata_b, pst_rdata_c;
  logic        ph_clear, ph_ram_we;
  logic [3:0]  ph_ev_valid;
  logic [15:0] ph_ev_piece, ph_ram_rdata, phase;
  logic [23:0] ph_ev_loc;
  logic [7:0]  ph_ev_delta;
  logic [39:0] counts, counts_fwd;
  logic [71:0] locs, locs_fwd;
  logic        ph_restore;  // UNMAKE: eval_phase's registers come back from the move stack
  logic [39:0] ph_restore_counts;
  logic [71:0] ph_restore_locs;
  logic        kpk_en, kpk_active, kpk_win, rules_en;
  logic [2:0]  rule_draw, runner_w, runner_b;
  logic [1:0]  separated;
  logic [15:0] phase_swap, se_value, se_white;
  logic [31:0] se_lazy_ctrl;
  logic [15:0] se_draw;
  logic        se_start, se_abort, se_we, se_busy, se_finish, se_reg_hit, se_grp_hit, se_tab_hit, se_too_wide;
  logic [31:0] se_rdata, se_tab_rdata;


  chip_ctrl u_ctrl (
    .clk_i, .rst_ni, .req_i, .we_i, .addr_i, .wdata_i, .rvalid_o, .rdata_o, .err_o,
    .clear_o         (clear),
    .wr_en_o         (wr_en),
    .wr_sq_o         (wr_sq),
    .wr_pc_o         (wr_pc),
    .board_i         (board),
    .board_fwd_i     (board_fwd),
    .brd_save_o      (brd_save),
    .brd_restore_o   (brd_restore),
    .stm_o           (stm),
    .stm_fwd_o       (stm_fwd),
    .castling_o      (castling),
    .ep_valid_o      (ep_valid),
    .ep_sq_o         (ep_sq),
    .tgt_en_o        (tgt_en),
    .att_en_o        (att_en),
    .tgt_capt_only_o (tgt_capt_only),
    .chk_only_o      (chk_only),
    .tgt_mask_en_o   (tgt_mask_en),
    .tgt_last_sq_o   (tgt_last_sq),
    .tgt_found_i     (tgt_found),
    .tgt_sq_i        (tgt_sq),
    .tgt_cand_i      (tgt_cand),
    .tsel_sq_o       (tsel_sq),
    .att_mask_en_o   (att_mask_en),
    .att_last_sq_o   (att_last_sq),
    .att_found_i     (att_found),
    .att_sq_i        (att_sq),
    .att_pawn_i      (att_pawn),
    .att_cand_i      (att_cand),
    .tsel_attacks_i  (tsel_attacks),
    .in_check_i      (in_check),
    .king_capture_i  (king_capture),
    .hung_i          (hung),
    .opp_hung_i      (opp_hung),
    .pinned_i        (pinned),
    .king_ring_i     (king_ring),
    .esc_none_i      (esc_none),
    .esc_one_i       (esc_one),
    .pst_we_o        (pst_we),
    .pst_waddr_o     (pst_waddr),
    .pst_wdata_o     (pst_wdata),
    .pst_raddr_a_o   (pst_raddr_a),
    .pst_raddr_b_o   (pst_raddr_b),
    .pst_raddr_c_o   (pst_raddr_c),
    .pst_rdata_a_i   (pst_rdata_a),
    .pst_rdata_b_i   (pst_rdata_b),
    .pst_rdata_c_i   (pst_rdata_c),
    .ph_clear_o      (ph_clear),
    .ph_ev_valid_o   (ph_ev_valid),
    .ph_ev_piece_o   (ph_ev_piece),
    .ph_ev_loc_o     (ph_ev_loc),
    .ph_ev_delta_o   (ph_ev_delta),
    .ph_restore_o        (ph_restore),
    .ph_restore_counts_o (ph_restore_counts),
    .ph_restore_locs_o   (ph_restore_locs),
    .ph_ram_we_o     (ph_ram_we),
    .ph_ram_rdata_i  (ph_ram_rdata),
    .phase_i         (phase),
    .counts_i        (counts),
    .locs_i          (locs),
    .kpk_en_o        (kpk_en),
    .kpk_active_i    (kpk_active),
    .kpk_win_i       (kpk_win),
    .rules_en_o      (rules_en),
    .rule_draw_i     (rule_draw),
    .runner_w_i      (runner_w),
    .runner_b_i      (runner_b),
    .separated_i     (separated),
    .se_start_o      (se_start),
    .se_abort_o      (se_abort),
    .se_we_o         (se_we),
    .se_busy_i       (se_busy),
    .se_finish_i     (se_finish),
    .se_reg_hit_i    (se_reg_hit),
    .se_tab_hit_i    (se_tab_hit),
    .se_too_wide_i   (se_too_wide),
    .se_rdata_i      (se_rdata),
    .se_tab_rdata_i  (se_tab_rdata),
    .se_value_i      (se_value),
    .se_grp_hit_i    (se_grp_hit),
    .se_white_i      (se_white),
    .se_lazy_ctrl_i  (se_lazy_ctrl),
    .se_draw_i       (se_draw),
    .dbg_state_o, .dbg_ply_o, .dbg_move_o, .dbg_nodes_o, .dbg_leaf_o, .dbg_flags_o
  );

  mg_array u_array (
    .clk_i, .rst_ni,
    .clear_i         (clear),
    .wr_en_i         (wr_en),
    .wr_sq_i         (wr_sq),
    .wr_pc_i         (wr_pc),
    .board_o         (board),
    .board_fwd_o     (board_fwd),
    .save_i          (brd_save),
    .restore_i       (brd_restore),
    .stm_i           (stm),
    .castling_i      (castling),
    .ep_valid_i      (ep_valid),
    .ep_sq_i         (ep_sq),
    .tgt_en_i        (tgt_en),
    .att_en_i        (att_en),
    .tgt_capt_only_i (tgt_capt_only),
    .chk_only_i      (chk_only),
    .tgt_mask_en_i   (tgt_mask_en),
    .tgt_last_sq_i   (tgt_last_sq),
    .tgt_found_o     (tgt_found),
    .tgt_sq_o        (tgt_sq),
    .tgt_cand_o      (tgt_cand),
    .tsel_sq_i       (tsel_sq),
    .att_mask_en_i   (att_mask_en),
    .att_last_sq_i   (att_last_sq),
    .att_found_o     (att_found),
    .att_sq_o        (att_sq),
    .att_pawn_o      (att_pawn),
    .att_cand_o      (att_cand),
    .tsel_attacks_o  (tsel_attacks),
    .in_check_o      (in_check),
    .king_capture_o  (king_capture),
    .hung_o          (hung),
    .opp_hung_o      (opp_hung),
    .pinned_o        (pinned),
    .king_ring_o     (king_ring),
    .esc_none_o      (esc_none),
    .esc_one_o       (esc_one)
  );

  eval_pst u_pst (
    .clk_i,
    .we_i      (pst_we),
    .waddr_i   (pst_waddr),
    .wdata_i   (pst_wdata),
    .raddr_a_i (pst_raddr_a),
    .raddr_b_i (pst_raddr_b),
    .raddr_c_i (pst_raddr_c),
    .rdata_a_o (pst_rdata_a),
    .rdata_b_o (pst_rdata_b),
    .rdata_c_o (pst_rdata_c)
  );

  eval_phase u_phase (
    .clk_i, .rst_ni,
    .clear_i     (ph_clear),
    .ev_valid_i  (ph_ev_valid),
    .ev_piece_i  (ph_ev_piece),
    .ev_loc_i    (ph_ev_loc),
    .ev_delta_i  (ph_ev_delta),
    .restore_i        (ph_restore),
    .late_restore_i   (brd_restore),
    .restore_counts_i (ph_restore_counts),
    .restore_locs_i   (ph_restore_locs),
    .ram_we_i    (ph_ram_we),
    .ram_addr_i  (addr_i[9:0]),  // PHASE_RAM_BASE is 1024-aligned: the low bits are the index
    .ram_wdata_i (wdata_i[15:0]),
    .ram_rdata_o (ph_ram_rdata),
    .phase_o     (phase),
    .phase_swap_o (phase_swap),
    .counts_o    (counts),
    .locs_o      (locs),
    .counts_fwd_o (counts_fwd),
    .locs_fwd_o  (locs_fwd)
  );

  eval_kpk u_kpk (
    .clk_i, .rst_ni,
    .save_i            (brd_save),
    .restore_i         (brd_restore),
    .enable_i          (kpk_en),
    .stm_fwd_i         (stm_fwd),
    .counts_fwd_i      (counts_fwd),
    .white_pawn_fwd_i  (locs_fwd[5:0]),
    .black_pawn_fwd_i  (locs_fwd[41:36]),
    .white_king_fwd_i  (locs_fwd[35:30]),
    .black_king_fwd_i  (locs_fwd[71:66]),
    .active_o          (kpk_active),
    .win_o             (kpk_win)
  );
  // The endgame logic needs only the pawns' and kings' next locations.
  logic unused_locs_fwd;
  assign unused_locs_fwd = ^{locs_fwd[65:42], locs_fwd[29:6]};

  // The endgame rules and the king-and-pawn array compute from the next clock's registers and
  // register their results (issue 22: their outputs reach the search's decision in one clock).
  // Like the KPK ROM's address, those next values leave out the late undo (TEST's, the slow
  // evaluation's): MAKE keeps the results and that undo brings them back, so the search's decision
  // is not at the head of their paths.
  eval_rules u_rules (
    .clk_i, .rst_ni,
    .save_i            (brd_save),
    .restore_i         (brd_restore),
    .enable_i          (rules_en),
    .counts_fwd_i      (counts_fwd),
    .white_pawn_fwd_i  (locs_fwd[5:0]),
    .black_pawn_fwd_i  (locs_fwd[41:36]),
    .white_king_fwd_i  (locs_fwd[35:30]),
    .black_king_fwd_i  (locs_fwd[71:66]),
    .kqkp_o            (rule_draw[0]),
    .krkp_o            (rule_draw[1]),
    .krpkr_o           (rule_draw[2])
  );

  eval_kpa u_kpa (
    .clk_i, .rst_ni,
    .save_i            (brd_save),
    .restore_i         (brd_restore),
    .board_fwd_i       (board_fwd),
    .stm_fwd_i         (stm_fwd),
    .pieces_w_fwd_i    (counts_fwd[19:4]),
    .pieces_b_fwd_i    (counts_fwd[39:24]),
    .white_king_fwd_i  (locs_fwd[35:30]),
    .black_king_fwd_i  (locs_fwd[71:66]),
    .runner_w_o        (runner_w),
    .runner_b_o        (runner_b),
    .separated_o       (separated)
  );

  // The slow evaluation registers its board maps every clock; from the array's board_fwd (the
  // next board, TEST's undo aside) they are the same maps in every clock it reads them (the board
  // holds still from its start clock, which does not undo), and the fills share their inputs
  // with the array's ray maps.
  eval_slow u_slow (
    .clk_i, .rst_ni,
    .board_i      (board_fwd),
    .stm_i        (stm),
    .castling_i   (castling),
    .phase_i      (phase),
    .phase_swap_i (phase_swap),
    .start_i      (se_start),
    .abort_i      (se_abort),
    .busy_o       (se_busy),
    .finish_o     (se_finish),
    .addr_i       (addr_i),
    .wdata_i      (wdata_i),
    .we_i         (se_we),
    .reg_hit_o    (se_reg_hit),
    .grp_hit_o    (se_grp_hit),
    .tab_hit_o    (se_tab_hit),
    .too_wide_o   (se_too_wide),
    .rdata_o      (se_rdata),
    .tab_rdata_o  (se_tab_rdata),
    .value_o      (se_value),
    .white_o      (se_white),
    .lazy_ctrl_o  (se_lazy_ctrl),
    .draw_o       (se_draw)
  );
endmodule
