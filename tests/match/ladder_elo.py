#!/usr/bin/env python3
"""scripts/ladder's arithmetic against hand-worked figures: the Elo of a score with draws and its
95 % bar (trinomial normal approximation), and the maximum-likelihood rating over anchors."""
import importlib.machinery
import importlib.util
import math
import sys

path = sys.argv[1]
loader = importlib.machinery.SourceFileLoader("ladder", path)
spec = importlib.util.spec_from_loader("ladder", loader)
ladder = importlib.util.module_from_spec(spec)
loader.exec_module(ladder)


def near(a, b, tol, what):
    assert abs(a - b) <= tol, f"{what}: {a} != {b} (+/- {tol})"


# 100 games, +40 =40 -20: 60 %, +70.4 Elo. By hand: one game's score variance
# (40*0.4^2 + 40*0.1^2 + 20*0.6^2)/100 = (6.4 + 0.4 + 7.2)/100 = 0.14; standard error
# sqrt(0.14/100) = 0.037417; scores 0.6 -/+ 1.96*0.037417 = 0.526663 .. 0.673337;
# Elo -400 log10(1/0.526663 - 1) = +18.55 .. -400 log10(1/0.673337 - 1) = +125.65: bar 53.55.
st = ladder.score_stats(40, 40, 20)
near(st["score"], 0.6, 1e-12, "score")
near(st["elo"], 70.437, 0.001, "Elo of 60 %")
near(st["var"], 0.14, 1e-12, "variance")
near(st["elo_lo"], 18.55, 0.01, "lower end")
near(st["elo_hi"], 125.65, 0.01, "upper end")
near(st["elo_error95"], 53.55, 0.01, "half the interval")

# Without draws the same score has a wider bar: +60 -40, variance 0.24.
wide = ladder.score_stats(60, 0, 40)
near(wide["var"], 0.24, 1e-12, "variance without draws")
assert wide["elo_error95"] > st["elo_error95"]

# A clean sweep has no finite Elo or bar.
sweep = ladder.score_stats(2, 0, 0)
assert math.isinf(sweep["elo"]) and math.isinf(sweep["elo_error95"])

# One anchor: the fit is the anchor plus the Elo difference, its bar 1.96 * sqrt(var/n) / E'.
r, half, note = ladder.fit_rating([(1600, st)])
near(r, 1670.437, 0.01, "one anchor")
slope = 0.6 * 0.4 * math.log(10) / 400
near(half, 1.959964 * math.sqrt(0.14 / 100) / slope, 0.01, "one anchor's bar")
# Two anchors 200 apart, 50 % against each: the midpoint (by symmetry).
even = ladder.score_stats(10, 20, 10)
r, half, note = ladder.fit_rating([(1500, even), (1700, even)])
near(r, 1600, 0.01, "two symmetric anchors")
# Every game won: a bound, no number.
r, half, note = ladder.fit_rating([(1500, sweep)])
assert r is None and "above 1500" in note, note
print("LADDER_ELO_OK")
