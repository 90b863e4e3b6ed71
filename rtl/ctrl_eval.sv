// Fast and lazy evaluation. The fast evaluation is the piece-placement sum (kept incrementally by
// MAKE and unmake, summed over the board by EVAL_INIT), the game phase RAM's material-combination
// bonus and the pawn race, zero when the endgame logic calls the position a draw. Lazy evaluation
// decides "evaluation >= TEST_VALUE" from the fast value plus a low-pass filter's estimate of the
// slow one when they clear the margin, and runs the slow evaluation otherwise (off when pieces are
// few: an unusual position, Micro "Search control"). Model twin: host/chip/model/ctrl_eval.h.
module ctrl_eval (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic               einit_i,        // the controller is in EVAL_INIT's scan
  input  logic [8:0]         host_addr_i,    // the host's table index (PST_BASE is 512-aligned)
  input  logic [255:0]       board_i,  // bit b of square s's piece at [b*64 + s]
  input  logic               stm_i,
  // MAKE and unmake.
  input  logic               make_i,
  input  ctrl_pkg::mk_view_t mk_i,
  input  logic               undo_i,
  input  logic [15:0]        undo_pst_i,     // the placement sum before the move unmade
  // Commands and host writes.
  input  logic               einit_start_i,  // EVAL_INIT starts
  input  logic               lazy_start_i,   // LAZY_EVAL is written
  input  logic               abort_i,        // ABORT of a running command
  input  logic               est_we_i,       // SLOW_EST
  input  logic [15:0]        wdata_i,
  // Piece placement table: three read ports, read synchronously (eval_pst): the addresses of a
  // clock are for the words the next clock uses.
  output logic [8:0]         pst_raddr_a_o,
  output logic [8:0]         pst_raddr_b_o,
  output logic [8:0]         pst_raddr_c_o,
  input  logic [15:0]        pst_rdata_a_i,
  input  logic [15:0]        pst_rdata_b_i,
  input  logic [15:0]        pst_rdata_c_i,
  // Game phase, endgame logic, king-and-pawn array, their bonuses.
  input  logic [15:0]        phase_i,
  input  logic [39:0]        counts_i,
  input  logic               kpk_active_i,
  input  logic               kpk_win_i,
  input  logic [2:0]         rule_draw_i,
  input  logic [2:0]         runner_w_i,
  input  logic [2:0]         runner_b_i,
  input  logic [1:0]         separated_i,
  input  logic [15:0]        runner_bonus_i,
  input  logic [15:0]        sep_bonus_i,
  // Slow evaluation and the lazy evaluation's parameters.
  input  logic [15:0]        test_value_i,
  input  logic               se_finish_i,
  input  logic [15:0]        se_white_i,     // the finishing slow evaluation, white's view
  input  logic [31:0]        se_lazy_ctrl_i, // EVAL_CONTROL word 1
  // Results.
  output logic [15:0]        pst_o,          // placement sum, white's view
  output logic [15:0]        castle_k_o,     // the O-O and O-O-O rook moves' placement deltas
  output logic [15:0]        castle_q_o,
  output logic [15:0]        fast_eval_o,    // side to move's view
  output logic [15:0]        fast_static_o,  // white's view before the endgame logic
  output logic               eg_draw_o,      // the endgame logic calls the position a draw
  output logic               white_race_o,   // the pawn race's winner
  output logic               black_race_o,
  output logic [15:0]        se_total_o,     // fast + slow, side to move's view
  output logic [15:0]        est_o,          // SLOW_EST
  output logic [2:0]         lazy_o,         // LAZY
  output logic               lz_active_o,    // lazy evaluation may decide here
  output logic signed [17:0] lz_sum_o,       // fast value plus the estimate, side to move's view
  output logic [15:0]        lz_margin_o,
  output logic               einit_done_o,   // EVAL_INIT's last clock
  output logic               lazy_done_o,    // LAZY_EVAL decided at once
  output logic               lazy_slow_o,    // LAZY_EVAL needs the slow evaluation: start it
  // EVAL_INIT's game phase events (one square a clock).
  output logic [3:0]         ph_ev_valid_o,
  output logic [15:0]        ph_ev_piece_o,
  output logic [23:0]        ph_ev_loc_o,
  output logic [7:0]         ph_ev_delta_o
);
  logic [15:0] pst_q, pst_d, castle_k_q, castle_k_d, castle_q_q, castle_q_d, est_q, est_d;
  logic [6:0]  scan_q, scan_d;  // EVAL_INIT square counter
  logic [2:0]  lazy_q, lazy_d;
  logic        lazy_pend_q, lazy_pend_d;  // a LAZY_EVAL waits for its slow evaluation

  // ---------------------------------------------------------------- piece placement
  // The table reads synchronously, so every read is addressed a clock ahead:
  // - EVAL_INIT's scan reads square k in scan clock k: its address goes out in the clock before
  //   (the command's clock for square 0), from the next scan count;
  // - MAKE addresses its three words in its own clock and adds them in the next one: until then
  //   the placement sum is the register plus the pending move's delta (pst_now), so the sum every
  //   clock sees is the same as when MAKE added the words itself;
  // - a host read addresses port A in its request clock and takes the word in the response
  //   clock (ctrl_regs).
  logic [3:0]  scan_pc, scan_next_pc;
  logic        scan_next, scan_last;
  logic [15:0] pst_va, pst_vc, mk_delta, pst_now;
  logic        mk_pend_q, mk_stm_q, mk_nocap_q;
  logic [15:0] mk_cdelta_q;
  assign scan_pc      = ctrl_pkg::board_pc(board_i, scan_q[5:0]);
  assign scan_last    = scan_q[6] && scan_q[0];
  // The next clock is a scan clock: EVAL_INIT starts, or its scan goes on.
  assign scan_next    = einit_start_i || (einit_i && !scan_last);
  assign scan_next_pc = ctrl_pkg::board_pc(board_i, scan_d[5:0]);
  always_comb begin
    pst_raddr_a_o = host_addr_i;
    pst_raddr_b_o = ctrl_pkg::pst_index(mk_i.new_pc, mk_i.to);
    pst_raddr_c_o = ctrl_pkg::pst_index(mk_i.cap, mk_i.capsq);
    if (scan_next) begin
      if (scan_d[6]) begin
        // Scan clock 64: the O-O rook (h1 to f1); clock 65: the O-O-O rook (a1 to d1); relative squares.
        pst_raddr_a_o = {3'd4, scan_d[0] ? 6'd0 : 6'd7};
        pst_raddr_b_o = {3'd4, scan_d[0] ? 6'd3 : 6'd5};
      end else begin
        pst_raddr_a_o = ctrl_pkg::pst_index(scan_next_pc, scan_d[5:0]);
      end
    end else if (make_i) begin
      pst_raddr_a_o = ctrl_pkg::pst_index(mk_i.pc, mk_i.from);
    end
  end
  // Empty squares are worth nothing, whatever the table's type-0 words hold.
  assign pst_va   = (einit_i && !scan_q[6] && scan_pc[2:0] == 3'd0) ? 16'd0 : pst_rdata_a_i;
  assign pst_vc   = mk_nocap_q ? 16'd0 : pst_rdata_c_i;
  // White's view: the mover's pieces count positive for white, negative for black.
  assign mk_delta = pst_rdata_b_i - pst_rdata_a_i + pst_vc + mk_cdelta_q;
  assign pst_now  = !mk_pend_q ? pst_q : mk_stm_q ? pst_q - mk_delta : pst_q + mk_delta;

  // What the pending move's delta needs besides the words: who moved, whether it captured, the
  // castling rook's delta.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mk_pend_q   <= 1'b0;
      mk_stm_q    <= 1'b0;
      mk_nocap_q  <= 1'b0;
      mk_cdelta_q <= 16'd0;
    end else begin
      mk_pend_q   <= make_i;
      mk_stm_q    <= stm_i;
      mk_nocap_q  <= mk_i.cap[2:0] == 3'd0;
      mk_cdelta_q <= !mk_i.castle ? 16'd0 : mk_i.kside ? castle_k_q : castle_q_q;
    end
  end

  // ---------------------------------------------------------------- fast evaluation
  // The pawn race: the side whose runner promotes first (the side to move first on a tie), and
  // widely separated passed pawns.
  logic [15:0] race, fast_white;
  assign white_race_o = runner_w_i != 3'd7 &&
                        (runner_b_i == 3'd7 || (stm_i ? runner_w_i < runner_b_i : runner_w_i <= runner_b_i));
  assign black_race_o = runner_b_i != 3'd7 &&
                        (runner_w_i == 3'd7 || (stm_i ? runner_b_i <= runner_w_i : runner_b_i < runner_w_i));
  assign race = (white_race_o ? runner_bonus_i : black_race_o ? 16'd0 - runner_bonus_i : 16'd0) +
                (separated_i[0] ? sep_bonus_i : 16'd0) - (separated_i[1] ? sep_bonus_i : 16'd0);
  // A king-and-pawn ending the ROM calls a draw, or one an endgame rule calls a draw, is worth
  // nothing.
  assign eg_draw_o     = (kpk_active_i && !kpk_win_i) || rule_draw_i != 3'd0;
  assign fast_static_o = pst_now + {{8{phase_i[7]}}, phase_i[7:0]} + race;
  assign fast_white    = eg_draw_o ? 16'd0 : fast_static_o;
  assign fast_eval_o   = stm_i ? 16'd0 - fast_white : fast_white;

  // ---------------------------------------------------------------- lazy evaluation
  logic [3:0]  lz_shift, lz_min;
  logic        lz_on, lz_high, lz_low;
  logic [6:0]  lz_pieces;
  assign lz_margin_o = se_lazy_ctrl_i[15:0];
  assign lz_shift    = se_lazy_ctrl_i[19:16];
  assign lz_on       = se_lazy_ctrl_i[20];
  assign lz_min      = se_lazy_ctrl_i[27:24];
  assign lz_pieces   = 7'(counts_i[7:4]) + 7'(counts_i[11:8]) + 7'(counts_i[15:12]) + 7'(counts_i[19:16]) +
                       7'(counts_i[27:24]) + 7'(counts_i[31:28]) + 7'(counts_i[35:32]) + 7'(counts_i[39:36]);
  assign lz_active_o = lz_on && lz_pieces >= 7'(lz_min);
  assign lz_sum_o    = $signed({{2{fast_eval_o[15]}}, fast_eval_o}) +
                       (stm_i ? -$signed({{2{est_q[15]}}, est_q}) : $signed({{2{est_q[15]}}, est_q}));
  assign lz_high     = lz_sum_o - $signed({2'd0, lz_margin_o}) >= $signed({{2{test_value_i[15]}}, test_value_i});
  assign lz_low      = lz_sum_o + $signed({2'd0, lz_margin_o}) < $signed({{2{test_value_i[15]}}, test_value_i});
  // The filter's step after a slow evaluation, and the full value it gives (side to move's view).
  logic signed [16:0] est_step;
  logic [15:0] se_stm;
  assign est_step   = ($signed({se_white_i[15], se_white_i}) - $signed({est_q[15], est_q})) >>> lz_shift;
  assign se_stm     = stm_i ? 16'd0 - se_white_i : se_white_i;
  assign se_total_o = fast_eval_o + se_stm;
  logic unused_lazy;  // reserved bits of EVAL_CONTROL word 1; the step always fits 16 bits; the
                      // phase word's king-safety half; the kings' counts
  assign unused_lazy = ^{se_lazy_ctrl_i[31:28], se_lazy_ctrl_i[23:21], est_step[16], phase_i[15:8],
                         counts_i[23:20], counts_i[3:0]};

  // ---------------------------------------------------------------- next state
  always_comb begin
    pst_d         = pst_now;
    castle_k_d    = castle_k_q;
    castle_q_d    = castle_q_q;
    scan_d        = scan_q;
    est_d         = est_q;
    lazy_d        = lazy_q;
    lazy_pend_d   = lazy_pend_q;
    einit_done_o  = 1'b0;
    lazy_done_o   = 1'b0;
    lazy_slow_o   = 1'b0;
    ph_ev_valid_o = 4'd0;
    ph_ev_piece_o = 16'd0;
    ph_ev_loc_o   = 24'd0;
    ph_ev_delta_o = 8'd0;
    if (se_finish_i) begin
      est_d = est_q + est_step[15:0];
      if (lazy_pend_q) begin
        lazy_d      = {1'b1, $signed(se_total_o) >= $signed(test_value_i), 1'b0};
        lazy_pend_d = 1'b0;
      end
    end
    if (einit_i) begin
      scan_d = scan_q + 7'd1;
      if (!scan_q[6]) begin
        pst_d         = scan_pc[3] ? pst_now - pst_va : pst_now + pst_va;
        ph_ev_valid_o = 4'b0001;
        ph_ev_piece_o = {12'd0, scan_pc};
        ph_ev_loc_o   = {18'd0, scan_q[5:0]};
        ph_ev_delta_o = 8'b0000_0001;
      end else if (!scan_q[0]) begin
        castle_k_d = pst_rdata_b_i - pst_va;
      end else begin
        castle_q_d   = pst_rdata_b_i - pst_va;
        einit_done_o = 1'b1;
      end
    end
    if (undo_i) pst_d = undo_pst_i;
    if (abort_i) lazy_pend_d = 1'b0;
    if (est_we_i) est_d = wdata_i;
    if (einit_start_i) begin
      pst_d  = 16'd0;
      scan_d = 7'd0;
    end
    if (lazy_start_i) begin
      if (eg_draw_o) begin
        lazy_d      = {1'b0, test_value_i[15] || test_value_i == 16'd0, 1'b1};  // a draw: 0 >= test value?
        lazy_done_o = 1'b1;
      end else if (lz_active_o && (lz_high || lz_low)) begin
        lazy_d      = {1'b0, lz_high, 1'b1};
        lazy_done_o = 1'b1;
      end else begin
        lazy_slow_o = 1'b1;
        lazy_pend_d = 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pst_q       <= 16'd0;
      castle_k_q  <= 16'd0;
      castle_q_q  <= 16'd0;
      scan_q      <= 7'd0;
      est_q       <= 16'd0;
      lazy_q      <= 3'd0;
      lazy_pend_q <= 1'b0;
    end else begin
      pst_q       <= pst_d;
      castle_k_q  <= castle_k_d;
      castle_q_q  <= castle_q_d;
      scan_q      <= scan_d;
      est_q       <= est_d;
      lazy_q      <= lazy_d;
      lazy_pend_q <= lazy_pend_d;
    end
  end

  assign pst_o      = pst_now;
  assign castle_k_o = castle_k_q;
  assign castle_q_o = castle_q_q;
  assign est_o      = est_q;
  assign lazy_o     = lazy_q;
endmodule
