// Game phase control of the fast evaluation (IEEE Micro, "Evaluation function"): the piece-count
// register (pieces of each type left, per colour), the XORed piece-location registers (the square
// of a piece when it is the only one of its type), and the game phase RAM addressed by the
// material signature, giving the material-combination bonus and phase multipliers.
//
// Updates arrive as up to four events a clock from the controller: a piece of a type appearing
// on or leaving a square (count +1 / -1, location toggled) or moving (location toggled by
// from^to, count unchanged). XOR makes every update its own inverse, so UNMAKE sends the same
// events with the count deltas reversed.
module eval_phase (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        clear_i,          // EVAL_INIT starts: counts and locations to zero
  input  logic [3:0]  ev_valid_i,
  input  logic [15:0] ev_piece_i,       // event k: piece code at [k*4 +: 4]
  input  logic [23:0] ev_loc_i,         // location toggle at [k*6 +: 6]
  input  logic [7:0]  ev_delta_i,       // count delta at [k*2 +: 2]: 01 = +1, 11 = -1, 00 = none
  // Phase RAM: host port (write, and read while idle) and the signature-addressed read.
  input  logic        ram_we_i,
  input  logic [9:0]  ram_addr_i,
  input  logic [15:0] ram_wdata_i,
  output logic [15:0] ram_rdata_o,
  output logic [15:0] phase_o,
  output logic [15:0] phase_swap_o,     // the word with the two signatures swapped (black's view)
  output logic [39:0] counts_o,         // white [19:0], black [39:20]: P, N, B, R, Q (4 bits each)
  output logic [71:0] locs_o            // white [35:0], black [71:36]: P, N, B, R, Q, K (6 bits each)
);
  logic [39:0] counts_q;
  logic [71:0] locs_q;

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

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      counts_q <= '0;
      locs_q   <= '0;
    end else if (clear_i) begin
      counts_q <= '0;
      locs_q   <= '0;
    end else if (ev_valid_i != 4'd0) begin
      counts_q <= counts_next(counts_q, ev_valid_i, ev_piece_i, ev_delta_i);
      locs_q   <= locs_next(locs_q, ev_valid_i, ev_piece_i, ev_loc_i);
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

  logic [15:0] ram [1024];
  always_ff @(posedge clk_i) begin
    if (ram_we_i) ram[ram_addr_i] <= ram_wdata_i;
  end
  assign ram_rdata_o = ram[ram_addr_i];
  assign phase_o     = ram[{signature(counts_q[19:4]), signature(counts_q[39:24])}];
  assign phase_swap_o = ram[{signature(counts_q[39:24]), signature(counts_q[19:4])}];
  assign counts_o    = counts_q;
  assign locs_o      = locs_q;
endmodule
