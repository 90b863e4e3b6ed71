#!/usr/bin/env bash
# The commands users run, against a board behind a pseudo-terminal: starts `deepblue boardsim --board
# service` (a stand-in board: the link service over model chips) with --pty-file in a temporary
# folder, then each of perft, hwsearch, eval and search with --backend serial:PATH must print what
# --backend model prints (every field but the backend's name, times and rates, and the in-process
# model's per-state clocks); a UCI session with RemoteChips = serial:PATH must search on it; a baud
# the system does not know must be refused naming it; a frame the host leaves cut short must be
# dropped after the board's inter-byte timeout (the pty quiet for a second against a 100 ms timeout);
# a search on a board that damages replies (a second boardsim, --debug-garble-every) loses the
# board's chips and still gives the model's answer.
# SIGTERM then stops boardsim, which must exit 0 and remove its pty file.
# Usage: serial_equals_model.sh DEEPBLUE [BOARD]   (BOARD: service by default, or bridge: the verilated
# link bridge in front of model chips; the damaged-replies part always uses a service board)
set -euo pipefail
deepblue=$1
board_name=${2:-service}
dir=$(mktemp -d)
"$deepblue" boardsim --board "$board_name" --chips 2 --pty-file "$dir/pty" >"$dir/out" 2>"$dir/log" &
board=$!
cleanup() {
  kill "$board" 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT
for _ in $(seq 1 500); do [ -s "$dir/pty" ] && break; sleep 0.02; done
[ -s "$dir/pty" ] || { echo "boardsim did not start"; cat "$dir/log"; exit 1; }
pty=$(cat "$dir/pty")
[ "$(cat "$dir/out")" = "$pty" ] || { echo "boardsim printed '$(cat "$dir/out")', its pty file says '$pty'"; exit 1; }
serial=serial:$pty
fen="r1r1q1k1/6p1/3b1p1p/1p1PpP2/1Pp5/2P4P/R1B2QP1/R5K1 w - - 0 37"
kiwi="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
run_both() {  # name, then the command's arguments without --backend
  local name=$1
  shift
  "$deepblue" "$@" --backend model --json >"$dir/$name.model"
  "$deepblue" "$@" --backend "$serial" --json >"$dir/$name.serial"
}
run_both perft perft --fen "$kiwi" --depth 2 --divide
run_both hwsearch hwsearch --fen "$fen" --depth 3 --test-value 0
run_both eval eval --fen "$fen"
run_both search search --fen "$fen" --depth 6 --chips 2 --chip-depth 3
# A board that damages every 25th reply: the search drops the link at the first damaged RUN reply
# (a RUN is never resent), loses the board's chips, finishes on an in-process chip, same answer.
"$deepblue" boardsim --board service --chips 2 --debug-garble-every 25 --pty-file "$dir/pty2" >/dev/null 2>"$dir/log2" &
board2=$!
for _ in $(seq 1 500); do [ -s "$dir/pty2" ] && break; sleep 0.02; done
"$deepblue" search --fen "$fen" --depth 6 --chips 2 --chip-depth 3 --backend "serial:$(cat "$dir/pty2")" --link-timeout 5 \
  --json >"$dir/faulty.serial"
kill -TERM "$board2"
wait "$board2" || { echo "the second boardsim exited with $?"; cat "$dir/log2"; exit 1; }
uci=$("$(dirname "$0")/../cli/uci_session.sh" "$deepblue" "setoption name OwnBook value false" \
  "setoption name RemoteChips value $serial" \
  "setoption name Chips value 2" "setoption name ChipDepth value 2" "position startpos moves e2e4" "go depth 3")
bad_baud=$("$deepblue" perft --fen startpos --depth 1 --backend "$serial@12345" 2>&1 || true)
python3 - "$dir" "$pty" "$uci" "$bad_baud" <<'PY'
import json, os, re, select, sys, time, zlib
folder, pty, uci, bad_baud = sys.argv[1:5]
bad = 0
# Fields that may differ: the backend's name, wall times and rates, what only an in-process model
# reports (per-state clocks), the link's own traffic.
VOLATILE = {"backend", "seconds", "nps", "nodes_per_second", "state_clocks", "time_ms", "link"}
def strip(j):
    if isinstance(j, dict):
        return {k: strip(v) for k, v in j.items() if k not in VOLATILE}
    if isinstance(j, list):
        return [strip(v) for v in j]
    return j
for name in ["perft", "hwsearch", "eval", "search"]:
    model = json.load(open(f"{folder}/{name}.model"))
    serial = json.load(open(f"{folder}/{name}.serial"))
    same = strip(model) == strip(serial)
    print(f"{name}: {'same as the model' if same else 'DIFFERENT'}")
    if not same:
        for k in sorted(set(strip(model)) | set(strip(serial))):
            if strip(model).get(k) != strip(serial).get(k):
                print(f"  {k}: model {strip(model).get(k)} serial {strip(serial).get(k)}")
        bad += 1
search = json.load(open(f"{folder}/search.serial"))
link = search["chip"].get("link")
print("search: bestmove", search["bestmove"], "score", search["score"], "nodes", search["nodes"],
      "chip searches", search["chip"]["searches"], "link", link)
if not link or link["servers"] != 1 or link["resends"] != 0 or search["chip"]["chips_lost"] != 0:
    bad += 1
faulty = json.load(open(f"{folder}/faulty.serial"))
model = json.load(open(f"{folder}/search.model"))
print("search on a board that damages replies: bestmove", faulty["bestmove"], "score", faulty["score"], "nodes",
      faulty["nodes"], "chips lost", faulty["chip"]["chips_lost"], "reruns", faulty["chip"]["reruns"])
if [faulty[k] for k in ("bestmove", "score", "nodes")] != [model[k] for k in ("bestmove", "score", "nodes")] \
        or faulty["chip"]["chips_lost"] < 1:
    bad += 1
if not re.search(r"info depth 3 [^\n]*pv [a-h][1-8][a-h][1-8].*bestmove [a-h][1-8][a-h][1-8]", uci, re.S):
    print("uci session on the serial board failed:\n" + uci)
    bad += 1
if "to 12345 baud" not in bad_baud or pty not in bad_baud:
    print("a baud the system does not know was not refused by name:", bad_baud)
    bad += 1

# The inter-byte timeout over the pty: half a HELLO frame, a second of silence, then a whole one.
def cobs(data):
    out, block = bytearray(), bytearray()
    for b in data:
        if b == 0:
            out += bytes([len(block) + 1]) + block
            block = bytearray()
        else:
            block.append(b)
            if len(block) == 254:
                out += b"\xff" + block
                block = bytearray()
    return bytes(out + bytes([len(block) + 1]) + block)
def frame(ftype, seq, payload):
    body = bytes([ftype, 0]) + seq.to_bytes(2, "little") + len(payload).to_bytes(2, "little") + payload
    return cobs(body + zlib.crc32(body).to_bytes(4, "little")) + b"\x00"
import termios, tty
fd = os.open(pty, os.O_RDWR | os.O_NOCTTY)
tty.setraw(fd)
termios.tcflush(fd, termios.TCIOFLUSH)
hello = frame(0x01, 9, (1).to_bytes(2, "little") + (1).to_bytes(2, "little") + b"\x05tests")
os.write(fd, b"\x00" + hello[:7])
time.sleep(1.0)
os.write(fd, hello)
got = b""
deadline = time.time() + 10
while got.count(b"\x00") < 2 and time.time() < deadline:
    if select.select([fd], [], [], 0.5)[0]:
        got += os.read(fd, 4096)
os.close(fd)
frames = got.split(b"\x00")[:2]
def decode(enc):
    out, i = bytearray(), 0
    while i < len(enc):
        c = enc[i]
        out += enc[i + 1:i + c]
        i += c
        if c != 0xFF and i < len(enc):
            out.append(0)
    return bytes(out)
types = [decode(f)[0] if f else None for f in frames]
seqs = [int.from_bytes(decode(f)[2:4], "little") if f else None for f in frames]
print("after a cut frame and a second of silence: reply types", [hex(t) if t is not None else t for t in types],
      "sequence numbers", seqs)
if types != [0xFF, 0x81] or seqs != [0xFFFF, 9]:
    print("the cut frame was not dropped after the inter-byte timeout")
    bad += 1
print("SERIAL_EQUALS_MODEL" if bad == 0 else "MISMATCH")
sys.exit(1 if bad else 0)
PY
kill -TERM "$board"
wait "$board" || { echo "boardsim exited with $?"; cat "$dir/log"; exit 1; }
[ ! -e "$dir/pty" ] || { echo "boardsim left its pty file"; exit 1; }
grep -q "1 inter-byte timeouts" "$dir/log" || { echo "boardsim did not count the inter-byte timeout"; cat "$dir/log"; exit 1; }
echo "boardsim stopped cleanly"
