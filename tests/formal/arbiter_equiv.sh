#!/usr/bin/env bash
# Formal equivalence of the move generator's arbiter (rtl/mg_arbiter.sv, a tree of maxima) with
# the bit-serial wired-OR arbiter it replaced (tests/formal/mg_arbiter_ref.sv), for one key width:
# Yosys builds the miter of the two (every output compared, all 64 + 64*W inputs free) and writes
# it as an AIG; ABC's combinational equivalence checker (&cec, SAT sweeping) proves that no input
# makes them differ. Exit 0 and "equivalent" when proved; 1 with ABC's counterexample otherwise.
#
#   tests/formal/arbiter_equiv.sh W [OUTDIR]
#   tests/formal/arbiter_equiv.sh --mutant W [OUTDIR]   # a deliberately broken copy of the new
#       arbiter (one comparator compares the wrong pair) must be found NOT equivalent: the check
#       is not vacuous
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
mutant=0
if [ "${1:-}" = "--mutant" ]; then mutant=1; shift; fi
w=${1:?usage: arbiter_equiv.sh [--mutant] W [OUTDIR]}
out=${2:-$root/build/formal}
mkdir -p "$out"
tag="arbiter_w$w$([ "$mutant" = 1 ] && echo _mutant || true)"
dut="$root/rtl/mg_arbiter.sv"
if [ "$mutant" = 1 ]; then
  dut=$("$root/tests/formal/mutant.sh" "$dut" 's/assign ge13 = k1 >= k3;/assign ge13 = k1 >= k2;/' "$out/$tag.sv")
fi
exec "$root/tests/formal/miter_cec.sh" "arbiter_equiv W=$w: mg_arbiter and mg_arbiter_ref" "$out" "$tag" \
  mg_arbiter_ref mg_arbiter "chparam -set W $w mg_arbiter_ref mg_arbiter" "$root/tests/formal/mg_arbiter_ref.sv" "$dut"
