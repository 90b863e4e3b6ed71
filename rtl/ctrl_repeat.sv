// The search's repetition logic (AIJ 4.3, IEEE Micro "Smart move stack"), beside ctrl_search: the
// repetition detector (rep_detect) with which of its entries count at the node (a repetition of
// the child in TEST, of the host's position otherwise), "no progress" (a piece of the side that
// just moved displaced from a position of the search path three or more plies up), the draw's
// tie-breaker, and the repeating move a node below the root tries first (SEARCH_CTRL.REP_BOUND).
// Model twin: host/chip/model/ctrl_search.h.
module ctrl_repeat (
  input  logic                   clk_i,
  input  logic                   rst_ni,       // the assertions' reset only
  input  chip_pkg::search_ctrl_t search_ctrl_i,
  input  chip_pkg::ctrl_state_e  state_i,
  input  logic                   searching_i,  // the command is SEARCH
  input  logic [5:0]             ply_i,        // the node being expanded is at ply p
  input  logic [5:0]             base_i,       // the search's root ply
  input  logic [5:0]             host_ply_i,   // moves made by the host (REP_STATUS's position)
  input  logic [5:0]             rel_c,        // the child's plies below the root
  input  logic                   odd_c,        // ... odd: the other side's view
  input  logic                   last_null_i,  // the stack's move at p is a null move
  input  logic                   rtried_i,     // p's repeating move was tried
  input  ctrl_pkg::pos_t         pos_i,
  input  logic [255:0]           board_i,      // bit b of square s's piece at [b*64 + s]
  input  logic [255:0]           board_fwd_i,  // the next board but for the late undo (mg_array)
  input  logic                   restore_i,    // the late undo (TEST, SEVAL): MAKE's board comes back
  output logic                   rep_hit_o,    // a repetition (TEST: of the child; else REP_STATUS)
  output logic                   rep_near_o,   // a displaced piece of the side to move (REP_STATUS)
  output logic                   np_hit_o,     // no progress (TEST)
  output logic signed [17:0]     rep_tie_o,    // a repetition draw's tie-breaker, the child's view
  output logic                   rm_try_o,     // p's repeating move is tried first (GEN)
  output logic [15:0]            rm_move_o
);
  logic [4:0] pi;
  assign pi = ply_i[4:0];
  // Entries below the current position's stack index; the same side to move for a repetition,
  // the other for one displaced piece.
  logic [31:0] rep_equal, rep_two, rep_valid, rep_same, rep_white, rep_black, np_valid;
  logic [5:0]  rep_idx;
  assign rep_idx = state_i == chip_pkg::S_TEST ? ply_i + 6'd1 : host_ply_i;
  always_comb begin
    for (int k = 0; k < 32; k++) begin
      rep_valid[k] = 6'(k) < rep_idx;
      rep_same[k]  = (rep_idx[0] == k[0]);
      np_valid[k]  = 6'(k) >= base_i && 7'(k) + 7'd3 <= 7'(rep_idx);
    end
  end
  // "No progress": one piece of the side that just moved displaced from a position of the search
  // path three or more plies up (the other side to move there): it could have moved there at once.
  assign np_hit_o = |(rep_two & np_valid & ~rep_same &
                    (pos_i.stm ? rep_white & ~rep_black : rep_black & ~rep_white));
  assign rep_hit_o  = |(rep_equal & rep_valid & rep_same);
  assign rep_near_o = |(rep_two & rep_valid & ~rep_same);
  // The tie-breaker of a repetition draw, "moves until repetition" (AIJ 4.3), for the child at
  // rel_c: B - rel_c from the root side's view (B = SEARCH_CTRL.REP_BASE, the host's count at the
  // root, so that chip and host count from the same place), positive when it strives for the draw
  // (an earlier repetition is better), negative when it avoids it (a later one is less bad);
  // negated at odd plies like every value. 0 with SEARCH_CTRL.REP_TIE clear.
  logic signed [17:0] rep_tie_mag;
  assign rep_tie_mag = 18'(search_ctrl_i.rep_base) - 18'(rel_c);
  assign rep_tie_o   = !search_ctrl_i.rep_tie ? 18'sd0 : (search_ctrl_i.rep_strive != odd_c) ? rep_tie_mag : -rep_tie_mag;
  // The repeating move (SEARCH_CTRL.REP_BOUND): at the node being expanded (stack index p), an entry
  // below it with the other side to move from which exactly one piece of the side to move is
  // displaced (two squares differ: one holds that piece now, the other is empty); the lowest such
  // entry is selected and the move puts the piece back on the empty square.
  logic [31:0] rep_empty, rm_cand, rm_sel, rm_below;
  logic [63:0] rm_diff;
  logic [5:0]  rm_from, rm_to;
  // Read only in GEN (rm_try_o, rm_move_o): computed there, zero otherwise. The repeating move is
  // tried at a node's first GEN; the detector's compare is registered (rep_detect), so the choice
  // does not start behind the compare.
  logic rm_en;
  assign rm_en = state_i == chip_pkg::S_GEN;
  always_comb begin
    rm_cand = '0;
    if (rm_en) begin
      for (int k = 0; k < 32; k++) begin
        rm_cand[k] = rep_two[k] && 6'(k) < ply_i && (ply_i[0] != k[0]) && rep_empty[k] &&
                     (pos_i.stm ? rep_black[k] && !rep_white[k] : rep_white[k] && !rep_black[k]);
      end
    end
  end
  // The lowest candidate, one-hot: each entry with no candidate below it (a prefix OR in five
  // steps; rm_cand & -rm_cand was a 32-cell carry chain).
  always_comb begin
    rm_below = rm_cand << 1;
    rm_below = rm_below | (rm_below << 1);
    rm_below = rm_below | (rm_below << 2);
    rm_below = rm_below | (rm_below << 4);
    rm_below = rm_below | (rm_below << 8);
    rm_below = rm_below | (rm_below << 16);
  end
  assign rm_sel = rm_cand & ~rm_below;
  logic [63:0] rm_occ;
  assign rm_occ = board_i[0 +: 64] | board_i[64 +: 64] | board_i[128 +: 64];
  always_comb begin
    rm_from = 6'd0;
    rm_to   = 6'd0;
    if (rm_en) begin
      for (int s = 0; s < 64; s++) begin
        if (rm_diff[s] && rm_occ[s])  rm_from = rm_from | 6'(s);
        if (rm_diff[s] && !rm_occ[s]) rm_to   = rm_to | 6'(s);
      end
    end
  end
  // Tried once per node, at its first GEN, below the root, in a search with the detector on.
  assign rm_try_o  = searching_i && search_ctrl_i.repetition && search_ctrl_i.rep_bound && !last_null_i && !rtried_i &&
                     ply_i != base_i &&
                     rm_cand != 32'd0;
  assign rm_move_o = {4'b1000, rm_to, rm_from};
  rep_detect u_rep (
    .clk_i,
    .rst_ni,
    .we_i        (state_i == chip_pkg::S_MAKE),
    .waddr_i     (pi),
    .board_i,
    .board_fwd_i,
    .save_i      (state_i == chip_pkg::S_MAKE),
    .restore_i,
    .castling_i  (pos_i.castling),
    .ep_i        ({pos_i.ep_valid, pos_i.ep_sq}),
    .equal_o     (rep_equal),
    .two_o       (rep_two),
    .white_o     (rep_white),
    .black_o     (rep_black),
    .empty_o     (rep_empty),
    .sel_en_i    (rm_en),
    .sel_i       (rm_sel),
    .sel_diff_o  (rm_diff)
  );

`ifdef VERILATOR
  // Assertions (verilated with --assert in the regression's second configuration): the repeating
  // move's entry select is one-hot (or none).
  a_rm_sel_onehot: assert property (@(posedge clk_i) disable iff (!rst_ni) $onehot0(rm_sel));
`endif
  logic unused_fields;  // the other parameters and the move clocks are ctrl_search's
  assign unused_fields = ^{search_ctrl_i, pos_i.half, pos_i.full};
endmodule
