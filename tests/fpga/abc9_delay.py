#!/usr/bin/env python3
"""scripts/fpga's ABC9 delay target without running Yosys: which target each mapping gets (the
board's for its top and for chip_top, none for another block, --abc9-delay-ps N for any, 0 for
none), and that the ABC script written in place of Yosys's default (ABC9 without ABC's choices,
from the start or after the default stopped) passes the target to &if, since Yosys fills in its
{D} in its own script only.

Usage: abc9_delay.py OUT_DIR"""
import argparse
import pathlib
import sys

import fpga_cli  # noqa: E402 (tests/fpga, beside this file)

fpga = fpga_cli.load()


def target(board, top=None, ps=None, abc9=None):
    return fpga.abc9_delay_ps(argparse.Namespace(top=top, abc9_delay_ps=ps, abc9=abc9), fpga.board_of(board))


def main():
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        sys.exit(__doc__.strip().splitlines()[-1])
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    board_ps = fpga.board_of("ulx3s-85f")["abc9_delay_ps"]
    fails = []
    cases = [  # (board, --top, --abc9-delay-ps, --abc9/--no-abc9, the target expected)
        ("ulx3s-85f", None, None, None, board_ps),            # the board's top: the board's target
        ("ulx3s-85f", "ulx3s_top", None, None, board_ps),
        ("ulx3s-85f", "chip_top", None, None, board_ps),      # the chip alone: nearly all of the top
        ("ulx3s-85f", "eval_phase", None, None, None),        # a block alone: none unless asked
        ("ulx3s-85f", "eval_phase", 9000, None, 9000),
        ("ulx3s-85f", None, 0, None, None),                   # 0: none, ABC's best delay
        ("ulx3s-85f", None, 17000, None, 17000),
        ("ulx3s-85f", None, None, False, None),               # no ABC9, no target
        ("arty-a7-100t", None, None, None, None),             # a board without ABC9 by default
        ("arty-a7-100t", None, None, True, None),             # ABC9 asked for, no board target
    ]
    for board, top, ps, abc9, want in cases:
        got = target(board, top, ps, abc9)
        if got != want:
            fails.append(f"{board} --top {top} --abc9-delay-ps {ps} abc9 {abc9}: target {got}, expected {want}")
    # The script without choices: the target added to &if; one already there (a failed run's) kept once.
    script = fpga.abc9_without_choices(out, None, 17000).read_text()
    if "&if -D 17000 -W 300 -v" not in script or "&dch" in script:
        fails.append(f"without choices from the start, target 17000: {script!r}")
    if "-D" in fpga.abc9_without_choices(out, None, None).read_text():
        fails.append("without choices and no target: &if was given -D")
    failed = out / "failed.log"
    failed.write_text("ABC: + &dch -f\nABC: + &if -W 300 -D 18000 -v\n")
    script = fpga.abc9_without_choices(out, failed, 18000).read_text()
    if script.count("-D") != 1 or "&if -W 300 -D 18000 -v" not in script:
        fails.append(f"without choices after a failed run with -D 18000: {script!r}")
    if fails:
        sys.exit("abc9_delay: " + "; ".join(fails))
    print(f"abc9_delay: {len(cases)} mappings get their delay targets; the script without choices passes them to &if")


if __name__ == "__main__":
    main()
