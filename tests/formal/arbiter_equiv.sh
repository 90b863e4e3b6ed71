#!/usr/bin/env bash
# Formal equivalence of the move generator's arbiter (rtl/mg_arbiter.sv: the highest class, then
# priority encoders over the squares' fixed order) with the bit-serial wired-OR arbiter of the
# original chip (tests/formal/mg_arbiter_ref.sv) fed with whole keys as the array built them
# (tests/formal/mg_arbiter_keyed_ref.sv), for one of the array's two arbiters: `target` (keys
# {class, ring, relative square}, the rings ctrl_pkg's) or `attacker` ({class,
# relative square}). Yosys builds the miter of the two (every output compared, the 64 requests,
# 192 class bits and the side to move free) and ABC's &cec proves that no input makes them differ.
# Exit 0 and "equivalent" when proved; 1 with ABC's counterexample otherwise.
#
#   tests/formal/arbiter_equiv.sh target|attacker [OUTDIR]
#   tests/formal/arbiter_equiv.sh --mutant target|attacker [OUTDIR]   # a deliberately broken copy
#       (the encoders' middle bit taken from the wrong half) must be found NOT equivalent: the
#       check is not vacuous
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
mutant=0
if [ "${1:-}" = "--mutant" ]; then mutant=1; shift; fi
which=${1:?usage: arbiter_equiv.sh [--mutant] target|attacker [OUTDIR]}
out=${2:-$root/build/formal}
mkdir -p "$out"
case $which in
  target)   prep="chparam -set RINGS 1 mg_arbiter_keyed_ref mg_arbiter" ;;
  attacker) prep="" ;;
  *) echo "arbiter_equiv.sh: '$which' is not target or attacker" >&2; exit 2 ;;
esac
tag="arbiter_$which$([ "$mutant" = 1 ] && echo _mutant || true)"
dut="$root/rtl/mg_arbiter.sv"
if [ "$mutant" = 1 ]; then
  dut=$("$root/tests/formal/mutant.sh" "$dut" 's/(h3 | h2) ? h3 : h1}/(h3 | h2) ? h2 : h1}/' "$out/$tag.sv")
fi
exec "$root/tests/formal/miter_cec.sh" "arbiter_equiv $which: mg_arbiter and the keyed bit-serial arbiter" "$out" "$tag" \
  mg_arbiter_keyed_ref mg_arbiter "$prep" "$root/rtl/ctrl_pkg.sv" "$root/tests/formal/mg_arbiter_ref.sv" \
  "$root/tests/formal/mg_arbiter_keyed_ref.sv" "$dut"
