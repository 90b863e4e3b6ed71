// The slow evaluation's sum of its 14 feature groups (docs/evaluation.md), each switched on by its
// EVAL_CONTROL bit, added by a balanced tree of adders (16-bit wrap-around, so the order changes
// nothing): four adders deep instead of thirteen. Reference: the group sum of
// host/chip/slow_eval.cpp.
module es_group_sum (
  input  logic [223:0] groups_i,  // group g at [g*16 +: 16], white's view
  input  logic [13:0]  enable_i,  // EVAL_CONTROL word 0's group bits
  output logic [223:0] groups_o,  // the groups as summed: 0 where switched off
  output logic [15:0]  sum_o
);
  logic [15:0] pair [7];
  logic [15:0] quad [4];
  always_comb begin
    for (int g = 0; g < 14; g++) groups_o[g*16 +: 16] = enable_i[g] ? groups_i[g*16 +: 16] : 16'd0;
    for (int i = 0; i < 7; i++) pair[i] = groups_o[(2*i)*16 +: 16] + groups_o[(2*i + 1)*16 +: 16];
    for (int i = 0; i < 3; i++) quad[i] = pair[2*i] + pair[2*i + 1];
    quad[3] = pair[6];
    sum_o = (quad[0] + quad[1]) + (quad[2] + quad[3]);
  end
endmodule
