// ULX3S-85F top: the ECP5 PLL that makes the chip's clock from the board's 25 MHz oscillator, and
// board_top (the chip, the link bridge, reset synchroniser and LEDs). Kept outside board_top so
// the verilated and gate-level simulations see a plain clock. Pins: ulx3s.lpf.
//
// CLK_MHZ is the chip's clock: 24 (the paper's), or 21, 18, 15, 12 for a placement that does not
// meet 24 MHz (docs/fpga.md, "Place and route on an ECP5": about 17-22 MHz estimated for the full
// 85F from the routing measured on its blocks); `scripts/fpga build --clock-mhz` sets it. Each is
// 3 MHz times a whole number of clocks a UART bit, so the link's 3 Mbaud has no baud error. A 25
// MHz input cannot reach them with the feedback on the output (24 MHz: 25 * m / k needs k = 25, a
// 1 MHz phase detector, below the ECP5's 3.125 MHz minimum), so the phase detector runs at 5 MHz
// (25 / 5), the feedback on CLKOP, the VCO at 600-720 MHz (within 400-800) and CLKOS divides the
// VCO down to the chip's clock. Any other CLK_MHZ is an elaboration error.
module ulx3s_top #(
  parameter int CLK_MHZ = 24
) (
  input  logic       clk_25mhz,
  input  logic       btn_pwr_n,
  input  logic       ftdi_txd,
  output logic       ftdi_rxd,
  output logic [7:0] led
);
  // {CLKFB_DIV, CLKOP_DIV, CLKOS_DIV}: CLKOP = 5 MHz * CLKFB_DIV, VCO = CLKOP * CLKOP_DIV,
  // chip clock = VCO / CLKOS_DIV; 0 for a clock not supported.
  function automatic logic [23:0] pll_divs(input int mhz);
    unique case (mhz)
      24:      pll_divs = {8'd1, 8'd120, 8'd25};  // VCO 600 MHz
      21:      pll_divs = {8'd1, 8'd126, 8'd30};  // VCO 630 MHz
      18:      pll_divs = {8'd2, 8'd72, 8'd40};   // CLKOP 10 MHz, VCO 720 MHz
      15:      pll_divs = {8'd1, 8'd120, 8'd40};  // VCO 600 MHz
      12:      pll_divs = {8'd1, 8'd120, 8'd50};  // VCO 600 MHz
      default: pll_divs = 24'd0;
    endcase
  endfunction

  localparam logic [23:0] Divs     = pll_divs(CLK_MHZ);
  localparam int          ClkfbDiv = 32'(Divs[23:16]);
  localparam int          ClkopDiv = 32'(Divs[15:8]);
  localparam int          ClkosDiv = 32'(Divs[7:0]);

  if (Divs == 24'd0) begin : g_bad_clock
    $error("ulx3s_top: CLK_MHZ must be 24, 21, 18, 15 or 12");
  end

  logic clk_fb, clk_chip, locked;

  // No FREQUENCY_PIN_* attributes (Diamond's): Yosys 0.23 drops an attribute that is not a literal,
  // and nextpnr-ecp5 takes the chip clock's target from --freq, not from them.
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
    .CLKFB_DIV       (ClkfbDiv),
    .FEEDBK_PATH     ("CLKOP"),
    .CLKOP_ENABLE    ("ENABLED"),
    .CLKOP_DIV       (ClkopDiv),
    .CLKOP_CPHASE    (ClkopDiv - 1),
    .CLKOP_FPHASE    (0),
    .CLKOS_ENABLE    ("ENABLED"),
    .CLKOS_DIV       (ClkosDiv),
    .CLKOS_CPHASE    (ClkosDiv - 1),
    .CLKOS_FPHASE    (0)
  ) u_pll (
    .RST       (1'b0),
    .STDBY     (1'b0),
    .CLKI      (clk_25mhz),
    .CLKOP     (clk_fb),
    .CLKOS     (clk_chip),
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

  // 3 Mbaud exactly: CLK_MHZ / 3 clocks a bit; the link's timeout (100 ms) and the LEDs' pulses
  // (50 ms) in the chip clock's own clocks.
  board_top #(
    .NCHIPS       (1),
    .CLK_HZ       (CLK_MHZ * 1_000_000),
    .DIV          (CLK_MHZ / 3),
    .TIMEOUT_CLKS (CLK_MHZ * 100_000),
    .LED_CLKS     (CLK_MHZ * 50_000)
  ) u_board (
    .clk_i      (clk_chip),
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
