#!/usr/bin/env python3
"""scripts/fpga's way around Yosys 0.23's ABC9 failure on the whole chip ("Boxes are not in a
topological order" in ABC's &if, after its choice computation &dch): the report maps the LUTs
again with an ABC script without &dch (nor the &mfs that then fails an assertion), and says so.
No small design makes ABC9 fail, so the first Yosys run's failure is made here (its log as ABC
writes it, with &if's arguments of the run); the second run is real (the game phase control, about
10 s), with the script the report wrote.

Usage: abc9_fallback.py OUT_DIR"""
import argparse
import pathlib
import subprocess
import sys

import fpga_cli  # noqa: E402 (tests/fpga, beside this file)

ROOT = pathlib.Path(__file__).resolve().parents[2]
fpga = fpga_cli.load()

FAILED_LOG = """ABC: + &dch -f
ABC: + &ps
ABC: + &if -W 250 -v
ABC: ** cmd error: aborting 'source <abc-temp-dir>/abc.script'
ABC: The command has to terminate. Boxes are not in a topological order.
ERROR: Can't open input file `/tmp/yosys-abc-x/output.aig' for reading: No such file or directory
"""


def main():
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        sys.exit(__doc__.strip().splitlines()[-1])  # "Usage: abc9_fallback.py OUT_DIR", not a folder named --help
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    real_run = subprocess.run
    scripts = []

    def run(cmd, **kw):
        if cmd and cmd[0] == "yosys" and "-p" in cmd:  # a synthesis (not `yosys -V`)
            scripts.append(cmd[-1])
            if len(scripts) == 1:  # the default ABC9 script stops
                pathlib.Path(cmd[cmd.index("-l") + 1]).write_text(FAILED_LOG)
                return subprocess.CompletedProcess(cmd, 1, "", "")
        return real_run(cmd, **kw)

    fpga.subprocess.run = run
    args = argparse.Namespace(top="eval_phase", abc9=None, abc9_without_choices=False, quiet=True,
                              route_ns=fpga.DEFAULT_ROUTE_NS)
    rep = fpga.synthesise(args, "ulx3s-85f", fpga.board_of("ulx3s-85f"), out)
    fails = []
    if len(scripts) != 2 or "abc9.script" in scripts[0] or "scratchpad -set abc9.script" not in scripts[1]:
        fails.append(f"expected the default run, then one with the scratchpad's abc9.script: {scripts}")
    abc = (out / "abc9_without_choices.abc").read_text()
    if "&dch" in abc or "&mfs" in abc or "&if -W 250 -v" not in abc:
        fails.append(f"the script keeps &dch or &mfs, or loses the failed run's &if arguments: {abc!r}")
    if "source " + str(out / "abc9_without_choices.abc") not in (out / "synth.log").read_text():
        fails.append("the second run's ABC did not source the script")
    if not (out / "synth-abc9-default.log").is_file():
        fails.append("the failed run's log was not kept")
    if not str(rep.get("abc9_script", "")).startswith("without choices") or not rep["synth"].endswith("-abc9"):
        fails.append(f"the report does not say how it mapped: {rep.get('abc9_script')!r}, {rep['synth']!r}")
    if not rep["fits"] or rep["logic_depth"]["levels"] <= 0:
        fails.append(f"no usable netlist: fits {rep['fits']}, depth {rep['logic_depth']}")
    if fails:
        sys.exit("abc9_fallback: " + "; ".join(fails))
    print(f"abc9_fallback: the report mapped again without &dch ({rep['logic_depth']['levels']} levels, "
          f"{rep['abc9_script']})")


if __name__ == "__main__":
    main()
