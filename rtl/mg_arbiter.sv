// Arbiter of the move-generator array: each of the 64 cells presents a request (candidate bit)
// and a priority key, and the highest key wins. A key is {class, ring, relative square}: a 3-bit
// class that depends on the board (the victim's value, the attacker's order), then bits that are
// fixed for a square (its ring, ctrl_pkg::TgtRing1/0, for the target arbiter only, and its number
// relative to the side to move: ranks mirrored for black). found_o is any request; sq_o is the
// winner's relative square (0 when there is none), which names it: no encoder of a key is needed;
// cls_o is its class.
//
// In the original chip this is a distributed wired-OR arbitration, bit-serial from the most
// significant key bit (docs/chip.md; tests/formal/mg_arbiter_ref.sv), proved equivalent to this
// form on every input (rtl.arbiter_equiv). Mapped to LUTs a ripple through every key bit is a long
// path, and a tree of maxima over whole keys (the form until 2026-11-28) was 6,500 ECP5 LUT places
// and 40 cells deep for the target keys. Only the class needs comparing: below it the key is a
// fixed order of the squares. So the highest class with a request is found from the eight
// classes' "any request" lines at once, and the survivors' highest square in the fixed order by
// priority encoders, one per ring, in parallel (docs/fpga.md, "Logic depth").
module mg_arbiter #(
  parameter bit RINGS = 1'b0  // the keys have the ring bits (ctrl_pkg::TgtRing1/0): the target arbiter
) (
  input  logic [63:0]  cand_i,
  input  logic [191:0] cls_i,    // bit b of cell s's class at [b*64 + s]
  input  logic         stm_i,    // relative squares: ranks mirrored for black
  output logic         found_o,
  output logic [2:0]   cls_o,    // the winner's class (0 when there is none)
  output logic [5:0]   sq_o
);
  // The highest set bit of an 8-bit word (0 for none): three levels of halving. Bit 0 is never
  // read: it is the answer when no other bit is set.
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic [2:0] top_of8(input logic [7:0] x);
    logic a4, h3, h2, h1;
    a4      = |x[7:4];
    h3      = a4 ? x[7] : x[3];  // the upper or lower half's bits 3, 2, 1 (bit 0 is what is left)
    h2      = a4 ? x[6] : x[2];
    h1      = a4 ? x[5] : x[1];
    top_of8 = {a4, h3 | h2, (h3 | h2) ? h3 : h1};
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  // The highest set bit of a 64-bit word (0 for none): the highest non-empty byte and, found in
  // parallel in every byte, its highest bit (selected by an AND-OR: an indexed read would give
  // Yosys a shift with undefined bits out of range).
  function automatic logic [5:0] top_of64(input logic [63:0] x);
    logic [7:0] byte_any;
    logic [2:0] hi, lo;
    for (int b = 0; b < 8; b++) byte_any[b] = |x[8*b +: 8];
    hi = top_of8(byte_any);
    lo = 3'd0;
    for (int b = 0; b < 8; b++) lo = lo | ({3{hi == 3'(b)}} & top_of8(x[8*b +: 8]));
    top_of64 = {hi, lo};
  endfunction

  // Ranks mirrored: relative square r is absolute square r ^ 56.
  function automatic logic [63:0] mirror(input logic [63:0] x);
    for (int r = 0; r < 8; r++) mirror[8*r +: 8] = x[8*(7-r) +: 8];
  endfunction

  // The highest class with a request, found from the eight classes' "any request" lines at once;
  // the survivors are the requests of that class.
  logic [7:0]  cls_any;
  logic [2:0]  cls_top;
  logic [63:0] surv;
  always_comb begin
    for (int v = 0; v < 8; v++) begin
      cls_any[v] = |(cand_i & (cls_i[128 +: 64] ^ {64{~v[2]}}) & (cls_i[64 +: 64] ^ {64{~v[1]}}) &
                     (cls_i[0 +: 64] ^ {64{~v[0]}}));
    end
  end
  assign cls_top = top_of8(cls_any);
  assign surv = cand_i & ~(cls_i[128 +: 64] ^ {64{cls_top[2]}}) & ~(cls_i[64 +: 64] ^ {64{cls_top[1]}}) &
                ~(cls_i[0 +: 64] ^ {64{cls_top[0]}});

  // Below the class: the highest ring, then the highest relative square. Each ring's survivors
  // go, in relative square order, to a priority encoder of their own; the highest ring with a
  // survivor picks its encoder's result.
  // The squares of ring g = {Ring1, Ring0} at [g*64 +: 64] (all in ring 0 without rings).
  localparam logic [63:0] Ring1 = RINGS ? ctrl_pkg::TgtRing1 : 64'd0;
  localparam logic [63:0] Ring0 = RINGS ? ctrl_pkg::TgtRing0 : 64'd0;
  localparam logic [4*64-1:0] Rings = {Ring1 & Ring0, Ring1 & ~Ring0, ~Ring1 & Ring0, ~Ring1 & ~Ring0};
  logic [4*6-1:0] top;       // ring g's highest survivor at [g*6 +: 6]
  logic [3:1]     ring_any;  // ring g has a survivor (ring 0 is what is left)
  always_comb begin
    for (int g = 0; g < 4; g++) begin
      logic [63:0] in_ring;
      in_ring       = surv & Rings[g*64 +: 64];
      top[g*6 +: 6] = top_of64(stm_i ? mirror(in_ring) : in_ring);
      if (g > 0) ring_any[g] = |in_ring;
    end
  end

  assign found_o = |cand_i;
  assign cls_o   = cls_top;
  assign sq_o    = ring_any[3] ? top[18 +: 6] : ring_any[2] ? top[12 +: 6] : ring_any[1] ? top[6 +: 6] : top[0 +: 6];
endmodule
