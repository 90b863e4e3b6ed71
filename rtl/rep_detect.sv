// The repetition detector of the smart move stack (IEEE Micro, "Smart move stack"): for each of the
// 32 stack entries, the position before that entry's move (board, castling rights, en passant),
// stored by MAKE, and every clock the number of squares on which it differs from the current board
// (saturating at 3). An entry equal to the current position is a repetition when the side to move
// is the same (the controller picks the entries by parity); one with exactly two squares different
// and the other side to move is one piece displaced: a move may repeat it. The compare is 32
// entries wide and a gate delay deep, as in the paper; which entries count is the controller's.
// The colours of the pieces now standing on differing squares tell whose piece was displaced: the
// side to move's (it may move back: a repetition is near) or the other side's ("no progress"),
// and whether one is empty now. For the entry the controller selects (one-hot sel_i) the detector
// also gives the differing squares themselves, from which the controller reads the move that would
// put a displaced piece back (the repeating move).
module rep_detect (
  input  logic         clk_i,
  input  logic         we_i,      // store the current position at entry waddr_i (MAKE)
  input  logic [4:0]   waddr_i,
  input  logic [255:0] board_i,   // the current board, bit b of square s's piece at [b*64 + s]
  input  logic [3:0]   castling_i,
  input  logic [6:0]   ep_i,      // {valid, square}
  output logic [31:0]  equal_o,   // entry k is the current position (board, castling, en passant)
  output logic [31:0]  two_o,     // entry k's board differs from the current one on exactly two squares
  // The colours on the differing squares and the selected entry's squares are read only in the
  // controller's GEN (the repeating move) and TEST (no progress): computed while cls_en_i is set,
  // zero otherwise.
  input  logic         cls_en_i,
  output logic [31:0]  white_o,   // a square where entry k differs holds a white piece now
  output logic [31:0]  black_o,   // ... a black piece now
  output logic [31:0]  empty_o,   // ... is empty now
  input  logic [31:0]  sel_i,     // one-hot (or 0): the entry whose differing squares sel_diff_o shows
  output logic [63:0]  sel_diff_o, // the squares where the selected entry differs from the current board
  // two_o and the colours of the clock before (while cls_en_i): the repeating move's choice at a
  // node's first GEN, whose board and stored boards are those of the clock before, reads these so
  // that it does not start behind the compare (issue 22: logic depth).
  output logic [31:0]  two_q_o,
  output logic [31:0]  white_q_o,
  output logic [31:0]  black_q_o,
  output logic [31:0]  empty_q_o
);
  // The current board as four bit planes (plane b: bit b of each square's piece code, square s at
  // bit s), stored the same way: entry k's plane b at board_q[k][b*64 +: 64]. A square differs
  // when any of its four bits does, so an entry's differing squares are four XORs a plane.
  logic [255:0] planes;
  assign planes = board_i;  // the board bus is four bit planes already

  logic [255:0] board_q [32];
  logic [3:0]   cast_q  [32];
  logic [6:0]   ep_q    [32];

  // Written before they are read (the controller only looks at entries below the stack top).
  always_ff @(posedge clk_i) begin
    if (we_i) begin
      board_q[waddr_i] <= planes;
      cast_q[waddr_i]  <= castling_i;
      ep_q[waddr_i]    <= ep_i;
    end
  end

  // Square s of entry k differs from the current board.
  logic [63:0] diff [32];
  always_comb begin
    for (int k = 0; k < 32; k++) begin
      logic [255:0] x;
      x       = board_q[k] ^ planes;
      diff[k] = x[0 +: 64] | x[64 +: 64] | x[128 +: 64] | x[192 +: 64];
    end
  end

  // What stands now on each square: empty, a white piece, a black piece.
  logic [63:0] empty_now, black_now, white_now;
  assign empty_now = ~(planes[0 +: 64] | planes[64 +: 64] | planes[128 +: 64]);
  assign black_now = ~empty_now & planes[192 +: 64];
  assign white_now = ~empty_now & ~planes[192 +: 64];

  // The count of differing squares saturates at 3: none, one, two, more (ctrl_pkg::count_upto3,
  // carry-free: two chained 64-bit subtractions here were carry chains of 64 cells).
  always_comb begin
    for (int k = 0; k < 32; k++) begin
      equal_o[k] = (diff[k] == 64'd0) && (cast_q[k] == castling_i) && (ep_q[k] == ep_i);
      two_o[k]   = ctrl_pkg::count_upto3(diff[k]) == 2'd2;
    end
  end

  always_comb begin
    white_o    = '0;
    black_o    = '0;
    empty_o    = '0;
    sel_diff_o = 64'd0;
    if (cls_en_i) begin
      for (int k = 0; k < 32; k++) begin
        white_o[k] = |(diff[k] & white_now);
        black_o[k] = |(diff[k] & black_now);
        empty_o[k] = |(diff[k] & empty_now);
        if (sel_i[k]) sel_diff_o = sel_diff_o | diff[k];
      end
    end
  end

  // A datapath read only where the clock before computed it (ctrl_search's assertion): no reset.
  always_ff @(posedge clk_i) begin
    if (cls_en_i) begin
      two_q_o   <= two_o;
      white_q_o <= white_o;
      black_q_o <= black_o;
      empty_q_o <= empty_o;
    end
  end
endmodule
