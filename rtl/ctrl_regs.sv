// The controller's host register block: the address decode, the read multiplexer, the bus
// response (one request a clock, rdata and err on the next), the ERROR register, the registers
// only the host writes (the search's and the evaluation's parameters), and a write strobe for each
// register another block owns. Writes other than ABORT and ERROR are refused while a command runs.
// The addresses come from rtl/regmap.json (chip_pkg). Model twin: host/chip/model/ctrl_regs.h.
module ctrl_regs (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // Host bus.
  input  logic                 req_i,
  input  logic                 we_i,
  input  logic [16:0]          addr_i,
  input  logic [31:0]          wdata_i,
  output logic                 rvalid_o,
  output logic [31:0]          rdata_o,
  output logic                 err_o,
  input  logic                 busy_i,
  // The slow evaluation's part of the map (eval_slow decodes it).
  input  logic                 se_reg_hit_i,
  input  logic                 se_tab_hit_i,
  input  logic                 se_grp_hit_i,
  input  logic                 se_too_wide_i,
  input  logic [31:0]          se_rdata_i,     // registers and groups: the request's clock
  input  logic [31:0]          se_tab_rdata_i, // a table's word: the response's clock (synchronous RAMs)
  output logic                 se_we_o,
  // A command's error this clock (the state machine's), recorded unless the bus has one.
  input  logic                 cmd_err_i,
  input  logic [7:0]           cmd_err_code_i,
  // Write strobes for the registers and memories of other blocks.
  output logic                 cmd_we_o,
  output logic                 abort_we_o,
  output logic                 move_we_o,
  output logic                 stm_we_o,
  output logic                 castling_we_o,
  output logic                 ep_we_o,
  output logic                 half_we_o,
  output logic                 full_we_o,
  output logic                 board_we_o,
  output logic                 est_we_o,
  output logic                 pst_we_o,
  output logic                 ph_ram_we_o,
  // The registers this block holds.
  output logic                 kpk_en_o,       // EVAL_CTRL: the KPK ROM
  output logic                 rules_en_o,     // EVAL_CTRL: the endgame rules
  output logic [15:0]          runner_bonus_o,
  output logic [15:0]          sep_bonus_o,
  output logic [15:0]          test_value_o,
  output logic [15:0]          test_tie_o,
  output chip_pkg::search_ctrl_t search_ctrl_o,
  output logic [31:0]          node_limit_o,
  output chip_pkg::offset_ctrl_t offset_ctrl_o,
  // A search job's staging (BOARD_PACK: square s at [s*4 +: 4]; JOB_HISTORY: move m at
  // [m*16 +: 16]; JOB_POS), loaded by JOB (ctrl_job).
  output logic [255:0]         job_board_o,
  output logic [511:0]         job_hist_o,
  output chip_pkg::job_pos_t   job_pos_o,
  // What the host reads of the other blocks.
  input  logic [31:0]          cmd_i,
  input  logic                 done_i,         // STATUS bits
  input  logic                 in_check_i,
  input  logic                 move_valid_i,
  input  logic                 king_capture_i,
  input  logic                 aborted_i,
  input  ctrl_pkg::pos_t       pos_i,
  input  logic [15:0]          move_i,
  input  logic [5:0]           host_ply_i,
  input  logic [63:0]          count_i,
  input  logic [63:0]          cycles_i,
  input  logic [31:0]          generated_i,
  input  logic [63:0]          hung_i,
  input  logic [63:0]          pinned_i,
  input  logic [255:0]         board_i,  // bit b of square s's piece at [b*64 + s]
  input  logic [15:0]          pst_rdata_i,    // the placement table's port A, the clock after its address
  input  logic [15:0]          ph_ram_rdata_i,
  input  logic [15:0]          fast_eval_i,
  input  logic [15:0]          pst_sum_i,
  input  logic [15:0]          castle_k_i,
  input  logic [15:0]          castle_q_i,
  input  logic [39:0]          counts_i,
  input  logic [71:0]          locs_i,
  input  logic [15:0]          phase_i,
  input  logic [2:0]           rule_draw_i,
  input  logic                 kpk_active_i,
  input  logic                 kpk_win_i,
  input  logic [2:0]           runner_w_i,
  input  logic [2:0]           runner_b_i,
  input  logic [1:0]           separated_i,
  input  logic                 white_race_i,
  input  logic                 black_race_i,
  input  logic [15:0]          se_value_i,
  input  logic                 eg_draw_i,
  input  logic [15:0]          est_i,
  input  logic [2:0]           lazy_i,
  input  logic [15:0]          se_draw_i,
  input  logic [7:0]           result_i,
  input  logic [15:0]          best_i,
  input  logic                 rep_hit_i,
  input  logic                 rep_near_i
);
  logic        rvalid_q, err_q, err_d;
  // Which RAM answers the response (the RAMs read synchronously: the word of the request's
  // address comes out of the RAM in the response clock).
  typedef enum logic [1:0] {
    RamNone  = 2'd0,
    RamTable = 2'd1,  // a slow evaluation table
    RamPst   = 2'd2,  // the placement table (port A)
    RamPhase = 2'd3   // the game phase RAM (its host copy)
  } ram_read_e;
  ram_read_e   ram_read_q, ram_read_d;
  logic [31:0] rdata_q, rdata_d;
  logic [7:0]  err_code_q, err_code_d;
  logic [16:0] err_addr_q, err_addr_d;
  chip_pkg::eval_ctrl_t eval_ctrl_q, eval_ctrl_d;
  logic [15:0] runner_bonus_q, runner_bonus_d, sep_bonus_q, sep_bonus_d;
  logic [15:0] test_value_q, test_value_d, test_tie_q, test_tie_d;
  chip_pkg::search_ctrl_t search_ctrl_q, search_ctrl_d;
  logic [31:0] node_limit_q, node_limit_d;
  chip_pkg::offset_ctrl_t offset_ctrl_q, offset_ctrl_d;
  logic [255:0] job_board_q, job_board_d;
  logic [511:0] job_hist_q, job_hist_d;
  chip_pkg::job_pos_t job_pos_q, job_pos_d;

  // ---------------------------------------------------------------- decode
  logic is_board, is_pst, is_phase_ram, is_reg_ro, is_reg_rw, is_board_pack, is_job_hist, mapped;
  assign is_phase_ram = (addr_i >= chip_pkg::PHASE_RAM_BASE) &&
                        (addr_i < chip_pkg::PHASE_RAM_BASE + 17'(chip_pkg::PHASE_RAM_COUNT));
  assign is_pst = (addr_i >= chip_pkg::PST_BASE) && (addr_i < chip_pkg::PST_BASE + 17'(chip_pkg::PST_COUNT));
  assign is_board = (addr_i >= chip_pkg::BOARD_BASE) &&
                    (addr_i < chip_pkg::BOARD_BASE + 17'(chip_pkg::BOARD_COUNT));
  assign is_board_pack = (addr_i >= chip_pkg::BOARD_PACK_BASE) &&
                         (addr_i < chip_pkg::BOARD_PACK_BASE + 17'(chip_pkg::BOARD_PACK_COUNT));
  assign is_job_hist = (addr_i >= chip_pkg::JOB_HISTORY_BASE) &&
                       (addr_i < chip_pkg::JOB_HISTORY_BASE + 17'(chip_pkg::JOB_HISTORY_COUNT));
  assign is_reg_ro = chip_pkg::reg_is_ro(addr_i);
  assign is_reg_rw = chip_pkg::reg_is_rw(addr_i);
  assign mapped = is_board || is_pst || is_phase_ram || is_reg_ro || is_reg_rw || se_reg_hit_i || se_tab_hit_i ||
                  se_grp_hit_i || is_board_pack || is_job_hist;

  // A BOARD_PACK word's eight piece codes: each must be a BOARD code (type 7 and a black
  // "empty", 8, are not).
  logic pack_bad;
  always_comb begin
    pack_bad = 1'b0;
    for (int k = 0; k < 8; k++) begin
      if (wdata_i[4*k +: 3] == 3'd7 || wdata_i[4*k +: 4] == 4'd8) pack_bad = 1'b1;
    end
  end

  // ---------------------------------------------------------------- read
  chip_pkg::status_t status;
  chip_pkg::job_result_t job_result;
  always_comb begin
    status            = '0;
    status.busy       = busy_i;
    status.done       = done_i;
    status.error      = err_code_q != chip_pkg::ERR_NONE;
    status.in_check   = in_check_i;
    status.move_valid = move_valid_i;
    status.legal      = !king_capture_i;
    status.aborted    = aborted_i;
    status.err_code   = err_code_q;
  end
  always_comb begin
    job_result           = '0;
    job_result.result    = result_i;
    job_result.best_move = best_i;
    job_result.busy      = busy_i;
    job_result.aborted   = aborted_i;
    job_result.error     = err_code_q != chip_pkg::ERR_NONE;
    job_result.wide      = count_i[63:13] != 51'd0 || cycles_i[63:19] != 45'd0;
  end
  // The staged words by index: a multiplexer per word (an indexed part-select, [{i, 5'd0} +: 32],
  // is a shifter to Yosys; as a write it made a shifted mask and data of the whole register,
  // 7,000 LUTs of this block's 11,000: issue 22).
  logic [31:0] pack_word, hist_word;
  always_comb begin
    pack_word = 32'd0;
    hist_word = 32'd0;
    for (int w = 0; w < 8; w++) begin
      if (addr_i[2:0] == 3'(w)) pack_word = job_board_q[w*32 +: 32];
    end
    for (int w = 0; w < 16; w++) begin
      if (addr_i[3:0] == 4'(w)) hist_word = job_hist_q[w*32 +: 32];
    end
  end
  always_comb begin
    rdata_d = 32'd0;
    if (se_reg_hit_i || se_grp_hit_i) rdata_d = se_rdata_i;
    else if (se_tab_hit_i) rdata_d = 32'd0;  // the word follows from the RAM (ram_read_q); 0 while busy
    else if (is_board) rdata_d = {28'd0, ctrl_pkg::board_pc(board_i, addr_i[5:0])};
    else if (is_pst || is_phase_ram) rdata_d = 32'd0;  // from the RAM (ram_read_q); the placement table 0 while busy
    else if (is_board_pack) rdata_d = pack_word;
    else if (is_job_hist) rdata_d = hist_word;
    else begin
      unique case (addr_i)
        chip_pkg::REG_ID:            rdata_d = chip_pkg::CHIP_ID;
        chip_pkg::REG_VERSION:       rdata_d = 32'(chip_pkg::CHIP_VERSION);
        chip_pkg::REG_CMD:           rdata_d = cmd_i;
        chip_pkg::REG_STATUS:        rdata_d = 32'(status);
        chip_pkg::REG_ERROR:         rdata_d = {7'd0, err_addr_q, err_code_q};
        chip_pkg::REG_STM:           rdata_d = {31'd0, pos_i.stm};
        chip_pkg::REG_CASTLING:      rdata_d = {28'd0, pos_i.castling};
        chip_pkg::REG_EP:            rdata_d = {25'd0, pos_i.ep_valid, pos_i.ep_sq};
        chip_pkg::REG_HALFMOVE:      rdata_d = {16'd0, pos_i.half};
        chip_pkg::REG_FULLMOVE:      rdata_d = {16'd0, pos_i.full};
        chip_pkg::REG_MOVE:          rdata_d = {16'd0, move_i};
        chip_pkg::REG_PLY:           rdata_d = {26'd0, host_ply_i};
        chip_pkg::REG_COUNT_LO:      rdata_d = count_i[31:0];
        chip_pkg::REG_COUNT_HI:      rdata_d = count_i[63:32];
        chip_pkg::REG_CYCLES_LO:     rdata_d = cycles_i[31:0];
        chip_pkg::REG_CYCLES_HI:     rdata_d = cycles_i[63:32];
        chip_pkg::REG_HUNG_LO:       rdata_d = hung_i[31:0];
        chip_pkg::REG_HUNG_HI:       rdata_d = hung_i[63:32];
        chip_pkg::REG_PINNED_LO:     rdata_d = pinned_i[31:0];
        chip_pkg::REG_PINNED_HI:     rdata_d = pinned_i[63:32];
        chip_pkg::REG_GENERATED:     rdata_d = generated_i;
        chip_pkg::REG_EVAL_CTRL:     rdata_d = 32'(eval_ctrl_q);
        chip_pkg::REG_FAST_EVAL:     rdata_d = {16'd0, fast_eval_i};
        chip_pkg::REG_PIECE_COUNT_W: rdata_d = {12'd0, counts_i[19:0]};
        chip_pkg::REG_PIECE_COUNT_B: rdata_d = {12'd0, counts_i[39:20]};
        chip_pkg::REG_PIECE_LOC_W:   rdata_d = {2'd0, locs_i[29:0]};
        chip_pkg::REG_PIECE_LOC_B:   rdata_d = {2'd0, locs_i[65:36]};
        chip_pkg::REG_KING_SQ:       rdata_d = {18'd0, locs_i[71:66], 2'd0, locs_i[35:30]};
        chip_pkg::REG_PHASE:         rdata_d = {16'd0, phase_i};
        chip_pkg::REG_ENDGAME:       rdata_d = {27'd0, rule_draw_i, kpk_active_i && kpk_win_i, kpk_active_i};
        chip_pkg::REG_RUNNER_BONUS:  rdata_d = {16'd0, runner_bonus_q};
        chip_pkg::REG_KPA:           rdata_d = {20'd0, separated_i, black_race_i, white_race_i, 1'b0, runner_b_i,
                                                1'b0, runner_w_i};
        chip_pkg::REG_SEP_BONUS:     rdata_d = {16'd0, sep_bonus_q};
        chip_pkg::REG_PST_SUM:       rdata_d = {16'd0, pst_sum_i};
        chip_pkg::REG_SLOW_EVAL:     rdata_d = {16'd0, se_value_i};
        chip_pkg::REG_EVAL_TOTAL:    rdata_d = {16'd0, eg_draw_i ? 16'd0 : fast_eval_i + se_value_i};
        chip_pkg::REG_TEST_VALUE:    rdata_d = {16'd0, test_value_q};
        chip_pkg::REG_SLOW_EST:      rdata_d = {16'd0, est_i};
        chip_pkg::REG_LAZY:          rdata_d = {29'd0, lazy_i};
        chip_pkg::REG_DRAW_SCORE:    rdata_d = {16'd0, se_draw_i};
        chip_pkg::REG_CASTLE_DELTA:  rdata_d = {castle_q_i, castle_k_i};
        chip_pkg::REG_SEARCH_CTRL:   rdata_d = 32'(search_ctrl_q);
        chip_pkg::REG_TEST_TIE:      rdata_d = {16'd0, test_tie_q};
        chip_pkg::REG_NODE_LIMIT:    rdata_d = node_limit_q;
        chip_pkg::REG_RESULT:        rdata_d = {24'd0, result_i};
        chip_pkg::REG_OFFSET_CTRL:   rdata_d = 32'(offset_ctrl_q);
        chip_pkg::REG_BEST_MOVE:     rdata_d = {16'd0, best_i};
        chip_pkg::REG_REP_STATUS:    rdata_d = {30'd0, rep_near_i, rep_hit_i};
        chip_pkg::REG_JOB_POS:       rdata_d = 32'(job_pos_q);
        chip_pkg::REG_JOB_RESULT:    rdata_d = 32'(job_result);
        chip_pkg::REG_TEST_PAIR:     rdata_d = {test_tie_q, test_value_q};
        chip_pkg::REG_JOB_COUNTS:    rdata_d = {cycles_i[18:0], count_i[12:0]};
        default:                     rdata_d = 32'd0;
      endcase
    end
  end

  // ---------------------------------------------------------------- write
  // A register's write: the data must fit its width (bits above it zero; the widths come from
  // rtl/regmap.json).
  logic [7:0] bus_err_code;
  logic       wr_reg, err_clear, fits16;
  assign fits16 = wdata_i[31:16] == 16'd0;  // the 16-bit registers and tables
  always_comb begin
    bus_err_code   = chip_pkg::ERR_NONE;
    err_clear      = 1'b0;
    wr_reg         = 1'b0;
    cmd_we_o       = 1'b0;
    abort_we_o     = 1'b0;
    move_we_o      = 1'b0;
    stm_we_o       = 1'b0;
    castling_we_o  = 1'b0;
    ep_we_o        = 1'b0;
    half_we_o      = 1'b0;
    full_we_o      = 1'b0;
    board_we_o     = 1'b0;
    est_we_o       = 1'b0;
    pst_we_o       = 1'b0;
    ph_ram_we_o    = 1'b0;
    se_we_o        = 1'b0;
    eval_ctrl_d    = eval_ctrl_q;
    runner_bonus_d = runner_bonus_q;
    sep_bonus_d    = sep_bonus_q;
    test_value_d   = test_value_q;
    test_tie_d     = test_tie_q;
    search_ctrl_d  = search_ctrl_q;
    node_limit_d   = node_limit_q;
    offset_ctrl_d  = offset_ctrl_q;
    job_board_d    = job_board_q;
    job_hist_d     = job_hist_q;
    job_pos_d      = job_pos_q;
    // The address regions are disjoint (a_regions_disjoint), so the order of the tests below is
    // free: this block's own regions come before the slow evaluation's, whose table decode (an
    // entry count per table) is deep, so that a board, command or other register write does not
    // wait on it (issue 22: it led the chip's slowest paths). An address no region decodes is
    // tested last and overrides (nothing was written).
    if (req_i && we_i) begin
      if (addr_i == chip_pkg::REG_ABORT) begin
        abort_we_o = 1'b1;
      end else if (addr_i == chip_pkg::REG_ERROR) begin
        err_clear = 1'b1;
      end else if (busy_i) begin
        bus_err_code = chip_pkg::ERR_BUSY;
      end else if (is_phase_ram) begin
        if (!fits16) bus_err_code = chip_pkg::ERR_BAD_ARGUMENT;
        else ph_ram_we_o = 1'b1;
      end else if (is_pst) begin
        if (!fits16) bus_err_code = chip_pkg::ERR_BAD_ARGUMENT;
        else pst_we_o = 1'b1;
      end else if (is_board) begin
        if (wdata_i[2:0] == 3'd7 || wdata_i[3:0] == 4'd8 || wdata_i[31:4] != 28'd0) begin
          bus_err_code = chip_pkg::ERR_BAD_ARGUMENT;
        end else begin
          board_we_o = 1'b1;
        end
      end else if (is_board_pack) begin
        if (pack_bad) bus_err_code = chip_pkg::ERR_BAD_ARGUMENT;
        else begin
          for (int w = 0; w < 8; w++) begin
            if (addr_i[2:0] == 3'(w)) job_board_d[w*32 +: 32] = wdata_i;
          end
        end
      end else if (is_job_hist) begin
        for (int w = 0; w < 16; w++) begin
          if (addr_i[3:0] == 4'(w)) job_hist_d[w*32 +: 32] = wdata_i;
        end
      end else if (is_reg_rw) begin
        wr_reg = 1'b1;
      end else if (is_reg_ro || se_grp_hit_i) begin
        bus_err_code = chip_pkg::ERR_READ_ONLY;
      end else if (se_reg_hit_i || se_tab_hit_i) begin
        if (se_too_wide_i) bus_err_code = chip_pkg::ERR_BAD_ARGUMENT;
        else se_we_o = 1'b1;
      end
    end
    if (req_i && !we_i && (is_pst || se_tab_hit_i) && busy_i) begin
      bus_err_code = chip_pkg::ERR_BUSY;  // the table's host port is in use by the running command
    end
    if (wr_reg) begin
      unique case (addr_i)
        chip_pkg::REG_CMD:      cmd_we_o = 1'b1;
        chip_pkg::REG_STM:      stm_we_o = 1'b1;
        chip_pkg::REG_CASTLING: castling_we_o = 1'b1;
        chip_pkg::REG_EP:       ep_we_o = 1'b1;
        chip_pkg::REG_HALFMOVE: half_we_o = 1'b1;
        chip_pkg::REG_FULLMOVE: full_we_o = 1'b1;
        chip_pkg::REG_MOVE:     move_we_o = 1'b1;
        // The 16-bit registers: one width check.
        chip_pkg::REG_TEST_VALUE, chip_pkg::REG_SLOW_EST, chip_pkg::REG_SEP_BONUS,
        chip_pkg::REG_RUNNER_BONUS, chip_pkg::REG_TEST_TIE: begin
          if (!fits16) begin
            bus_err_code = chip_pkg::ERR_BAD_ARGUMENT;
          end else begin
            unique case (addr_i)
              chip_pkg::REG_TEST_VALUE:   test_value_d   = wdata_i[15:0];
              chip_pkg::REG_SLOW_EST:     est_we_o       = 1'b1;
              chip_pkg::REG_SEP_BONUS:    sep_bonus_d    = wdata_i[15:0];
              chip_pkg::REG_RUNNER_BONUS: runner_bonus_d = wdata_i[15:0];
              default:                    test_tie_d     = wdata_i[15:0];
            endcase
          end
        end
        chip_pkg::REG_SEARCH_CTRL: begin
          if (wdata_i[31:chip_pkg::SEARCH_CTRL_WIDTH] != '0) bus_err_code = chip_pkg::ERR_BAD_ARGUMENT;
          else search_ctrl_d = wdata_i[chip_pkg::SEARCH_CTRL_WIDTH-1:0];
        end
        chip_pkg::REG_NODE_LIMIT: node_limit_d = wdata_i;
        chip_pkg::REG_TEST_PAIR: begin
          test_value_d = wdata_i[15:0];
          test_tie_d   = wdata_i[31:16];
        end
        chip_pkg::REG_JOB_POS: begin
          if (wdata_i[15:12] != 4'd0) bus_err_code = chip_pkg::ERR_BAD_ARGUMENT;  // JOB_POS's gap
          else job_pos_d = wdata_i;
        end
        chip_pkg::REG_OFFSET_CTRL: begin
          if (wdata_i[31:chip_pkg::OFFSET_CTRL_WIDTH] != '0) bus_err_code = chip_pkg::ERR_BAD_ARGUMENT;
          else offset_ctrl_d = wdata_i[chip_pkg::OFFSET_CTRL_WIDTH-1:0];
        end
        chip_pkg::REG_EVAL_CTRL: begin
          if (wdata_i[31:chip_pkg::EVAL_CTRL_WIDTH] != '0) bus_err_code = chip_pkg::ERR_BAD_ARGUMENT;
          else eval_ctrl_d = wdata_i[chip_pkg::EVAL_CTRL_WIDTH-1:0];
        end
        default: ;
      endcase
    end
    if (req_i && !mapped) bus_err_code = chip_pkg::ERR_BAD_ADDRESS;
  end

  // ERROR and the bus's error response: a refused access, or a command refused at its write
  // (the state machine's error); a command's error while it runs is recorded without a response.
  // The bus's error takes precedence, and a write to ERROR clears it.
  always_comb begin
    err_d      = 1'b0;
    err_code_d = err_code_q;
    err_addr_d = err_addr_q;
    if (cmd_err_i) begin
      err_d      = cmd_we_o;
      err_code_d = cmd_err_code_i;
      err_addr_d = chip_pkg::REG_CMD;
    end
    if (err_clear) begin
      err_code_d = chip_pkg::ERR_NONE;
      err_addr_d = 17'd0;
    end
    if (bus_err_code != chip_pkg::ERR_NONE) begin
      err_d      = 1'b1;
      err_code_d = bus_err_code;
      err_addr_d = addr_i;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rvalid_q       <= 1'b0;
      rdata_q        <= 32'd0;
      ram_read_q     <= RamNone;
      err_q          <= 1'b0;
      err_code_q     <= 8'd0;
      err_addr_q     <= 17'd0;
      eval_ctrl_q    <= '0;
      runner_bonus_q <= 16'd0;
      sep_bonus_q    <= 16'd0;
      test_value_q   <= 16'd0;
      test_tie_q     <= 16'd0;
      search_ctrl_q  <= '0;
      node_limit_q   <= 32'd0;
      offset_ctrl_q  <= '0;
      job_board_q    <= 256'd0;
      job_hist_q     <= 512'd0;
      job_pos_q      <= '0;
    end else begin
      rvalid_q       <= req_i;
      rdata_q        <= rdata_d;
      ram_read_q     <= ram_read_d;
      err_q          <= err_d;
      err_code_q     <= err_code_d;
      err_addr_q     <= err_addr_d;
      eval_ctrl_q    <= eval_ctrl_d;
      runner_bonus_q <= runner_bonus_d;
      sep_bonus_q    <= sep_bonus_d;
      test_value_q   <= test_value_d;
      test_tie_q     <= test_tie_d;
      search_ctrl_q  <= search_ctrl_d;
      node_limit_q   <= node_limit_d;
      offset_ctrl_q  <= offset_ctrl_d;
      job_board_q    <= job_board_d;
      job_hist_q     <= job_hist_d;
      job_pos_q      <= job_pos_d;
    end
  end

`ifdef VERILATOR
  // Assertions (verilated with --assert in the regression's second configuration).
  // One register or memory is written per bus write.
  logic [14:0] strobes;
  logic        config_changes;  // a register this block holds takes a new value
  assign config_changes = {eval_ctrl_d, runner_bonus_d, sep_bonus_d, test_value_d, test_tie_d, search_ctrl_d,
                           node_limit_d, offset_ctrl_d, job_board_d, job_hist_d, job_pos_d} !=
                          {eval_ctrl_q, runner_bonus_q, sep_bonus_q, test_value_q, test_tie_q, search_ctrl_q,
                           node_limit_q, offset_ctrl_q, job_board_q, job_hist_q, job_pos_q};
  assign strobes = {cmd_we_o, abort_we_o, move_we_o, stm_we_o, castling_we_o, ep_we_o, half_we_o, full_we_o,
                    board_we_o, est_we_o, pst_we_o, ph_ram_we_o, se_we_o, err_clear, config_changes};
  a_one_write: assert property (@(posedge clk_i) disable iff (!rst_ni) $onehot0(strobes));
  // At most one region decodes an address (the write decode's order relies on it).
  a_regions_disjoint: assert property (@(posedge clk_i) disable iff (!rst_ni)
      req_i |-> $onehot0({is_board, is_pst, is_phase_ram, is_reg_ro, is_reg_rw, se_reg_hit_i, se_tab_hit_i,
                          se_grp_hit_i, is_board_pack, is_job_hist}));
  // A write to a read-only register, or one refused while a command runs, takes no effect and
  // answers with an error.
  a_read_only: assert property (@(posedge clk_i) disable iff (!rst_ni)
      req_i && we_i && (is_reg_ro || se_grp_hit_i) |-> strobes == 15'd0 && err_d);
  a_busy: assert property (@(posedge clk_i) disable iff (!rst_ni)
      req_i && we_i && busy_i && addr_i != chip_pkg::REG_ABORT && addr_i != chip_pkg::REG_ERROR
      |-> strobes == 15'd0 && err_d);
  a_config_held: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !(req_i && we_i) |=> $stable(search_ctrl_q) && $stable(offset_ctrl_q) && $stable(test_value_q));
`endif

  assign rvalid_o       = rvalid_q;
  // A read of a RAM: the tables and the placement table while idle (their read ports serve the
  // slow evaluation and MAKE while busy: they read as 0), the phase RAM at any time. A write's
  // response carries 0.
  always_comb begin
    ram_read_d = RamNone;
    if (req_i && !we_i && !se_reg_hit_i && !se_grp_hit_i) begin
      if (se_tab_hit_i && !busy_i) ram_read_d = RamTable;
      else if (is_pst && !busy_i) ram_read_d = RamPst;
      else if (is_phase_ram) ram_read_d = RamPhase;
    end
  end
  always_comb begin
    unique case (ram_read_q)
      RamTable: rdata_o = se_tab_rdata_i;
      RamPst:   rdata_o = {16'd0, pst_rdata_i};
      RamPhase: rdata_o = {16'd0, ph_ram_rdata_i};
      default:  rdata_o = rdata_q;
    endcase
  end
  assign err_o          = err_q;
  assign kpk_en_o       = eval_ctrl_q.kpk;
  assign rules_en_o     = eval_ctrl_q.rules;
  assign runner_bonus_o = runner_bonus_q;
  assign sep_bonus_o    = sep_bonus_q;
  assign test_value_o   = test_value_q;
  assign test_tie_o     = test_tie_q;
  assign search_ctrl_o  = search_ctrl_q;
  assign node_limit_o   = node_limit_q;
  assign offset_ctrl_o  = offset_ctrl_q;
  assign job_board_o    = job_board_q;
  assign job_hist_o     = job_hist_q;
  assign job_pos_o      = job_pos_q;
endmodule
