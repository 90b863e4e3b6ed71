// Game phase control of the fast evaluation (IEEE Micro, "Evaluation function"): the piece-count
// register (pieces of each type left, per colour), the XORed piece-location registers (the square
// of a piece when it is the only one of its type), and the game phase RAM addressed by the
// material signature, giving the material-combination bonus and phase multipliers.
//
// Updates arrive as up to four events a clock from the controller: a piece of a type appearing
// on or leaving a square (count +1 / -1, location toggled) or moving (location toggled by
// from^to, count unchanged). An unmake restores both registers from the move stack, where MAKE
// pushed them (restore_i in UNMAKE, late_restore_i for the undo the search decides late in TEST
// and in the slow evaluation's last clock): a select of the stored values is a short path from
// that decision to the RAM's next counts, where the unmade move's events (the board read at its
// target square, the adders) were a long one (issue 22: logic depth). The endgame logic reads the
// next values without the late undo (counts_fwd_o, locs_fwd_o) and keeps its own results for it.
// The reference model sends the events reversed; the values are the same.
//
// The RAM reads synchronously (block RAM on an FPGA): the signature-addressed words are read with
// the next clock's counts, so phase_o and phase_swap_o always hold the words of the current
// counts, as an asynchronous read would; a host write shows in them in the next clock (a read of
// the address being written returns the new word). The host's reads have a copy of their own:
// the word of a request clock's address is on ram_rdata_o in the response clock. The three
// copies are always written together (rtl/eval_phase_ram.sv).
module eval_phase (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        clear_i,          // EVAL_INIT starts: counts and locations to zero
  input  logic [3:0]  ev_valid_i,
  input  logic [15:0] ev_piece_i,       // event k: piece code at [k*4 +: 4]
  input  logic [23:0] ev_loc_i,         // location toggle at [k*6 +: 6]
  input  logic [7:0]  ev_delta_i,       // count delta at [k*2 +: 2]: 01 = +1, 11 = -1, 00 = none
  input  logic        restore_i,        // UNMAKE: the registers take the stack entry's values
  input  logic        late_restore_i,   // the late undo (TEST, SEVAL): the same, decided late
  input  logic [39:0] restore_counts_i,
  input  logic [71:0] restore_locs_i,
  // Phase RAM: host port (write, and read) and the signature-addressed reads.
  input  logic        ram_we_i,
  input  logic [9:0]  ram_addr_i,
  input  logic [15:0] ram_wdata_i,
  output logic [15:0] ram_rdata_o,
  output logic [15:0] phase_o,
  output logic [15:0] phase_swap_o,     // the word with the two signatures swapped (black's view)
  output logic [39:0] counts_o,         // white [19:0], black [39:20]: P, N, B, R, Q (4 bits each)
  output logic [71:0] locs_o,           // white [35:0], black [71:36]: P, N, B, R, Q, K (6 bits each)
  // The registers' values in the next clock but for the late undo: the next-position blocks'
  // input (the KPK ROM's address, the endgame rules, the king-and-pawn array), which keep their
  // results for the late undo instead (issue 22: logic depth).
  output logic [39:0] counts_fwd_o,
  output logic [71:0] locs_fwd_o
);
  logic [39:0] counts_q, counts_d, counts_fwd;
  logic [71:0] locs_q, locs_d, locs_fwd;

  // Each location register toggles by the events naming its colour and type; each counter adds
  // their deltas. The next values are computed in the registers' enabled branch, so a simulator
  // decodes the events only in clocks that have some.
  function automatic logic [71:0] locs_next(input logic [71:0] locs, input logic [3:0] valid,
                                            input logic [15:0] piece, input logic [23:0] loc);
    locs_next = locs;
    for (int slot = 0; slot < 12; slot++) begin
      for (int k = 0; k < 4; k++) begin
        if (valid[k] && piece[k*4 +: 4] == {slot >= 6, 3'(slot % 6 + 1)}) begin
          locs_next[slot*6 +: 6] = locs_next[slot*6 +: 6] ^ loc[k*6 +: 6];
        end
      end
    end
  endfunction
  function automatic logic [39:0] counts_next(input logic [39:0] counts, input logic [3:0] valid,
                                              input logic [15:0] piece, input logic [7:0] delta);
    counts_next = counts;
    for (int slot = 0; slot < 10; slot++) begin
      for (int k = 0; k < 4; k++) begin
        if (valid[k] && piece[k*4 +: 4] == {slot >= 5, 3'(slot % 5 + 1)}) begin
          counts_next[slot*4 +: 4] = counts_next[slot*4 +: 4] + {{2{delta[k*2+1]}}, delta[k*2 +: 2]};
        end
      end
    end
  endfunction

  always_comb begin
    counts_fwd = counts_q;
    locs_fwd   = locs_q;
    if (clear_i) begin
      counts_fwd = '0;
      locs_fwd   = '0;
    end else if (restore_i) begin
      counts_fwd = restore_counts_i;
      locs_fwd   = restore_locs_i;
    end else if (ev_valid_i != 4'd0) begin
      counts_fwd = counts_next(counts_q, ev_valid_i, ev_piece_i, ev_delta_i);
      locs_fwd   = locs_next(locs_q, ev_valid_i, ev_piece_i, ev_loc_i);
    end
  end
  // The late undo has no events and no clear in its clock (chip_ctrl's a_phase_restore_alone).
  assign counts_d = late_restore_i ? restore_counts_i : counts_fwd;
  assign locs_d   = late_restore_i ? restore_locs_i : locs_fwd;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      counts_q <= '0;
      locs_q   <= '0;
    end else begin
      counts_q <= counts_d;
      locs_q   <= locs_d;
    end
  end

  // Material signature of one side: {queens >= 1, min(rooks, 2), min(knights + bishops, 3)}.
  // c: one side's counts without pawns ([15:12] queens, [11:8] rooks, [7:4] bishops, [3:0] knights).
  function automatic logic [4:0] signature(input logic [15:0] c);
    logic [4:0] minors;
    minors         = {1'b0, c[3:0]} + {1'b0, c[7:4]};
    signature[4]   = (c[15:12] != 4'd0);
    signature[3:2] = (c[11:8] >= 4'd2) ? 2'd2 : c[9:8];
    signature[1:0] = (minors >= 5'd3) ? 2'd3 : minors[1:0];
  endfunction

  logic [9:0] phase_addr, swap_addr;
  assign phase_addr = {signature(counts_d[19:4]), signature(counts_d[39:24])};
  assign swap_addr  = {signature(counts_d[39:24]), signature(counts_d[19:4])};
  eval_phase_ram u_ram (
    .clk_i,
    .we_i         (ram_we_i),
    .addr_i       (ram_addr_i),
    .wdata_i      (ram_wdata_i),
    .host_rdata_o (ram_rdata_o),
    .phase_addr_i (phase_addr),
    .swap_addr_i  (swap_addr),
    .phase_o,
    .swap_o       (phase_swap_o)
  );
  assign counts_o      = counts_q;
  assign locs_o        = locs_q;
  assign counts_fwd_o  = counts_fwd;
  assign locs_fwd_o    = locs_fwd;
endmodule
