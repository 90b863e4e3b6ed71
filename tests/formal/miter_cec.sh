#!/usr/bin/env bash
# The equivalence proof the formal checks share: Yosys reads the sources, runs PREP (extra
# commands, e.g. a chparam), builds the miter of modules REF and DUT (every output compared, every
# input free) and writes it as an AIG; ABC's combinational equivalence checker (&cec, SAT
# sweeping) looks for an input that makes them differ.
#   miter_cec.sh "WHAT" OUTDIR TAG REF DUT "PREP" SOURCE...
# Prints "WHAT are equivalent ..." and exits 0; "WHAT are NOT equivalent:" with ABC's
# counterexample and exits 1; or says there is no verdict and exits 3.
set -euo pipefail
what=$1 out=$2 tag=$3 ref=$4 dut=$5 prep=$6
shift 6
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
if grep -q "Networks are equivalent" "$out/$tag.abc.log"; then
  echo "$what are equivalent (every input, ABC &cec)"
  exit 0
fi
if grep -q "NOT EQUIVALENT" "$out/$tag.abc.log"; then
  echo "$what are NOT equivalent:"
  grep -A2 "NOT EQUIVALENT" "$out/$tag.abc.log" | cut -c1-300
  exit 1
fi
echo "$what: no verdict from ABC (log: $out/$tag.abc.log)" >&2
tail -5 "$out/$tag.abc.log" >&2
exit 3
