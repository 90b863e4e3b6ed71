// Piece placement table of the fast evaluation (IEEE Micro, figure 7: the table is three RAMs).
// 512 words of 16 bits, indexed {piece type, square relative to the piece's owner}. The three
// copies hold the same contents (the host writes all three at once) so that MAKE can read the
// values of the piece leaving its square, the piece arriving (the promoted piece after a
// promotion) and the piece captured in the same clock.
module eval_pst (
  input  logic        clk_i,
  input  logic        we_i,
  input  logic [8:0]  waddr_i,
  input  logic [15:0] wdata_i,
  input  logic [8:0]  raddr_a_i,
  input  logic [8:0]  raddr_b_i,
  input  logic [8:0]  raddr_c_i,
  output logic [15:0] rdata_a_o,
  output logic [15:0] rdata_b_o,
  output logic [15:0] rdata_c_o
);
  logic [15:0] ram_a [512];
  logic [15:0] ram_b [512];
  logic [15:0] ram_c [512];

  // Contents are loaded by the host; no reset (as a RAM macro).
  always_ff @(posedge clk_i) begin
    if (we_i) begin
      ram_a[waddr_i] <= wdata_i;
      ram_b[waddr_i] <= wdata_i;
      ram_c[waddr_i] <= wdata_i;
    end
  end

  assign rdata_a_o = ram_a[raddr_a_i];
  assign rdata_b_o = ram_b[raddr_b_i];
  assign rdata_c_o = ram_c[raddr_c_i];
endmodule
