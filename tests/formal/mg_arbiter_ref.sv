// The move generator's arbiter as it was written until 2026-11-26 (commit 484f36f), kept only as
// the reference of the formal equivalence check (arbiter_equiv.sh): the bit-serial wired-OR
// arbitration of the original chip, one rippling stage per key bit. Not part of the chip's RTL.
//
// Distributed arbiter of the move-generator array: each of the 64 cells presents a request
// (candidate bit) and a priority key, and the highest key wins.
//
// Arbitration is bit-serial from the most significant key bit, as on a wired-OR bus: at each bit
// every still-competing cell drives the shared line with its key bit; a cell whose bit is 0 while
// the line reads 1 drops out. The lines themselves spell the winning key, so no encoder is
// needed: keys end in the (relative) square number and are unique. One node per cell per bit;
// the nodes are grouped here by bit (the keys come as bit planes: bit b of every cell's key in one
// 64-bit word) so that every line is its own net.
module mg_arbiter_ref #(
  parameter int W = 11
) (
  input  logic [63:0]     cand_i,
  input  logic [64*W-1:0] key_i,   // bit b of the key of cell s at [b*64 + s]
  output logic            found_o,
  output logic [W-1:0]    key_o
);
  // Cells still competing when bit b is arbitrated, at [b*64 +: 64] (nobody needs who is left
  // after the last bit).
  logic [64*W-1:0] alive /*verilator split_var*/;
  logic [W-1:0] line /*verilator split_var*/;

  assign alive[(W-1)*64 +: 64] = cand_i;
  for (genvar b = W - 1; b >= 0; b--) begin : g_bit
    assign line[b] = |(alive[b*64 +: 64] & key_i[b*64 +: 64]);
    if (b > 0) begin : g_next
      assign alive[(b-1)*64 +: 64] = alive[b*64 +: 64] & (key_i[b*64 +: 64] | {64{!line[b]}});
    end
  end

  assign found_o = |cand_i;
  assign key_o   = found_o ? line : '0;
endmodule
