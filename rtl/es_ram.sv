// One table RAM of the slow evaluation (AIJ Table 5): written by the host, read asynchronously
// by the scan (or by the host while the chip is idle). The synthesis checks treat it as a RAM
// macro (a black box), as an ASIC or an FPGA's block RAM would hold it.
module es_ram #(
  parameter int Width = 8,
  parameter int Depth = 128
) (
  input  logic             clk_i,
  input  logic             we_i,
  input  logic [8:0]       waddr_i,
  input  logic [Width-1:0] wdata_i,
  input  logic [8:0]       raddr_i,
  output logic [Width-1:0] rdata_o
);
  localparam int Aw = $clog2(Depth);
  logic [Width-1:0] mem [Depth];
  always_ff @(posedge clk_i) begin
    if (we_i) mem[waddr_i[Aw-1:0]] <= wdata_i;
  end
  assign rdata_o = mem[raddr_i[Aw-1:0]];
  // Addresses come in 9 bits; a table of fewer entries uses the low bits.
  logic unused_addr;
  assign unused_addr = ^{waddr_i, raddr_i};
endmodule
