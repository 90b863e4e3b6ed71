// The form ctrl_pkg::count_upto3 replaced (issue 22, logic depth): x & (x - 1) clears the lowest
// set bit, so none, one, two or more bits are told apart by clearing it twice. And the function
// under test behind a module of the same ports, for tests/formal/count_equiv.sh.
module count_upto3_ref (
  input  logic [63:0] x_i,
  output logic [1:0]  n_o
);
  logic [63:0] rest1, rest2;
  assign rest1 = x_i & (x_i - 64'd1);
  assign rest2 = rest1 & (rest1 - 64'd1);
  assign n_o   = x_i == 64'd0 ? 2'd0 : rest1 == 64'd0 ? 2'd1 : rest2 == 64'd0 ? 2'd2 : 2'd3;
endmodule

module count_upto3_dut (
  input  logic [63:0] x_i,
  output logic [1:0]  n_o
);
  assign n_o = ctrl_pkg::count_upto3(x_i);
endmodule
