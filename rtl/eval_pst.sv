// Piece placement table of the fast evaluation (IEEE Micro, figure 7: the table is three RAMs).
// 512 words of 16 bits, indexed {piece type, square relative to the piece's owner}. The three
// copies hold the same contents (the host writes all three at once) so that MAKE can read the
// values of the piece leaving its square, the piece arriving (the promoted piece after a
// promotion) and the piece captured at once.
//
// Reads are synchronous: the word at a clock's address is on rdata in the next clock (block
// RAM on an FPGA: one DP16KD, SB_RAM40_4K pair or RAMB18 a copy). A clock that writes does not
// read (rdata keeps its word): the host writes only while the controller is idle, when no read
// is due in the next clock, so there is no read-during-write case. No reset, as a RAM macro.
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
  (* ram_style = "block" *) logic [15:0] ram_a [512];
  (* ram_style = "block" *) logic [15:0] ram_b [512];
  (* ram_style = "block" *) logic [15:0] ram_c [512];
  logic [15:0] rdata_a_q, rdata_b_q, rdata_c_q;

  always_ff @(posedge clk_i) begin
    if (we_i) begin
      ram_a[waddr_i] <= wdata_i;
      ram_b[waddr_i] <= wdata_i;
      ram_c[waddr_i] <= wdata_i;
    end else begin
      rdata_a_q <= ram_a[raddr_a_i];
      rdata_b_q <= ram_b[raddr_b_i];
      rdata_c_q <= ram_c[raddr_c_i];
    end
  end

  assign rdata_a_o = rdata_a_q;
  assign rdata_b_o = rdata_b_q;
  assign rdata_c_o = rdata_c_q;
endmodule
