#!/usr/bin/env bash
# scripts/yosys-diff must see what it is for: es_board with the '1 that Yosys 0.23 read as 1 put
# back into es_pkg::straight (a copy of rtl/ in OUTDIR) differs, and the real es_board does not.
#   tests/fpga/yosys_diff_mutant.sh OUTDIR
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out=${1:?usage: yosys_diff_mutant.sh OUTDIR}
rm -rf "$out"
mkdir -p "$out"
cp -r "$root/rtl" "$out/rtl"
sed -i "s/slide(g, empty, 8, All) | slide(g, empty, -8, All)/slide(g, empty, 8, '1) | slide(g, empty, -8, '1)/" \
  "$out/rtl/es_pkg.sv"
if ! grep -q "slide(g, empty, 8, '1)" "$out/rtl/es_pkg.sv"; then
  echo "yosys_diff_mutant: es_pkg::straight is not as this test expects; update the mutant"
  exit 1
fi
set +e
mutant=$(DB_RTL_SOURCE_DIR="$out/rtl" "$root/scripts/yosys-diff" --blocks es_board --clocks 50 --quiet --out "$out/mutant")
real=$("$root/scripts/yosys-diff" --blocks es_board --clocks 50 --quiet --out "$out/real")
set -e
echo "$mutant" | tail -n 3
echo "$real" | tail -n 1
if grep -q "es_board: [0-9]* clocks of 50 differ" <<< "$mutant" &&
   grep -q "1 blocks, 50 clocks each, every output equal" <<< "$real"; then
  echo "yosys_diff_mutant: es_board differs with the mutant, equal without it"
fi
