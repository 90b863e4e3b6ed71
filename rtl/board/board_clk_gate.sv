// A chip's clock, enabled cycle by cycle by the link bridge (chip_ce_o): the enable is taken on the
// falling edge, so the gated clock is the board clock's high phase in enabled cycles and never
// glitches. Generic logic that simulates and synthesises everywhere; on an FPGA the board's flow
// may map it to the family's clock-enable buffer (ECP5 DCCA, Xilinx BUFGCE) to keep the gated
// clock on the global network.
module board_clk_gate (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic en_i,
  output logic clk_o
);
  logic en_q;

  always_ff @(negedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      en_q <= 1'b0;
    end else begin
      en_q <= en_i;
    end
  end

  assign clk_o = clk_i & en_q;
endmodule
