#!/bin/bash
# scripts/bench-cluster --keep DIR: a second run with the same program and arguments reads every
# search back and reports the same figures; a kept file that is not JSON is an error naming it.
# Usage: bench_cluster_keep.sh BUILD_DIR
set -euo pipefail
export BUILD_DIR=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
args=(--sets aij --nodes 2 --depth 5 --chip-depth 2 --master-plies 2 --jobs 1 --keep "$tmp/keep")
"$root/scripts/bench-cluster" "${args[@]}" --json "$tmp/a.json" --out "$tmp/a.md" > "$tmp/first.log"
if grep -q 'read back' "$tmp/first.log"; then
  echo "the first run read results back from an empty folder"
  exit 1
fi
"$root/scripts/bench-cluster" "${args[@]}" --json "$tmp/b.json" --out "$tmp/b.md" > "$tmp/second.log"
grep -q '(6 of them read back from' "$tmp/second.log" || { cat "$tmp/second.log"; exit 1; }
python3 - "$tmp/a.json" "$tmp/b.json" <<'PY'
import json, sys
def figures(path):
    sets = json.load(open(path))["sets"]
    for entry in sets.values():
        for p in entry["positions"]:
            for r in [p["chip"], p["node"], *p["cluster"].values()]:
                r.pop("kept")
    return sets
a, b = figures(sys.argv[1]), figures(sys.argv[2])
if a != b:
    sys.exit("the figures read back differ from the run's")
PY
kept=$(ls "$tmp"/keep/*.json | head -1)
echo "not json" > "$kept"
if "$root/scripts/bench-cluster" "${args[@]}" --json "$tmp/c.json" --out "$tmp/c.md" > "$tmp/bad.log" 2>&1; then
  echo "a kept file that is not JSON was accepted"
  exit 1
fi
grep -q "$kept: a kept result that is not JSON" "$tmp/bad.log" || { cat "$tmp/bad.log"; exit 1; }
echo BENCH_CLUSTER_KEEP_OK
