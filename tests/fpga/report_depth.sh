#!/usr/bin/env bash
# `scripts/fpga report --board B` on a small block with registers and block RAM (the game phase
# control, about 10 s): it synthesises for the board's family, finds the block RAM, and its logic
# depth is a path between registers, never through one. Yosys's `ltp -noff` knows only its own
# flip-flop types: with the family's flip-flops and block RAM left in, the whole chip's "longest
# path" ran through 170 TRELLIS_FF (1,870 cells). A third argument, --abc9 or --no-abc9, chooses
# the LUT mapping instead of the board's default (ABC9 on the ECP5): the same checks, and the
# report must name the flow asked for. On an ECP5 the report's timing
# estimate must be a path between registers whose delay is its logic plus its routed nets. With
# --keep-hierarchy the report's slowest paths must name the instances they run through; with
# --abc9-delay-ps=PS the report records the target and ABC's mapping was given it; without it the
# block has none (the board's target is for its top and the chip alone).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
board="$1" out="$2" flow="${3:-}"
"$root/scripts/fpga" report --board "$board" --top eval_phase --out "$out" --json --quiet $flow > "$out.json"
python3 - "$out.json" "$board" "$flow" <<'PY'
import json, re, sys
rep, board, flow = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
expect_abc9 = {"--abc9": True, "--no-abc9": False}.get(flow, rep["family"] == "ecp5")
if rep["synth"].endswith(" -abc9") != expect_abc9:
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
timing = rep["timing_estimate"]
if rep["family"] == "ecp5":
    # The estimate: a timed path between registers, its routing on top of its logic, the phase
    # RAM among the untimed cells, the block's figures in a sane range (a few ns to a few dozen).
    if not (timing["path"] and timing["start"] != "constant" and timing["hops"] >= 2 and timing["lut_levels"] > 0):
        sys.exit(f"report_depth: {board}: timing estimate without a path between registers: {timing}")
    if abs(timing["critical_ns"] - (timing["logic_ns"] + timing["hops"] * timing["route_ns"])) > 1e-6:
        sys.exit(f"report_depth: {board}: critical {timing['critical_ns']} is not logic + routed nets")
    if not (timing["logic_only_ns"] <= timing["critical_ns"] and 1.0 < timing["critical_ns"] < 60.0):
        sys.exit(f"report_depth: {board}: timing {timing['critical_ns']} ns, logic only {timing['logic_only_ns']} ns")
    if "DP16KD" not in timing["untimed"]:
        sys.exit(f"report_depth: {board}: the block RAM is missing from the untimed cells: {timing['untimed']}")
if flow in ("", "--abc9", "--keep-hierarchy") and rep.get("abc9_delay_ps") is not None:
    # The board's delay target is its top's and the chip's: a block mapped alone has none unless asked.
    sys.exit(f"report_depth: {board}: eval_phase mapped with the board's delay target {rep['abc9_delay_ps']}")
if flow.startswith("--abc9-delay-ps="):
    # A delay target for ABC9: the report records it and ABC's mapping was given it.
    want = int(flow.split("=", 1)[1])
    log = open(rep["netlist"].replace("netlist.json", "synth.log")).read()
    mapped = re.search(rf"&if .*-D {want}\b", log) is not None
    if rep["abc9_delay_ps"] != want or not mapped:
        sys.exit(f"report_depth: {board}: abc9_delay_ps {rep['abc9_delay_ps']}, ABC's &if given -D {want}: {mapped}")
if flow == "--keep-hierarchy":
    # Mapped module by module and flattened after: each slowest path names the instances it runs
    # through, and the phase RAM's own module is one of them.
    blocks = [e.get("blocks") for e in timing["endpoints"]]
    if not (rep["keep_hierarchy"] and None not in blocks and any(b == "u_ram" for bl in blocks for b, _ in bl)):
        sys.exit(f"report_depth: {board}: the endpoints' instances with --keep-hierarchy: {blocks}")
print(f"report_depth: {board}: eval_phase ({rep['synth']}): {depth['levels']} levels between registers {depth['by_type']}, block RAM {bram}")
PY
