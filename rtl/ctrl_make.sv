// Make and unmake, and the position registers they change (side to move, castling rights, en
// passant, the move clocks). MAKE writes the move into the array (up to four squares: from, to,
// the captured pawn en passant or the castling rook's two squares), pushes what unmaking needs,
// and reports the game phase events; unmake reverses it from the stack entry (the game phase
// registers come back from the entry too: chip_ctrl's ph_restore_o). The host writes
// the registers and single squares directly; a JOB loads its staged board four squares a clock
// and its position state (JOB_POS) at once. Model twin: host/chip/model/ctrl_make.h.
module ctrl_make (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [255:0]         board_i,        // bit b of square s's piece at [b*64 + s]
  // MAKE: the move being made, this clock.
  input  logic                 make_i,
  input  logic [15:0]          mv_i,
  // Unmake of the stack entry at the current ply, this clock: the position registers (undo_i) and
  // the array's squares (undo_board_i: not TEST's undo, whose board the array restores itself,
  // mg_array's restore_i).
  input  logic                 undo_i,
  input  logic                 undo_board_i,
  input  logic [15:0]          undo_move_i,
  input  ctrl_pkg::stk_entry_t undo_entry_i,
  // CLEAR and the host's writes (only while idle).
  input  logic                 clear_i,
  input  logic                 stm_we_i,
  input  logic                 castling_we_i,
  input  logic                 ep_we_i,
  input  logic                 half_we_i,
  input  logic                 full_we_i,
  input  logic                 board_we_i,
  input  logic [5:0]           board_sq_i,
  input  logic [15:0]          wdata_i,
  // A JOB's load (only while the controller is idle): four squares from load_sq_i on, their
  // codes at load_pc_i[4i +: 4]; the position state.
  input  logic                 load_we_i,
  input  logic [5:0]           load_sq_i,
  input  logic [15:0]          load_pc_i,
  input  logic                 job_pos_we_i,
  input  chip_pkg::job_pos_t   job_pos_i,
  output ctrl_pkg::pos_t       pos_o,
  // The side to move in the next clock but for the late undo (TEST's and the slow evaluation's,
  // which undo_board_i leaves out): the next-position blocks' input (the KPK ROM's address).
  output logic                 stm_fwd_o,
  // The stack entry MAKE pushes (its pst and qc fields are 0: the evaluation and the search
  // fill them in).
  output ctrl_pkg::stk_entry_t push_o,
  output ctrl_pkg::mk_view_t   mk_o,
  // Array writes: up to four squares a clock.
  output logic [3:0]           wr_en_o,
  output logic [23:0]          wr_sq_o,
  output logic [15:0]          wr_pc_o,
  // Game phase events of the move made or unmade (eval_phase).
  output logic [3:0]           ph_ev_valid_o,
  output logic [15:0]          ph_ev_piece_o,
  output logic [23:0]          ph_ev_loc_o,
  output logic [7:0]           ph_ev_delta_o
);
  ctrl_pkg::pos_t pos_q, pos_d;

  // ---------------------------------------------------------------- make
  logic [5:0] base_sq;
  assign base_sq = pos_q.stm ? 6'd56 : 6'd0;
  logic [5:0] mk_from, mk_to, mk_rook_from, mk_rook_to, mk_capsq;
  logic [3:0] mk_pc, mk_victim, mk_cap, mk_new;
  logic       mk_pawn, mk_ep, mk_castle, mk_double;
  assign mk_from      = mv_i[5:0];
  assign mk_to        = mv_i[11:6];
  assign mk_pc        = ctrl_pkg::board_pc(board_i, mk_from);
  assign mk_victim    = ctrl_pkg::board_pc(board_i, mk_to);
  assign mk_pawn      = (mk_pc[2:0] == 3'd1);
  assign mk_ep        = mk_pawn && pos_q.ep_valid && (mk_to == pos_q.ep_sq);
  assign mk_castle    = (mk_pc[2:0] == 3'd6) && (mk_from == base_sq + 6'd4) &&
                        (mk_to == base_sq + 6'd6 || mk_to == base_sq + 6'd2);
  assign mk_cap       = mk_ep ? {!pos_q.stm, 3'd1} : mk_victim;
  assign mk_new       = mv_i[14] ? {pos_q.stm, ctrl_pkg::promo_type(mv_i[13:12])} : mk_pc;
  assign mk_rook_from = (mk_to == base_sq + 6'd6) ? base_sq + 6'd7 : base_sq;
  assign mk_rook_to   = (mk_to == base_sq + 6'd6) ? base_sq + 6'd5 : base_sq + 6'd3;
  assign mk_capsq     = mk_ep ? (mk_to ^ 6'd8) : mk_to;
  assign mk_double    = mk_pawn && ((mk_from ^ mk_to) == 6'd16);

  always_comb begin
    mk_o        = '0;
    mk_o.pc     = mk_pc;
    mk_o.new_pc = mk_new;
    mk_o.cap    = mk_cap;
    mk_o.from   = mk_from;
    mk_o.to     = mk_to;
    mk_o.capsq  = mk_capsq;
    mk_o.castle = mk_castle;
    mk_o.kside  = mk_to == base_sq + 6'd6;
    push_o      = '0;
    push_o.cap  = mk_cap;
    push_o.cast = pos_q.castling;
    push_o.ep   = {pos_q.ep_valid, pos_q.ep_sq};
    push_o.half = pos_q.half;
    push_o.flag = {mk_castle, mk_ep};
  end

  // ---------------------------------------------------------------- unmake
  // The stack entry at the current ply; the side to move is the mover's opponent.
  logic       um_promo, um_mover, um_ep, um_castle;
  logic [5:0] um_from, um_to, um_rook_from, um_rook_to, um_base;
  logic [3:0] um_cap, um_orig;
  assign um_promo     = undo_move_i[14];
  assign um_from      = undo_move_i[5:0];
  assign um_to        = undo_move_i[11:6];
  assign um_cap       = undo_entry_i.cap;
  assign um_ep        = undo_entry_i.flag[0];
  assign um_castle    = undo_entry_i.flag[1];
  assign um_mover     = !pos_q.stm;
  assign um_base      = um_mover ? 6'd56 : 6'd0;
  assign um_orig      = um_promo ? {um_mover, 3'd1} : ctrl_pkg::board_pc(board_i, um_to);
  assign um_rook_from = (um_to == um_base + 6'd6) ? um_base + 6'd7 : um_base;
  assign um_rook_to   = (um_to == um_base + 6'd6) ? um_base + 6'd5 : um_base + 6'd3;

  // ---------------------------------------------------------------- next position
  always_comb begin
    pos_d         = pos_q;
    wr_en_o       = 4'd0;
    wr_sq_o       = 24'd0;
    wr_pc_o       = 16'd0;
    ph_ev_valid_o = 4'd0;
    ph_ev_piece_o = 16'd0;
    ph_ev_loc_o   = 24'd0;
    ph_ev_delta_o = 8'd0;
    if (make_i) begin
      wr_en_o        = {mk_castle, mk_ep || mk_castle, 2'b11};
      wr_sq_o        = {mk_rook_to, mk_ep ? (mk_to ^ 6'd8) : mk_rook_from, mk_to, mk_from};
      wr_pc_o        = {pos_q.stm, 3'd4, 4'd0, mk_new, 4'd0};
      pos_d.stm      = !pos_q.stm;
      pos_d.castling = pos_q.castling & ~(ctrl_pkg::castle_mask(mk_from) | ctrl_pkg::castle_mask(mk_to));
      pos_d.ep_valid = mk_double;
      pos_d.ep_sq    = mk_double ? 6'((7'(mk_from) + 7'(mk_to)) >> 1) : 6'd0;
      pos_d.half     = (mk_pawn || mk_cap != 4'd0) ? 16'd0 : pos_q.half + 16'd1;
      pos_d.full     = pos_q.full + {15'd0, pos_q.stm};
      // Game phase: the mover leaves from and lands on to (a promotion changes the counts), the
      // captured piece goes, the castling rook moves.
      ph_ev_valid_o  = {mk_castle, mk_cap[2:0] != 3'd0, 2'b11};
      ph_ev_piece_o  = {pos_q.stm, 3'd4, mk_cap, mk_new, mk_pc};
      ph_ev_loc_o    = {mk_rook_from ^ mk_rook_to, mk_capsq, mk_to, mk_from};
      ph_ev_delta_o  = {2'b00, 2'b11, mv_i[14] ? 2'b01 : 2'b00, mv_i[14] ? 2'b11 : 2'b00};
    end
    if (undo_board_i) begin
      wr_en_o        = {um_castle, um_ep || um_castle, 2'b11};
      wr_sq_o        = {um_rook_from, um_ep ? (um_to ^ 6'd8) : um_rook_to, um_to, um_from};
      wr_pc_o        = {um_mover, 3'd4, um_ep ? um_cap : 4'd0, um_ep ? 4'd0 : um_cap, um_orig};
    end
    if (undo_i) begin
      pos_d.stm      = um_mover;
      pos_d.castling = undo_entry_i.cast;
      pos_d.ep_valid = undo_entry_i.ep[6];
      pos_d.ep_sq    = undo_entry_i.ep[5:0];
      pos_d.half     = undo_entry_i.half;
      pos_d.full     = pos_q.full - {15'd0, um_mover};
      // No game phase events: eval_phase takes its registers back from the stack entry.
    end
    if (board_we_i) begin
      wr_en_o = 4'b0001;
      wr_sq_o = {18'd0, board_sq_i};
      wr_pc_o = {12'd0, wdata_i[3:0]};
    end
    if (load_we_i) begin
      wr_en_o = 4'b1111;
      wr_sq_o = {load_sq_i + 6'd3, load_sq_i + 6'd2, load_sq_i + 6'd1, load_sq_i};
      wr_pc_o = load_pc_i;
    end
    if (job_pos_we_i) begin
      pos_d.stm      = job_pos_i.black;
      pos_d.castling = job_pos_i.castling;
      pos_d.ep_valid = job_pos_i.ep_valid;
      pos_d.ep_sq    = job_pos_i.ep_square;
      pos_d.half     = job_pos_i.halfmove;
    end
    if (stm_we_i) pos_d.stm = wdata_i[0];
    if (castling_we_i) pos_d.castling = wdata_i[3:0];
    if (ep_we_i) begin
      pos_d.ep_valid = wdata_i[6];
      pos_d.ep_sq    = wdata_i[5:0];
    end
    if (half_we_i) pos_d.half = wdata_i[15:0];
    if (full_we_i) pos_d.full = wdata_i[15:0];
    if (clear_i) begin
      pos_d      = '0;
      pos_d.full = 16'd1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pos_q      <= '0;
      pos_q.full <= 16'd1;
    end else begin
      pos_q <= pos_d;
    end
  end

  assign pos_o      = pos_q;
  // pos_d.stm without the late undo: the same writes in the same order, UNMAKE's undo alone.
  always_comb begin
    stm_fwd_o = pos_q.stm;
    if (make_i) stm_fwd_o = !pos_q.stm;
    if (undo_board_i) stm_fwd_o = um_mover;
    if (job_pos_we_i) stm_fwd_o = job_pos_i.black;
    if (stm_we_i) stm_fwd_o = wdata_i[0];
    if (clear_i) stm_fwd_o = 1'b0;
  end
`ifdef VERILATOR
  // Assertion (the second configuration): without the late undo the side to move is the next one.
  a_stm_fwd: assert property (@(posedge clk_i) disable iff (!rst_ni)
      undo_i == undo_board_i |-> stm_fwd_o == pos_d.stm);
`endif
  logic unused_make;  // the move words' valid bits; the entry's parts the evaluation and search own
  assign unused_make = ^{mv_i[15], undo_move_i[15], undo_move_i[13:12], undo_entry_i.pst, undo_entry_i.qc, undo_entry_i.chk,
                         undo_entry_i.counts, undo_entry_i.locs, job_pos_i.reserved_12};
endmodule
