// The link's frame receiver (docs/link.md, "Receiving"): takes the UART's bytes, undoes COBS on
// the fly up to the 0x00 delimiter, writes the decoded frame into the receive RAM bank bank_i
// (byte 0 at offset 0), runs the CRC over it, and at the delimiter reports one entry: a good frame
// (err 0: its type, sequence number and payload length; the payload is in the bank from offset 6)
// or what was wrong (an ERROR code, with the sequence number when the CRC held, else 0xFFFF):
//   two 0x00 in a row: nothing;
//   more than 4123 bytes without a 0x00: TOO_LONG at once, then the bytes are dropped up to the 0x00;
//   a COBS block running past the end, fewer than 10 decoded bytes: BAD_FRAME;
//   CRC wrong: BAD_CRC;  length field over 4096: TOO_LONG (seq known);  length field not the
//   frame's size: BAD_FRAME (seq known).
// clear_i (a BREAK) and the inter-byte timeout (timeout_i clocks without a byte inside a frame,
// 0: none) cut the frame being received: it is reported as BAD_FRAME (sequence 0xFFFF), like any
// other unreadable frame, and the next byte starts a new frame. A frame already reported TOO_LONG
// (its bytes being dropped up to the 0x00) is not reported again.
module link_rx_frame #(
  parameter int BANK_W = 2
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  valid_i,
  input  logic [7:0]            data_i,
  input  logic                  clear_i,
  input  logic [31:0]           timeout_i,
  input  logic [BANK_W-1:0]     bank_i,
  // The receive RAM's write port.
  output logic                  ram_we_o,
  output logic [BANK_W+12:0]    ram_addr_o,
  output logic [7:0]            ram_data_o,
  // One entry a frame.
  output logic                  ent_valid_o,
  output logic [3:0]            ent_err_o,
  output logic [7:0]            ent_type_o,
  output logic [15:0]           ent_seq_o,
  output logic [12:0]           ent_len_o,
  output logic                  busy_o,     // inside a frame
  output logic                  timeout_o   // one clock: the inter-byte timeout cut a frame
);
  localparam logic [3:0]  ErrBadCrc   = 4'd1;
  localparam logic [3:0]  ErrBadFrame = 4'd2;
  localparam logic [3:0]  ErrTooLong  = 4'd4;
  localparam logic [12:0] MaxEncoded  = 13'd4123;
  localparam logic [31:0] CrcResidue  = 32'hDEBB20E3;

  logic [12:0] enc_d, enc_q;        // encoded bytes of this frame so far
  logic [12:0] dec_d, dec_q;        // decoded bytes written
  logic [7:0]  left_d, left_q;      // bytes left in the current COBS block (0: a code byte is next)
  logic        zero_d, zero_q;      // the current block ends with an implied 0x00
  logic        drop_d, drop_q;      // dropping bytes up to the next 0x00
  logic [31:0] crc_d, crc_q;
  logic [7:0]  type_d, type_q;
  logic [15:0] seq_d, seq_q;
  logic [15:0] len_d, len_q;
  logic [31:0] idle_d, idle_q;      // clocks left before the inter-byte timeout
  logic        ent_d, ent_q;
  logic [3:0]  err_d, err_q;
  logic [15:0] eseq_d, eseq_q;
  logic        tmo_d, tmo_q;

  logic        put;                 // a decoded byte this clock
  logic [7:0]  put_byte;
  logic [31:0] crc_next;

  link_crc32 u_crc (.crc_i(crc_q), .data_i(put_byte), .crc_o(crc_next));

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      enc_q  <= '0;
      dec_q  <= '0;
      left_q <= '0;
      zero_q <= 1'b0;
      drop_q <= 1'b0;
      crc_q  <= '1;
      type_q <= '0;
      seq_q  <= '0;
      len_q  <= '0;
      idle_q <= '0;
      ent_q  <= 1'b0;
      err_q  <= '0;
      eseq_q <= '0;
      tmo_q  <= 1'b0;
    end else begin
      enc_q  <= enc_d;
      dec_q  <= dec_d;
      left_q <= left_d;
      zero_q <= zero_d;
      drop_q <= drop_d;
      crc_q  <= crc_d;
      type_q <= type_d;
      seq_q  <= seq_d;
      len_q  <= len_d;
      idle_q <= idle_d;
      ent_q  <= ent_d;
      err_q  <= err_d;
      eseq_q <= eseq_d;
      tmo_q  <= tmo_d;
    end
  end

  // A decoded byte: a data byte, or the implied 0x00 before a code byte.
  always_comb begin
    put      = 1'b0;
    put_byte = data_i;
    if (!clear_i && valid_i && data_i != 8'h00 && !drop_q && enc_q != MaxEncoded) begin
      if (left_q == '0) begin
        put      = zero_q;
        put_byte = 8'h00;
      end else begin
        put = 1'b1;
      end
    end
  end

  always_comb begin
    enc_d    = enc_q;
    dec_d    = dec_q;
    left_d   = left_q;
    zero_d   = zero_q;
    drop_d   = drop_q;
    crc_d    = crc_q;
    type_d   = type_q;
    seq_d    = seq_q;
    len_d    = len_q;
    idle_d   = idle_q;
    ent_d    = 1'b0;
    err_d    = err_q;
    eseq_d   = eseq_q;
    tmo_d    = 1'b0;
    if (clear_i) begin
      if (enc_q != '0 && !drop_q) begin
        ent_d  = 1'b1;
        err_d  = ErrBadFrame;
        eseq_d = 16'hFFFF;
      end
      enc_d  = '0;
      dec_d  = '0;
      left_d = '0;
      zero_d = 1'b0;
      drop_d = 1'b0;
      crc_d  = '1;
      idle_d = timeout_i;
    end else if (valid_i) begin
      idle_d = timeout_i;
      if (data_i == 8'h00) begin
        // The delimiter: judge the frame, then start afresh.
        if (!drop_q && enc_q != '0) begin
          ent_d  = 1'b1;
          eseq_d = 16'hFFFF;
          err_d  = 4'd0;
          if (left_q != '0 || dec_q < 13'd10) begin
            err_d = ErrBadFrame;
          end else if (crc_q != CrcResidue) begin
            err_d = ErrBadCrc;
          end else if (len_q > 16'd4096) begin
            err_d  = ErrTooLong;
            eseq_d = seq_q;
          end else if (len_q[12:0] + 13'd10 != dec_q) begin
            err_d  = ErrBadFrame;
            eseq_d = seq_q;
          end else begin
            eseq_d = seq_q;
          end
        end
        enc_d  = '0;
        dec_d  = '0;
        left_d = '0;
        zero_d = 1'b0;
        drop_d = 1'b0;
        crc_d  = '1;
      end else if (!drop_q) begin
        if (enc_q == MaxEncoded) begin
          ent_d  = 1'b1;
          err_d  = ErrTooLong;
          eseq_d = 16'hFFFF;
          drop_d = 1'b1;
        end else begin
          enc_d = enc_q + 1'b1;
          if (left_q == '0) begin
            // A code byte: the previous block's implied 0x00 comes first.
            left_d = data_i - 1'b1;
            zero_d = (data_i != 8'hFF);
          end else begin
            left_d = left_q - 1'b1;
          end
        end
      end
    end else if ((enc_q != '0 || drop_q) && timeout_i != '0) begin
      // Counted down from timeout_i at each byte (a zero test, no comparator on the clock's path).
      idle_d = idle_q - 1'b1;
      if (idle_q <= 32'd1) begin
        tmo_d  = 1'b1;
        if (!drop_q) begin
          ent_d  = 1'b1;
          err_d  = ErrBadFrame;
          eseq_d = 16'hFFFF;
        end
        enc_d  = '0;
        dec_d  = '0;
        left_d = '0;
        zero_d = 1'b0;
        drop_d = 1'b0;
        crc_d  = '1;
        idle_d = timeout_i;
      end
    end
    if (put) begin
      dec_d = dec_q + 1'b1;
      crc_d = crc_next;
      unique case (dec_q)
        13'd0:   type_d = put_byte;
        13'd2:   seq_d[7:0] = put_byte;
        13'd3:   seq_d[15:8] = put_byte;
        13'd4:   len_d[7:0] = put_byte;
        13'd5:   len_d[15:8] = put_byte;
        default: ;
      endcase
    end
  end

  assign ram_we_o    = put;
  assign ram_addr_o  = {bank_i, dec_q};
  assign ram_data_o  = put_byte;
  assign ent_valid_o = ent_q;
  assign ent_err_o   = err_q;
  assign ent_type_o  = type_q;
  assign ent_seq_o   = eseq_q;
  assign ent_len_o   = len_q[12:0];
  assign busy_o      = (enc_q != '0) || drop_q;
  assign timeout_o   = tmo_q;
endmodule
