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
  pkg=$("$root/tests/formal/mutant.sh" "$pkg" "s/64'h0101_0101_0101_0101/64'h0101_0101_0101_0100/" "$out/$tag.sv")
fi
exec "$root/tests/formal/miter_cec.sh" "count_equiv: count_upto3 and the x & (x - 1) form" "$out" "$tag" \
  count_upto3_ref count_upto3_dut "" "$root/rtl/chip_pkg.sv" "$pkg" "$root/tests/formal/count_upto3_ref.sv"
