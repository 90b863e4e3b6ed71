// The slow evaluation (IEEE Micro, "Evaluation function"; AIJ section 7 and Tables 4 and 5): an
// 8x1 array that scans the board one file a clock. Each file goes through four stages, one clock
// each: the cells of the column form the table indices (es_file for each side, the square
// control levels for the eight mobility tables) into registers, the table RAMs take them as read
// addresses (synchronous reads: block RAM on an FPGA), the RAMs' words are turned into the file's
// values, and the adder tree adds the file's values into the group accumulators (es_tactics gives each file's PINNED index;
// its group-10 value, like the registers' group 5, depends on the board alone and is registered
// every clock, so the board's attack maps do not reach the sum; the maps themselves are registers,
// formed from the board in the start clock and every busy clock). Eight files and three more clocks
// to drain the pipe, one to scale the groups and sum them into a register, and one in which that
// sum is the result: SLOW_EVAL_CLOCKS (13) in all. The last clock's sum is a register so that
// the controller's use of it (lazy evaluation's window test, the search's decision, the array's
// next board) does not start behind the evaluation's adders (issue 22: logic depth).
//
// It also holds the host-writable evaluation registers (AIJ Table 4, 54 words) and tables
// (Table 5, 40 RAMs) at their paper sizes and widths. Reference: host/chip/slow_eval.cpp, which
// ChipModel runs in the command's last clock; the two must agree bit for bit.
module eval_slow (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic [255:0] board_i,       // bit b of square s's piece at [b*64 + s]; stable from the start clock while busy
  input  logic         stm_i,
  input  logic [3:0]   castling_i,    // castling rights (development: is the king still able to castle)
  input  logic [15:0]  phase_i,       // game phase RAM word: [11:8] white king's relevance, [15:12] pawn scale
  input  logic [15:0]  phase_swap_i,  // the word with the signatures swapped: [11:8] black king's relevance
  input  logic         start_i,       // SLOW_EVAL command accepted
  input  logic         abort_i,
  output logic         busy_o,
  output logic         finish_o,      // the last clock: the result is written at its end
  // Host port: decode of the register and table addresses, write (accepted by the controller), read.
  input  logic [16:0]  addr_i,
  input  logic [31:0]  wdata_i,
  input  logic         we_i,
  output logic         reg_hit_o,
  output logic         grp_hit_o,     // the SE_GROUP block (read-only)
  output logic         tab_hit_o,
  output logic         too_wide_o,    // wdata has bits above the addressed word's width
  output logic [31:0]  rdata_o,       // registers and groups, in the request's clock
  output logic [31:0]  tab_rdata_o,   // tables, in the clock after the request (synchronous RAMs)
  output logic [15:0]  value_o,       // SLOW_EVAL: side to move's view
  output logic [15:0]  white_o,       // in the finishing clock: the new value, white's view (a register)
  output logic [31:0]  lazy_ctrl_o,   // EVAL_CONTROL word 1 (lazy evaluation's parameters)
  output logic [15:0]  draw_o         // DRAW_SCORE: CONTEMPT for the material, white's view (latched at the end)
);
  localparam int NumRegs = chip_pkg::EVAL_REGS_COUNT;
  localparam int NumTabs = chip_pkg::EVAL_TABLES_COUNT;
  localparam int NumGroups = 14;  // feature groups (docs/evaluation.md), read in the SE_GROUP block

  // ---------------------------------------------------------------- host decode
  logic [16:0] reg_off, tab_off;
  logic [5:0]  ridx;
  logic [7:0]  tsel;
  logic [8:0]  tidx;
  logic [5:0]  width;
  assign reg_off   = addr_i - chip_pkg::EVAL_REGS_BASE;
  assign tab_off   = addr_i - chip_pkg::EVAL_TABLES_BASE;
  assign reg_hit_o = addr_i >= chip_pkg::EVAL_REGS_BASE && reg_off < 17'(NumRegs);
  assign tsel      = tab_off[16:9];
  assign tidx      = tab_off[8:0];
  assign ridx      = reg_hit_o ? reg_off[5:0] : 6'd0;
  logic [5:0] tab_hit_sel;
  assign tab_hit_sel = (tsel < 8'(NumTabs)) ? tsel[5:0] : 6'd0;
  assign tab_hit_o = addr_i >= chip_pkg::EVAL_TABLES_BASE && tsel < 8'(NumTabs) &&
                     tidx < es_pkg::et_entries(tab_hit_sel);
  assign width       = reg_hit_o ? es_pkg::er_bits(ridx) : es_pkg::et_bits(tab_hit_sel);
  // A width of 32 reads as 0 in six bits: nothing is too wide for it.
  assign too_wide_o  = (width != 6'd0) && ((wdata_i >> width) != 32'd0);

  // ---------------------------------------------------------------- registers (Table 4)
  logic [31:0] er_q [NumRegs];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int i = 0; i < NumRegs; i++) er_q[i] <= 32'd0;
    end else if (we_i && reg_hit_o) begin
      er_q[ridx] <= wdata_i;
    end
  end

  logic [15:0] group_q [NumGroups];  // white's view

  // ---------------------------------------------------------------- scan control
  logic       busy_q, busy_d;
  logic [3:0] cnt_q, cnt_d;
  assign busy_o   = busy_q;
  assign finish_o = busy_q && cnt_q == 4'(chip_pkg::SLOW_EVAL_CLOCKS - 1);
  logic sum_clock;  // the clock before the last: the groups are scaled and summed into sum_q
  assign sum_clock = busy_q && cnt_q == 4'(chip_pkg::SLOW_EVAL_CLOCKS - 2);

  // ---------------------------------------------------------------- the board
  logic [63:0]  occupied, occupied_d;
  logic [767:0] pieces, pieces_d;
  logic [639:0] attacks, attacks_d;
  logic [127:0] passed, passed_d;
  // The board's maps feed only the scan and the finishing clock's sum. They are registered (issue
  // 22: the board's occluded fills followed by the scan's indices or the tactics were two of the
  // chip's slowest paths), formed from the board every clock: in the start clock and while busy no
  // one writes the board (the search starts a slow evaluation instead of unmaking, and the
  // controller refuses board writes while busy), so the registers hold the maps of the board the
  // evaluation sees. Not gated by the start: that is the search's decision, late in its clock,
  // and gating the fills' inputs with it put the fills behind the decision. Every reader of the
  // maps is gated by busy_q or reads them only in busy clocks.
  es_board u_board (
    .en_i       (1'b1),
    .board_i    (board_i),
    .occupied_o (occupied_d),
    .pieces_o   (pieces_d),
    .attacks_o  (attacks_d),
    .passed_o   (passed_d)
  );
  always_ff @(posedge clk_i) begin  // a datapath, valid in every clock that reads it: no reset
    occupied <= occupied_d;
    pieces   <= pieces_d;
    attacks  <= attacks_d;
    passed   <= passed_d;
  end
  logic [63:0] any_att [2];
  assign any_att[0] = attacks[0 +: 64] | attacks[64 +: 64] | attacks[128 +: 64] | attacks[192 +: 64] |
                      attacks[256 +: 64];
  assign any_att[1] = attacks[320 +: 64] | attacks[384 +: 64] | attacks[448 +: 64] | attacks[512 +: 64] |
                      attacks[576 +: 64];

  // King files (the lowest king of each colour), and whether the kings are on opposite wings.
  logic [2:0] king_file [2];
  logic       king_there [2];
  always_comb begin
    for (int c = 0; c < 2; c++) begin
      king_file[c]  = 3'd0;
      king_there[c] = 1'b0;
      // No king without the board's maps (es_board's enable): nothing to look for then.
      if (busy_q) begin
        for (int s = 63; s >= 0; s--) begin
          if (pieces[(c*6 + 5)*64 + s]) begin
            king_file[c]  = 3'(s % 8);
            king_there[c] = 1'b1;
          end
        end
      end
    end
  end
  logic opposite;
  assign opposite = king_there[0] && king_there[1] && (king_file[0][2] != king_file[1][2]);

  function automatic logic near_king(input logic [2:0] f, input logic [2:0] kf);
    near_king = (f == kf) || (f == kf + 3'd1 && kf != 3'd7) || (f + 3'd1 == kf && f != 3'd7) ||
                (f == 3'd0 && kf == 3'd2) || (f == 3'd7 && kf == 3'd5);
  endfunction

  // ---------------------------------------------------------------- stage 1: indices of file cnt
  logic [2:0] file;
  assign file = cnt_q[2:0];
  logic [7:0] rook_idx [2];
  logic       lever [2];
  logic       mp_valid [2], pp_valid [2];
  logic [6:0] mp_idx [2];
  logic [8:0] pp_idx [2];
  es_file #(.Colour(1'b0)) u_file_w (
    .en_i (busy_q), .file_i (file), .occupied_i (occupied), .pieces_i (pieces), .attacks_i (attacks), .passed_i (passed),
    .rook_idx_o (rook_idx[0]), .lever_o (lever[0]), .mp_valid_o (mp_valid[0]), .mp_idx_o (mp_idx[0]),
    .pp_valid_o (pp_valid[0]), .pp_idx_o (pp_idx[0])
  );
  es_file #(.Colour(1'b1)) u_file_b (
    .en_i (busy_q), .file_i (file), .occupied_i (occupied), .pieces_i (pieces), .attacks_i (attacks), .passed_i (passed),
    .rook_idx_o (rook_idx[1]), .lever_o (lever[1]), .mp_valid_o (mp_valid[1]), .mp_idx_o (mp_idx[1]),
    .pp_valid_o (pp_valid[1]), .pp_idx_o (pp_idx[1])
  );

  // Bishops and minor pieces (groups 11 and 12).
  logic       mow_v [2], bis_v [2], sb_v [2], ob_v [2], bb_v [2], tb_v [2];
  logic [7:0] mow_i [2], bb_i [2];
  logic [6:0] bis0_i [2], bis1_i [2], ob_i [2], tb_i [2];
  logic [8:0] sb_i [2];
  es_piece #(.Colour(1'b0)) u_piece_w (
    .en_i (busy_q), .file_i (file), .occupied_i (occupied), .pieces_i (pieces), .attacks_i (attacks),
    .mow_valid_o (mow_v[0]), .mow_idx_o (mow_i[0]), .bis_valid_o (bis_v[0]), .bis_idx0_o (bis0_i[0]),
    .bis_idx1_o (bis1_i[0]), .sb_valid_o (sb_v[0]), .sb_idx_o (sb_i[0]), .ob_valid_o (ob_v[0]),
    .ob_idx_o (ob_i[0]), .bb_valid_o (bb_v[0]), .bb_idx_o (bb_i[0]), .tb_valid_o (tb_v[0]), .tb_idx_o (tb_i[0])
  );
  es_piece #(.Colour(1'b1)) u_piece_b (
    .en_i (busy_q), .file_i (file), .occupied_i (occupied), .pieces_i (pieces), .attacks_i (attacks),
    .mow_valid_o (mow_v[1]), .mow_idx_o (mow_i[1]), .bis_valid_o (bis_v[1]), .bis_idx0_o (bis0_i[1]),
    .bis_idx1_o (bis1_i[1]), .sb_valid_o (sb_v[1]), .sb_idx_o (sb_i[1]), .ob_valid_o (ob_v[1]),
    .ob_idx_o (ob_i[1]), .bb_valid_o (bb_v[1]), .bb_idx_o (bb_i[1]), .tb_valid_o (tb_v[1]), .tb_idx_o (tb_i[1])
  );

  // Pins (group 9: the file's PINNED lookup per pinning side) and tactics (group 10).
  logic [207:0] tac_regs;
  logic [1:0]   pin_valid;
  logic [13:0]  pin_idx;
  logic [15:0]  tactics_value;
  always_comb begin
    for (int i = 0; i < 26; i++) tac_regs[i*8 +: 8] = er_q[chip_pkg::ER_MPIN_HUNG + i][7:0];
  end
  // The tactics' pin maps are registered: their PINNED index is the clock before's file (s0_file_q),
  // read straight into the table's address, a clock after the other tables' stage 0.
  logic [2:0] s0_file_q;
  always_ff @(posedge clk_i) s0_file_q <= file;
  es_tactics u_tactics (
    .clk_i, .en_i (busy_q), .file_i (s0_file_q), .occupied_i (occupied), .pieces_i (pieces), .attacks_i (attacks), .regs_i (tac_regs),
    .pin_valid_o (pin_valid), .pin_idx_o (pin_idx), .value_o (tactics_value)
  );
  // Pawn family (es_pawns): structure of the rearmost pawn, shelter and storm next to the own
  // king, rook behind a passed pawn.
  logic       ps_valid [2], kz_valid [2], rbp [2];
  logic [7:0] ps_idx [2];
  logic [8:0] sh_idx [2];
  logic [6:0] st_idx [2];
  for (genvar c = 0; c < 2; c++) begin : g_pawns
    es_pawns #(.Colour(c == 1)) u_pawns (
      .en_i (busy_q), .file_i (file), .occupied_i (occupied), .pieces_i (pieces), .attacks_i (attacks), .passed_i (passed),
      .ps_valid_o (ps_valid[c]), .ps_idx_o (ps_idx[c]), .ks_valid_o (kz_valid[c]), .sh_idx_o (sh_idx[c]),
      .st_idx_o (st_idx[c]), .rbp_o (rbp[c])
    );
  end

  // Square control levels of the column: 8 + white's control - black's; a colour's control is
  // 2 for a pawn attack and 1 for each other attacker class.
  logic [7:0] att_col [10];  // the column of each attack map (colour * 5 + class)
  always_comb begin
    for (int k = 0; k < 10; k++) begin
      logic [63:0] map;
      map = attacks[k*64 +: 64];
      for (int r = 0; r < 8; r++) att_col[k][r] = map[{r[2:0], file}];
    end
  end
  logic [3:0] level [8];
  always_comb begin
    for (int r = 0; r < 8; r++) begin
      logic [3:0] cw, cb;
      cw = {2'd0, att_col[0][r], 1'b0} + {3'd0, att_col[1][r]} + {3'd0, att_col[2][r]} +
           {3'd0, att_col[3][r]} + {3'd0, att_col[4][r]};
      cb = {2'd0, att_col[5][r], 1'b0} + {3'd0, att_col[6][r]} + {3'd0, att_col[7][r]} +
           {3'd0, att_col[8][r]} + {3'd0, att_col[9][r]};
      level[r] = 4'd8 + cw - cb;
    end
  end

  // The one TRAPPED_BISHOP table: white's pattern in the first file step, black's in the second.
  logic [6:0] tb_idx;
  assign tb_idx = (file == 3'd1) ? tb_i[1] : tb_i[0];

  // Stage 0's registers: the file's table indices (the tables' next read addresses) and what the
  // file's values need besides the table words. Registering the indices puts the scan's index logic
  // (the registered maps through es_file, es_piece, es_pawns and the tactics' pin conditions) in a
  // clock of its own, ahead of the RAMs' address registers (issue 22: it was one of the chip's
  // deepest paths). Stage 1's registers take the flags a clock later, with the words.
  logic [8:0] s0_idx_q [NumTabs];
  logic       s0_valid_q;
  logic       s0_lever_q [2];
  logic       s0_near_q [2], s0_mpv_q [2], s0_ppv_q [2];
  logic       s0_mowv_q [2], s0_bisv_q [2], s0_sbv_q [2], s0_obv_q [2], s0_bbv_q [2], s0_tbv_q, s0_tb_black_q;
  logic       s0_psv_q [2], s0_kzv_q [2], s0_rbp_q [2];
  logic [8:0] scan_idx [NumTabs];
  always_ff @(posedge clk_i) begin
    for (int t = 0; t < NumTabs; t++) s0_idx_q[t] <= scan_idx[t];
    for (int c = 0; c < 2; c++) begin
      s0_psv_q[c]   <= ps_valid[c];
      s0_kzv_q[c]   <= kz_valid[c];
      s0_rbp_q[c]   <= rbp[c];
      s0_lever_q[c] <= lever[c];
      s0_near_q[c]  <= king_there[1-c] && near_king(file, king_file[1-c]);
      s0_mpv_q[c]   <= mp_valid[c];
      s0_ppv_q[c]   <= pp_valid[c];
      s0_mowv_q[c]  <= mow_v[c];
      s0_bisv_q[c]  <= bis_v[c];
      s0_sbv_q[c]   <= sb_v[c];
      s0_obv_q[c]   <= ob_v[c];
      s0_bbv_q[c]   <= bb_v[c];
    end
    s0_tbv_q      <= (file == 3'd0) ? tb_v[0] : (file == 3'd1) ? tb_v[1] : 1'b0;
    s0_tb_black_q <= tb_idx[6];
  end

  // Stage 1's registers: stage 0's flags, in the clock the table words come out of the RAMs.
  logic       s1_valid_q;
  logic       s1_lever_q [2];
  logic       s1_near_q [2], s1_mpv_q [2], s1_ppv_q [2];
  logic       s1_mowv_q [2], s1_bisv_q [2], s1_sbv_q [2], s1_obv_q [2], s1_bbv_q [2], s1_tbv_q, s1_tb_black_q;
  logic       s1_pinv_q [2];
  logic       s1_psv_q [2], s1_kzv_q [2], s1_rbp_q [2];
  always_ff @(posedge clk_i) begin
    for (int c = 0; c < 2; c++) begin
      s1_psv_q[c]   <= s0_psv_q[c];
      s1_kzv_q[c]   <= s0_kzv_q[c];
      s1_rbp_q[c]   <= s0_rbp_q[c];
      s1_lever_q[c] <= s0_lever_q[c];
      s1_near_q[c]  <= s0_near_q[c];
      s1_mpv_q[c]   <= s0_mpv_q[c];
      s1_ppv_q[c]   <= s0_ppv_q[c];
      s1_mowv_q[c]  <= s0_mowv_q[c];
      s1_bisv_q[c]  <= s0_bisv_q[c];
      s1_sbv_q[c]   <= s0_sbv_q[c];
      s1_obv_q[c]   <= s0_obv_q[c];
      s1_bbv_q[c]   <= s0_bbv_q[c];
      s1_pinv_q[c]  <= pin_valid[c];  // the tactics' stage 0 is their pin maps' register
    end
    s1_tbv_q      <= s0_tbv_q;
    s1_tb_black_q <= s0_tb_black_q;
  end

  // Material and development: their words are used in the last clock; the board is stable while
  // busy, so the addresses of the clock before give the same words.
  logic [6:0] sig_w, sig_b;
  logic [7:0] joint, dev;
  es_material u_material (
    .pieces_i   (pieces),
    .castling_i (castling_i),
    .sig_w_o    (sig_w),
    .sig_b_o    (sig_b),
    .joint_o    (joint),
    .dev_o      (dev)
  );

  // ---------------------------------------------------------------- tables (Table 5)
  // The scan's indices of file cnt (stage 0, registered); the read addresses are the host's table
  // index while idle and the registered indices while busy; the words come out of the RAMs in the
  // next clock.
  logic [8:0] raddr [NumTabs];
  logic [31:0] tab_rdata [NumTabs];
  always_comb begin
    for (int t = 0; t < NumTabs; t++) scan_idx[t] = 9'd0;
    for (int r = 0; r < 8; r++) scan_idx[chip_pkg::ET_MOBILITY + r] = {2'd0, file, level[r]};
    for (int c = 0; c < 2; c++) begin
      scan_idx[chip_pkg::ET_ROOK_FILES + c]     = {1'b0, rook_idx[c]};
      scan_idx[chip_pkg::ET_MULTI_PAWNS + c]    = {2'd0, mp_idx[c]};
      scan_idx[chip_pkg::ET_PASSED + c]         = pp_idx[c];
      scan_idx[chip_pkg::ET_MINOR_ON_WEAK + c]  = {1'b0, mow_i[c]};
      scan_idx[chip_pkg::ET_BISHOPS + 2*c]      = {2'd0, bis0_i[c]};
      scan_idx[chip_pkg::ET_BISHOPS + 2*c + 1]  = {2'd0, bis1_i[c]};
      scan_idx[chip_pkg::ET_SELF_BLOCK + c]     = sb_i[c];
      scan_idx[chip_pkg::ET_OPP_BLOCK + c]      = {2'd0, ob_i[c]};
      scan_idx[chip_pkg::ET_BACK_BLOCK + c]     = {1'b0, bb_i[c]};
      scan_idx[chip_pkg::ET_PAWN_STRUCTURE + c] = {1'b0, ps_idx[c]};
      scan_idx[chip_pkg::ET_PAWN_SHELTER + c]   = sh_idx[c];
      scan_idx[chip_pkg::ET_PAWN_STORM + c]     = {2'd0, st_idx[c]};
    end
    scan_idx[chip_pkg::ET_TRAPPED_BISHOP] = {2'd0, tb_idx};
    scan_idx[chip_pkg::ET_SIGNATURE]       = {2'd0, sig_w};
    scan_idx[chip_pkg::ET_SIGNATURE + 1]   = {2'd0, sig_b};
    scan_idx[chip_pkg::ET_JOINT_SIGNATURE] = {1'b0, joint};
    scan_idx[chip_pkg::ET_CONTEMPT]        = {1'b0, joint};
    scan_idx[chip_pkg::ET_DEVELOPMENT]     = {1'b0, dev};
  end
  always_comb begin
    for (int t = 0; t < NumTabs; t++) raddr[t] = busy_q ? s0_idx_q[t] : tidx;
    // PINNED: the index of the clock before's file, from the tactics' registered pin maps.
    for (int c = 0; c < 2; c++) raddr[chip_pkg::ET_PINNED + c] = busy_q ? {2'd0, pin_idx[c*7 +: 7]} : tidx;
  end
  for (genvar t = 0; t < NumTabs; t++) begin : g_tab
    localparam int Width = 32'(chip_pkg::ET_BITS[t*6 +: 6]);
    localparam int Depth = 32'(chip_pkg::ET_ENTRIES[t*9 +: 9]);
    logic [Width-1:0] rd;
    es_ram #(.Width(Width), .Depth(Depth)) u_ram (
      .clk_i   (clk_i),
      .we_i    (we_i && tab_hit_o && tsel == 8'(t)),
      .waddr_i (tidx),
      .wdata_i (wdata_i[Width-1:0]),
      .raddr_i (raddr[t]),
      .rdata_o (rd)
    );
    assign tab_rdata[t] = 32'(rd);
  end

  logic [16:0] grp_off;
  assign grp_off   = addr_i - chip_pkg::SE_GROUP_BASE;
  assign grp_hit_o = addr_i >= chip_pkg::SE_GROUP_BASE && grp_off < 17'(chip_pkg::SE_GROUP_COUNT);
  always_comb begin
    if (reg_hit_o) rdata_o = er_q[ridx];
    else if (grp_hit_o) begin
      rdata_o = 32'd0;
      for (int g = 0; g < NumGroups; g++) begin
        if (grp_off == 17'(g)) rdata_o = {16'd0, group_q[g]};
      end
    end else rdata_o = 32'd0;
  end
  // A host read of a table: the word is in the RAM's output the clock after the address, the
  // bus's response clock (chip_ctrl's registers pass it through).
  logic [5:0] tab_sel_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) tab_sel_q <= 6'd0;
    else tab_sel_q <= tab_hit_sel;
  end
  assign tab_rdata_o = tab_rdata[tab_sel_q];

  // ---------------------------------------------------------------- stage 2: table values
  logic        s2_valid_q;
  logic [8:0]  s2_mob_q [8];
  logic [9:0]  s2_rook_q [2];
  logic        s2_lever_q [2];
  logic        s2_near_q [2];
  logic [7:0]  s2_mp_q [2];
  logic [31:0] s2_pp_q [2];
  logic [15:0] s2_bis_q [2];   // a side's bishop value of the file (diagonals less the blocks)
  logic [11:0] s2_mow_q [2];
  logic [7:0]  s2_tb_q;
  logic        s2_tb_black_q;
  logic [7:0]  s2_pin_q [2];
  logic [31:0] s2_ps_q [2];
  logic [13:0] s2_sh_q [2];
  logic [17:0] s2_st_q [2];
  logic        s2_rbp_q [2];
  always_ff @(posedge clk_i) begin
    for (int c = 0; c < 2; c++) begin
      s2_ps_q[c]  <= s1_psv_q[c] ? tab_rdata[chip_pkg::ET_PAWN_STRUCTURE + c] : 32'd0;
      s2_sh_q[c]  <= s1_kzv_q[c] ? tab_rdata[chip_pkg::ET_PAWN_SHELTER + c][13:0] : 14'd0;
      s2_st_q[c]  <= s1_kzv_q[c] ? tab_rdata[chip_pkg::ET_PAWN_STORM + c][17:0] : 18'd0;
      s2_rbp_q[c] <= s1_rbp_q[c];
    end
    for (int r = 0; r < 8; r++) s2_mob_q[r] <= tab_rdata[chip_pkg::ET_MOBILITY + r][8:0];
    for (int c = 0; c < 2; c++) begin
      s2_rook_q[c] <= tab_rdata[chip_pkg::ET_ROOK_FILES + c][9:0];
      s2_lever_q[c] <= s1_lever_q[c];
      s2_near_q[c] <= s1_near_q[c];
      s2_mp_q[c]   <= s1_mpv_q[c] ? tab_rdata[chip_pkg::ET_MULTI_PAWNS + c][7:0] : 8'd0;
      s2_pp_q[c]   <= s1_ppv_q[c] ? tab_rdata[chip_pkg::ET_PASSED + c] : 32'd0;
      s2_mow_q[c]  <= s1_mowv_q[c] ? tab_rdata[chip_pkg::ET_MINOR_ON_WEAK + c][11:0] : 12'd0;
      s2_bis_q[c]  <= (s1_bisv_q[c] ? {{5{tab_rdata[chip_pkg::ET_BISHOPS + 2*c][10]}}, tab_rdata[chip_pkg::ET_BISHOPS + 2*c][10:0]} +
                                      {{5{tab_rdata[chip_pkg::ET_BISHOPS + 2*c + 1][10]}}, tab_rdata[chip_pkg::ET_BISHOPS + 2*c + 1][10:0]}
                                    : 16'd0) -
                      (s1_sbv_q[c] ? {11'd0, tab_rdata[chip_pkg::ET_SELF_BLOCK + c][4:0]} : 16'd0) -
                      (s1_obv_q[c] ? {12'd0, tab_rdata[chip_pkg::ET_OPP_BLOCK + c][3:0]} : 16'd0) -
                      (s1_bbv_q[c] ? {11'd0, tab_rdata[chip_pkg::ET_BACK_BLOCK + c][4:0]} : 16'd0);
      s2_pin_q[c]  <= s1_pinv_q[c] ? tab_rdata[chip_pkg::ET_PINNED + c][7:0] : 8'd0;
    end
    s2_tb_q       <= s1_tbv_q ? tab_rdata[chip_pkg::ET_TRAPPED_BISHOP][7:0] : 8'd0;
    s2_tb_black_q <= s1_tb_black_q;
  end

  // ---------------------------------------------------------------- stage 3: the adder tree
  logic [3:0] ps_scale;
  assign ps_scale = phase_i[15:12];
  logic [15:0] file_mob, file_rook, file_ks [2], file_pp [2], file_ps [2], file_sh [2];
  logic [71:0] mob_w;
  logic [31:0] ks_w, pp_w, ps_w, sh_w;
  always_comb begin
    for (int r = 0; r < 8; r++) mob_w[r*9 +: 9] = s2_mob_q[r];
    for (int c = 0; c < 2; c++) begin
      file_ks[c] = ks_w[c*16 +: 16];
      file_pp[c] = pp_w[c*16 +: 16];
      file_ps[c] = ps_w[c*16 +: 16];
      file_sh[c] = sh_w[c*16 +: 16];
    end
  end
  es_file_values u_file_values (
    .mob_i      (mob_w),
    .rook_i     ({s2_rook_q[1], s2_rook_q[0]}),
    .lever_i    ({s2_lever_q[1], s2_lever_q[0]}),
    .near_i     ({s2_near_q[1], s2_near_q[0]}),
    .opposite_i (opposite),
    .ps_scale_i (ps_scale),
    .pp_i       ({s2_pp_q[1], s2_pp_q[0]}),
    .ps_i       ({s2_ps_q[1], s2_ps_q[0]}),
    .st_i       ({s2_st_q[1], s2_st_q[0]}),
    .sh_i       ({s2_sh_q[1], s2_sh_q[0]}),
    .mob_o      (file_mob),
    .rook_o     (file_rook),
    .ks_o       (ks_w),
    .pp_o       (pp_w),
    .ps_o       (ps_w),
    .sh_o       (sh_w)
  );

  logic [15:0] mob_q, rook_q, ks_q [2], mp_q, pp_q, bis_q, mow_q, pin_q;

  logic [15:0] pst_q, sh_q [2];
  logic [3:0]  rbp_cnt_q [2];
  logic        s2_valid_d;
  assign s2_valid_d = s1_valid_q;

  // Group 5 (registers): rooks on the 7th, hung pieces, the bishop pair, side to move, bias.
  logic [15:0] regs_value;
  logic [95:0] rook7_w;
  logic [27:0] hung_w;
  always_comb begin
    for (int i = 0; i < 12; i++) rook7_w[i*8 +: 8] = er_q[chip_pkg::ER_ROOK7 + i][7:0];
    for (int i = 0; i < 4; i++) hung_w[i*7 +: 7] = er_q[chip_pkg::ER_HUNG + i][6:0];
  end
  es_registers u_registers (
    .pieces_i       (pieces),
    .attacks_i      (attacks),
    .any_att_i      ({any_att[1], any_att[0]}),
    .stm_i          (stm_i),
    .bias_i         (er_q[chip_pkg::ER_BIAS][7:0]),
    .rook7_i        (rook7_w),
    .hung_i         (hung_w),
    .bishop_pair_i  ({er_q[chip_pkg::ER_BISHOP_PAIR + 1][6:0], er_q[chip_pkg::ER_BISHOP_PAIR][6:0]}),
    .side_to_move_i ({er_q[chip_pkg::ER_SIDE_TO_MOVE + 1][3:0], er_q[chip_pkg::ER_SIDE_TO_MOVE][3:0]}),
    .value_o        (regs_value)
  );

  // Each side's part is rounded on its own (mirrored positions give the negated value).
  logic signed [31:0] ks_part_w, ks_part_b, ks_scaled;
  assign ks_part_w = ($signed({{16{ks_q[0][15]}}, ks_q[0]}) * $signed({28'd0, phase_swap_i[11:8]})) >>> 5;
  assign ks_part_b = ($signed({{16{ks_q[1][15]}}, ks_q[1]}) * $signed({28'd0, phase_i[11:8]})) >>> 5;
  assign ks_scaled = ks_part_w - ks_part_b;

  logic signed [31:0] sh_part_w, sh_part_b, sh_scaled;
  assign sh_part_w = ($signed({{16{sh_q[0][15]}}, sh_q[0]}) * $signed({28'd0, phase_i[11:8]})) >>> 4;
  assign sh_part_b = ($signed({{16{sh_q[1][15]}}, sh_q[1]}) * $signed({28'd0, phase_swap_i[11:8]})) >>> 4;
  assign sh_scaled = sh_part_w - sh_part_b;

  // Group 8 (pawn registers): the board's part from the clock before, like groups 5 and 10 below
  // (on an ECP5 the board -> wing counts -> multiplier -> sum path was the chip's slowest), and
  // the rooks behind passed pawns, whose counts the scan finishes in the sum clock's clock before.
  logic [15:0] pawn_regs_value, pawn_regs_value_q, rbp_diff, rbp_value, pawn_group;
  always_ff @(posedge clk_i) pawn_regs_value_q <= pawn_regs_value;  // a datapath: no reset
  assign rbp_diff   = {12'd0, rbp_cnt_q[0]} - {12'd0, rbp_cnt_q[1]};
  assign rbp_value  = busy_q ? {7'd0, er_q[chip_pkg::ER_ROOK_BEHIND_PASSED][8:0]} * rbp_diff : 16'd0;
  assign pawn_group = pawn_regs_value_q + rbp_value;
  es_pawn_regs u_pawn_regs (
    .en_i        (busy_q),
    .pieces_i    (pieces),
    .passed_i    (passed),
    .ps_scale_i  (ps_scale),
    .wasted_i    ({er_q[chip_pkg::ER_WASTED_PAWNS + 1][5:0], er_q[chip_pkg::ER_WASTED_PAWNS][5:0]}),
    .separated_i ({er_q[chip_pkg::ER_SEPARATED_PASSED + 1][7:0], er_q[chip_pkg::ER_SEPARATED_PASSED][7:0]}),
    .missing_i   ({er_q[chip_pkg::ER_MISSING_WING + 1][9:0], er_q[chip_pkg::ER_MISSING_WING][9:0]}),
    .boc_i       ({er_q[chip_pkg::ER_BOC + 1][5:0], er_q[chip_pkg::ER_BOC][5:0]}),
    .value_o     (pawn_regs_value)
  );

  // Group 12 (pieces): development; group 13 (signature): each side's signature and the match-up.
  logic [15:0] pieces_value, signature_value;
  assign pieces_value    = {{7{tab_rdata[chip_pkg::ET_DEVELOPMENT][8]}}, tab_rdata[chip_pkg::ET_DEVELOPMENT][8:0]} + mow_q;
  assign signature_value = tab_rdata[chip_pkg::ET_SIGNATURE][15:0] - tab_rdata[chip_pkg::ET_SIGNATURE + 1][15:0] +
                           {{8{tab_rdata[chip_pkg::ET_JOINT_SIGNATURE][7]}}, tab_rdata[chip_pkg::ET_JOINT_SIGNATURE][7:0]};

  // Groups 5 and 10 depend only on the board (stable while busy) and the registers (no host write
  // while busy): registered every clock, the sum clock takes them from the clock before.
  logic [15:0] regs_value_q, tactics_value_q;
  always_ff @(posedge clk_i) begin
    regs_value_q    <= regs_value;
    tactics_value_q <= tactics_value;
  end

  logic [15:0] value_q, draw_q, sum, sum_q;
  logic [15:0] group_s_q [NumGroups];  // the sum clock's groups, group_q from the last clock
  logic [223:0] groups_in, groups_on;
  always_comb begin
    groups_in = '0;
    groups_in[0*16 +: 16]  = mob_q;
    groups_in[1*16 +: 16]  = rook_q;
    groups_in[2*16 +: 16]  = ks_scaled[15:0];
    groups_in[3*16 +: 16]  = mp_q;
    groups_in[4*16 +: 16]  = pp_q;
    groups_in[5*16 +: 16]  = regs_value_q;
    groups_in[6*16 +: 16]  = pst_q;
    groups_in[7*16 +: 16]  = sh_scaled[15:0];
    groups_in[8*16 +: 16]  = pawn_group;
    groups_in[9*16 +: 16]  = pin_q;
    groups_in[10*16 +: 16] = tactics_value_q;
    groups_in[11*16 +: 16] = bis_q;
    groups_in[12*16 +: 16] = pieces_value;
    groups_in[13*16 +: 16] = signature_value;
  end
  es_group_sum u_group_sum (
    .groups_i (groups_in),
    .enable_i (er_q[chip_pkg::ER_EVAL_CONTROL][NumGroups-1:0]),
    .groups_o (groups_on),
    .sum_o    (sum)
  );

  // ---------------------------------------------------------------- flops
  always_comb begin
    busy_d = busy_q;
    cnt_d  = cnt_q;
    if (busy_q) begin
      cnt_d = cnt_q + 4'd1;
      if (finish_o) busy_d = 1'b0;
    end
    if (start_i) begin
      busy_d = 1'b1;
      cnt_d  = 4'd0;
    end
    if (abort_i) busy_d = 1'b0;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q     <= 1'b0;
      cnt_q      <= 4'd0;
      s0_valid_q <= 1'b0;
      s1_valid_q <= 1'b0;
      s2_valid_q <= 1'b0;
      value_q    <= '0;
      draw_q     <= '0;
      for (int g = 0; g < NumGroups; g++) group_q[g] <= '0;
    end else begin
      busy_q     <= busy_d;
      cnt_q      <= cnt_d;
      s0_valid_q <= busy_q && !cnt_q[3] && !start_i;
      s1_valid_q <= s0_valid_q && !start_i;
      s2_valid_q <= s2_valid_d && !start_i;
      if (finish_o) begin
        value_q <= stm_i ? 16'd0 - sum_q : sum_q;
        draw_q  <= {{8{tab_rdata[chip_pkg::ET_CONTEMPT][7]}}, tab_rdata[chip_pkg::ET_CONTEMPT][7:0]};
        for (int g = 0; g < NumGroups; g++) group_q[g] <= group_s_q[g];
      end
    end
  end

  // The sum clock's result: a datapath read only in the last clock, so no reset.
  always_ff @(posedge clk_i) begin
    if (sum_clock) begin
      sum_q <= sum;
      for (int g = 0; g < NumGroups; g++) group_s_q[g] <= groups_on[g*16 +: 16];
    end
  end

  // The group accumulators: a datapath cleared by each start, so no reset.
  always_ff @(posedge clk_i) begin
    if (start_i) begin
      mob_q   <= '0;
      rook_q  <= '0;
      ks_q[0] <= '0;
      ks_q[1] <= '0;
      mp_q    <= '0;
      pp_q    <= '0;
      bis_q   <= '0;
      mow_q   <= '0;
      pin_q   <= '0;
      pst_q   <= '0;
      for (int c = 0; c < 2; c++) begin
        sh_q[c]      <= '0;
        rbp_cnt_q[c] <= '0;
      end
    end else if (s2_valid_q) begin
      pst_q   <= pst_q + file_ps[0] - file_ps[1];
      for (int c = 0; c < 2; c++) begin
        sh_q[c]      <= sh_q[c] + file_sh[c];
        rbp_cnt_q[c] <= rbp_cnt_q[c] + {3'd0, s2_rbp_q[c]};
      end
      mob_q   <= mob_q + file_mob;
      rook_q  <= rook_q + file_rook;
      ks_q[0] <= ks_q[0] + file_ks[0];
      ks_q[1] <= ks_q[1] + file_ks[1];
      mp_q    <= mp_q + {8'd0, s2_mp_q[1]} - {8'd0, s2_mp_q[0]};
      pp_q    <= pp_q + file_pp[0] - file_pp[1];
      bis_q   <= bis_q + s2_bis_q[0] - s2_bis_q[1] + (s2_tb_black_q ? {8'd0, s2_tb_q} : 16'd0 - {8'd0, s2_tb_q});
      mow_q   <= mow_q + {{4{s2_mow_q[0][11]}}, s2_mow_q[0]} - {{4{s2_mow_q[1][11]}}, s2_mow_q[1]};
      pin_q   <= pin_q + {8'd0, s2_pin_q[0]} - {8'd0, s2_pin_q[1]};
    end
  end

  assign white_o     = sum_q;
  assign value_o     = value_q;
  assign lazy_ctrl_o = er_q[chip_pkg::ER_EVAL_CONTROL + 1];
  assign draw_o      = draw_q;
  // The game phase words' other fields belong to the fast evaluation; the scaled products keep
  // their low 16 bits (the chip's 16-bit wrap-around).
  logic unused;
  assign unused = ^{phase_i[7:0], phase_swap_i[15:12], phase_swap_i[7:0], ks_scaled[31:16], sh_scaled[31:16]};
endmodule
