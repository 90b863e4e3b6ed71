#!/usr/bin/env bash
# The gate-level check's model of the ECP5 multiplier (verilator_tb/gatesim/ecp5_mult18x18d.v)
# together with Yosys's mapping to it: a module of three products (unsigned 18x18, signed 18x18,
# signed by unsigned) synthesised with synth_ecp5 must use MULT18X18D, and its netlist, simulated
# by Icarus Verilog and by Verilator with the cell models scripts/fpga gatesim uses, must equal `*` on 3,000 random operand
# pairs and the extremes. A few seconds.
#   tests/fpga/mult_model.sh OUTDIR
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out=${1:?usage: mult_model.sh OUTDIR}
mkdir -p "$out"
cat > "$out/mul_dut.v" <<'V'
module mul_dut (input [17:0] a, input [17:0] b, output [35:0] pu, output [35:0] ps, output [35:0] pm);
  assign pu = a * b;
  assign ps = $signed(a) * $signed(b);
  assign pm = $signed(a) * $signed({1'b0, b[16:0]});
endmodule
V
cat > "$out/mul_tb.v" <<'V'
`timescale 1ns / 1ps
module mul_tb;
  reg  [17:0] a, b;
  wire [35:0] pu, ps, pm;
  reg  [35:0] eu, es, em;
  integer i, bad;
  mul_dut dut (.a(a), .b(b), .pu(pu), .ps(ps), .pm(pm));
  task check;
    begin
      #1;
      eu = a * b;
      es = $signed(a) * $signed(b);
      em = $signed(a) * $signed({1'b0, b[16:0]});
      if (pu !== eu || ps !== es || pm !== em) begin
        bad = bad + 1;
        if (bad <= 5) $display("mismatch a=%h b=%h: %h %h %h, expected %h %h %h", a, b, pu, ps, pm, eu, es, em);
      end
    end
  endtask
  initial begin
    bad = 0;
    a = 18'h3ffff; b = 18'h3ffff; check;
    a = 18'h20000; b = 18'h20000; check;
    a = 18'h20000; b = 18'h1ffff; check;
    a = 18'h0;     b = 18'h3ffff; check;
    for (i = 0; i < 3000; i = i + 1) begin
      a = $random; b = $random; check;
    end
    if (bad == 0) $display("mult_model: 3004 operand pairs agree with *");
    else $display("mult_model: %0d of 3004 operand pairs differ", bad);
    $finish;
  end
endmodule
V
yosys -q -l "$out/synth.log" -p "read_verilog $out/mul_dut.v; synth_ecp5 -top mul_dut; tee -q -o $out/stat.txt stat; write_verilog -noattr $out/netlist.v" > /dev/null
n=$(awk '$1 == "MULT18X18D" {print $2}' "$out/stat.txt")
if [ -z "$n" ] || [ "$n" -lt 1 ]; then
  echo "mult_model: synth_ecp5 did not use MULT18X18D (stat: $out/stat.txt)"
  exit 1
fi
# The cell models exactly as scripts/fpga gatesim compiles with them.
mapfile -t models < <("$root/scripts/fpga" models --board ulx3s-85f --out "$out/models")
echo "mult_model: $n MULT18X18D in the netlist"
source "$root/tests/fpga/simulate_both.sh"
simulate_both "$out" mul_tb "mult_model: 3004 operand pairs agree with *" "$out/mul_tb.v" "$out/netlist.v" "${models[@]}"
