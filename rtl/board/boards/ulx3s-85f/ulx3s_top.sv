// ULX3S-85F top: the ECP5 PLL that makes the chip's 24 MHz from the board's 25 MHz oscillator,
// and board_top (the chip, the link bridge, reset synchroniser and LEDs). Kept outside board_top so
// the verilated and gate-level simulations see a plain clock. Pins: ulx3s.lpf.
//
// 24 MHz exactly: a 25 MHz input cannot reach it with the feedback on the output (25 * m / k needs
// k = 25, a 1 MHz phase detector, below the ECP5's 3.125 MHz minimum), so the feedback runs on
// CLKOP at 5 MHz (VCO 600 MHz = 5 MHz x 120) and CLKOS divides the VCO by 25. The UART's
// 3 Mbaud is then 8 clocks a bit: no baud error.
module ulx3s_top (
  input  logic       clk_25mhz,
  input  logic       btn_pwr_n,
  input  logic       ftdi_txd,
  output logic       ftdi_rxd,
  output logic [7:0] led
);
  logic clk_fb, clk_24, locked;

  (* FREQUENCY_PIN_CLKI = "25" *)
  (* FREQUENCY_PIN_CLKOP = "5" *)
  (* FREQUENCY_PIN_CLKOS = "24" *)
  (* ICP_CURRENT = "12" *) (* LPF_RESISTOR = "8" *)
  (* MFG_ENABLE_FILTEROPAMP = "1" *) (* MFG_GMCREF_SEL = "2" *)
  EHXPLLL #(
    .PLLRST_ENA      ("DISABLED"),
    .INTFB_WAKE      ("DISABLED"),
    .STDBY_ENABLE    ("DISABLED"),
    .DPHASE_SOURCE   ("DISABLED"),
    .OUTDIVIDER_MUXA ("DIVA"),
    .OUTDIVIDER_MUXB ("DIVB"),
    .OUTDIVIDER_MUXC ("DIVC"),
    .OUTDIVIDER_MUXD ("DIVD"),
    .CLKI_DIV        (5),
    .CLKFB_DIV       (1),
    .FEEDBK_PATH     ("CLKOP"),
    .CLKOP_ENABLE    ("ENABLED"),
    .CLKOP_DIV       (120),
    .CLKOP_CPHASE    (119),
    .CLKOP_FPHASE    (0),
    .CLKOS_ENABLE    ("ENABLED"),
    .CLKOS_DIV       (25),
    .CLKOS_CPHASE    (24),
    .CLKOS_FPHASE    (0)
  ) u_pll (
    .RST       (1'b0),
    .STDBY     (1'b0),
    .CLKI      (clk_25mhz),
    .CLKOP     (clk_fb),
    .CLKOS     (clk_24),
    .CLKOS2    (),
    .CLKOS3    (),
    .CLKFB     (clk_fb),
    .CLKINTFB  (),
    .PHASESEL0 (1'b0),
    .PHASESEL1 (1'b0),
    .PHASEDIR  (1'b0),
    .PHASESTEP (1'b0),
    .PHASELOADREG (1'b0),
    .PLLWAKESYNC  (1'b0),
    .ENCLKOP   (1'b0),
    .ENCLKOS   (1'b0),
    .ENCLKOS2  (1'b0),
    .ENCLKOS3  (1'b0),
    .LOCK      (locked),
    .INTLOCK   ()
  );

  logic busy, done, link_err;

  // 24 MHz, 8 clocks a bit: 3 Mbaud exactly.
  board_top #(
    .NCHIPS (1),
    .CLK_HZ (24_000_000),
    .DIV    (8)
  ) u_board (
    .clk_i      (clk_24),
    .rst_ni     (btn_pwr_n & locked),
    .uart_rx_i  (ftdi_txd),
    .uart_tx_o  (ftdi_rxd),
    .led_busy_o (busy),
    .led_done_o (done),
    .led_err_o  (link_err),
    .sim_idle_o     (),
    .sim_in_frame_o ()
  );

  assign led = {4'b0000, locked, link_err, done, busy};
endmodule
