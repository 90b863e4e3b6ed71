#!/usr/bin/env bash
# The gate-level check's model of the ECP5 block RAM (verilator_tb/gatesim/ecp5_dp16kd.v) together
# with Yosys's mapping to it: memories in the forms the chip's netlist has (an initialised 9-bit
# ROM, 18-, 9- and 4-bit RAMs with one write and one read port, a 36-bit one, a port that reads
# what it writes in the same clock, one that holds its output while it writes) synthesised with
# synth_ecp5 must use DP16KD, and the netlist, simulated by Icarus Verilog and by Verilator with the cell models
# scripts/fpga gatesim uses, must give the RTL's read data in every one of 4,000 clocks of random
# reads and writes. A few seconds.
#   tests/fpga/bram_model.sh OUTDIR
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out=${1:?usage: bram_model.sh OUTDIR}
mkdir -p "$out"
python3 -c "
for i in range(2048): print('%03x' % ((i * 0x9e37 >> 3 ^ i) & 0x1ff))" > "$out/rom9.hex"
cat > "$out/bram_dut.v" <<V
module bram_dut (
  input clk, input we, input [11:0] wa, input [11:0] ra, input [35:0] wd,
  output reg [8:0] q_rom, output reg [17:0] q18, output reg [8:0] q9, output reg [3:0] q4,
  output reg [35:0] q36, output reg [17:0] q_rw, output reg [17:0] q_nc);
  initial begin q_rom = 0; q18 = 0; q9 = 0; q4 = 0; q36 = 0; q_rw = 0; q_nc = 0; end
  reg [8:0]  rom [0:2047];
  reg [17:0] m18 [0:1023];
  reg [8:0]  m9  [0:2047];
  reg [3:0]  m4  [0:4095];
  reg [35:0] m36 [0:511];
  reg [17:0] mrw [0:1023];
  reg [17:0] mnc [0:1023];
  integer k;
  // Zeros, as the block RAM powers up (Yosys maps an uninitialised memory the same way).
  initial begin
    \$readmemh("$out/rom9.hex", rom);
    for (k = 0; k < 1024; k = k + 1) begin m18[k] = 0; mrw[k] = 0; mnc[k] = 0; end
    for (k = 0; k < 2048; k = k + 1) m9[k] = 0;
    for (k = 0; k < 4096; k = k + 1) m4[k] = 0;
    for (k = 0; k < 512; k = k + 1) m36[k] = 0;
  end
  always @(posedge clk) begin
    q_rom <= rom[ra[10:0]];
    if (we) m18[wa[9:0]] <= wd[17:0];
    q18 <= m18[ra[9:0]];
    if (we) m9[wa[10:0]] <= wd[8:0];
    q9 <= m9[ra[10:0]];
    if (we) m4[wa] <= wd[3:0];
    q4 <= m4[ra];
    if (we) m36[wa[8:0]] <= wd;
    q36 <= m36[ra[8:0]];
    if (we) mrw[wa[9:0]] <= wd[35:18];
    q_rw <= mrw[wa[9:0]];
    if (we) mnc[wa[9:0]] <= wd[17:0]; else q_nc <= mnc[wa[9:0]];
  end
endmodule
V
cat > "$out/bram_tb.v" <<'V'
`timescale 1ns / 1ps
module bram_tb;
  reg clk = 0, we = 0;
  reg [11:0] wa = 0, ra = 0;
  reg [35:0] wd = 0;
  wire [8:0] r_rom, g_rom, r9, g9;
  wire [17:0] r18, g18, rrw, grw, rnc, gnc;
  wire [3:0] r4, g4;
  wire [35:0] r36, g36;
  integer i, bad = 0;
  bram_dut  rtl  (.clk(clk), .we(we), .wa(wa), .ra(ra), .wd(wd), .q_rom(r_rom), .q18(r18), .q9(r9), .q4(r4), .q36(r36), .q_rw(rrw), .q_nc(rnc));
  bram_gate gate (.clk(clk), .we(we), .wa(wa), .ra(ra), .wd(wd), .q_rom(g_rom), .q18(g18), .q9(g9), .q4(g4), .q36(g36), .q_rw(grw), .q_nc(gnc));
  initial begin
    for (i = 0; i < 4000; i = i + 1) begin
      // Writes to a few low addresses often, so that reads find written words.
      we = $random; wa = $random % 64; ra = (i % 3 == 0) ? wa : $random % 64; wd = {$random, $random};
      if (i % 5 == 0) ra = $random;
      #5 clk = 1; #1;
      if (i > 0 && {r_rom, r18, r9, r4, r36, rrw, rnc} !== {g_rom, g18, g9, g4, g36, grw, gnc}) begin
        bad = bad + 1;
        if (bad <= 5) $display("mismatch at clock %0d: rom %h/%h 18 %h/%h 9 %h/%h 4 %h/%h 36 %h/%h rw %h/%h nc %h/%h", i,
                               r_rom, g_rom, r18, g18, r9, g9, r4, g4, r36, g36, rrw, grw, rnc, gnc);
      end
      #4 clk = 0;
    end
    if (bad == 0) $display("bram_model: 4000 clocks of reads agree with the RTL");
    else $display("bram_model: %0d of 4000 clocks differ", bad);
    $finish;
  end
endmodule
V
yosys -q -l "$out/synth.log" -p "read_verilog $out/bram_dut.v; synth_ecp5 -top bram_dut; rename bram_dut bram_gate; \
  tee -q -o $out/stat.txt stat; write_verilog -noattr $out/netlist.v" > /dev/null
n=$(awk '$1 == "DP16KD" {print $2}' "$out/stat.txt")
if [ -z "$n" ] || [ "$n" -lt 5 ]; then
  echo "bram_model: synth_ecp5 used ${n:-no} DP16KD, expected one or more per memory (stat: $out/stat.txt)"
  exit 1
fi
# The cell models exactly as scripts/fpga gatesim compiles with them (Yosys's cells_sim.v without
# its behaviourless DP16KD, then ours).
mapfile -t models < <("$root/scripts/fpga" models --board ulx3s-85f --out "$out/models")
echo "bram_model: $n DP16KD in the netlist"
source "$root/tests/fpga/simulate_both.sh"
simulate_both "$out" bram_tb "bram_model: 4000 clocks of reads agree with the RTL" "$out/bram_tb.v" "$out/bram_dut.v" "$out/netlist.v" "${models[@]}"
