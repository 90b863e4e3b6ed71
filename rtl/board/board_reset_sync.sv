// Reset synchroniser: the board's reset (a button, the PLL's lock) asserts asynchronously and is
// released two clocks after it goes high, on a clock edge.
module board_reset_sync (
  input  logic clk_i,
  input  logic rst_ni,   // asynchronous
  output logic rst_no    // asserted at once, released synchronously
);
  logic [1:0] sync_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sync_q <= 2'b00;
    end else begin
      sync_q <= {sync_q[0], 1'b1};
    end
  end

  assign rst_no = sync_q[1];
endmodule
