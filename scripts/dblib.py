"""Helpers shared by the Python scripts of scripts/ (bench-*, regress): where the shared data and the
deepblue program are, running deepblue for its JSON, a progress line, the machine's description,
reports and plots. A script imports it with its own folder on the path:

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import dblib
"""
import functools
import hashlib
import json
import os
import pathlib
import platform
import shutil
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
# The build directory of scripts/build (BUILD_DIR, default build/).
BUILD = ROOT / os.environ.get("BUILD_DIR", "build")
DEEPBLUE = BUILD / "bin" / "deepblue"
# The program's name in messages: "bench-chip: ...".
PROG = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "dblib"


def shared_data(needed="perft.epd"):
    """The shared test data folder (../shared/data beside the clone, as CMake finds it) that holds
    `needed`; exits naming the file when there is none."""
    for p in (ROOT.parent / "shared" / "data", pathlib.Path("/work/shared/data")):
        if (p / needed).exists():
            return p
    sys.exit(f"{PROG}: ../shared/data/{needed} not found")


# The two positions of AIJ section 4.2 (from the 1997 games).
AIJ_POSITIONS = [
    ("AIJ 4.2 #1", "r1r1q1k1/6p1/3b1p1p/1p1PpP2/1Pp5/2P4P/R1B2QP1/R5K1 w - - 0 37"),
    ("AIJ 4.2 #2", "r2qk2r/pp3ppp/2p1pn2/4n3/1b6/3P2PP/PPPN1PB1/R1BQK2R b KQkq - 4 11"),
]


def position_set(name):
    """A fixed position set for the parallel-search benchmarks, shared by the node (issue 20) and
    cluster (issue 21) measurements, picked by rule from ../shared/data so that nobody here chose
    the positions: "aij" (AIJ 4.2's two), "tactical" (Win At Chess 1, 31, 61, ..., 271: ten
    positions with a tactical solution), "quiet" (fastchess's balanced openings 1, 11, ..., 91: ten
    quiet positions after eight moves). Returns [(id, fen), ...]."""
    if name == "aij":
        return list(AIJ_POSITIONS)
    if name == "tactical":
        out = []
        for line in (shared_data("wac.epd") / "wac.epd").read_text().splitlines():
            fields = line.split()
            if len(fields) < 4:
                continue
            ident = line.split('id "', 1)[1].split('"', 1)[0] if 'id "' in line else ""
            number = int(ident.split(".")[-1]) if ident else 0
            if number % 30 == 1:
                out.append((ident, " ".join(fields[:4]) + " 0 1"))
        return out
    if name == "quiet":
        lines = [ln.strip() for ln in (shared_data("openings-fastchess-99.epd") / "openings-fastchess-99.epd")
                 .read_text().splitlines() if ln.strip()]
        return [(f"opening {i + 1}", lines[i]) for i in range(0, len(lines), 10)]
    sys.exit(f"{PROG}: unknown position set {name!r} (aij, tactical, quiet)")


def need_deepblue(build=False):
    """Exits unless build/bin/deepblue exists; with build=True, runs scripts/build first instead."""
    if DEEPBLUE.exists():
        return
    if build:
        subprocess.run([str(ROOT / "scripts" / "build")], check=True, stdout=sys.stderr)
        return
    sys.exit(f"{PROG}: {DEEPBLUE.relative_to(ROOT) if DEEPBLUE.is_relative_to(ROOT) else DEEPBLUE} "
             "not built: run scripts/build first")


def deepblue(*args):
    """Runs `deepblue ARGS --json` and returns its JSON object, with "wall" (seconds of wall time)
    added; exits with deepblue's error message when it fails."""
    cmd = [str(DEEPBLUE), *map(str, args), "--json"]
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if r.returncode != 0:
        sys.exit(f"{PROG}: deepblue {' '.join(map(str, args))} failed (exit {r.returncode}): {r.stderr.strip()}")
    try:
        out = json.loads(r.stdout)
    except json.JSONDecodeError:
        sys.exit(f"{PROG}: deepblue {' '.join(map(str, args))} printed no JSON: {r.stdout[:300]!r}")
    out["wall"] = wall
    return out


@functools.lru_cache(maxsize=None)
def deepblue_digest():
    """The SHA-256 of the deepblue program's file: what a kept result was computed with."""
    return hashlib.sha256(DEEPBLUE.read_bytes()).hexdigest()


def deepblue_kept(keep, *args):
    """deepblue(*args), its JSON kept in the folder `keep` (None: not kept) under a name made of the
    program file's digest and the arguments. A search already kept is read back, not run again: a
    long benchmark stopped part way resumes where it was, and its baselines serve other runs with
    the same arguments; a rebuilt program (a new digest) never reuses a result. Returns the JSON
    with "kept": True when it was read back."""
    if keep is None:
        return deepblue(*args)
    name = hashlib.sha256(json.dumps([deepblue_digest(), *map(str, args)]).encode()).hexdigest()[:32]
    path = pathlib.Path(keep) / f"{name}.json"
    if path.exists():
        try:
            out = json.loads(path.read_text())
            out["kept"] = True
            return out
        except json.JSONDecodeError:
            sys.exit(f"{PROG}: {path}: a kept result that is not JSON (delete it to run the search again)")
    out = deepblue(*args)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    partial.write_text(json.dumps({**out, "args": list(map(str, args))}) + "\n")
    partial.replace(path)  # whole or absent: a run stopped while writing is run again
    return out


def cpu_model():
    """The processor's name (from /proc/cpuinfo), else the machine type."""
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.machine()


def tty():
    """True when progress lines can go to stderr: a terminal, not a log (CI, ctest)."""
    return sys.stderr.isatty()


class Progress:
    """A progress line on stderr, rewritten in place: "LABEL: done/total UNIT, rate/s, elapsed, ETA".
    Quiet when stderr is not a terminal. `note` adds to it (e.g. failures so far).

        p = Progress(total, "model", "searches")
        for ...: p.step()
        p.close()
    """

    def __init__(self, total, label="", unit="runs"):
        self.total, self.label, self.unit = total, label, unit
        self.done = 0
        self.start = time.perf_counter()
        self.shown = False

    def step(self, n=1, note=""):
        self.update(self.done + n, note)

    def update(self, done, note=""):
        self.done = done
        if not tty():
            return
        elapsed = time.perf_counter() - self.start
        rate = done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - done) / rate if rate > 0 else 0.0
        prefix = f"{self.label}: " if self.label else "  "
        rate_text = f"{rate:.2f}" if rate < 10 else f"{rate:.1f}"
        sys.stderr.write(f"\r{prefix}{done}/{self.total} {self.unit}{note}, {rate_text}/s, {elapsed:.0f} s, "
                         f"ETA {eta:.0f} s   ")
        sys.stderr.flush()
        self.shown = True

    def close(self):
        """Ends the line (if one was shown)."""
        if self.shown and tty():
            sys.stderr.write("\n")
            sys.stderr.flush()
        self.shown = False


def write_report(path, text):
    """Writes a report file (creating its folder), ending in one newline."""
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text if text.endswith("\n") else text + "\n")


def have_gnuplot():
    return shutil.which("gnuplot") is not None


def gnuplot(script, check=False):
    """Runs a gnuplot script if gnuplot is installed; returns whether it ran."""
    if not shutil.which("gnuplot"):
        return False
    subprocess.run(["gnuplot", "-e", script], check=check)
    return True


def yosys_share():
    """Yosys's data folder (cell models, simlib.v): yosys-config's answer when the dev package is
    there, else the one beside the yosys binary (Debian: /usr/share/yosys)."""
    if shutil.which("yosys-config"):
        r = subprocess.run(["yosys-config", "--datdir"], capture_output=True, text=True)
        if r.returncode == 0 and r.stdout.strip():
            return pathlib.Path(r.stdout.strip())
    return pathlib.Path(shutil.which("yosys")).resolve().parent.parent / "share" / "yosys"


def verilator_binary(top, mdir, exe, sources):
    """The command that builds a testbench with delays (--binary --timing) into MDIR/EXE: scripts/fpga
    gatesim and scripts/yosys-diff. Yosys's netlists and cell models are not ours to lint, so
    Verilator's warnings stay in its log. C++ at -O1: faster to compile than Verilator's -Os on a
    netlist of 150,000 cells and as fast to run (-O0 runs ten times slower)."""
    return ["verilator", "--binary", "--timing", "-Wno-fatal", "-Wno-lint", "-Wno-style", "--top-module", top,
            "-Mdir", str(mdir), "-o", exe, "-j", str(os.cpu_count() or 1), "--output-split", "20000",
            "-MAKEFLAGS", "OPT_FAST=-O1 OPT_GLOBAL=-O1", *[str(x) for x in sources]]
