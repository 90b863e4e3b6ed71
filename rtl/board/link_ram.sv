// A simple dual-port RAM with one write port and one synchronous read port (the read data appears
// the clock after the address), no reset: the form Yosys maps to block RAM (ECP5 DP16KD, iCE40
// SB_RAM40_4K, Xilinx RAMB). A read of the address being written returns the old byte.
module link_ram #(
  parameter int AW = 13,
  parameter int DW = 8
) (
  input  logic          clk_i,
  input  logic          we_i,
  input  logic [AW-1:0] waddr_i,
  input  logic [DW-1:0] wdata_i,
  input  logic [AW-1:0] raddr_i,
  output logic [DW-1:0] rdata_o
);
  logic [DW-1:0] mem [2**AW];

  always_ff @(posedge clk_i) begin
    if (we_i) mem[waddr_i] <= wdata_i;
    rdata_o <= mem[raddr_i];
  end
endmodule
