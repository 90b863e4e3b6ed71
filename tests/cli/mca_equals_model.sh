#!/usr/bin/env bash
# The same search on directly clocked model chips and through the Micro Channel model (--backend
# mca): best move, score, software nodes and the chips' searches and nodes must be equal; only the
# time figures may differ. The mca run must report its bus figures.
# Usage: mca_equals_model.sh DEEPBLUE [search options...]
set -euo pipefail
deepblue=$1
shift
model=$("$deepblue" search "$@" --backend model --json)
mca=$("$deepblue" search "$@" --backend mca --json)
python3 - "$model" "$mca" <<'PY'
import json, sys
model, mca = json.loads(sys.argv[1]), json.loads(sys.argv[2])
same = [("bestmove",), ("score",), ("nodes",), ("chip", "searches"), ("chip", "nodes")]
bad = 0
for path in same:
    a, b = model, mca
    for k in path:
        a, b = a[k], b[k]
    print(f"{'.'.join(path)}: model {a} mca {b}")
    if a != b:
        bad += 1
bus = mca["chip"].get("bus")
if not bus or bus["accesses"] <= 0 or not (0 < bus["host_io_share"] <= 1.0000001):
    print("mca: missing or bad bus figures:", bus)
    bad += 1
if "bus" in model["chip"]:
    print("model: unexpected bus figures")
    bad += 1
print("simulated seconds: model", model["chip"]["simulated_seconds"], "mca", mca["chip"]["simulated_seconds"])
print("MCA_EQUALS_MODEL" if bad == 0 else "MISMATCH")
sys.exit(1 if bad else 0)
PY
