#!/usr/bin/env bash
# `scripts/fpga report --board B` on a small block with registers and block RAM (the game phase
# control, about 10 s): it synthesises for the board's family, finds the block RAM, and its logic
# depth is a path between registers, never through one. Yosys's `ltp -noff` knows only its own
# flip-flop types: with the family's flip-flops and block RAM left in, the whole chip's "longest
# path" ran through 170 TRELLIS_FF (1,870 cells). A third argument, --abc9, maps with Yosys's
# ABC9 flow: the same checks, and the report names the flow.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
board="$1" out="$2" flow="${3:-}"
"$root/scripts/fpga" report --board "$board" --top eval_phase --out "$out" --json --quiet $flow > "$out.json"
python3 - "$out.json" "$board" "$flow" <<'PY'
import json, sys
rep, board, flow = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
if rep["synth"].endswith(" -abc9") != (flow == "--abc9"):
    sys.exit(f"report_depth: {board}: synthesis command {rep['synth']!r} for flow {flow!r}")
depth = rep["logic_depth"]
registers = ("TRELLIS_FF", "DP16KD", "PDPW16KD", "TRELLIS_DPR16X4", "FDRE", "FDSE", "FDCE", "FDPE",
             "RAMB18E1", "RAMB36E1")
through = {t: n for t, n in depth["by_type"].items() if t in registers}
if through:
    sys.exit(f"report_depth: {board}: the longest path runs through registers or RAM: {through}")
if not 0 < depth["levels"] < 60:
    sys.exit(f"report_depth: {board}: {depth['levels']} levels for the phase control (expected a few dozen at most)")
bram = rep["utilisation"]["bram"]["used"]
if not bram > 0 or not rep["fits"]:
    sys.exit(f"report_depth: {board}: block RAM {bram} (expected the phase RAM's), fits {rep['fits']}")
print(f"report_depth: {board}: eval_phase ({rep['synth']}): {depth['levels']} levels between registers {depth['by_type']}, block RAM {bram}")
PY
