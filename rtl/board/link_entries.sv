// The executor's entry queue and receive bank allocation (docs/board-bridge.md). The receiver
// writes each frame into the bank rx_bank_o names and then hands in an entry (a good frame, or a
// receive error). A good frame keeps its bank until the executor releases it, and the receiver
// moves on to a free bank; with no bank free the entry becomes ERROR BUSY (its bank is written
// again by the next frame). Up to QD entries wait, oldest first; with the queue full an entry is
// lost (lost_o, one clock). The executor takes the head with pop_i and releases banks with
// release_i (any number a clock; a bank released is never the receiver's, so allocation and
// release never meet in one bit).
module link_entries #(
  parameter int NBANKS = 4,
  parameter int QD     = 8
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              ent_valid_i,
  input  logic [3:0]        ent_err_i,
  input  logic [7:0]        ent_type_i,
  input  logic [15:0]       ent_seq_i,
  input  logic [12:0]       ent_len_i,
  output logic [1:0]        rx_bank_o,
  output logic              lost_o,
  // The head entry (valid while head_valid_o), taken by pop_i.
  output logic              head_valid_o,
  output logic [3:0]        head_err_o,
  output logic [1:0]        head_bank_o,
  output logic [7:0]        head_type_o,
  output logic [15:0]       head_seq_o,
  output logic [12:0]       head_len_o,
  input  logic              pop_i,
  input  logic [NBANKS-1:0] release_i
);
  localparam int QW = $clog2(QD);
  localparam logic [3:0] EntBusy = 4'd9;   // the link's ERROR BUSY code

  logic [3:0]  err_d [QD];
  logic [3:0]  err_q [QD];
  logic [1:0]  bank_d [QD];
  logic [1:0]  bank_q [QD];
  logic [7:0]  type_d [QD];
  logic [7:0]  type_q [QD];
  logic [15:0] seq_d [QD];
  logic [15:0] seq_q [QD];
  logic [12:0] len_d [QD];
  logic [12:0] len_q [QD];
  logic [QW-1:0] head_d, head_q, tail_d, tail_q;
  logic [QW:0]   cnt_d, cnt_q;
  logic [NBANKS-1:0] used_d, used_q;
  logic [1:0]    rxb_d, rxb_q;
  logic          free_found;
  logic [1:0]    free_bank;

  // A free bank for the receiver's next frame (the highest-numbered one; any would do).
  always_comb begin
    free_found = 1'b0;
    free_bank  = '0;
    for (int b = NBANKS - 1; b >= 0; b--) begin
      if (!used_q[b] && 2'(b) != rxb_q) begin
        free_found = 1'b1;
        free_bank  = 2'(b);
      end
    end
  end

  always_comb begin
    for (int k = 0; k < QD; k++) begin
      err_d[k] = err_q[k]; bank_d[k] = bank_q[k]; type_d[k] = type_q[k];
      seq_d[k] = seq_q[k]; len_d[k] = len_q[k];
    end
    head_d = head_q;
    tail_d = tail_q;
    cnt_d  = cnt_q;
    used_d = used_q & ~release_i;
    rxb_d  = rxb_q;
    lost_o = 1'b0;
    if (ent_valid_i) begin
      if (cnt_q == (QW + 1)'(QD)) begin
        lost_o = 1'b1;
      end else begin
        err_d[tail_q]  = ent_err_i;
        bank_d[tail_q] = rxb_q;
        type_d[tail_q] = ent_type_i;
        seq_d[tail_q]  = ent_seq_i;
        len_d[tail_q]  = ent_len_i;
        if (ent_err_i == '0) begin
          if (free_found) begin
            used_d[rxb_q] = 1'b1;
            rxb_d         = free_bank;
          end else begin
            err_d[tail_q] = EntBusy;
          end
        end
        tail_d = tail_q + 1'b1;
        cnt_d  = cnt_d + 1'b1;
      end
    end
    if (pop_i && cnt_q != '0) begin
      head_d = head_q + 1'b1;
      cnt_d  = cnt_d - 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      head_q <= '0; tail_q <= '0; cnt_q <= '0; used_q <= '0; rxb_q <= '0;
      for (int k = 0; k < QD; k++) begin
        err_q[k] <= '0; bank_q[k] <= '0; type_q[k] <= '0; seq_q[k] <= '0; len_q[k] <= '0;
      end
    end else begin
      head_q <= head_d; tail_q <= tail_d; cnt_q <= cnt_d; used_q <= used_d; rxb_q <= rxb_d;
      for (int k = 0; k < QD; k++) begin
        err_q[k] <= err_d[k]; bank_q[k] <= bank_d[k]; type_q[k] <= type_d[k];
        seq_q[k] <= seq_d[k]; len_q[k] <= len_d[k];
      end
    end
  end

  assign rx_bank_o    = rxb_q;
  assign head_valid_o = (cnt_q != '0);
  assign head_err_o   = err_q[head_q];
  assign head_bank_o  = bank_q[head_q];
  assign head_type_o  = type_q[head_q];
  assign head_seq_o   = seq_q[head_q];
  assign head_len_o   = len_q[head_q];
endmodule
