// One square of the 8x8 move-generator array (IEEE Micro, "Move generator"): the square's 4-bit
// piece register.
//
// The per-square logic of the three networks that run across the array (the find-victim
// transmitters and receivers, the find-attacker "super piece", the requests to the distributed
// arbiters) is written in mg_array a whole board at a time: the same gates square by square (each
// ray segment is "a source here, or the ray arriving here on an empty square", chained in the order
// the ray travels), in a form a simulator evaluates a word at a time, and in procedural blocks that
// the controller's states enable (only the find-victim rays are needed in every clock).
module mg_cell #(
  parameter int SQ = 0
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // Board write port: four slots (make/unmake write up to four squares; slot 0 also serves the host).
  input  logic        clear_i,          // empty the square (CLEAR command)
  input  logic [3:0]  wr_en_i,
  input  logic [23:0] wr_sq_i,
  input  logic [15:0] wr_pc_i,
  output logic [3:0]  piece_o
);
  localparam logic [5:0] Sq = 6'(SQ);

  // Piece register.
  // The write decode sits in the register's enabled branch: a simulator decodes the four slots
  // only in clocks that write (the last slot that names this square wins; CLEAR wins over all).
  logic [3:0] piece_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      piece_q <= 4'd0;
    end else if (clear_i) begin
      piece_q <= 4'd0;
    end else if (wr_en_i != 4'd0) begin
      for (int k = 0; k < 4; k++) begin
        if (wr_en_i[k] && wr_sq_i[k*6 +: 6] == Sq) piece_q <= wr_pc_i[k*4 +: 4];
      end
    end
  end
  assign piece_o = piece_q;
endmodule
