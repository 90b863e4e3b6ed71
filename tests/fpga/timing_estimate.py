#!/usr/bin/env python3
"""scripts/fpga_timing.py on netlists small enough to add up by hand (a second, no synthesis).

A register drives a wide LUT (LUT4 -> PFUMX -> L6MUX21, the slice's wide-function multiplexers
on dedicated wires), another LUT4 and a register: three routed nets, the library's arc delays of
the pins used. A second path through a carry chain (CCU2C COUT -> CIN, dedicated) is shorter. The
delays are Yosys 0.23's ECP5 library figures (Debian bookworm's Yosys), read here from the text
the estimate reads them from, so a parser that drops or mixes up arcs fails."""
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import fpga_timing  # noqa: E402

LIB = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "/usr/share/yosys/ecp5/cells_sim.v")


def cell(ctype, **pins):
    """pins: name=("in"|"out", [bits])."""
    return {"type": ctype, "port_directions": {p: ("input" if d == "in" else "output") for p, (d, _) in pins.items()},
            "connections": {p: bits for p, (_, bits) in pins.items()}}


def ff(d_bit, q_bit):
    return cell("TRELLIS_FF", CLK=("in", [1]), DI=("in", [d_bit]), Q=("out", [q_bit]))


def netlist():
    cells = {
        "src_q": ff(2, 10),
        "lut_a": cell("LUT4", A=("in", [10]), B=("in", ["0"]), C=("in", ["0"]), D=("in", ["0"]), Z=("out", [11])),
        "lut_b": cell("LUT4", A=("in", [10]), B=("in", ["0"]), C=("in", ["0"]), D=("in", ["0"]), Z=("out", [12])),
        "pfu": cell("PFUMX", ALUT=("in", [11]), BLUT=("in", [12]), C0=("in", [10]), Z=("out", [13])),
        "l6": cell("L6MUX21", D0=("in", [13]), D1=("in", ["0"]), SD=("in", ["0"]), Z=("out", [14])),
        "lut_c": cell("LUT4", A=("in", ["0"]), B=("in", ["0"]), C=("in", ["0"]), D=("in", [14]), Z=("out", [15])),
        "dst_q": ff(15, 2),
        # The carry path: src_q -> CCU2C D0 -> COUT -> CCU2C CIN -> S1 -> carry_q.
        "ccu_0": cell("CCU2C", D0=("in", [10]), CIN=("in", ["0"]), COUT=("out", [20]), S0=("out", [21]), S1=("out", [22])),
        "ccu_1": cell("CCU2C", A0=("in", ["0"]), CIN=("in", [20]), COUT=("out", [23]), S0=("out", [24]), S1=("out", [25])),
        "carry_q": ff(25, 26),
    }
    names = {"src_q": [10], "pfu_out": [13], "dst_d": [15]}
    return {"modules": {"top": {"attributes": {"top": 1}, "cells": cells,
                                "netnames": {n: {"bits": b, "hide_name": 0} for n, b in names.items()}}}}


def check(cond, what):
    if not cond:
        sys.exit(f"timing_estimate: {what}")


delays = fpga_timing.cell_delays(LIB)
lut, pfu, l6 = delays.get("LUT4", {}), delays.get("PFUMX", {}), delays.get("L6MUX21", {})
check(len(lut) == 4 and len(pfu) == 3 and len(l6) == 3, f"arcs read: LUT4 {lut}, PFUMX {pfu}, L6MUX21 {l6}")
check((lut[("Z", "A")], lut[("Z", "D")], pfu[("Z", "ALUT")], l6[("Z", "D0")]) == (0.141, 0.379, 0.098, 0.140),
      f"Yosys 0.23's ECP5 figures: LUT4 A {lut[('Z', 'A')]}, D {lut[('Z', 'D')]}, PFUMX ALUT "
      f"{pfu[('Z', 'ALUT')]}, L6MUX21 D0 {l6[('Z', 'D0')]}")
check(delays["CCU2C"][("COUT", "CIN")] == 0.043 and delays["CCU2C"][("S1", "CIN")] == 0.273, "CCU2C carry arcs")
check("TRELLIS_FF" not in delays or all(o != "Q" for o, _ in delays["TRELLIS_FF"]), "a register has no combinational arc")

logic = 0.141 + 0.098 + 0.140 + 0.379  # LUT4 A, PFUMX ALUT, L6MUX21 D0, LUT4 D
for route in (0.0, 0.5, 1.25):
    est = fpga_timing.estimate(netlist(), LIB, "ecp5", route)
    want = logic + 3 * route  # into lut_a, from l6 into lut_c, into dst_q
    check(abs(est["critical_ns"] - want) < 1e-9, f"route {route}: critical {est['critical_ns']} ns, want {want:.3f}")
    check(est["hops"] == 3 and est["lut_levels"] == 2, f"route {route}: {est['hops']} hops, {est['lut_levels']} LUT levels")
    check(abs(est["logic_ns"] - logic) < 1e-9, f"route {route}: logic {est['logic_ns']}")
    check(est["start"] == "src_q" and est["end"].startswith("dst_q"), f"route {route}: {est['start']} -> {est['end']}")
    check([p["type"] for p in est["path"]] == ["LUT4", "PFUMX", "L6MUX21", "LUT4"], f"path {est['path']}")
    ends = {e["end"]: e["ns"] for e in est["endpoints"]}
    carry = 0.278 + 0.273 + 2 * route  # D0 -> COUT, CIN -> S1 (dedicated), into and out of the chain
    check(abs(ends.get("carry_q", -1) - carry) < 1e-9, f"route {route}: carry path {ends.get('carry_q')}, want {carry:.3f}")
    check(est["untimed"] == {"TRELLIS_FF": 3}, f"untimed {est['untimed']}")
# A combinational loop (two LUTs feeding each other, and a register) ends: it is cut and counted.
loop = netlist()
loop["modules"]["top"]["cells"].update({
    "loop_a": cell("LUT4", A=("in", [31]), B=("in", [10]), C=("in", ["0"]), D=("in", ["0"]), Z=("out", [30])),
    "loop_b": cell("LUT4", A=("in", [30]), B=("in", ["0"]), C=("in", ["0"]), D=("in", ["0"]), Z=("out", [31])),
    "loop_q": ff(31, 32)})
est = fpga_timing.estimate(loop, LIB, "ecp5", 0.5)
check(est["loops_cut"] >= 1, f"a combinational loop was not found: {est['loops_cut']}")

# The deepest path by LUT levels need not be the slowest: three LUT4s through their fast A pins
# (0.423 ns without routing) are deeper than the wide LUT's two levels (0.758 ns) but faster.
deep = netlist()
deep["modules"]["top"]["cells"].update({
    f"chain_{i}": cell("LUT4", A=("in", [10 if i == 0 else 49 + i]), B=("in", ["0"]), C=("in", ["0"]), D=("in", ["0"]),
                       Z=("out", [50 + i])) for i in range(3)})
deep["modules"]["top"]["cells"]["deep_q"] = ff(52, 53)
est = fpga_timing.estimate(deep, LIB, "ecp5", 0.0)
d = est["deepest"]
check(abs(est["critical_ns"] - logic) < 1e-9 and est["end"].startswith("dst_q"), f"slowest {est['end']} {est['critical_ns']}")
check(d["lut_levels"] == 3 and d["start"] == "src_q" and d["end"].startswith("deep_q")
      and [(p["type"], p["level"]) for p in d["path"]] == [("LUT4", 1), ("LUT4", 2), ("LUT4", 3)],
      f"deepest {d['lut_levels']} levels {d['start']} -> {d['end']}: {d['path']}")
levels = {e["end"]: e["lut_levels"] for e in d["endpoints"]}
# Four endpoint bits (the inputs of src_q, dst_q, carry_q and deep_q); only deep_q's path is deeper than two levels.
shallow = fpga_timing.deepest(fpga_timing.Netlist(deep, fpga_timing.cell_delays(LIB), "ecp5"), 12, target_levels=2)
check((shallow["endpoint_bits"], shallow["endpoint_bits_deeper"]) == (4, 1),
      f"endpoint bits deeper than 2 levels: {shallow['endpoint_bits_deeper']} of {shallow['endpoint_bits']}")
check(shallow["deeper_by_register"] == [{"register": "deep_q", "bits": 1, "deepest": 3, "median": 3}],
      f"registers with bits deeper than 2 levels: {shallow['deeper_by_register']}")
one = fpga_timing.deepest(fpga_timing.Netlist(deep, fpga_timing.cell_delays(LIB), "ecp5"), 12, target_levels=1)
check([(r["register"], r["bits"], r["deepest"]) for r in one["deeper_by_register"]] == [("deep_q", 1, 3), ("dst_q", 1, 2)],
      f"registers with bits deeper than 1 level, deepest first among equals: {one['deeper_by_register']}")
check(levels.get("deep_q") == 3 and levels.get("dst_q") == 2 and levels.get("carry_q") == 0,
      f"levels into each register group: {levels}")

# Ports start and end paths; a LUT RAM's write port ends one (its read address does not).
ported = {"modules": {"top": {"attributes": {"top": 1}, "netnames": {},
          "ports": {"in_a": {"direction": "input", "bits": [40]}, "out_z": {"direction": "output", "bits": [41]}},
          "cells": {"lut": cell("LUT4", A=("in", [40]), B=("in", ["0"]), C=("in", ["0"]), D=("in", ["0"]), Z=("out", [41])),
                    "ram": cell("TRELLIS_DPR16X4", WAD=("in", [41, "0", "0", "0"]), RAD=("in", [40, "0", "0", "0"]),
                                DI=("in", ["0", "0", "0", "0"]), WRE=("in", ["0"]), WCK=("in", ["0"]),
                                DO=("out", [42, 43, 44, 45]))}}}}
est = fpga_timing.estimate(ported, LIB, "ecp5", 0.5)
ends = {e["end"]: (e["start"], e["ns"]) for e in est["endpoints"]}
check(est["start"] == "port in_a" and abs(est["critical_ns"] - (0.141 + 2 * 0.5)) < 1e-9,
      f"port to port or to the RAM's write address: {est['start']} -> {est['end']}, {est['critical_ns']}")
check(set(ends) == {"port out_z", "ram"}, f"ends {ends}: the output port and the RAM's write address, not its read address")

# An unregistered multiplier (no specify block in Yosys's library) is timed from Trellis's figures:
# register -> MULT18X18D A3 -> P5 -> LUT4 D -> register, 3.927 ns of the DSP; with an output
# register (REG_OUTPUT_CLK) it is untimed, and its paths end and begin at it.
def mult_netlist(params):
    m = cell("MULT18X18D", A3=("in", [10]), B0=("in", ["0"]), P5=("out", [60]))
    m["parameters"] = params
    return {"modules": {"top": {"attributes": {"top": 1}, "netnames": {}, "cells": {
        "src_q": ff(2, 10), "mult": m,
        "lut": cell("LUT4", A=("in", ["0"]), B=("in", ["0"]), C=("in", ["0"]), D=("in", [60]), Z=("out", [61])),
        "dst_q": ff(61, 2)}}}}


est = fpga_timing.estimate(mult_netlist({}), LIB, "ecp5", 0.5)
want = 3.927 + 0.379 + 3 * 0.5
check(abs(est["critical_ns"] - want) < 1e-9 and est["start"] == "src_q",
      f"through the multiplier: {est['start']} -> {est['end']} {est['critical_ns']} ns, want {want:.3f}")
est = fpga_timing.estimate(mult_netlist({"REG_OUTPUT_CLK": "CLK0"}), LIB, "ecp5", 0.5)
check(abs(est["critical_ns"] - (0.379 + 2 * 0.5)) < 1e-9 and est["untimed"].get("MULT18X18D") == 1,
      f"a registered multiplier starts the path: {est['start']} {est['critical_ns']} ns, untimed {est['untimed']}")

# Several arcs on a line (Yosys's Xilinx library writes LUT RAM arcs so) are all read.
lib = pathlib.Path(sys.argv[2] if len(sys.argv) > 2 else "/tmp") / "timing_estimate_lib.v"
lib.write_text("module TWO (input A, B, output Y, Z);\n  specify\n    (A => Y) = 100; (B => Z) = 200; (A *> Z) = (300, 300);\n"
               "    (posedge A => (Y : B)) = 5;\n  endspecify\nendmodule\n")
two = fpga_timing.cell_delays(lib)["TWO"]
check(two == {("Y", "A"): 0.1, ("Z", "B"): 0.2, ("Z", "A"): 0.3}, f"arcs on one line: {two}")
# A netlist of another family (no cell the library times) is an error, not an estimate of nothing.
try:
    fpga_timing.estimate({"modules": {"top": {"attributes": {"top": 1}, "netnames": {}, "cells": {
        "x": cell("LUT6", I0=("in", [1]), O=("out", [2]))}}}}, LIB, "ecp5", 0.5)
    check(False, "a 7-series netlist was estimated with the ECP5 library")
except ValueError as e:
    check("not a ecp5 netlist" in str(e), f"the error says what is wrong: {e}")

# A netlist mapped with its hierarchy kept (cells named by hdlname) says which instances each
# slowest path runs through; a flat one does not.
check(all("blocks" not in e for e in fpga_timing.estimate(netlist(), LIB, "ecp5", 0.5)["endpoints"]),
      "a flat netlist's endpoints name no blocks")
hier = netlist()
for name, inst in (("lut_a", "u_a"), ("lut_b", "u_a"), ("pfu", "u_a"), ("l6", "u_b"), ("lut_c", "u_b u_c")):
    hier["modules"]["top"]["cells"][name]["attributes"] = {"hdlname": f"{inst} {name}"}
ends = {e["end"]: e for e in fpga_timing.estimate(hier, LIB, "ecp5", 0.5)["endpoints"]}
check(ends["dst_q"].get("blocks") == [["u_a", 2], ["u_b", 1], ["u_b.u_c", 1]],
      f"the slowest path's blocks: {ends['dst_q'].get('blocks')}")
check(ends["carry_q"].get("blocks") == [["", 2]], f"the carry path's blocks (the top's): {ends['carry_q'].get('blocks')}")

print(f"timing_estimate: the hand-added paths agree ({logic:.3f} ns of logic, 3 routed nets; the carry chain's "
      f"{0.278 + 0.273:.3f} ns)")
