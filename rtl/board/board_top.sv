// The board: NCHIPS chess chips (rtl/chip_top.sv) behind the link bridge (link_bridge.sv) on a
// UART, reset synchronisation, status LEDs. The PLL is outside: clk_i is its output, CLK_HZ
// (24 MHz, the chip's clock in docs/link.md; on the ULX3S the PLL makes it from the 25 MHz
// oscillator), and the UART runs at CLK_HZ / DIV baud (DIV 8: 3 Mbaud exactly).
// Each chip's clock is the board clock gated by the bridge (board_clk_gate), so that a chip takes
// exactly the clocks the protocol gives it and its clock counter is the model's.
module board_top #(
  parameter int NCHIPS       = 1,
  parameter int CLK_HZ       = 24000000,
  parameter int DIV          = 8,              // clocks per UART bit
  parameter int TIMEOUT_CLKS = 2400000,        // inter-byte timeout: 100 ms at 24 MHz
  parameter int LED_CLKS     = 1200000         // a done or error pulse lights its LED 50 ms
) (
  input  logic clk_i,        // from the PLL
  input  logic rst_ni,       // button or PLL lock, asynchronous, active low
  input  logic uart_rx_i,    // from the host (FTDI TXD)
  output logic uart_tx_o,    // to the host (FTDI RXD)
  output logic led_busy_o,   // a RUN is running
  output logic led_done_o,   // a RUN ended with its poll condition met
  output logic led_err_o,    // a link error: ERROR reply, framing error, BREAK, timeout
  // For simulation (left unconnected on a board): the bridge has nothing received, queued,
  // running or being sent; it is inside a frame.
  output logic sim_idle_o,
  output logic sim_in_frame_o
);
  logic                 rst_n;
  logic [NCHIPS-1:0]    ce, chip_rst_n, req, chip_clk, rvalid, err;
  logic                 we;
  logic [16:0]          addr;
  logic [31:0]          wdata;
  logic [NCHIPS*32-1:0] rdata;
  logic [NCHIPS*82-1:0] dbg;
  logic                 run_busy, run_done, link_err, idle, rx_frame;
  logic [31:0]          done_cnt_q, err_cnt_q;

  board_reset_sync u_rst (.clk_i, .rst_ni, .rst_no(rst_n));

  link_bridge #(.NCHIPS(NCHIPS), .CLK_HZ(CLK_HZ)) u_bridge (
    .clk_i, .rst_ni(rst_n), .div_i(16'(DIV)), .timeout_i(32'(TIMEOUT_CLKS)),
    .uart_rx_i, .uart_tx_o,
    .chip_ce_o(ce), .chip_rst_no(chip_rst_n), .chip_req_o(req), .chip_we_o(we), .chip_addr_o(addr),
    .chip_wdata_o(wdata), .chip_rdata_i(rdata), .chip_err_i(err), .chip_dbg_i(dbg),
    .run_busy_o(run_busy), .run_done_o(run_done), .link_err_o(link_err), .idle_o(idle),
    .rx_frame_o(rx_frame)
  );

  for (genvar c = 0; c < NCHIPS; c++) begin : g_chip
    logic [3:0]  dbg_state;
    logic [5:0]  dbg_ply;
    logic [15:0] dbg_move, dbg_leaf;
    logic [31:0] dbg_nodes;
    logic [7:0]  dbg_flags;

    board_clk_gate u_gate (.clk_i, .rst_ni(rst_n), .en_i(ce[c]), .clk_o(chip_clk[c]));

    chip_top u_chip (
      .clk_i       (chip_clk[c]),
      .rst_ni      (rst_n & chip_rst_n[c]),
      .req_i       (req[c]),
      .we_i        (we),
      .addr_i      (addr),
      .wdata_i     (wdata),
      .rvalid_o    (rvalid[c]),
      .rdata_o     (rdata[32*c +: 32]),
      .err_o       (err[c]),
      .dbg_state_o (dbg_state),
      .dbg_ply_o   (dbg_ply),
      .dbg_move_o  (dbg_move),
      .dbg_nodes_o (dbg_nodes),
      .dbg_leaf_o  (dbg_leaf),
      .dbg_flags_o (dbg_flags)
    );
    assign dbg[82*c +: 82] = {dbg_state, dbg_ply, dbg_move, dbg_nodes, dbg_leaf, dbg_flags};
  end

  // LEDs: busy as it is; done and error pulses stretched so that they can be seen.
  always_ff @(posedge clk_i or negedge rst_n) begin
    if (!rst_n) begin
      done_cnt_q <= '0;
      err_cnt_q  <= '0;
    end else begin
      done_cnt_q <= run_done ? 32'(LED_CLKS) : (done_cnt_q != '0 ? done_cnt_q - 1'b1 : '0);
      err_cnt_q  <= link_err ? 32'(LED_CLKS) : (err_cnt_q != '0 ? err_cnt_q - 1'b1 : '0);
    end
  end

  assign led_busy_o = run_busy;
  assign led_done_o = (done_cnt_q != '0);
  assign led_err_o  = (err_cnt_q != '0);

  assign sim_idle_o     = idle;
  assign sim_in_frame_o = rx_frame;

  // The chips' read-valid flags: the bridge reads a response the clock after its request.
  logic unused;
  assign unused = ^rvalid;
endmodule
