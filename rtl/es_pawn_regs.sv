// The pawn_registers group of the slow evaluation (AIJ Table 4: WASTED_PAWNS, SEPARATED_PASSED,
// MISSING_WING, BOC), computed combinationally from the board's registered maps and the evaluation
// registers, all stable while the slow evaluation is busy: eval_slow registers the value every
// clock and its sum clock takes the clock before's, adding ROOK_BEHIND_PASSED (whose counts the
// file scan finishes only then). White's view, 16-bit wrap-around. Reference: pawn_registers_value
// in host/chip/slow_pawns.cpp and slow_evaluate.
// Computed only while en_i (the slow evaluation busy), zero otherwise: a simulator skips the logic
// then.
module es_pawn_regs (
  input  logic         en_i,
  input  logic [767:0] pieces_i,
  input  logic [127:0] passed_i,
  input  logic [3:0]   ps_scale_i,   // PHASE[15:12]
  // Per colour c (white 0, black 1) at [c*width +: width].
  input  logic [11:0]  wasted_i,
  input  logic [15:0]  separated_i,
  input  logic [19:0]  missing_i,
  input  logic [11:0]  boc_i,        // [5:0] pure ending, [11:6] with rooks or queens
  output logic [15:0]  value_o
);
  localparam logic [63:0] FileA     = es_pkg::FileA;
  localparam logic [63:0] QueenWing = FileA * 64'h0F;
  localparam logic [63:0] KingWing  = FileA * 64'hF0;
  localparam logic [63:0] Light     = es_pkg::Light;

  // Files (bit f) holding a set bit of x.
  function automatic logic [7:0] files_of(input logic [63:0] x);
    for (int f = 0; f < 8; f++) files_of[f] = |(x & (FileA << f));
  endfunction
  function automatic logic [2:0] popcount4(input logic [3:0] x);
    popcount4 = {2'd0, x[0]} + {2'd0, x[1]} + {2'd0, x[2]} + {2'd0, x[3]};
  endfunction

  logic [63:0] pawns [2], knights [2], bishops [2], rooks [2], queens [2];
  logic [6:0]  npawns [2];
  logic [11:0] material [2];
  always_comb begin
    for (int c = 0; c < 2; c++) begin
      pawns[c]    = pieces_i[(c*6)*64 +: 64];
      knights[c]  = pieces_i[(c*6 + 1)*64 +: 64];
      bishops[c]  = pieces_i[(c*6 + 2)*64 +: 64];
      rooks[c]    = pieces_i[(c*6 + 3)*64 +: 64];
      queens[c]   = pieces_i[(c*6 + 4)*64 +: 64];
    end
  end

  logic [63:0] all_pawns;
  logic        one_wing, boc, majors, pure_boc;
  always_comb begin
    logic signed [31:0] acc, part;
    logic [5:0]         boc_reg;
    logic [1:0]         wings;
    logic [7:0]         own_files, pf;
    logic [6:0]         own_n, enemy_n;
    logic [11:0]        pen, wp;
    logic [2:0]         lo, hi;
    for (int c = 0; c < 2; c++) begin
      npawns[c]   = '0;
      material[c] = '0;
    end
    all_pawns = '0;
    one_wing  = 1'b0;
    boc       = 1'b0;
    majors    = 1'b0;
    pure_boc  = 1'b0;
    acc       = '0;
    part      = '0;
    boc_reg   = '0;
    wings     = '0;
    own_files = '0;
    pf        = '0;
    own_n     = '0;
    enemy_n   = '0;
    pen       = '0;
    wp        = '0;
    lo        = '0;
    hi        = '0;
    value_o   = '0;
    if (en_i) begin
      for (int c = 0; c < 2; c++) begin
        npawns[c]   = es_pkg::popcount64(pawns[c]);
        material[c] = {5'd0, npawns[c]} + 12'd3 * {5'd0, es_pkg::popcount64(knights[c] | bishops[c])} +
                      12'd5 * {5'd0, es_pkg::popcount64(rooks[c])} + 12'd9 * {5'd0, es_pkg::popcount64(queens[c])};
      end
      all_pawns = pawns[0] | pawns[1];
      one_wing  = all_pawns != 64'd0 && ((all_pawns & QueenWing) == 64'd0 || (all_pawns & KingWing) == 64'd0);
      boc       = es_pkg::popcount64(bishops[0]) == 7'd1 && es_pkg::popcount64(bishops[1]) == 7'd1 &&
                  ((bishops[0] & Light) != 64'd0) != ((bishops[1] & Light) != 64'd0) &&
                  (knights[0] | knights[1]) == 64'd0;
      majors    = (rooks[0] | rooks[1] | queens[0] | queens[1]) != 64'd0;
      pure_boc  = boc && !majors;
      for (int c = 0; c < 2; c++) begin
        part      = '0;
        wings     = '0;
        own_files = files_of(pawns[c]);
        own_n     = es_pkg::popcount64(pawns[c] & QueenWing);
        enemy_n   = es_pkg::popcount64(pawns[1-c] & QueenWing);
        if (own_n > enemy_n && {4'd0, popcount4(own_files[3:0])} <= enemy_n) wings = wings + 2'd1;
        own_n     = es_pkg::popcount64(pawns[c] & KingWing);
        enemy_n   = es_pkg::popcount64(pawns[1-c] & KingWing);
        if (own_n > enemy_n && {4'd0, popcount4(own_files[7:4])} <= enemy_n) wings = wings + 2'd1;
        // wasted * (wings * scale) as (wasted * scale) shifted by wings (0, 1 or 2: the two wing
        // tests add at most one each): the multiplier reads only registered inputs and runs beside
        // the wing counts, which then select; two multipliers in a row after the counts were the
        // block's critical path on an ECP5 (docs/fpga.md). A select, not an adder (whose carry
        // chain cost LUT places in a device 99 % full).
        wp   = {6'd0, wasted_i[c*6 +: 6]} * {8'd0, ps_scale_i};
        pen  = wings[1] ? {wp[10:0], 1'b0} : wings[0] ? wp : 12'd0;
        pen  = pen >> 2;
        part = part - 32'(pen);
        pf = files_of(passed_i[c*64 +: 64]);
        lo = '0;
        hi = '0;
        for (int f = 7; f >= 0; f--) begin
          if (pf[f]) lo = 3'(f);
        end
        for (int f = 0; f < 8; f++) begin
          if (pf[f]) hi = 3'(f);
        end
        if (pf != 8'd0 && {1'b0, hi} >= {1'b0, lo} + 4'd3) part = part + (pure_boc ? 32'(separated_i[c*8 +: 8]) * 2 : 32'(separated_i[c*8 +: 8]));
        if (one_wing && material[c] > material[1-c]) part = part - 32'(missing_i[c*10 +: 10]);
        acc = (c == 1) ? acc - part : acc + part;
      end
      boc_reg = majors ? boc_i[11:6] : boc_i[5:0];
      if (boc) acc = acc - $signed(32'(boc_reg)) * ($signed(32'(npawns[0])) - $signed(32'(npawns[1])));
      value_o = acc[15:0];
    end
  end
endmodule
