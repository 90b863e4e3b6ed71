// The chip link (docs/link.md) over a UART, in RTL: the board's side of the protocol that
// `deepblue chipd` speaks over TCP. Receiver (uart_rx) -> frame receiver (link_rx_frame: COBS,
// CRC, checks) -> receive RAM (four 8 kB banks of block RAM) -> executor (link_exec: the messages,
// the chips' bus ports, RUN's polling loop) -> transmit RAM (two 8 kB reply slots) -> frame
// transmitter (link_tx_frame: CRC, COBS) -> uart_tx. docs/board-bridge.md describes it.
//
// div_i: clocks per UART bit (8 for 3 Mbaud from 24 MHz); timeout_i: the inter-byte timeout in
// clocks (0: none). A BREAK on the line and the timeout cut the frame being received (answered
// ERROR BAD_FRAME, sequence 0xFFFF).
module link_bridge #(
  parameter int NCHIPS   = 1,
  parameter int CLK_HZ   = 24000000,
  parameter int NAME_LEN = 14,
  parameter logic [8*NAME_LEN-1:0] NAME = "deepblue board"
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [15:0]          div_i,
  input  logic [31:0]          timeout_i,
  input  logic                 uart_rx_i,
  output logic                 uart_tx_o,
  // The chips.
  output logic [NCHIPS-1:0]    chip_ce_o,
  output logic [NCHIPS-1:0]    chip_rst_no,
  output logic [NCHIPS-1:0]    chip_req_o,
  output logic                 chip_we_o,
  output logic [16:0]          chip_addr_o,
  output logic [31:0]          chip_wdata_o,
  input  logic [NCHIPS*32-1:0] chip_rdata_i,
  input  logic [NCHIPS-1:0]    chip_err_i,
  input  logic [NCHIPS*82-1:0] chip_dbg_i,
  // Status (LEDs).
  output logic                 run_busy_o,   // a RUN is running
  output logic                 run_done_o,   // one clock: a RUN ended DONE
  output logic                 link_err_o,   // one clock: an ERROR reply, a framing error, a BREAK, a timeout
  output logic                 idle_o,       // nothing received, queued, running or sent
  output logic                 rx_frame_o    // inside a frame (bytes since the last 0x00)
);
  logic        rx_valid, rx_ferr, rx_break, rx_busy;
  logic [7:0]  rx_data;
  logic        ent_valid;
  logic [3:0]  ent_err;
  logic [7:0]  ent_type;
  logic [15:0] ent_seq;
  logic [12:0] ent_len;
  logic [1:0]  rx_bank;
  logic        rxw_en;
  logic [14:0] rxw_addr, rxr_addr;
  logic [7:0]  rxw_data, rxr_data;
  logic        txw_en;
  logic [13:0] txw_addr, txr_addr;
  logic [7:0]  txw_data, txr_data;
  logic        tx_wslot, tx_wfree, tx_push, tx_busy;
  logic [12:0] tx_push_len;
  logic        tx_valid, tx_ready;
  logic [7:0]  tx_data;
  logic        rxf_busy, rxf_timeout, exec_err, exec_idle;

  uart_rx #(.DIV_W(16)) u_rx (
    .clk_i, .rst_ni, .div_i, .rx_i(uart_rx_i),
    .valid_o(rx_valid), .data_o(rx_data), .frame_err_o(rx_ferr), .break_o(rx_break), .busy_o(rx_busy)
  );

  link_rx_frame #(.BANK_W(2)) u_rxf (
    .clk_i, .rst_ni, .valid_i(rx_valid), .data_i(rx_data), .clear_i(rx_break), .timeout_i,
    .bank_i(rx_bank), .ram_we_o(rxw_en), .ram_addr_o(rxw_addr), .ram_data_o(rxw_data),
    .ent_valid_o(ent_valid), .ent_err_o(ent_err), .ent_type_o(ent_type), .ent_seq_o(ent_seq),
    .ent_len_o(ent_len), .busy_o(rxf_busy), .timeout_o(rxf_timeout)
  );

  link_ram #(.AW(15), .DW(8)) u_rx_ram (
    .clk_i, .we_i(rxw_en), .waddr_i(rxw_addr), .wdata_i(rxw_data), .raddr_i(rxr_addr), .rdata_o(rxr_data)
  );

  link_exec #(.NCHIPS(NCHIPS), .NBANKS(4), .CLK_HZ(CLK_HZ), .NAME_LEN(NAME_LEN), .NAME(NAME)) u_exec (
    .clk_i, .rst_ni,
    .ent_valid_i(ent_valid), .ent_err_i(ent_err), .ent_type_i(ent_type), .ent_seq_i(ent_seq),
    .ent_len_i(ent_len), .rx_bank_o(rx_bank),
    .rxr_addr_o(rxr_addr), .rxr_data_i(rxr_data),
    .txw_en_o(txw_en), .txw_addr_o(txw_addr), .txw_data_o(txw_data),
    .tx_wslot_i(tx_wslot), .tx_wfree_i(tx_wfree), .tx_push_o(tx_push), .tx_push_len_o(tx_push_len),
    .chip_ce_o, .chip_rst_no, .chip_req_o, .chip_we_o, .chip_addr_o, .chip_wdata_o,
    .chip_rdata_i, .chip_err_i, .chip_dbg_i,
    .run_busy_o, .run_done_o, .err_o(exec_err), .idle_o(exec_idle)
  );

  link_ram #(.AW(14), .DW(8)) u_tx_ram (
    .clk_i, .we_i(txw_en), .waddr_i(txw_addr), .wdata_i(txw_data), .raddr_i(txr_addr), .rdata_o(txr_data)
  );

  link_tx_frame u_txf (
    .clk_i, .rst_ni, .push_i(tx_push), .push_len_i(tx_push_len), .wslot_o(tx_wslot),
    .wfree_o(tx_wfree), .ram_addr_o(txr_addr), .ram_data_i(txr_data),
    .tx_valid_o(tx_valid), .tx_data_o(tx_data), .tx_ready_i(tx_ready), .busy_o(tx_busy)
  );

  uart_tx #(.DIV_W(16)) u_tx (
    .clk_i, .rst_ni, .div_i, .valid_i(tx_valid), .data_i(tx_data), .ready_o(tx_ready), .tx_o(uart_tx_o)
  );

  assign link_err_o = exec_err | rx_ferr | rx_break | rxf_timeout;
  assign idle_o     = exec_idle && !rx_busy && !rx_valid && !tx_busy && tx_ready && !ent_valid;
  assign rx_frame_o = rxf_busy;
endmodule
