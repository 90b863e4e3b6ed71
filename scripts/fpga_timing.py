"""A timing estimate of a mapped netlist before place and route (scripts/fpga, docs/fpga.md).

Debian has no nextpnr-ecp5, so the chip's Fmax on an ECP5 cannot be measured here. What can be
measured is the delay of its paths through the cells Yosys mapped: the family's cell library
(Yosys's `cells_sim.v`) gives every combinational cell's pin-to-pin delays in its `specify`
blocks (the figures ABC9 maps with), and a path between registers is the sum of its cells' delays
plus a routing allowance for every net that leaves a slice. The slice's own wide-function
multiplexers and carry chain (ECP5: LUT4 -> PFUMX -> L6MUX21, CCU2C COUT -> CIN; 7-series: LUT6 ->
MUXF7 -> MUXF8, CARRY4) are dedicated wires and get none.

So the estimate is logic delay, which is exact for the library's figures, plus an assumed routing
delay per hop, which is not: place and route decides that (and the clock's skew, the registers'
clock-to-output and setup, which are not counted either). It ranks paths by what timing will see
far better than a count of cells: a 7-input LUT is four cells on `ltp`'s path and one lookup here.
"""
import collections
import json
import pathlib
import re

# Connections that stay inside a slice (or a slice's neighbour through a dedicated wire): (driver
# type, driver pin or None for any, load type, load pins).
DEDICATED = {
    "ecp5": [("LUT4", None, "PFUMX", {"ALUT", "BLUT"}),
             ("PFUMX", None, "L6MUX21", {"D0", "D1"}),
             ("L6MUX21", None, "L6MUX21", {"D0", "D1"}),
             ("CCU2C", "COUT", "CCU2C", {"CIN"})],
    "xilinx": [(lut, None, "MUXF7", {"I0", "I1"}) for lut in ("LUT1", "LUT2", "LUT3", "LUT4", "LUT5", "LUT6")] + [
               ("MUXF7", None, "MUXF8", {"I0", "I1"}),
               ("CARRY4", "CO", "CARRY4", {"CI"})],
}
# Combinational cells Yosys's library gives no delays (no specify block): their pin-to-pin arcs,
# ns, from Project Trellis's timing database for speed grade 6 (the 85F of the ULX3S; the largest
# of its min/typ/max figures, as nextpnr-ecp5 takes it): the unregistered MULT18X18D, A/B to P
# 3.927 and SIGNEDA/B to P 3.728. A multiplier with any input, pipeline or output register
# (a REG_* parameter other than NONE) stays untimed: its paths begin and end at it.
MULT18X18D_ARCS = {**{(f"P{o}", f"{x}{i}"): 3.927 for o in range(36) for x in "AB" for i in range(18)},
                   **{(f"P{o}", f"SIGNED{x}"): 3.728 for o in range(36) for x in "AB"}}
EXTRA_ARCS = {"ecp5": {"MULT18X18D": MULT18X18D_ARCS}}


def registered(cell):
    """A cell with a register parameter set (MULT18X18D's REG_INPUTA_CLK and the like)."""
    return any(k.startswith("REG_") and str(v).strip('"') not in ("NONE", "")
               for k, v in cell.get("parameters", {}).items())


# The cells whose delay is a lookup level (the LUT levels of a path).
LUTS = {"ecp5": {"LUT4"}, "xilinx": {"LUT1", "LUT2", "LUT3", "LUT4", "LUT5", "LUT6"}}

ARC = re.compile(r"^\(\s*(\w+)(?:\[\d+(?::\d+)?\])?\s*[*=]>\s*(\w+)(?:\[\d+(?::\d+)?\])?\s*\)\s*=\s*\(?\s*(\d+)")


def cell_delays(library):
    """{cell type: {(output pin, input pin): ns}} from the unconditional pin-to-pin arcs of the
    library's specify blocks, however many a line holds (a bus pin's bits share its name; the
    largest figure is kept). Edge-triggered and conditional arcs are a register's, not logic's."""
    delays, module = {}, None
    for line in pathlib.Path(library).read_text(errors="replace").splitlines():
        m = re.match(r"^\s*module\s+(\\?\S+?)\s*[(#;]", line)
        if m:
            module = m.group(1).lstrip("\\")
            continue
        if module is None:
            continue
        for statement in line.split(";"):
            statement = statement.strip()
            if "posedge" in statement or "negedge" in statement or "$" in statement or statement.startswith("if"):
                continue
            m = ARC.match(statement)
            if m:
                arcs = delays.setdefault(module, {})
                key = (m.group(2), m.group(1))
                arcs[key] = max(arcs.get(key, 0.0), int(m.group(3)) / 1000.0)
    return delays


class Netlist:
    """The top module of a Yosys JSON netlist as cells, drivers and the combinational arcs."""

    def __init__(self, netlist, delays, family):
        data = json.loads(pathlib.Path(netlist).read_text()) if not isinstance(netlist, dict) else netlist
        modules = data["modules"]
        top = [n for n, m in modules.items() if m.get("attributes", {}).get("top")]
        self.module = modules[top[0]] if top else next(iter(modules.values()))
        self.cells = self.module["cells"]
        self.family = family
        extra = EXTRA_ARCS.get(family, {})
        self.arcs = {name: delays.get(c["type"]) or (None if registered(c) else extra.get(c["type"]))
                     for name, c in self.cells.items()}
        # The module's input ports start paths and its output ports end them, like registers.
        self.ports = {}
        self.driver = {}
        for port, info in self.module.get("ports", {}).items():
            self.ports[PORT + port] = info
            if info.get("direction") == "input":
                for b in info["bits"]:
                    if isinstance(b, int):
                        self.driver[b] = (PORT + port, "")
        for name, c in self.cells.items():
            for pin, bits in c["connections"].items():
                if c["port_directions"].get(pin) == "output":
                    for b in bits:
                        if isinstance(b, int):
                            self.driver[b] = (name, pin)
        self.rules = DEDICATED.get(family, [])
        # A netlist synthesised with its hierarchy kept and flattened after mapping (`scripts/fpga
        # report --keep-hierarchy`) names each cell's instance in its hdlname attribute; ABC's
        # cells in a netlist flattened before mapping have none.
        self.hierarchical = any("hdlname" in c.get("attributes", {}) for c in self.cells.values())

    def block(self, name):
        """The RTL instance a cell lies in ("" for the top), from its hdlname attribute."""
        return ".".join(self.cells[name].get("attributes", {}).get("hdlname", "").split()[:-1])

    def dedicated(self, drv, load, load_pin):
        if drv[0] not in self.cells or load not in self.cells:
            return False
        dt, lt = self.cells[drv[0]]["type"], self.cells[load]["type"]
        return any(dt == a and (p is None or drv[1] == p) and lt == b and load_pin in pins
                   for a, p, b, pins in self.rules)

    def inputs(self, node):
        """(input pin, arc delay, driver) for each driven input bit of a combinational output."""
        cell, out = node
        for (o, pin), d in self.arcs[cell].items():
            if o != out:
                continue
            for b in self.cells[cell]["connections"].get(pin, []):
                if isinstance(b, int) and b in self.driver:
                    yield pin, d, self.driver[b]

    def timed(self, name):
        return self.arcs.get(name) is not None

    def net_name(self, bit):
        """A readable name of a net bit: a name from the RTL where it has one; otherwise the name
        Yosys made for it (after the RTL net it grew from and the cells between) cut back to that
        RTL net, marked with a "~"."""
        if not hasattr(self, "_names"):
            names = {}
            for nm, w in self.module["netnames"].items():
                made = MADE_UP.search(nm)
                for i, b in enumerate(w["bits"]):
                    if isinstance(b, int):
                        key = (w.get("hide_name", 0), bool(made), len(nm))
                        if b not in names or key < names[b][0]:
                            names[b] = (key, nm[:made.start()] + "~" if made else
                                        (nm if len(w["bits"]) == 1 else f"{nm}[{i}]"))
            self._names = {b: n for b, (_, n) in names.items()}
        return self._names.get(bit, "?")


PORT = "port "  # a module port's name in the places a cell's goes

MADE_UP = re.compile(r"_(LUT\d|PFUMX|L6MUX21|CCU2C|TRELLIS_FF|TRELLIS_DPR16X4|DP16KD|MULT18X18D|MUXF[78]|CARRY4|"
                     r"FD[RSCP]E|RAMB\d+E1)_")


def arrivals(net, route_ns, levels=False):
    """Arrival time (ns) at every combinational cell output, and the arc it came through (driver,
    input pin, arc delay, dedicated wire or not); every untimed cell's output (a register, a block
    RAM) starts a path at 0. A combinational loop is cut where the search finds it closed (that
    arc is left out) and counted in loops, so every arc recorded leads back to a start. With
    levels, the "arrival" is the number of lookup levels (the family's LUTs) instead: the deepest
    path, which need not be the slowest."""
    luts = LUTS.get(net.family, set())
    arr, pred, on_path, loops = {}, {}, set(), 0
    for name in net.cells:
        if not net.timed(name):
            continue
        for out in {o for o, _ in net.arcs[name]}:
            stack = [((name, out), False)]
            while stack:
                node, expanded = stack.pop()
                if node in arr:
                    continue
                deps = list(net.inputs(node))
                if not expanded:
                    if node in on_path:  # reached again from below itself: a loop
                        continue
                    on_path.add(node)
                    stack.append((node, True))
                    stack.extend(((d, False) for _, _, d in deps if net.timed(d[0]) and d not in arr and d not in on_path))
                    continue
                best, via = (0 if levels else 0.0), None
                for pin, delay, drv in deps:
                    if net.timed(drv[0]) and drv not in arr:
                        loops += 1  # drv is on the path being searched: the loop is cut here
                        continue
                    start = arr.get(drv, 0) if net.timed(drv[0]) else 0
                    dedicated = net.dedicated(drv, node[0], pin)
                    if levels:
                        t = start + (1 if net.cells[node[0]]["type"] in luts else 0)
                    else:
                        t = start + delay + (0.0 if dedicated else route_ns)
                    if via is None or t > best:
                        best, via = t, (drv, pin, delay, dedicated)
                arr[node], pred[node] = best, via
                on_path.discard(node)
    return arr, pred, loops


def endpoints(net, arr, route_ns):
    """(arrival at the pin, register cell, pin, driver) for every input of an untimed cell, every
    synchronous input of a timed one and every output port."""
    for port, info in net.ports.items():
        if info.get("direction") == "output":
            for b in info["bits"]:
                if isinstance(b, int) and b in net.driver:
                    drv = net.driver[b]
                    yield (arr.get(drv, 0.0) if net.timed(drv[0]) else 0.0) + route_ns, port, "", drv
    for name, c in net.cells.items():
        # A timed cell's inputs without an arc are synchronous (a LUT RAM's write port): ends too.
        arc_inputs = {p for _, p in net.arcs[name]} if net.timed(name) else set()
        for pin, bits in c["connections"].items():
            if c["port_directions"].get(pin) == "output" or pin in arc_inputs:
                continue
            for b in bits:
                if isinstance(b, int) and b in net.driver:
                    drv = net.driver[b]
                    yield (arr.get(drv, 0.0) if net.timed(drv[0]) else 0.0) + route_ns, name, pin, drv


def register_name(cell):
    """The RTL register or memory a mapped cell belongs to (Yosys names them after it)."""
    name = re.sub(r"_(TRELLIS_FF|DP16KD|PDPW16KD|TRELLIS_DPR16X4|MULT18X18D|FD[RSCP]E|RAMB\d+E1)_.*|\$.*", "", cell)
    made = MADE_UP.search(name)  # a register Yosys named after the logic in front of it
    if made:
        return name[:made.start()] + "~"
    return re.sub(r"(\.\d+)+(_DO[AB]?\d+)?$", "", name)  # a memory's blocks: rom.0.4_DOA8 -> rom


def trace(net, pred, end_driver):
    """The cells of the recorded path into an end (its driver), first first, and the name of the
    register, memory or port it starts at ("constant" for none)."""
    path, node = [], end_driver
    while node is not None and net.timed(node[0]):
        path.append(node)
        node = pred[node][0] if pred.get(node) else None
    path.reverse()
    return path, register_name(node[0]) if node is not None else "constant"


def blocks(net, path):
    """The instances a path runs through in order, each with its cells on the path: [[instance,
    cells], ...] ("" is the top). Only a hierarchical netlist (Netlist.hierarchical) says this."""
    runs = []
    for c, _ in path:
        b = net.block(c)
        if runs and runs[-1][0] == b:
            runs[-1][1] += 1
        else:
            runs.append([b, 1])
    return runs


def worst_groups(net, ends, pred, count, key):
    """The worst path into each of the first count register groups of ends (sorted worst first),
    and in a hierarchical netlist the instances it runs through."""
    groups, seen = [], set()
    for value, cell, _pin, drv in ends:
        if len(groups) >= count:
            break
        group = register_name(cell)
        if group in seen:
            continue
        seen.add(group)
        path, start = trace(net, pred, drv)
        groups.append({"end": group, "start": start, key: value})
        if net.hierarchical:
            groups[-1]["blocks"] = blocks(net, path)
    return groups


def deepest(net, worst_endpoints=12, target_levels=20):
    """The path with the most lookup levels between registers (the issue's count, whatever its
    delay), the deepest path into each of the deepest register groups, and how many endpoint bits
    (register, memory and port inputs) have a path deeper than target_levels."""
    lev, pred, _ = arrivals(net, 0.0, levels=True)
    ends = sorted(((lev.get(d, 0) if net.timed(d[0]) else 0, c, p, d) for _, c, p, d in endpoints(net, {}, 0.0)),
                  key=lambda e: -e[0])
    if not ends:
        return {"lut_levels": 0, "path": [], "endpoints": []}
    worst = ends[0]
    path, start = trace(net, pred, worst[3])
    return {
        "lut_levels": worst[0],
        "endpoint_bits": len(ends),
        "target_levels": target_levels,
        "endpoint_bits_deeper": sum(1 for e in ends if e[0] > target_levels),
        "deeper_by_register": deeper_by_register(net, ends, target_levels),
        "start": start,
        "end": end_name(net, worst),
        "path": [{"type": net.cells[c]["type"], "net": net.net_name(net.cells[c]["connections"][o][0]),
                  "level": lev[(c, o)]} for c, o in path],
        "endpoints": worst_groups(net, ends, pred, worst_endpoints, "lut_levels"),
    }


def deeper_by_register(net, ends, target_levels, count=25):
    """Where the endpoint bits deeper than target_levels are: the register groups (memories,
    ports) holding the most of them, each with its bits deeper, its deepest and the levels of its
    bits at the median, most first: what a pipeline stage would have to cut."""
    groups = {}
    for value, cell, _pin, _drv in ends:
        if value <= target_levels:
            break  # ends are sorted deepest first
        name = cell if cell in net.ports else register_name(cell)
        groups.setdefault(name, []).append(value)
    rows = [{"register": name, "bits": len(v), "deepest": max(v), "median": sorted(v)[len(v) // 2]}
            for name, v in groups.items()]
    rows.sort(key=lambda r: (-r["bits"], -r["deepest"], r["register"]))
    return rows[:count]


def end_name(net, end):
    return end[1] if end[1] in net.ports else f"{register_name(end[1])} ({net.cells[end[1]]['type']}.{end[2]})"


def estimate(netlist, library, family, route_ns, worst_endpoints=12):
    """The estimate as a dict: the critical path's delay and its cells, the delay of its logic
    alone (the sum of its arcs) and its routed nets, and the worst path into each of the slowest
    register groups. A netlist none of whose cells the library times is not the family's: an error."""
    delays = cell_delays(library)
    net = Netlist(netlist, delays, family)
    arr, pred, loops = arrivals(net, route_ns)
    if not any(pred.values()):
        raise ValueError(f"no cell of the netlist has a delay in {library} for the pins it uses: "
                         f"not a {family} netlist")
    ends = sorted(endpoints(net, arr, route_ns), key=lambda e: -e[0])
    result = {"route_ns": route_ns, "critical_ns": 0.0, "fmax_mhz": None, "logic_ns": 0.0, "lut_levels": 0,
              "hops": 0, "path": [], "endpoints": [], "loops_cut": loops,
              "untimed": dict(sorted(collections.Counter(
                  c["type"] for n, c in net.cells.items() if not net.timed(n)).items()))}
    if not ends:
        return result
    worst = ends[0]
    # The path back from the end: each cell with the arc it was reached through, and where it starts.
    path, start = trace(net, pred, worst[3])
    arcs = [pred[n] for n in path if pred.get(n)]
    logic = sum(a[2] for a in arcs)
    hops = sum(1 for a in arcs if not a[3]) + 1  # routed arcs into the cells, and into the end
    result.update({
        "critical_ns": round(worst[0], 3),
        "fmax_mhz": round(1000.0 / worst[0], 1) if worst[0] > 0 else None,
        "logic_ns": round(logic, 3),
        "lut_levels": sum(1 for c, _ in path if net.cells[c]["type"] in LUTS.get(family, set())),
        "hops": hops,
        "start": start,
        "end": end_name(net, worst),
        "path": [{"type": net.cells[c]["type"], "net": net.net_name(net.cells[c]["connections"][o][0]),
                  "arrival_ns": round(arr[(c, o)], 3)} for c, o in path],
    })
    result["endpoints"] = worst_groups(net, [(round(e[0], 3),) + e[1:] for e in ends], pred, worst_endpoints, "ns")
    if worst_endpoints:
        result["deepest"] = deepest(net, worst_endpoints)
    return result
