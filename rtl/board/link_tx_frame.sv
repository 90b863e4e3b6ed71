// The link's frame transmitter: two reply slots in the transmit RAM (slot s at s * 8192), written
// by the executor (slot wslot_o, bytes 0 to 5 + L: header and payload) and sent in turn. For each
// frame: a pass over the bytes computes the CRC-32, then the bytes and the CRC (little-endian) are
// sent COBS-encoded, exactly as host/link/cobs.cpp encodes them (each block's length found by
// scanning ahead up to the next 0x00 or 254 bytes), and the 0x00 delimiter. Before its first frame
// after reset the transmitter sends one 0x00 to put the host's receiver in step.
module link_tx_frame (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        push_i,      // the slot wslot_o holds a frame of push_len_i bytes (without CRC)
  input  logic [12:0] push_len_i,
  output logic        wslot_o,     // the slot the executor writes next
  output logic        wfree_o,     // and it is free
  output logic [13:0] ram_addr_o,
  input  logic [7:0]  ram_data_i,
  output logic        tx_valid_o,
  output logic [7:0]  tx_data_o,
  input  logic        tx_ready_i,
  output logic        busy_o       // a frame is waiting or being sent
);
  typedef enum logic [3:0] {
    TxIdle, TxLead, TxCrc, TxScanIss, TxScanCap, TxCode, TxDataIss, TxDataCap,
    TxDataSend, TxNext, TxDelim
  } tx_state_e;

  tx_state_e   state_d, state_q;
  logic [1:0]  full_d, full_q;
  logic [12:0] len_d [2];
  logic [12:0] len_q [2];
  logic        wslot_d, wslot_q, head_d, head_q;
  logic        led_d, led_q;          // the leading 0x00 was sent
  logic [12:0] p_d, p_q;              // start of the current block (or CRC pass position)
  logic [7:0]  k_d, k_q;              // the block's bytes
  logic [7:0]  j_d, j_q;              // bytes of the block sent
  logic [31:0] crc_d, crc_q;
  logic [7:0]  byte_d, byte_q;
  logic        v_d, v_q;              // CRC pass: a byte read last clock
  logic        src_crc_d, src_crc_q;  // the byte read is a CRC byte
  logic [1:0]  src_idx_d, src_idx_q;
  logic [12:0] rd_addr;
  logic [12:0] blen, total;
  logic [7:0]  src_byte;
  logic [31:0] crc_next;

  assign blen  = len_q[head_q];
  assign total = blen + 13'd4;
  assign src_byte = src_crc_q ? crc_q[{src_idx_q, 3'b000} +: 8] : ram_data_i;

  link_crc32 u_crc (.crc_i(crc_q), .data_i(ram_data_i), .crc_o(crc_next));

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q   <= TxIdle;
      full_q    <= '0;
      len_q[0]  <= '0;
      len_q[1]  <= '0;
      wslot_q   <= 1'b0;
      head_q    <= 1'b0;
      led_q     <= 1'b0;
      p_q       <= '0;
      k_q       <= '0;
      j_q       <= '0;
      crc_q     <= '1;
      byte_q    <= '0;
      src_crc_q <= 1'b0;
      src_idx_q <= '0;
      v_q       <= 1'b0;
    end else begin
      state_q   <= state_d;
      full_q    <= full_d;
      len_q[0]  <= len_d[0];
      len_q[1]  <= len_d[1];
      wslot_q   <= wslot_d;
      head_q    <= head_d;
      led_q     <= led_d;
      p_q       <= p_d;
      k_q       <= k_d;
      j_q       <= j_d;
      crc_q     <= crc_d;
      byte_q    <= byte_d;
      src_crc_q <= src_crc_d;
      src_idx_q <= src_idx_d;
      v_q       <= v_d;
    end
  end

  always_comb begin
    state_d    = state_q;
    full_d     = full_q;
    len_d[0]   = len_q[0];
    len_d[1]   = len_q[1];
    wslot_d    = wslot_q;
    head_d     = head_q;
    led_d      = led_q;
    p_d        = p_q;
    k_d        = k_q;
    j_d        = j_q;
    crc_d      = crc_q;
    byte_d     = byte_q;
    src_crc_d  = src_crc_q;
    src_idx_d  = src_idx_q;
    v_d        = 1'b0;
    rd_addr    = p_q;
    tx_valid_o = 1'b0;
    tx_data_o  = 8'h00;
    if (push_i) begin
      full_d[wslot_q] = 1'b1;
      len_d[wslot_q]  = push_len_i;
      wslot_d         = !wslot_q;
    end
    unique case (state_q)
      TxIdle: begin
        if (full_q[head_q]) begin
          state_d = led_q ? TxCrc : TxLead;
          p_d     = '0;
          crc_d   = '1;
        end
      end
      TxLead: begin
        tx_valid_o = 1'b1;
        if (tx_ready_i) begin
          led_d   = 1'b1;
          state_d = TxCrc;
        end
      end
      // One byte a clock: the read of byte p is issued while byte p - 1 is taken in.
      TxCrc: begin
        rd_addr = p_q;
        if (v_q) crc_d = crc_next;
        if (p_q != blen) begin
          p_d = p_q + 1'b1;
          v_d = 1'b1;
        end else if (!v_q) begin
          crc_d   = ~crc_q;
          p_d     = '0;
          k_d     = '0;
          state_d = TxScanIss;
        end
      end
      TxScanIss: begin
        rd_addr   = p_q + 13'(k_q);
        src_crc_d = (rd_addr >= blen);
        src_idx_d = 2'(rd_addr - blen);
        if (rd_addr == total || k_q == 8'd254) begin
          state_d = TxCode;
        end else begin
          state_d = TxScanCap;
        end
      end
      // One byte a clock: byte k is looked at while byte k + 1 is read.
      TxScanCap: begin
        if (src_byte == 8'h00) begin
          state_d = TxCode;
        end else begin
          k_d       = k_q + 1'b1;
          rd_addr   = p_q + 13'(k_d);
          src_crc_d = (rd_addr >= blen);
          src_idx_d = 2'(rd_addr - blen);
          if (rd_addr == total || k_d == 8'd254) state_d = TxCode;
        end
      end
      TxCode: begin
        tx_valid_o = 1'b1;
        tx_data_o  = k_q + 1'b1;
        if (tx_ready_i) begin
          j_d     = '0;
          state_d = TxDataIss;
        end
      end
      TxDataIss: begin
        rd_addr   = p_q + 13'(j_q);
        src_crc_d = (rd_addr >= blen);
        src_idx_d = 2'(rd_addr - blen);
        state_d   = (j_q == k_q) ? TxNext : TxDataCap;
      end
      TxDataCap: begin
        byte_d  = src_byte;
        state_d = TxDataSend;
      end
      TxDataSend: begin
        tx_valid_o = 1'b1;
        tx_data_o  = byte_q;
        if (tx_ready_i) begin
          j_d     = j_q + 1'b1;
          state_d = TxDataIss;
        end
      end
      TxNext: begin
        k_d = '0;
        if (k_q == 8'd254) begin
          p_d     = p_q + 13'd254;
          state_d = (p_d == total) ? TxDelim : TxScanIss;
        end else if (p_q + 13'(k_q) == total) begin
          state_d = TxDelim;
        end else begin
          p_d     = p_q + 13'(k_q) + 13'd1;
          state_d = TxScanIss;
        end
      end
      TxDelim: begin
        tx_valid_o = 1'b1;
        if (tx_ready_i) begin
          full_d[head_q] = 1'b0;
          head_d         = !head_q;
          state_d        = TxIdle;
        end
      end
      default: state_d = TxIdle;
    endcase
  end

  assign wslot_o    = wslot_q;
  assign wfree_o    = !full_q[wslot_q];
  assign ram_addr_o = {head_q, rd_addr};
  assign busy_o     = (full_q != '0) || (state_q != TxIdle);
endmodule
