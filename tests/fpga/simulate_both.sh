# Sourced by the cell-model tests (bram_model.sh, mult_model.sh): compiles a testbench with the
# netlist and the cell models in Icarus Verilog (four states: an X reaching an output shows) and in
# Verilator (gatesim's default simulator), runs both, prints each one's verdict and, when both
# printed EXPECTED, "EXPECTED in Icarus Verilog and in Verilator" (what the test's pass pattern
# asks for).
#   simulate_both OUT TOP EXPECTED FILE...   (FILE: sources and the models' -I folders)
simulate_both() {
  local out=$1 top=$2 expected=$3
  shift 3
  local prefix=${expected%%:*}
  iverilog -g2012 -o "$out/$top.vvp" -s "$top" "$@"
  local icarus verilated
  icarus=$(vvp -n "$out/$top.vvp" | grep "^$prefix:")
  echo "Icarus Verilog: $icarus"
  if ! verilator --binary --timing -Wno-fatal -Wno-lint -Wno-style --top-module "$top" -Mdir "$out/verilator" \
       -o "$top" "$@" > "$out/verilator.log" 2>&1; then
    echo "$prefix: verilator failed ($out/verilator.log)"
    return 1
  fi
  verilated=$("$out/verilator/$top" | grep "^$prefix:")
  echo "Verilator: $verilated"
  if [ "$icarus" = "$expected" ] && [ "$verilated" = "$expected" ]; then
    echo "$expected in Icarus Verilog and in Verilator"
  fi
}
