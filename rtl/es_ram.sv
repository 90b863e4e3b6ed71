// One table RAM of the slow evaluation (AIJ Table 5): written by the host, read synchronously by
// the scan (or by the host while the chip is idle): the word at the address of one clock is on
// rdata_o in the next. A clock that writes does not read (rdata_o keeps its word), so no
// read-during-write collision exists and the RAM is one block RAM with nothing around it: ECP5
// DP16KD, iCE40 SB_RAM40_4K, Xilinx RAMB18E1 (`rtl.block_ram` checks the ECP5 mapping;
// ram_style keeps Yosys from putting the small tables in LUT RAM). No reset, as a RAM macro; the
// whole-chip synthesis check treats it as a black box.
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
  (* ram_style = "block" *) logic [Width-1:0] mem [Depth];
  logic [Width-1:0] rdata_q;
  always_ff @(posedge clk_i) begin
    if (we_i) mem[waddr_i[Aw-1:0]] <= wdata_i;
    if (!we_i) rdata_q <= mem[raddr_i[Aw-1:0]];
  end
  assign rdata_o = rdata_q;
  // Addresses come in 9 bits; a table of fewer entries uses the low bits.
  logic unused_addr;
  assign unused_addr = ^{waddr_i, raddr_i};
endmodule
