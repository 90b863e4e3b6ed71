#!/usr/bin/env python3
"""scripts/fpga's chip clock choice (--clock-mhz) and how `build` reads a place and route that
missed it: the slowest clock's achieved frequency from nextpnr's log when it stopped on timing,
none when it passed or failed for another reason; a clock the board's PLL cannot make is refused.

Usage: build_clock.py OUT_DIR"""
import argparse
import pathlib
import sys

import fpga_cli  # noqa: E402 (tests/fpga, beside this file)

fpga = fpga_cli.load()

# nextpnr-ecp5's own lines (a run of the move generator on a 25F, 2026-11-30), one clock failing.
FAILED = """Info: Max frequency for clock '$glbnet$clk$TRELLIS_IO_IN': 18.21 MHz (FAIL at 24.00 MHz)
Info: Max frequency for clock '$glbnet$clk_chip': 25.90 MHz (PASS at 24.00 MHz)
ERROR: Max frequency for clock '$glbnet$clk$TRELLIS_IO_IN': 19.50 MHz (FAIL at 24.00 MHz)
"""
PASSED = "Info: Max frequency for clock '$glbnet$clk$TRELLIS_IO_IN': 25.90 MHz (PASS at 24.00 MHz)\n"
OTHER = "ERROR: Unable to place cell 'u_pll', no BELs remaining to implement cell type 'EHXPLLL'\n"

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    out = pathlib.Path(p.parse_args().out)
    out.mkdir(parents=True, exist_ok=True)
    for name, text, want in (("failed", FAILED, 18.21), ("passed", PASSED, None), ("other", OTHER, None)):
        log = out / f"{name}.log"
        log.write_text(text)
        got = fpga.timing_failure(log)
        check(got == want, f"{name}: timing_failure {got}, want {want}")
    check(fpga.timing_failure(out / "no-such.log") is None, "a missing log is not a timing failure")

    board = fpga.BOARDS["ulx3s-85f"]
    args = argparse.Namespace(clock_mhz=18.0)
    check(fpga.clock_mhz(args, board) == 18.0, "18 MHz is one of the ULX3S's clocks")
    check(fpga.clock_prelude(args, board, board["top"]) == "chparam -set CLK_MHZ 18 ulx3s_top; ",
          "the board top gets CLK_MHZ 18")
    check(fpga.clock_prelude(argparse.Namespace(clock_mhz=None), board, board["top"]) == "",
          "the default clock changes nothing")
    for mhz in board["clocks_mhz"]:
        check(mhz % 3 == 0, f"{mhz} MHz: 3 Mbaud is a whole number of clocks a bit")
    try:
        fpga.clock_mhz(argparse.Namespace(clock_mhz=20.0), board)
        check(False, "20 MHz accepted")
    except SystemExit as e:
        check(e.code == 2, f"20 MHz: exit {e.code}, want 2")
    if failures:
        for f in failures:
            print(f"build_clock: FAIL: {f}")
        return 1
    print("build_clock: the timing failure read from nextpnr's log and the chip clocks checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
