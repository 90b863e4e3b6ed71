#!/usr/bin/env bash
# The commands users run, against a real chip server: starts `deepblue chipd` on a free loopback
# port (--port-file in a temporary folder), then
# - `deepblue search --backend remote:127.0.0.1:PORT` must equal `--backend model` (move, score,
#   nodes, chip searches and nodes, busy clocks) and report the link's traffic;
# - `deepblue perft --backend remote:...` must give the model's count;
# - a UCI session with `setoption name RemoteChips value 127.0.0.1:PORT` must search on them;
# and stops the server (SIGTERM), which must exit 0.
# Usage: remote_equals_model.sh DEEPBLUE
set -euo pipefail
deepblue=$1
dir=$(mktemp -d)
"$deepblue" chipd --listen 127.0.0.1:0 --chips 4 --port-file "$dir/port" 2>"$dir/log" &
server=$!
cleanup() {
  kill "$server" 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT
for _ in $(seq 1 500); do [ -s "$dir/port" ] && break; sleep 0.02; done
[ -s "$dir/port" ] || { echo "chipd did not start"; cat "$dir/log"; exit 1; }
remote=remote:127.0.0.1:$(cat "$dir/port")
fen="r1r1q1k1/6p1/3b1p1p/1p1PpP2/1Pp5/2P4P/R1B2QP1/R5K1 w - - 0 37"
model=$("$deepblue" search --fen "$fen" --depth 6 --chips 4 --backend model --json)
far=$("$deepblue" search --fen "$fen" --depth 6 --chips 4 --backend "$remote" --json)
perft_model=$("$deepblue" perft --fen "$fen" --depth 2 --backend model --json)
perft_remote=$("$deepblue" perft --fen "$fen" --depth 2 --backend "$remote" --json)
uci=$("$(dirname "$0")/uci_session.sh" "$deepblue" "setoption name OwnBook value false" \
  "setoption name RemoteChips value ${remote#remote:}" \
  "setoption name Chips value 2" "setoption name ChipDepth value 2" "position startpos moves e2e4" "go depth 3")
python3 - "$model" "$far" "$perft_model" "$perft_remote" "$uci" <<'PY'
import json, re, sys
model, far, pm, pr = (json.loads(a) for a in sys.argv[1:5])
uci = sys.argv[5]
bad = 0
for path in [("bestmove",), ("score",), ("nodes",), ("chip", "searches"), ("chip", "nodes"), ("chip", "busy_clocks")]:
    a, b = model, far
    for k in path:
        a, b = a[k], b[k]
    print(f"{'.'.join(path)}: model {a} remote {b}")
    bad += a != b
link = far["chip"].get("link")
print("link:", link)
if not link or link["servers"] != 1 or not (0 < link["round_trips_per_chip_search"] <= 2):
    bad += 1
if far["chip"]["chips_lost"] != 0:
    bad += 1
print("perft: model", pm["nodes"], "remote", pr["nodes"])
bad += pm["nodes"] != pr["nodes"]
if not re.search(r"info depth 3 [^\n]*pv [a-h][1-8][a-h][1-8].*bestmove [a-h][1-8][a-h][1-8]", uci, re.S):
    print("uci session on remote chips failed:\n" + uci)
    bad += 1
print("REMOTE_EQUALS_MODEL" if bad == 0 else "MISMATCH")
sys.exit(1 if bad else 0)
PY
kill -TERM "$server"
wait "$server" || { echo "chipd exited with $?"; cat "$dir/log"; exit 1; }
