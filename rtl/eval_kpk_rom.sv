// The king-and-pawn versus king ROM (IEEE Micro figure 8): 2^18 bits, one per placement, set
// when the pawn side wins. Contents: rtl/kpk_rom.hex, written by gen_kpk_rom from our own
// retrograde analysis (host/eval/kpk.cpp) and checked by a test. Read synchronously: the bit of a
// clock's address is on win_o in the next clock, the form that maps to block RAM (Yosys 0.23:
// 11 ECP5 DP16KD and a few hundred LUT4 selecting the bit). The whole-chip synthesis check treats
// it as a ROM macro.
`ifndef KPK_ROM_FILE
`define KPK_ROM_FILE "rtl/kpk_rom.hex"
`endif
module eval_kpk_rom (
  input  logic        clk_i,
  input  logic [17:0] addr_i,
  output logic        win_o
);
  (* rom_style = "block" *) logic [31:0] rom [8192];
  initial $readmemh(`KPK_ROM_FILE, rom);

  logic [31:0] word_q;
  logic [4:0]  bit_q;
  always_ff @(posedge clk_i) begin
    word_q <= rom[addr_i[17:5]];
    bit_q  <= addr_i[4:0];
  end
  assign win_o = word_q[bit_q];
endmodule
