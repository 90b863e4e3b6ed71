#!/usr/bin/env bash
# Formal equivalence of ctrl_pkg::count_upto3 (rtl/ctrl_pkg.sv: a carry-free tree counting the set
# bits of a 64-bit word, saturated at 3) with the x & (x - 1) form it replaced
# (tests/formal/count_upto3_ref.sv), on every one of the 2^64 inputs: Yosys builds the miter and
# writes it as an AIG, ABC's &cec proves that no input makes them differ.
#
#   tests/formal/count_equiv.sh [OUTDIR]
#   tests/formal/count_equiv.sh --mutant [OUTDIR]   # a broken copy (one level's group mask wrong)
#       must be found NOT equivalent: the check is not vacuous
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
mutant=0
if [ "${1:-}" = "--mutant" ]; then mutant=1; shift; fi
out=${1:-$root/build/formal}
mkdir -p "$out"
tag="count_upto3$([ "$mutant" = 1 ] && echo _mutant || true)"
pkg="$root/rtl/ctrl_pkg.sv"
if [ "$mutant" = 1 ]; then
  sed "s/64'h0101_0101_0101_0101/64'h0101_0101_0101_0100/" "$pkg" > "$out/$tag.sv"
  if cmp -s "$pkg" "$out/$tag.sv"; then
    echo "count_equiv: the mutation no longer applies to rtl/ctrl_pkg.sv" >&2
    exit 2
  fi
  pkg="$out/$tag.sv"
fi
yosys -q -l "$out/$tag.yosys.log" -p "
  read_verilog -sv $root/rtl/chip_pkg.sv $pkg $root/tests/formal/count_upto3_ref.sv
  hierarchy; proc; flatten; opt_clean
  check -assert
  miter -equiv -flatten count_upto3_ref count_upto3_dut miter
  hierarchy -top miter
  opt -fast; techmap; opt -fast; aigmap; opt_clean
  write_aiger $out/$tag.aig" > /dev/null
yosys-abc -c "&r $out/$tag.aig; &ps; &cec -m" > "$out/$tag.abc.log" 2>&1 || true
if grep -q "Networks are equivalent" "$out/$tag.abc.log"; then
  echo "count_equiv: count_upto3 and the x & (x - 1) form are equivalent (every input, ABC &cec)"
  exit 0
fi
if grep -q "NOT EQUIVALENT" "$out/$tag.abc.log"; then
  echo "count_equiv: count_upto3 and the x & (x - 1) form are NOT equivalent:"
  grep -A2 "NOT EQUIVALENT" "$out/$tag.abc.log" | cut -c1-300
  exit 1
fi
echo "count_equiv: no verdict from ABC (log: $out/$tag.abc.log)" >&2
tail -5 "$out/$tag.abc.log" >&2
exit 3
