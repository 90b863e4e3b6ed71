// Arty A7-100T top: the 7-series MMCM that makes the chip's 24 MHz from the board's 100 MHz
// oscillator (VCO 900 MHz = 100 MHz x 9, divided by 37.5), and board_top. Kept outside board_top
// so the simulations see a plain clock. Pins: arty.xdc. Synthesis target only here: its place and
// route is Vivado's or openXC7's, neither in Debian (docs/fpga.md).
module arty_top (
  input  logic       clk_100mhz,
  input  logic       ck_rst_n,
  input  logic       uart_txd_in,
  output logic       uart_rxd_out,
  output logic [3:0] led
);
  logic clk_fb_unbuf, clk_fb, clk_24_unbuf, clk_24, locked;

  MMCME2_BASE #(
    .CLKIN1_PERIOD    (10.0),
    .DIVCLK_DIVIDE    (1),
    .CLKFBOUT_MULT_F  (9.0),
    .CLKOUT0_DIVIDE_F (37.5)
  ) u_mmcm (
    .CLKIN1    (clk_100mhz),
    .CLKFBIN   (clk_fb),
    .CLKFBOUT  (clk_fb_unbuf),
    .CLKFBOUTB (),
    .CLKOUT0   (clk_24_unbuf),
    .CLKOUT0B  (),
    .CLKOUT1   (),
    .CLKOUT1B  (),
    .CLKOUT2   (),
    .CLKOUT2B  (),
    .CLKOUT3   (),
    .CLKOUT3B  (),
    .CLKOUT4   (),
    .CLKOUT5   (),
    .CLKOUT6   (),
    .LOCKED    (locked),
    .PWRDWN    (1'b0),
    .RST       (1'b0)
  );
  BUFG u_bufg_fb  (.I(clk_fb_unbuf), .O(clk_fb));
  BUFG u_bufg_clk (.I(clk_24_unbuf), .O(clk_24));

  logic busy, done, link_err;

  // 24 MHz, 8 clocks a bit: 3 Mbaud exactly.
  board_top #(
    .NCHIPS (1),
    .CLK_HZ (24_000_000),
    .DIV    (8)
  ) u_board (
    .clk_i      (clk_24),
    .rst_ni     (ck_rst_n & locked),
    .uart_rx_i  (uart_txd_in),
    .uart_tx_o  (uart_rxd_out),
    .led_busy_o (busy),
    .led_done_o (done),
    .led_err_o  (link_err),
    .sim_idle_o     (),
    .sim_in_frame_o ()
  );

  assign led = {locked, link_err, done, busy};
endmodule
