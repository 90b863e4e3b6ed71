// The link's request executor (docs/link.md, "Messages"): takes the receiver's entries (good frames
// in a receive RAM bank, or receive errors), parses each request from its bank, drives the chips'
// bus ports and writes the reply (header and payload) into a transmit slot for link_tx_frame.
//
// The chips' clocks are enabled by this block (chip_ce_o): a chip takes one clock per enabled cycle
// and none otherwise, so the bridge's own pace (UART bytes, parsing) never shows in a chip's clock.
// A chip's clock counter counts exactly the clocks the protocol gives it (an access: one, TICK n: n,
// RUN: its loop), as the TCP server's backends count them; RESET, RELEASE and CLAIM restart it at 0.
// Bus outputs are registered: a request decided in cycle t is on chip_req_o in t + 1, and its
// response is read in t + 2.
//
// Each chip has an idle-clock ticker (TICK, a RUN's quanta) that runs by itself; one RUN at a time
// (run_*): its quanta tick while other requests are served, and its polls are made between them.
// ABORT, RESET, RELEASE and DEBUG act at once; an ACCESS for the running chip, or a RUN while one
// runs, waits in the one pending slot (a second one is ERROR BUSY). ACCESS batches run to the end
// (a long TICK keeps the executor until it is done). HELLO begins a new session: the RUN and the
// waiting request end without replies, and every claimed chip is reset and released.
module link_exec #(
  parameter int          NCHIPS   = 1,
  parameter int          NBANKS   = 4,
  parameter int          CLK_HZ   = 24000000,
  parameter int          NAME_LEN = 14,
  parameter logic [8*NAME_LEN-1:0] NAME = "deepblue board"
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  // The receiver's entries.
  input  logic                      ent_valid_i,
  input  logic [3:0]                ent_err_i,
  input  logic [7:0]                ent_type_i,
  input  logic [15:0]               ent_seq_i,
  input  logic [12:0]               ent_len_i,
  output logic [1:0]                rx_bank_o,      // the bank the receiver writes
  // Receive RAM read port ({bank, offset}).
  output logic [14:0]               rxr_addr_o,
  input  logic [7:0]                rxr_data_i,
  // Transmit RAM write port ({slot, offset}) and the transmitter.
  output logic                      txw_en_o,
  output logic [13:0]               txw_addr_o,
  output logic [7:0]                txw_data_o,
  input  logic                      tx_wslot_i,
  input  logic                      tx_wfree_i,
  output logic                      tx_push_o,
  output logic [12:0]               tx_push_len_o,
  // The chips' bus ports (chip_top's host interface), the clock enable and reset of each.
  output logic [NCHIPS-1:0]         chip_ce_o,
  output logic [NCHIPS-1:0]         chip_rst_no,
  output logic [NCHIPS-1:0]         chip_req_o,
  output logic                      chip_we_o,
  output logic [16:0]               chip_addr_o,
  output logic [31:0]               chip_wdata_o,
  input  logic [NCHIPS*32-1:0]      chip_rdata_i,
  input  logic [NCHIPS-1:0]         chip_err_i,
  // Debug ports, per chip {state 4, ply 6, move 16, nodes 32, leaf 16, flags 8}.
  input  logic [NCHIPS*82-1:0]      chip_dbg_i,
  // Status.
  output logic                      run_busy_o,     // a RUN is running
  output logic                      run_done_o,     // one clock: a RUN ended with outcome DONE
  output logic                      err_o,          // one clock: an ERROR reply was sent, or an entry lost
  output logic                      idle_o          // nothing queued, running or ticking
);
  localparam int CIW = (NCHIPS > 1) ? $clog2(NCHIPS) : 1;
  localparam logic [15:0] NChips = 16'(NCHIPS);
  // Error codes.
  localparam logic [15:0] EUnknownType = 16'd3;
  localparam logic [15:0] ETooLong     = 16'd4;
  localparam logic [15:0] EBadPayload  = 16'd5;
  localparam logic [15:0] EBadChip     = 16'd6;
  localparam logic [15:0] ENotClaimed  = 16'd7;
  localparam logic [15:0] EBadAddress  = 16'd8;
  localparam logic [15:0] EBusy        = 16'd9;
  localparam logic [15:0] EVersion     = 16'd11;
  localparam logic [15:0] ENoChips     = 16'd12;

  typedef enum logic [6:0] {
    SIdle, SSlot, SDispatch, SDone,
    SFetch, SFetchCap, SEmit, SBus, SBusW, SBusCap, SReply, SReply2,
    SErrStart, SErrEnd,
    SHello1, SHello2, SHello3, SHello4, SHello5, SHelloName,
    SClaim1, SClaimLoop, SClaimNext, SClaimEnd, SClaimEnd2,
    SRef1, SDebug2, SDebug3, SOk, SAbortOk, SRstPend, SRstBusy, SRstDo,
    SAcc1, SAcc2, SAccChk, SAccChkKind, SAccChkA, SAccChkN, SAccChkOp, SAccChkEnd,
    SAccEx, SAccExKind, SAccW, SAccWDone, SAccR, SAccRDone, SAccBA, SAccBN, SAccBw, SAccBwD,
    SAccBwDone, SAccBr, SAccBrDone, SAccBrNext, SAccTick, SAccTickW, SAccTag, SAccNext,
    SAccFin, SAccFin2, SAccFin3, SAccFin4,
    SRun1, SRun2, SRun3, SRun4, SRunList, SRunListA, SRunChk,
    SRunS1, SRunS2, SRunS3, SRunS4, SRunS5, SRunS6, SRunS7,
    SRunPoll, SRunPolled, SRunReply, SRunRd, SRunRdA, SRunRdD, SRunHdr, SRunHdr2, SRunHdr3,
    SRunHdr4, SRunEnd
  } state_e;

  // Field access.
  state_e        state_d, state_q;
  state_e        fret_d, fret_q, eret_d, eret_q, bret_d, bret_q, rret_d, rret_q, sret_d, sret_q;
  state_e        runret_d, runret_q;
  logic [3:0]    fn_d, fn_q, fcnt_d, fcnt_q;
  logic [63:0]   fv_d, fv_q;
  logic [12:0]   rd_d, rd_q, lim_d, lim_q;
  logic [1:0]    rdb_d, rdb_q;
  logic [3:0]    en_d, en_q;
  logic [63:0]   ev_d, ev_q;
  logic [12:0]   wr_d, wr_q, sav_d, sav_q;
  logic          held_d, held_q;              // a transmit slot is ours
  logic [7:0]    rtype_d, rtype_q;
  logic [15:0]   rseq_d, rseq_q;
  // The entry being served.
  logic [3:0]    cerr_d, cerr_q;
  logic [1:0]    cbank_d, cbank_q;
  logic [7:0]    ctype_d, ctype_q;
  logic [15:0]   cseq_d, cseq_q;
  logic [12:0]   clen_d, clen_q;
  logic          chas_d, chas_q;              // it holds its bank
  logic          ckeep_d, ckeep_q;            // and keeps it (pending, or the RUN's)
  // Error reply.
  logic [15:0]   ecode_d, ecode_q, edet_d, edet_q, eseq_d, eseq_q;
  // Scratch.
  logic [15:0]   chip_d, chip_q, cnt_d, cnt_q, i_d, i_q, n_d, n_q, j_d, j_q, sdet_d, sdet_q;
  logic [15:0]   serr_d, serr_q;
  logic [7:0]    kind_d, kind_q;
  logic [31:0]   addr_d, addr_q;
  logic [15:0]   fop_d, fop_q;
  logic [31:0]   faddr_d, faddr_q;
  logic [10:0]   words_d, words_q;
  logic          qz_d, qz_q;                  // RUN quantum 0
  // Bus access.
  logic [CIW-1:0] bc_d, bc_q;
  logic          bwe_d, bwe_q;
  logic [31:0]   bdata_d, bdata_q;
  logic          berr_d, berr_q;
  // Entry queue (link_entries).
  logic          q_valid, q_pop, q_lost;
  logic [3:0]    q_err;
  logic [1:0]    q_bank;
  logic [7:0]    q_type;
  logic [15:0]   q_seq;
  logic [12:0]   q_len;
  logic [NBANKS-1:0] bank_release;
  // Pending request.
  logic          pv_d, pv_q;
  logic [1:0]    pbank_d, pbank_q;
  logic [7:0]    ptype_d, ptype_q;
  logic [15:0]   pseq_d, pseq_q, pchip_d, pchip_q;
  logic [12:0]   plen_d, plen_q;
  // The RUN.
  logic          ra_d, ra_q;
  logic [CIW-1:0] rc_d, rc_q;
  logic [15:0]   rseqr_d, rseqr_q;
  logic [1:0]    rbank_d, rbank_q;
  logic [31:0]   rquant_d, rquant_q, rmax_d, rmax_q, rmask_d, rmask_q, rval_d, rval_q, rq_d, rq_q;
  logic [16:0]   rpoll_d, rpoll_q;
  logic [15:0]   rn_d, rn_q;
  logic [1:0]    rout_d, rout_q;
  // Chips.
  logic [NCHIPS-1:0] claimed_d, claimed_q;
  logic [63:0]   tag_d [NCHIPS];
  logic [63:0]   tag_q [NCHIPS];
  logic [63:0]   clk_d [NCHIPS];
  logic [63:0]   clk_q [NCHIPS];
  logic [31:0]   tick_d [NCHIPS];
  logic [31:0]   tick_q [NCHIPS];
  logic [1:0]    rst_d [NCHIPS];
  logic [1:0]    rst_q [NCHIPS];
  logic [NCHIPS-1:0] ce_d, ce_q, req_d, req_q, rstn_d, rstn_q;
  logic          we_d, we_q;
  logic [16:0]   baddr_d, baddr_q;
  logic [31:0]   wdata_d, wdata_q;
  // Status pulses.
  logic          done_d, done_q, eflag_d, eflag_q;
  // Helpers.
  logic [CIW-1:0] ci;                         // chip_q as an index (0 when out of range)
  logic          chip_ok;
  logic [15:0]   nfree;
  logic [81:0]   dbg;
  logic [32:0]   last_addr;
  logic [12:0]   name_idx;
  logic [7:0]    name_sh;           // the name's byte i_q

  assign name_idx = 13'(NAME_LEN - 1) - i_q[12:0];
  assign name_sh  = 8'(NAME >> {name_idx, 3'b000});
  assign chip_ok = (chip_q < NChips);
  assign ci      = chip_ok ? CIW'(chip_q) : '0;
  assign dbg     = chip_dbg_i[82*ci +: 82];

  always_comb begin
    nfree = '0;
    for (int c = 0; c < NCHIPS; c++) nfree = nfree + 16'(!claimed_q[c]);
  end

  link_entries #(.NBANKS(NBANKS)) u_entries (
    .clk_i,
    .rst_ni,
    .ent_valid_i,
    .ent_err_i,
    .ent_type_i,
    .ent_seq_i,
    .ent_len_i,
    .rx_bank_o,
    .lost_o       (q_lost),
    .head_valid_o (q_valid),
    .head_err_o   (q_err),
    .head_bank_o  (q_bank),
    .head_type_o  (q_type),
    .head_seq_o   (q_seq),
    .head_len_o   (q_len),
    .pop_i        (q_pop),
    .release_i    (bank_release)
  );

  // The last address of a block op (count 0 counts as 1).
  assign last_addr = {1'b0, addr_q} + ((n_q == '0) ? 33'd0 : 33'(n_q) - 33'd1);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= SIdle;
      fret_q <= SIdle; eret_q <= SIdle; bret_q <= SIdle; rret_q <= SIdle; sret_q <= SIdle;
      runret_q <= SIdle;
      fn_q <= '0; fcnt_q <= '0; fv_q <= '0; rd_q <= '0; lim_q <= '0; rdb_q <= '0;
      en_q <= '0; ev_q <= '0; wr_q <= '0; sav_q <= '0; held_q <= 1'b0; rtype_q <= '0; rseq_q <= '0;
      cerr_q <= '0; cbank_q <= '0; ctype_q <= '0; cseq_q <= '0; clen_q <= '0; chas_q <= 1'b0;
      ckeep_q <= 1'b0;
      ecode_q <= '0; edet_q <= '0; eseq_q <= '0;
      chip_q <= '0; cnt_q <= '0; i_q <= '0; n_q <= '0; j_q <= '0; sdet_q <= '0; serr_q <= '0;
      kind_q <= '0; addr_q <= '0; fop_q <= '0; faddr_q <= '0; words_q <= '0; qz_q <= 1'b0;
      bc_q <= '0; bwe_q <= 1'b0; bdata_q <= '0; berr_q <= 1'b0;
      pv_q <= 1'b0; pbank_q <= '0; ptype_q <= '0; pseq_q <= '0; pchip_q <= '0; plen_q <= '0;
      ra_q <= 1'b0; rc_q <= '0; rseqr_q <= '0; rbank_q <= '0; rquant_q <= '0; rmax_q <= '0;
      rmask_q <= '0; rval_q <= '0; rq_q <= '0; rpoll_q <= '0; rn_q <= '0; rout_q <= '0;
      claimed_q <= '0; ce_q <= '0; req_q <= '0; rstn_q <= '0; we_q <= 1'b0; baddr_q <= '0;
      wdata_q <= '0; done_q <= 1'b0; eflag_q <= 1'b0;
      for (int c = 0; c < NCHIPS; c++) begin
        tag_q[c] <= '0; clk_q[c] <= '0; tick_q[c] <= '0; rst_q[c] <= 2'd2;
      end
    end else begin
      state_q <= state_d;
      fret_q <= fret_d; eret_q <= eret_d; bret_q <= bret_d; rret_q <= rret_d; sret_q <= sret_d;
      runret_q <= runret_d;
      fn_q <= fn_d; fcnt_q <= fcnt_d; fv_q <= fv_d; rd_q <= rd_d; lim_q <= lim_d; rdb_q <= rdb_d;
      en_q <= en_d; ev_q <= ev_d; wr_q <= wr_d; sav_q <= sav_d; held_q <= held_d; rtype_q <= rtype_d;
      rseq_q <= rseq_d;
      cerr_q <= cerr_d; cbank_q <= cbank_d; ctype_q <= ctype_d; cseq_q <= cseq_d; clen_q <= clen_d;
      chas_q <= chas_d; ckeep_q <= ckeep_d;
      ecode_q <= ecode_d; edet_q <= edet_d; eseq_q <= eseq_d;
      chip_q <= chip_d; cnt_q <= cnt_d; i_q <= i_d; n_q <= n_d; j_q <= j_d; sdet_q <= sdet_d;
      serr_q <= serr_d; kind_q <= kind_d; addr_q <= addr_d; fop_q <= fop_d; faddr_q <= faddr_d;
      words_q <= words_d; qz_q <= qz_d;
      bc_q <= bc_d; bwe_q <= bwe_d; bdata_q <= bdata_d; berr_q <= berr_d;
      pv_q <= pv_d; pbank_q <= pbank_d; ptype_q <= ptype_d; pseq_q <= pseq_d; pchip_q <= pchip_d;
      plen_q <= plen_d;
      ra_q <= ra_d; rc_q <= rc_d; rseqr_q <= rseqr_d; rbank_q <= rbank_d; rquant_q <= rquant_d;
      rmax_q <= rmax_d; rmask_q <= rmask_d; rval_q <= rval_d; rq_q <= rq_d; rpoll_q <= rpoll_d;
      rn_q <= rn_d; rout_q <= rout_d;
      claimed_q <= claimed_d; ce_q <= ce_d; req_q <= req_d; rstn_q <= rstn_d; we_q <= we_d;
      baddr_q <= baddr_d; wdata_q <= wdata_d; done_q <= done_d; eflag_q <= eflag_d;
      for (int c = 0; c < NCHIPS; c++) begin
        tag_q[c] <= tag_d[c]; clk_q[c] <= clk_d[c]; tick_q[c] <= tick_d[c]; rst_q[c] <= rst_d[c];
      end
    end
  end

  // Subroutine calls: fetch n payload bytes (little-endian into fv), emit n bytes of v, access the bus,
  // send the reply, wait for a transmit slot.
`define LX_FETCH(n, ret) begin fn_d = 4'(n); fcnt_d = '0; fv_d = '0; fret_d = ret; state_d = SFetch; end
`define LX_EMIT(n, v, ret) begin en_d = 4'(n); ev_d = 64'(v); eret_d = ret; state_d = SEmit; end
`define LX_BUS(c, w, a, d, ret) begin bc_d = CIW'(c); bwe_d = w; addr_d = a; bdata_d = d; bret_d = ret; state_d = SBus; end
`define LX_REPLY(t, s, ret) begin rtype_d = t; rseq_d = s; rret_d = ret; state_d = SReply; end
`define LX_SLOT(ret) begin sret_d = ret; state_d = SSlot; end
`define LX_ERR(code, det) begin ecode_d = code; edet_d = det; state_d = SErrStart; end
// A request that must wait for the RUN in progress is parked (one place; its receive bank kept)
// and served when the RUN ends; a second one is refused BUSY.
`define LX_PARK begin \
  if (pv_q) begin `LX_ERR(EBusy, chip_q) end \
  else begin \
    pv_d = 1'b1; pbank_d = cbank_q; ptype_d = ctype_q; pseq_d = cseq_q; plen_d = clen_q; pchip_d = chip_q; \
    ckeep_d = 1'b1; state_d = SDone; \
  end \
end

  always_comb begin
    state_d = state_q;
    fret_d = fret_q; eret_d = eret_q; bret_d = bret_q; rret_d = rret_q; sret_d = sret_q;
    runret_d = runret_q;
    fn_d = fn_q; fcnt_d = fcnt_q; fv_d = fv_q; rd_d = rd_q; lim_d = lim_q; rdb_d = rdb_q;
    en_d = en_q; ev_d = ev_q; wr_d = wr_q; sav_d = sav_q; held_d = held_q; rtype_d = rtype_q;
    rseq_d = rseq_q;
    cerr_d = cerr_q; cbank_d = cbank_q; ctype_d = ctype_q; cseq_d = cseq_q; clen_d = clen_q;
    chas_d = chas_q; ckeep_d = ckeep_q;
    ecode_d = ecode_q; edet_d = edet_q; eseq_d = eseq_q;
    chip_d = chip_q; cnt_d = cnt_q; i_d = i_q; n_d = n_q; j_d = j_q; sdet_d = sdet_q;
    serr_d = serr_q; kind_d = kind_q; addr_d = addr_q; fop_d = fop_q; faddr_d = faddr_q;
    words_d = words_q; qz_d = qz_q;
    bc_d = bc_q; bwe_d = bwe_q; bdata_d = bdata_q; berr_d = berr_q;
    q_pop = 1'b0; bank_release = '0;
    pv_d = pv_q; pbank_d = pbank_q; ptype_d = ptype_q; pseq_d = pseq_q; pchip_d = pchip_q;
    plen_d = plen_q;
    ra_d = ra_q; rc_d = rc_q; rseqr_d = rseqr_q; rbank_d = rbank_q; rquant_d = rquant_q;
    rmax_d = rmax_q; rmask_d = rmask_q; rval_d = rval_q; rq_d = rq_q; rpoll_d = rpoll_q;
    rn_d = rn_q; rout_d = rout_q;
    claimed_d = claimed_q;
    we_d = we_q; baddr_d = baddr_q; wdata_d = wdata_q;
    done_d = 1'b0;
    eflag_d = q_lost;       // an entry lost to a full queue
    // Chips: reset pulses and tickers run by themselves.
    for (int c = 0; c < NCHIPS; c++) begin
      tag_d[c]  = tag_q[c];
      clk_d[c]  = clk_q[c];
      tick_d[c] = tick_q[c];
      rst_d[c]  = rst_q[c];
      ce_d[c]   = 1'b0;
      req_d[c]  = 1'b0;
      rstn_d[c] = 1'b1;
      if (rst_q[c] != '0) begin
        rst_d[c]  = rst_q[c] - 1'b1;
        ce_d[c]   = 1'b1;
        rstn_d[c] = 1'b0;
        clk_d[c]  = '0;
      end else if (tick_q[c] != '0) begin
        tick_d[c] = tick_q[c] - 1'b1;
        ce_d[c]   = 1'b1;
        clk_d[c]  = clk_q[c] + 1'b1;
      end
    end
    rxr_addr_o    = {rdb_q, rd_q + 13'd6};
    txw_en_o      = 1'b0;
    txw_addr_o    = {tx_wslot_i, wr_q};
    txw_data_o    = ev_q[7:0];
    tx_push_o     = 1'b0;
    tx_push_len_o = sav_q + 13'd6;

    unique case (state_q)
      SIdle: begin
        if (ra_q && tick_q[rc_q] == '0) begin
          state_d = SRunPoll;
        end else if (pv_q && !ra_q) begin
          pv_d    = 1'b0;
          cerr_d  = '0;
          cbank_d = pbank_q;
          ctype_d = ptype_q;
          cseq_d  = pseq_q;
          clen_d  = plen_q;
          chas_d  = 1'b1;
          ckeep_d = 1'b0;
          `LX_SLOT(SDispatch)
        end else if (q_valid) begin
          cerr_d  = q_err;
          cbank_d = q_bank;
          ctype_d = q_type;
          cseq_d  = q_seq;
          clen_d  = q_len;
          chas_d  = (q_err == '0);
          ckeep_d = 1'b0;
          q_pop   = 1'b1;
          `LX_SLOT(SDispatch)
        end
      end
      SSlot: begin
        if (held_q || tx_wfree_i) begin
          held_d  = 1'b1;
          wr_d    = 13'd6;
          state_d = sret_q;
        end
      end
      SDispatch: begin
        rdb_d  = cbank_q;
        rd_d   = '0;
        lim_d  = clen_q;
        eseq_d = cseq_q;
        if (cerr_q != '0) begin
          `LX_ERR({12'h0, cerr_q}, 16'h0)
        end else begin
          unique case (ctype_q)
            8'h01: begin
              // A new session (docs/link.md, HELLO): what the previous host left ends as when a
              // TCP connection goes. The RUN ends without a reply, the request waiting for a chip
              // is dropped without one, every claimed chip is reset and released. With nothing
              // claimed (a resent HELLO) nothing changes.
              ra_d = 1'b0;
              pv_d = 1'b0;
              if (ra_q) bank_release[rbank_q] = 1'b1;
              if (pv_q) bank_release[pbank_q] = 1'b1;
              for (int c = 0; c < NCHIPS; c++) begin
                if (claimed_q[c]) begin
                  rst_d[c]  = 2'd2;
                  tag_d[c]  = '0;
                  clk_d[c]  = '0;
                  tick_d[c] = '0;
                end
              end
              claimed_d = '0;
              `LX_FETCH(2, SHello1)
            end
            8'h02: `LX_FETCH(2, SClaim1)
            8'h03, 8'h04, 8'h07, 8'h08: `LX_FETCH(2, SRef1)
            8'h05: `LX_FETCH(2, SAcc1)
            8'h06: `LX_FETCH(2, SRun1)
            default: `LX_ERR(EUnknownType, {8'h0, ctype_q})
          endcase
        end
      end
      SDone: begin
        if (chas_q && !ckeep_q) bank_release[cbank_q] = 1'b1;
        chas_d  = 1'b0;
        state_d = SIdle;
      end

      // ---- subroutines ----
      SFetch: begin
        if (fcnt_q == fn_q) begin
          state_d = fret_q;
        end else if (rd_q >= lim_q) begin
          `LX_ERR(EBadPayload, 16'h0)
        end else begin
          rd_d    = rd_q + 1'b1;
          state_d = SFetchCap;
        end
      end
      SFetchCap: begin
        fv_d   = fv_q | (64'(rxr_data_i) << {fcnt_q[2:0], 3'b000});
        fcnt_d = fcnt_q + 1'b1;
        state_d = SFetch;
      end
      SEmit: begin
        txw_en_o = 1'b1;
        wr_d     = wr_q + 1'b1;
        ev_d     = ev_q >> 8;
        en_d     = en_q - 1'b1;
        if (en_q == 4'd1) state_d = eret_q;
      end
      SBus: begin
        if (tick_q[bc_q] == '0 && rst_q[bc_q] == '0) begin
          ce_d[bc_q]  = 1'b1;
          req_d[bc_q] = 1'b1;
          clk_d[bc_q] = clk_q[bc_q] + 1'b1;
          we_d        = bwe_q;
          baddr_d     = addr_q[16:0];
          wdata_d     = bdata_q;
          state_d     = SBusW;
        end
      end
      SBusW: state_d = SBusCap;
      SBusCap: begin
        bdata_d = chip_rdata_i[32*bc_q +: 32];
        berr_d  = chip_err_i[bc_q];
        state_d = bret_q;
      end
      SReply: begin
        sav_d = wr_q - 13'd6;
        wr_d  = '0;
        `LX_EMIT(6, {3'b000, wr_q - 13'd6, rseq_q, 8'h00, rtype_q}, SReply2)
      end
      SReply2: begin
        tx_push_o = 1'b1;
        held_d    = 1'b0;
        state_d   = rret_q;
      end
      SErrStart: begin
        wr_d    = 13'd6;
        eflag_d = 1'b1;
        `LX_EMIT(5, {8'h00, edet_q, ecode_q}, SErrEnd)
      end
      SErrEnd: `LX_REPLY(8'hFF, eseq_q, SDone)

      // ---- HELLO: u16 min, u16 max, u8 name length, name ----
      SHello1: begin
        cnt_d = fv_q[15:0];
        `LX_FETCH(2, SHello2)
      end
      SHello2: begin
        n_d = fv_q[15:0];
        `LX_FETCH(1, SHello3)
      end
      SHello3: begin
        if (13'(fv_q[7:0]) + 13'd5 != clen_q) begin
          `LX_ERR(EBadPayload, 16'h0)
        end else if (cnt_q > 16'd1 || n_q < 16'd1) begin
          `LX_ERR(EVersion, 16'h0)
        end else begin
          `LX_EMIT(7, {8'd3, nfree, NChips, 16'd1}, SHello4)
        end
      end
      SHello4: `LX_EMIT(7, {8'(NAME_LEN), 16'd4096, 32'(CLK_HZ)}, SHello5)
      SHello5: begin
        i_d     = '0;
        state_d = SHelloName;
      end
      SHelloName: begin
        if (i_q == 16'(NAME_LEN)) begin
          `LX_REPLY(8'h81, cseq_q, SDone)
        end else begin
          i_d = i_q + 1'b1;
          `LX_EMIT(1, name_sh, SHelloName)
        end
      end

      // ---- CLAIM: u16 count ----
      SClaim1: begin
        cnt_d = fv_q[15:0];
        if (rd_q != clen_q) begin
          `LX_ERR(EBadPayload, 16'h0)
        end else begin
          i_d     = '0;
          n_d     = '0;
          wr_d    = 13'd8;
          state_d = SClaimLoop;
        end
      end
      SClaimLoop: begin
        if (i_q == NChips) begin
          state_d = SClaimEnd;
        end else if (!claimed_q[CIW'(i_q)] && n_q < cnt_q) begin
          claimed_d[CIW'(i_q)] = 1'b1;
          rst_d[CIW'(i_q)]     = 2'd2;
          tag_d[CIW'(i_q)]     = '0;
          clk_d[CIW'(i_q)]     = '0;
          tick_d[CIW'(i_q)]    = '0;
          n_d                  = n_q + 1'b1;
          `LX_EMIT(2, i_q, SClaimNext)
        end else begin
          state_d = SClaimNext;
        end
      end
      SClaimNext: begin
        i_d     = i_q + 1'b1;
        state_d = SClaimLoop;
      end
      SClaimEnd: begin
        if (cnt_q != '0 && n_q == '0) begin
          `LX_ERR(ENoChips, 16'h0)
        end else begin
          sav_d = wr_q;
          wr_d  = 13'd6;
          `LX_EMIT(2, n_q, SClaimEnd2)
        end
      end
      SClaimEnd2: begin
        wr_d = sav_q;
        `LX_REPLY(8'h82, cseq_q, SDone)
      end

      // ---- RELEASE, RESET, ABORT, DEBUG: u16 chip ----
      SRef1: begin
        chip_d = fv_q[15:0];
        if (rd_q != clen_q) begin
          `LX_ERR(EBadPayload, 16'h0)
        end else if (fv_q[15:0] >= NChips) begin
          `LX_ERR(EBadChip, fv_q[15:0])
        end else if (!claimed_q[CIW'(fv_q[15:0])]) begin
          `LX_ERR(ENotClaimed, fv_q[15:0])
        end else if (ctype_q == 8'h08) begin
          `LX_EMIT(8, clk_q[CIW'(fv_q[15:0])], SDebug2)
        end else if (ra_q && rc_q == CIW'(fv_q[15:0])) begin
          // The RUN on this chip ends first: outcome ABORTED, no words.
          tick_d[rc_q] = '0;
          rout_d       = 2'd2;
          runret_d     = (ctype_q == 8'h07) ? SAbortOk : SRstPend;
          state_d      = SRunReply;
        end else begin
          state_d = (ctype_q == 8'h07) ? SAbortOk : SRstPend;
        end
      end
      SDebug2: `LX_EMIT(8, {dbg[55:24], dbg[71:56], 2'b00, dbg[77:72], 4'h0, dbg[81:78]}, SDebug3)
      SDebug3: `LX_EMIT(3, {dbg[7:0], dbg[23:8]}, SOk)
      SAbortOk: `LX_SLOT(SOk)
      SOk: `LX_REPLY((ctype_q == 8'h08) ? 8'h88 : 8'h80, cseq_q, SDone)
      SRstPend: begin
        if (pv_q && pchip_q == chip_q) begin
          `LX_SLOT(SRstBusy)
        end else begin
          state_d = SRstDo;
        end
      end
      SRstBusy: begin
        // The request waiting for this chip is cancelled.
        pv_d          = 1'b0;
        bank_release[pbank_q] = 1'b1;
        `LX_EMIT(5, {8'h00, chip_q, EBusy}, SRstDo)
        rtype_d = 8'hFF;
        rseq_d  = pseq_q;
        rret_d  = SRstDo;
        eret_d  = SReply;
      end
      SRstDo: begin
        rst_d[ci]  = 2'd2;
        tag_d[ci]  = '0;
        clk_d[ci]  = '0;
        tick_d[ci] = '0;
        if (ctype_q == 8'h03) claimed_d[ci] = 1'b0;
        `LX_SLOT(SOk)
      end

      // ---- ACCESS: u16 chip, u16 op count, ops ----
      SAcc1: begin
        chip_d = fv_q[15:0];
        `LX_FETCH(2, SAcc2)
      end
      SAcc2: begin
        cnt_d   = fv_q[15:0];
        i_d     = '0;
        words_d = '0;
        serr_d  = '0;
        sdet_d  = '0;
        if (clen_q - 13'd4 < 13'(fv_q[15:0]) || fv_q[15:13] != '0) begin
          `LX_ERR(EBadPayload, 16'h0)
        end else begin
          state_d = SAccChk;
        end
      end
      // Pass 1: the whole batch is checked before anything runs.
      SAccChk: begin
        if (i_q == cnt_q) begin
          state_d = SAccChkEnd;
        end else begin
          `LX_FETCH(1, SAccChkKind)
        end
      end
      SAccChkKind: begin
        kind_d = fv_q[7:0];
        n_d    = 16'd1;
        j_d    = '0;                  // reply words of the op
        unique case (fv_q[7:0])
          8'd0: `LX_FETCH(8, SAccChkA)
          8'd1: begin j_d = 16'd1; `LX_FETCH(4, SAccChkA) end
          8'd2, 8'd3: `LX_FETCH(4, SAccChkN)
          8'd4: `LX_FETCH(4, SAccChkOp)
          8'd5: `LX_FETCH(8, SAccChkOp)
          8'd6: begin j_d = 16'd2; state_d = SAccChkOp; end
          default: `LX_ERR(EBadPayload, i_q)
        endcase
      end
      SAccChkN: begin
        addr_d = fv_q[31:0];
        `LX_FETCH(2, SAccChkA)
      end
      SAccChkA: begin
        // fv: the address (READ, WRITE) or the count (block ops, address already in addr).
        if (kind_q == 8'd2 || kind_q == 8'd3) begin
          n_d = fv_q[15:0];
          if (kind_q == 8'd3) j_d = fv_q[15:0];
          if (kind_q == 8'd2) begin
            // The block's data words are skipped here.
            if (14'(rd_q) + {fv_q[11:0], 2'b00} > 14'(clen_q) || fv_q[15:12] != '0) begin
              `LX_ERR(EBadPayload, 16'h0)
            end else begin
              rd_d    = rd_q + {fv_q[10:0], 2'b00};
              state_d = SAccChkOp;
            end
          end else begin
            state_d = SAccChkOp;
          end
        end else begin
          addr_d  = fv_q[31:0];
          state_d = SAccChkOp;
        end
      end
      SAccChkOp: begin
        if (serr_q == '0) begin
          if (kind_q <= 8'd3 && last_addr >= 33'h20000) begin
            serr_d = EBadAddress;
            sdet_d = i_q;
          end else if (17'(words_q) + 17'(j_q) > 17'd1019) begin
            serr_d = ETooLong;
            sdet_d = i_q;
          end else begin
            words_d = words_q + 11'(j_q);
          end
        end
        i_d     = i_q + 1'b1;
        state_d = SAccChk;
      end
      SAccChkEnd: begin
        if (rd_q != clen_q) begin
          `LX_ERR(EBadPayload, 16'h0)
        end else if (!chip_ok) begin
          `LX_ERR(EBadChip, chip_q)
        end else if (!claimed_q[ci]) begin
          `LX_ERR(ENotClaimed, chip_q)
        end else if (ra_q && rc_q == ci) begin
          `LX_PARK
        end else if (serr_q != '0) begin
          `LX_ERR(serr_q, sdet_q)
        end else begin
          // Pass 2: run the batch.
          rd_d    = 13'd4;
          i_d     = '0;
          words_d = '0;
          fop_d   = 16'hFFFF;
          faddr_d = '0;
          wr_d    = 13'd24;
          state_d = SAccEx;
        end
      end
      SAccEx: begin
        if (i_q == cnt_q) begin
          state_d = SAccFin;
        end else begin
          `LX_FETCH(1, SAccExKind)
        end
      end
      SAccExKind: begin
        kind_d = fv_q[7:0];
        j_d    = '0;
        unique case (fv_q[7:0])
          8'd0: `LX_FETCH(8, SAccW)
          8'd1: `LX_FETCH(4, SAccR)
          8'd2, 8'd3: `LX_FETCH(4, SAccBA)
          8'd4: `LX_FETCH(4, SAccTick)
          8'd5: `LX_FETCH(8, SAccTag)
          default: begin
            words_d = words_q + 11'd2;
            `LX_EMIT(8, tag_q[ci], SAccNext)
          end
        endcase
      end
      SAccW: `LX_BUS(ci, 1'b1, fv_q[31:0], fv_q[63:32], SAccWDone)
      SAccWDone: begin
        if (berr_q) begin
          fop_d   = i_q;
          faddr_d = addr_q;
          state_d = SAccFin;
        end else begin
          state_d = SAccNext;
        end
      end
      SAccR: `LX_BUS(ci, 1'b0, fv_q[31:0], 32'h0, SAccRDone)
      SAccRDone: begin
        if (berr_q) begin
          fop_d   = i_q;
          faddr_d = addr_q;
          state_d = SAccFin;
        end else begin
          words_d = words_q + 1'b1;
          `LX_EMIT(4, bdata_q, SAccNext)
        end
      end
      SAccBA: begin
        faddr_d = fv_q[31:0];        // the block's first address
        `LX_FETCH(2, SAccBN)
      end
      SAccBN: begin
        n_d     = fv_q[15:0];
        state_d = (kind_q == 8'd2) ? SAccBw : SAccBr;
      end
      SAccBw: begin
        if (j_q == n_q) begin
          state_d = SAccNext;
        end else begin
          `LX_FETCH(4, SAccBwD)
        end
      end
      SAccBwD: `LX_BUS(ci, 1'b1, faddr_q + 32'(j_q), fv_q[31:0], SAccBwDone)
      SAccBwDone: begin
        if (berr_q) begin
          fop_d   = i_q;
          faddr_d = addr_q;
          state_d = SAccFin;
        end else begin
          j_d     = j_q + 1'b1;
          state_d = SAccBw;
        end
      end
      SAccBr: begin
        if (j_q == n_q) begin
          state_d = SAccNext;
        end else begin
          `LX_BUS(ci, 1'b0, faddr_q + 32'(j_q), 32'h0, SAccBrDone)
        end
      end
      SAccBrDone: begin
        if (berr_q) begin
          fop_d   = i_q;
          faddr_d = addr_q;
          state_d = SAccFin;
        end else begin
          words_d = words_q + 1'b1;
          `LX_EMIT(4, bdata_q, SAccBrNext)
        end
      end
      SAccBrNext: begin
        j_d     = j_q + 1'b1;
        state_d = SAccBr;
      end
      SAccTick: begin
        if (tick_q[ci] == '0 && rst_q[ci] == '0) begin
          tick_d[ci] = fv_q[31:0];
          state_d    = SAccTickW;
        end
      end
      SAccTickW: begin
        if (tick_q[ci] == '0) state_d = SAccNext;
      end
      SAccTag: begin
        tag_d[ci] = fv_q;
        state_d   = SAccNext;
      end
      SAccNext: begin
        i_d     = i_q + 1'b1;
        state_d = SAccEx;
      end
      SAccFin: begin
        if (fop_q == 16'hFFFF) faddr_d = '0;
        sav_d = wr_q;
        wr_d  = 13'd6;
        `LX_EMIT(8, {(fop_q == 16'hFFFF) ? 32'h0 : faddr_q, fop_q, chip_q}, SAccFin2)
      end
      SAccFin2: `LX_EMIT(8, clk_q[ci], SAccFin3)
      SAccFin3: `LX_EMIT(2, words_q, SAccFin4)
      SAccFin4: begin
        wr_d = sav_q;
        `LX_REPLY(8'h85, cseq_q, SDone)
      end

      // ---- RUN: u16 chip, u32 quantum, max quanta, poll address, mask, value, n x u32 ----
      SRun1: begin
        chip_d = fv_q[15:0];
        `LX_FETCH(4, SRun2)
      end
      SRun2: begin
        qz_d   = (fv_q[31:0] == '0);
        serr_d = '0;
        sdet_d = '0;
        rd_d   = rd_q + 13'd4;    // max quanta
        `LX_FETCH(4, SRun3)
      end
      SRun3: begin
        if (fv_q[31:17] != '0) begin
          serr_d = EBadAddress;
          sdet_d = 16'hFFFF;
        end
        rd_d = rd_q + 13'd8;      // mask, value
        `LX_FETCH(2, SRun4)
      end
      SRun4: begin
        n_d = fv_q[15:0];
        j_d = '0;
        if (rd_q > clen_q) begin
          `LX_ERR(EBadPayload, 16'h0)
        end else begin
          state_d = SRunList;
        end
      end
      SRunList: begin
        if (j_q == n_q) begin
          state_d = SRunChk;
        end else begin
          `LX_FETCH(4, SRunListA)
        end
      end
      SRunListA: begin
        if (serr_q == '0 && fv_q[31:17] != '0) begin
          serr_d = EBadAddress;
          sdet_d = j_q;
        end
        j_d     = j_q + 1'b1;
        state_d = SRunList;
      end
      SRunChk: begin
        if (rd_q != clen_q || qz_q) begin
          `LX_ERR(EBadPayload, 16'h0)
        end else if (!chip_ok) begin
          `LX_ERR(EBadChip, chip_q)
        end else if (!claimed_q[ci]) begin
          `LX_ERR(ENotClaimed, chip_q)
        end else if (ra_q) begin
          `LX_PARK
        end else if (serr_q != '0) begin
          `LX_ERR(serr_q, sdet_q)
        end else begin
          rd_d = 13'd2;
          `LX_FETCH(4, SRunS1)
        end
      end
      SRunS1: begin
        rquant_d = fv_q[31:0];
        `LX_FETCH(4, SRunS2)
      end
      SRunS2: begin
        rmax_d = fv_q[31:0];
        `LX_FETCH(4, SRunS3)
      end
      SRunS3: begin
        rpoll_d = fv_q[16:0];
        `LX_FETCH(4, SRunS4)
      end
      SRunS4: begin
        rmask_d = fv_q[31:0];
        `LX_FETCH(4, SRunS5)
      end
      SRunS5: begin
        rval_d = fv_q[31:0];
        state_d = SRunS6;
      end
      SRunS6: begin
        ra_d       = 1'b1;
        rc_d       = ci;
        rseqr_d    = cseq_q;
        rbank_d    = cbank_q;
        rn_d       = n_q;
        rq_d       = '0;
        ckeep_d    = 1'b1;
        tick_d[ci] = rquant_q;
        state_d    = SRunS7;
      end
      SRunS7: state_d = SDone;
      // The loop's poll (from SIdle when the quantum's clocks are done).
      SRunPoll: `LX_BUS(rc_q, 1'b0, 32'(rpoll_q), 32'h0, SRunPolled)
      SRunPolled: begin
        rq_d = rq_q + 1'b1;
        if ((bdata_q & rmask_q) == rval_q) begin
          rout_d   = 2'd0;
          runret_d = SIdle;
          `LX_SLOT(SRunReply)
        end else if (rmax_q != '0 && rq_d == rmax_q) begin
          rout_d   = 2'd1;
          runret_d = SIdle;
          `LX_SLOT(SRunReply)
        end else begin
          tick_d[rc_q] = rquant_q;
          state_d      = SIdle;
        end
      end
      // The RUN's reply in the transmit slot held (the end reads only when DONE).
      SRunReply: begin
        wr_d  = 13'd23;
        j_d   = '0;
        rdb_d = rbank_q;
        rd_d  = 13'd24;
        lim_d = 13'h1FFF;
        state_d = (rout_q == 2'd0) ? SRunRd : SRunHdr;
      end
      SRunRd: begin
        if (j_q == rn_q) begin
          state_d = SRunHdr;
        end else begin
          `LX_FETCH(4, SRunRdA)
        end
      end
      SRunRdA: `LX_BUS(rc_q, 1'b0, fv_q[31:0], 32'h0, SRunRdD)
      SRunRdD: begin
        j_d = j_q + 1'b1;
        `LX_EMIT(4, bdata_q, SRunRd)
      end
      SRunHdr: begin
        sav_d = wr_q;
        wr_d  = 13'd6;
        `LX_EMIT(7, {rq_q, 6'h0, rout_q, 16'(rc_q)}, SRunHdr2)
      end
      SRunHdr2: `LX_EMIT(8, clk_q[rc_q], SRunHdr3)
      SRunHdr3: `LX_EMIT(2, (rout_q == 2'd0) ? 64'(rn_q) : 64'h0, SRunHdr4)
      SRunHdr4: begin
        wr_d = sav_q;
        `LX_REPLY(8'h86, rseqr_q, SRunEnd)
      end
      SRunEnd: begin
        ra_d            = 1'b0;
        bank_release[rbank_q] = 1'b1;
        done_d          = (rout_q == 2'd0);
        rdb_d           = cbank_q;
        state_d         = runret_q;
      end
      default: state_d = SIdle;
    endcase
  end
`undef LX_FETCH
`undef LX_EMIT
`undef LX_BUS
`undef LX_REPLY
`undef LX_SLOT
`undef LX_ERR
`undef LX_PARK

  assign chip_ce_o    = ce_q;
  assign chip_rst_no  = rstn_q;
  assign chip_req_o   = req_q;
  assign chip_we_o    = we_q;
  assign chip_addr_o  = baddr_q;
  assign chip_wdata_o = wdata_q;
  assign run_busy_o   = ra_q;
  assign run_done_o   = done_q;
  assign err_o        = eflag_q;

  always_comb begin
    idle_o = (state_q == SIdle) && !ra_q && !pv_q && !q_valid;
    for (int c = 0; c < NCHIPS; c++) begin
      if (tick_q[c] != '0 || rst_q[c] != '0) idle_o = 1'b0;
    end
  end
endmodule
