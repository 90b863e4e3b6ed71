#!/usr/bin/env bash
# The equivalence proof the formal checks share: Yosys reads the sources, runs PREP (extra
# commands, e.g. a chparam), builds the miter of modules REF and DUT (every output compared, every
# input free) and writes it as an AIG; ABC's combinational equivalence checker (&cec, SAT
# sweeping) looks for an input that makes them differ.
#   miter_cec.sh OUTDIR TAG REF DUT "PREP" SOURCE...
# Exit 0: equivalent; 1: not equivalent (ABC's counterexample line on stdout); 3: no verdict.
set -euo pipefail
out=$1 tag=$2 ref=$3 dut=$4 prep=$5
shift 5
mkdir -p "$out"
yosys -q -l "$out/$tag.yosys.log" -p "
  read_verilog -sv $*
  $prep
  hierarchy; proc; flatten; opt_clean
  check -assert
  miter -equiv -flatten $ref $dut miter
  hierarchy -top miter
  opt -fast; techmap; opt -fast; aigmap; opt_clean
  write_aiger $out/$tag.aig" > /dev/null
yosys-abc -c "&r $out/$tag.aig; &ps; &cec -m" > "$out/$tag.abc.log" 2>&1 || true
if grep -q "Networks are equivalent" "$out/$tag.abc.log"; then exit 0; fi
if grep -q "NOT EQUIVALENT" "$out/$tag.abc.log"; then
  grep -A2 "NOT EQUIVALENT" "$out/$tag.abc.log" | cut -c1-300
  exit 1
fi
tail -5 "$out/$tag.abc.log" >&2
exit 3
