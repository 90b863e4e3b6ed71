// UART transmitter, 8N1, LSB first: a start bit, eight data bits, a stop bit, each div_i clocks.
// A byte is taken when valid_i and ready_o are both high; ready_o is high while the line idles and
// in the stop bit's last clock, so that bytes go back to back (ten bit times each).
module uart_tx #(
  parameter int DIV_W = 16
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [DIV_W-1:0] div_i,   // clocks per bit, at least 1
  input  logic             valid_i,
  input  logic [7:0]       data_i,
  output logic             ready_o,
  output logic             tx_o     // the line, high when idle
);
  logic             busy_d, busy_q;
  logic [DIV_W-1:0] cnt_d, cnt_q;
  logic [3:0]       bit_d, bit_q;
  logic [9:0]       shift_d, shift_q;   // {stop, data, start}, sent from bit 0

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q  <= 1'b0;
      cnt_q   <= '0;
      bit_q   <= '0;
      shift_q <= '1;
    end else begin
      busy_q  <= busy_d;
      cnt_q   <= cnt_d;
      bit_q   <= bit_d;
      shift_q <= shift_d;
    end
  end

  logic last;   // the stop bit's last clock

  assign last = busy_q && bit_q == 4'd9 && cnt_q <= 1;

  always_comb begin
    busy_d  = busy_q;
    cnt_d   = cnt_q;
    bit_d   = bit_q;
    shift_d = shift_q;
    if (!busy_q || last) begin
      busy_d = valid_i;
      if (valid_i) begin
        shift_d = {1'b1, data_i, 1'b0};
        cnt_d   = div_i;
        bit_d   = '0;
      end
    end else if (cnt_q > 1) begin
      cnt_d = cnt_q - 1'b1;
    end else begin
      cnt_d   = div_i;
      shift_d = {1'b1, shift_q[9:1]};
      bit_d   = bit_q + 1'b1;
    end
  end

  assign ready_o = !busy_q || last;
  assign tx_o    = busy_q ? shift_q[0] : 1'b1;
endmodule
