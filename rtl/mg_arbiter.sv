// Arbiter of the move-generator array: each of the 64 cells presents a request (candidate bit)
// and a priority key, and the highest key wins. found_o is any request; key_o is the highest key
// among the requests (0 when there is none). The keys end in the (relative) square number, so
// they are unique and key_o names the winner: no encoder is needed.
//
// In the original chip this is a distributed wired-OR arbitration, bit-serial from the most
// significant key bit (docs/chip.md). Mapped to LUTs that is a ripple through every key bit, each
// a 64-input OR and a survivor update (42 iCE40 LUT levels), so it is written here as a tree of
// maxima with the same function: a cell that does not request counts as key 0, which changes no
// maximum, and a 4-input node compares its four keys pairwise in parallel (six comparators) and
// selects the largest. Three levels of nodes take 64 keys to one.
module mg_arbiter #(
  parameter int W = 11
) (
  input  logic [63:0]     cand_i,
  input  logic [64*W-1:0] key_i,   // bit b of the key of cell s at [b*64 + s]
  output logic            found_o,
  output logic [W-1:0]    key_o
);
  // The tree's 85 keys, W bits each, at [n*W +: W]: node n < 64 is cell n's key (0 when it does
  // not request); level l's nodes start at NodeBase[l] (64, 80, 84), and node g of level l
  // takes the four nodes 4g..4g+3 of level l-1. Node 84 is the root.
  localparam int Nodes = 64 + 16 + 4 + 1;
  logic [Nodes*W-1:0] node_key /*verilator split_var*/;

  for (genvar s = 0; s < 64; s++) begin : g_cell
    for (genvar b = 0; b < W; b++) begin : g_bit
      assign node_key[s*W + b] = cand_i[s] & key_i[b*64 + s];
    end
  end

  for (genvar l = 1; l <= 3; l++) begin : g_level
    // First node of level l and of level l - 1.
    localparam int Base     = (l == 1) ? 64 : (l == 2) ? 80 : 84;
    localparam int PrevBase = (l == 1) ? 0 : (l == 2) ? 64 : 80;
    for (genvar g = 0; g < (64 >> (2 * l)); g++) begin : g_node
      logic [W-1:0] k0, k1, k2, k3, max01, max23;
      logic ge01, ge23, ge02, ge03, ge12, ge13, sel01;
      assign k0 = node_key[(PrevBase + 4*g)     * W +: W];
      assign k1 = node_key[(PrevBase + 4*g + 1) * W +: W];
      assign k2 = node_key[(PrevBase + 4*g + 2) * W +: W];
      assign k3 = node_key[(PrevBase + 4*g + 3) * W +: W];
      // All six comparisons at once; equal keys may go either way, the maximum is the same.
      assign ge01 = k0 >= k1;
      assign ge23 = k2 >= k3;
      assign ge02 = k0 >= k2;
      assign ge03 = k0 >= k3;
      assign ge12 = k1 >= k2;
      assign ge13 = k1 >= k3;
      assign max01 = ge01 ? k0 : k1;
      assign max23 = ge23 ? k2 : k3;
      // max01 >= max23, from the comparison of the two pairs' winners.
      assign sel01 = ge01 ? (ge23 ? ge02 : ge03) : (ge23 ? ge12 : ge13);
      assign node_key[(Base + g) * W +: W] = sel01 ? max01 : max23;
    end
  end

  assign found_o = |cand_i;
  assign key_o   = node_key[(Nodes - 1) * W +: W];
endmodule
