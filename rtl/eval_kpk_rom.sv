// The king-and-pawn versus king ROM (IEEE Micro figure 8): 2^18 bits, one per placement, set
// when the pawn side wins. Contents: rtl/kpk_rom.hex, written by gen_kpk_rom from our own
// retrograde analysis (host/eval/kpk.cpp) and checked by a test. Synthesis treats this module as
// a ROM macro (block RAM on an FPGA).
`ifndef KPK_ROM_FILE
`define KPK_ROM_FILE "rtl/kpk_rom.hex"
`endif
module eval_kpk_rom (
  input  logic [17:0] addr_i,
  output logic        win_o
);
  logic [31:0] rom [8192];
  initial $readmemh(`KPK_ROM_FILE, rom);

  logic [31:0] word;
  assign word  = rom[addr_i[17:5]];
  assign win_o = word[addr_i[4:0]];
endmodule
