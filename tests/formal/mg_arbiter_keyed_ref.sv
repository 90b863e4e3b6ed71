// The reference of the arbiter's equivalence check (arbiter_equiv.sh): the bit-serial wired-OR
// arbiter (mg_arbiter_ref) fed with whole keys as the move generator array built them until
// 2026-11-29: {class, ring bits (the target arbiter only), square relative to the side to move},
// the square being all the key gives back. Not part of the chip's RTL.
module mg_arbiter_keyed_ref #(
  parameter bit RINGS = 1'b0  // the key has the two ring bits, ctrl_pkg::TgtRing1/0 (the target arbiter)
) (
  input  logic [63:0]  cand_i,
  input  logic [191:0] cls_i,
  input  logic         stm_i,
  output logic         found_o,
  output logic [2:0]   cls_o,
  output logic [5:0]   sq_o
);
  localparam int W = RINGS ? 11 : 9;
  // Bit j of each square's number, square s at [j*64 + s].
  localparam logic [6*64-1:0] SqBits = {64'hFFFF_FFFF_0000_0000, 64'hFFFF_0000_FFFF_0000,
                                        64'hFF00_FF00_FF00_FF00, 64'hF0F0_F0F0_F0F0_F0F0,
                                        64'hCCCC_CCCC_CCCC_CCCC, 64'hAAAA_AAAA_AAAA_AAAA};
  logic [64*W-1:0] key;
  always_comb begin
    for (int j = 0; j < 6; j++) key[j*64 +: 64] = (j >= 3 && stm_i) ? ~SqBits[j*64 +: 64] : SqBits[j*64 +: 64];
    if (RINGS) begin
      key[6*64 +: 64] = ctrl_pkg::TgtRing0;
      key[7*64 +: 64] = ctrl_pkg::TgtRing1;
    end
    key[(W-3)*64 +: 192] = cls_i;
  end
  logic [W-1:0] win;
  mg_arbiter_ref #(.W(W)) u_ref (.cand_i, .key_i(key), .found_o, .key_o(win));
  assign cls_o = win[W-1 -: 3];
  assign sq_o  = win[5:0];
endmodule
