#!/usr/bin/env bash
# `scripts/fpga report` on a small block with registers and block RAM (the game phase control,
# about 10 s): its logic depth must be a path between registers, never through one. Yosys's
# `ltp -noff` knows only its own flip-flop types, and with the family's TRELLIS_FF and DP16KD left
# in, the whole chip's "longest path" ran through 170 flip-flops (1,870 cells).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="$1"
"$root/scripts/fpga" report --board ulx3s-85f --top eval_phase --out "$out" --json --quiet > "$out.json"
python3 - "$out.json" <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))
depth = rep["logic_depth"]
through = {t: n for t, n in depth["by_type"].items() if t in ("TRELLIS_FF", "DP16KD", "PDPW16KD", "TRELLIS_DPR16X4")}
if through:
    sys.exit(f"report_depth: the longest path runs through registers or RAM: {through}")
if not 0 < depth["levels"] < 60:
    sys.exit(f"report_depth: {depth['levels']} levels for the phase control (expected a few dozen at most)")
if rep["utilisation"]["bram"]["used"] != 3 or not rep["fits"]:
    sys.exit(f"report_depth: block RAM {rep['utilisation']['bram']['used']} (expected 3), fits {rep['fits']}")
print(f"report_depth: eval_phase: {depth['levels']} levels between registers {depth['by_type']}, 3 DP16KD")
PY
