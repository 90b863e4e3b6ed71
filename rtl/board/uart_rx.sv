// UART receiver, 8N1, LSB first. The line goes through a two-flop synchroniser; a start bit is a
// falling edge that is still low half a bit later (mid-bit), then eight data bits and the stop bit
// are sampled in the middle of each bit (every div_i clocks). A stop bit read low is a framing
// error: the byte is dropped (frame_err_o pulses) and the receiver waits for the line to go high.
// BREAK: the line held low for BREAK_BITS bit times (longer than a whole frame of ten bits) pulses
// break_o once; the receiver then waits for the line to go high again.
module uart_rx #(
  parameter int DIV_W      = 16,
  parameter int BREAK_BITS = 12
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [DIV_W-1:0] div_i,        // clocks per bit, at least 4
  input  logic             rx_i,         // the line (asynchronous)
  output logic             valid_o,      // one clock: data_o holds a received byte
  output logic [7:0]       data_o,
  output logic             frame_err_o,  // one clock: a byte with a low stop bit was dropped
  output logic             break_o,      // one clock: the line has been low for BREAK_BITS bits
  output logic             busy_o        // a byte is being received
);
  typedef enum logic [1:0] {RxIdle, RxStart, RxData, RxWaitHigh} rx_state_e;

  logic [1:0]       sync_q;
  logic             line;
  rx_state_e        state_d, state_q;
  logic [DIV_W-1:0] cnt_d, cnt_q;
  logic [3:0]       bit_d, bit_q;
  logic [7:0]       shift_d, shift_q;
  logic             valid_d, valid_q, ferr_d, ferr_q;
  // Clocks the line has been low, saturating just past the break threshold.
  logic [DIV_W+4:0] low_d, low_q;
  logic [DIV_W+4:0] break_clocks;
  logic             brk_d, brk_q;

  assign line = sync_q[1];
  assign break_clocks = (DIV_W+5)'(div_i) * (DIV_W+5)'(BREAK_BITS);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sync_q  <= 2'b11;
      state_q <= RxIdle;
      cnt_q   <= '0;
      bit_q   <= '0;
      shift_q <= '0;
      valid_q <= 1'b0;
      ferr_q  <= 1'b0;
      low_q   <= '0;
      brk_q   <= 1'b0;
    end else begin
      sync_q  <= {sync_q[0], rx_i};
      state_q <= state_d;
      cnt_q   <= cnt_d;
      bit_q   <= bit_d;
      shift_q <= shift_d;
      valid_q <= valid_d;
      ferr_q  <= ferr_d;
      low_q   <= low_d;
      brk_q   <= brk_d;
    end
  end

  always_comb begin
    state_d = state_q;
    cnt_d   = cnt_q;
    bit_d   = bit_q;
    shift_d = shift_q;
    valid_d = 1'b0;
    ferr_d  = 1'b0;
    brk_d   = 1'b0;
    low_d   = low_q;
    if (line) begin
      low_d = '0;
    end else if (low_q <= break_clocks) begin
      low_d = low_q + 1'b1;
      brk_d = (low_d == break_clocks);
    end
    unique case (state_q)
      RxIdle: begin
        if (!line) begin
          state_d = RxStart;
          cnt_d   = div_i >> 1;
        end
      end
      RxStart: begin
        if (cnt_q > 1) begin
          cnt_d = cnt_q - 1'b1;
        end else if (line) begin
          state_d = RxIdle;                  // a glitch, not a start bit
        end else begin
          state_d = RxData;
          cnt_d   = div_i;
          bit_d   = '0;
        end
      end
      RxData: begin
        if (cnt_q > 1) begin
          cnt_d = cnt_q - 1'b1;
        end else begin
          cnt_d = div_i;
          if (bit_q == 4'd8) begin
            // The stop bit.
            if (line) begin
              valid_d = 1'b1;
              state_d = RxIdle;
            end else begin
              ferr_d  = 1'b1;
              state_d = RxWaitHigh;
            end
          end else begin
            shift_d = {line, shift_q[7:1]};
            bit_d   = bit_q + 1'b1;
          end
        end
      end
      RxWaitHigh: begin
        if (line) state_d = RxIdle;
      end
      default: state_d = RxIdle;
    endcase
    if (brk_d) state_d = RxWaitHigh;
  end

  assign valid_o     = valid_q;
  assign data_o      = shift_q;
  assign frame_err_o = ferr_q;
  assign break_o     = brk_q;
  assign busy_o      = (state_q != RxIdle);
endmodule
