#!/usr/bin/env bash
# deepblue book build from a small PGN, then book probe of the result: the moves, their weights
# (games that played them) and the file's size must be what the games say.
# Usage: book_build_probe.sh DEEPBLUE   (prints BOOK_BUILD_PROBE_OK on success)
set -euo pipefail
deepblue=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/games.pgn" <<'PGN'
[Event "one"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 1-0

[Event "two"]
[Result "0-1"]

1. e4 c5 2. Nf3 0-1

[Event "three"]
[Result "1/2-1/2"]

1. d4 d5 2. O-O-O 1/2-1/2
PGN
build=$("$deepblue" book build --pgn "$dir/games.pgn" --out "$dir/book.bin" --max-ply 4 --json)
start=$("$deepblue" book probe --book "$dir/book.bin" --fen startpos --json)
after_e4=$("$deepblue" book probe --book "$dir/book.bin" --fen "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1" --json)
python3 - "$build" "$start" "$after_e4" "$(stat -c %s "$dir/book.bin")" <<'PY'
import json, sys
build, start, after_e4 = (json.loads(a) for a in sys.argv[1:4])
size = int(sys.argv[4])
moves = lambda j: [(m["move"], m["weight"]) for m in j["moves"]]
ok = True
def check(cond, what):
    global ok
    if not cond:
        print("FAILED:", what); ok = False
# Game three's 2.O-O-O is illegal: it counts up to there. Plies kept: 4 + 3 + 2 = 9, 8 distinct.
check(build["games"] == 3 and build["bad_games"] == 1, f"build stats {build}")
check(build["entries"] == 8 and size == 16 * 8, f"entries {build['entries']}, size {size}")
check(moves(start) == [("e2e4", 2), ("d2d4", 1)], f"start {moves(start)}")
check(moves(after_e4) == [("c7c5", 1), ("e7e5", 1)] or moves(after_e4) == [("e7e5", 1), ("c7c5", 1)],
      f"after e4 {moves(after_e4)}")
check(abs(start["moves"][0]["share"] - 2 / 3) < 1e-9, "share")
print("BOOK_BUILD_PROBE_OK" if ok else "book build/probe failed")
PY
