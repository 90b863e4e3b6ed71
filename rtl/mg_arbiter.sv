// Distributed arbiter of the move-generator array: each of the 64 cells presents a request
// (candidate bit) and a priority key, and the highest key wins.
//
// Arbitration is bit-serial from the most significant key bit, as on a wired-OR bus: at each bit
// every still-competing cell drives the shared line with its key bit; a cell whose bit is 0 while
// the line reads 1 drops out. The lines themselves spell the winning key, so no encoder is
// needed: keys end in the (relative) square number and are unique. One node per cell per bit;
// the nodes are grouped here by bit so that every line is its own net.
module mg_arbiter #(
  parameter int W = 11
) (
  input  logic [63:0]  cand_i,
  input  logic [W-1:0] key_i [64],
  output logic         found_o,
  output logic [W-1:0] key_o
);
  // alive[b]: cells still competing before bit b-1 is arbitrated; alive[W] = the requests.
  logic [63:0]  alive [W+1] /*verilator split_var*/;
  logic [W-1:0] line /*verilator split_var*/;

  assign alive[W] = cand_i;
  for (genvar b = W - 1; b >= 0; b--) begin : g_bit
    logic [63:0] bit_of_key;
    for (genvar s = 0; s < 64; s++) begin : g_node
      assign bit_of_key[s] = key_i[s][b];
    end
    assign line[b]  = |(alive[b+1] & bit_of_key);
    assign alive[b] = alive[b+1] & (bit_of_key | {64{!line[b]}});
  end

  assign found_o = |cand_i;
  assign key_o   = found_o ? line : '0;
endmodule
