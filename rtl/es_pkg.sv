// Bit helpers of the slow evaluation: bitboard shifts and occluded fills, and 8-bit file columns
// (bit r = relative rank r). Reference: host/chip/slow_bits.h.
package es_pkg;
  localparam logic [63:0] FileA = 64'h0101_0101_0101_0101;
  localparam logic [63:0] NotA  = ~FileA;
  localparam logic [63:0] NotH  = ~(FileA << 7);
  localparam logic [63:0] NotAB = ~(FileA | (FileA << 1));
  localparam logic [63:0] NotGH = ~((FileA << 6) | (FileA << 7));
  localparam logic [63:0] Light = 64'h55AA_55AA_55AA_55AA;  // light squares (b1, a2, ...)
  // Every square. Not '1 as a function's argument: Yosys 0.23 passes that as 64'h1 (the rooks'
  // and queens' attack maps of every FPGA netlist lost their files; the gate-level check found it).
  localparam logic [63:0] All = ~64'd0;

  function automatic logic [63:0] shift(input logic [63:0] x, input int s);
    shift = (s > 0) ? (x << s) : (x >> (-s));
  endfunction

  // Squares attacked along one direction by the sliders in g (shift s, landing mask m).
  function automatic logic [63:0] slide(input logic [63:0] g0, input logic [63:0] empty, input int s,
                                        input logic [63:0] m);
    logic [63:0] g, p;
    g = g0;
    p = empty & m;
    g = g | (p & shift(g, s));
    p = p & shift(p, s);
    g = g | (p & shift(g, 2 * s));
    p = p & shift(p, 2 * s);
    g = g | (p & shift(g, 4 * s));
    slide = shift(g, s) & m;
  endfunction

  function automatic logic [63:0] diagonal(input logic [63:0] g, input logic [63:0] empty);
    diagonal = slide(g, empty, 9, NotA) | slide(g, empty, 7, NotH) | slide(g, empty, -7, NotA) |
               slide(g, empty, -9, NotH);
  endfunction
  function automatic logic [63:0] straight(input logic [63:0] g, input logic [63:0] empty);
    straight = slide(g, empty, 8, All) | slide(g, empty, -8, All) | slide(g, empty, 1, NotA) |
               slide(g, empty, -1, NotH);
  endfunction
  function automatic logic [63:0] knight(input logic [63:0] b);
    logic [63:0] h1, h2;
    h1 = ((b >> 1) & NotH) | ((b << 1) & NotA);
    h2 = ((b >> 2) & NotGH) | ((b << 2) & NotAB);
    knight = (h1 << 16) | (h1 >> 16) | (h2 << 8) | (h2 >> 8);
  endfunction
  function automatic logic [63:0] king(input logic [63:0] b);
    logic [63:0] side;
    side = ((b << 1) & NotA) | ((b >> 1) & NotH);
    king = side | ((b | side) << 8) | ((b | side) >> 8);
  endfunction

  // Fills along a file, inclusive: every square at or above (north) / below (south) a set bit;
  // spread: the squares and the ones beside them on the rank.
  function automatic logic [63:0] fill_north(input logic [63:0] x);
    logic [63:0] y;
    y = x | (x << 8);
    y = y | (y << 16);
    fill_north = y | (y << 32);
  endfunction
  function automatic logic [63:0] fill_south(input logic [63:0] x);
    logic [63:0] y;
    y = x | (x >> 8);
    y = y | (y >> 16);
    fill_south = y | (y >> 32);
  endfunction
  function automatic logic [63:0] spread(input logic [63:0] x);
    spread = x | ((x << 1) & NotA) | ((x >> 1) & NotH);
  endfunction
  function automatic logic two_or_more(input logic [63:0] x);
    two_or_more = ctrl_pkg::count_upto3(x) >= 2'd2;
  endfunction

  function automatic logic [7:0] reverse8(input logic [7:0] x);
    for (int i = 0; i < 8; i++) reverse8[i] = x[7-i];
  endfunction

  // File f (0-7; 8 and above: off the board, empty) of bb, from colour c's end.
  function automatic logic [7:0] column(input logic [63:0] bb, input logic [3:0] f, input logic c);
    logic [7:0] x;
    for (int r = 0; r < 8; r++) x[r] = (f < 4'd8) ? bb[{r[2:0], f[2:0]}] : 1'b0;
    column = c ? reverse8(x) : x;
  endfunction

  // Bits below the highest set bit; the highest and lowest set bits as one-hot (0 when none).
  function automatic logic [7:0] below_highest(input logic [7:0] x);
    for (int r = 0; r < 8; r++) below_highest[r] = |(x & (8'hFE << r));
  endfunction
  function automatic logic [7:0] below_lowest(input logic [7:0] x);
    for (int r = 0; r < 8; r++) below_lowest[r] = ~|(x & ~(8'hFE << r));
  endfunction
  function automatic logic [7:0] lowest_oh(input logic [7:0] x);
    lowest_oh = x & (~x + 8'd1);
  endfunction
  function automatic logic [7:0] highest_oh(input logic [7:0] x);
    highest_oh = x & ~below_highest(x);
  endfunction
  function automatic logic [2:0] index8(input logic [7:0] onehot);
    index8 = '0;
    for (int r = 0; r < 8; r++) begin
      if (onehot[r]) index8 = 3'(r);
    end
  endfunction
  function automatic logic [3:0] popcount8(input logic [7:0] x);
    popcount8 = '0;
    for (int r = 0; r < 8; r++) popcount8 = popcount8 + {3'd0, x[r]};
  endfunction
  function automatic logic [6:0] popcount64(input logic [63:0] x);
    popcount64 = '0;
    for (int i = 0; i < 64; i++) popcount64 = popcount64 + {6'd0, x[i]};
  endfunction
  // x * 3 modulo 2^8 as x * 2 + x: Yosys 0.23's synth_ecp5 maps a product with a constant to a
  // MULT18X18D (3.9 ns, and a route to the DSP column) where an adder is one carry chain; the
  // scan's table indices use it (issue 22: docs/fpga.md).
  function automatic logic [7:0] times3(input logic [7:0] x);
    times3 = {x[6:0], 1'b0} + x;
  endfunction
  // The evaluation tables' shapes and the registers' widths (chip_pkg) by index, as multiplexers:
  // an index times a field width in a part-select is a $mul to Yosys, and on the ULX3S board top
  // its `share` pass merged those with the pawn registers' material products into one MULT18X18D,
  // so the host's register writes were timed through the board's popcounts (docs/fpga.md).
  function automatic logic [8:0] et_entries(input logic [5:0] t);
    et_entries = 9'd0;
    for (int k = 0; k < chip_pkg::EVAL_TABLES_COUNT; k++) if (t == 6'(k)) et_entries = chip_pkg::ET_ENTRIES[k*9 +: 9];
  endfunction
  function automatic logic [5:0] et_bits(input logic [5:0] t);
    et_bits = 6'd0;
    for (int k = 0; k < chip_pkg::EVAL_TABLES_COUNT; k++) if (t == 6'(k)) et_bits = chip_pkg::ET_BITS[k*6 +: 6];
  endfunction
  function automatic logic [5:0] er_bits(input logic [5:0] i);
    er_bits = 6'd0;
    for (int k = 0; k < chip_pkg::EVAL_REGS_COUNT; k++) if (i == 6'(k)) er_bits = chip_pkg::ER_BITS[k*6 +: 6];
  endfunction
endpackage
