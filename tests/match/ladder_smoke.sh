#!/usr/bin/env bash
# scripts/ladder for real on a tiny budget: two games against Fairy-Max at 1 s + 0.01 s, side by side
# (--jobs 2), into a temporary folder; the results file holds both games, a re-run plays nothing (resumed), and the
# report has Fairy-Max's row with an Elo figure and its bar. Usage: ladder_smoke.sh DEEPBLUE SOURCE_DIR
set -euo pipefail
deepblue=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

"$src/scripts/ladder" --opponents fairymax --games 2 --tc 1+0.01 --jobs 2 --out "$out" --deepblue "$deepblue" > "$out/first.md"
python3 - "$out/results.jsonl" <<'PY'
import json, sys
games = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
assert len(games) == 2, f"{len(games)} games in the results file, expected 2"
assert sorted(g["game"] for g in games) == [1, 2], games
assert {g["we_are_white"] for g in games} == {True, False}, "colours not reversed"
assert games[0]["opening"] == games[1]["opening"], "one opening, both colours"
for g in games:
    assert g["opponent"] == "fairymax" and g["tc"] == "1+0.01", g
    assert g["result"] in ("1-0", "0-1", "1/2-1/2"), g
    assert g["points"] in (0.0, 0.5, 1.0), g
    assert not g["reason"].startswith(("engine failure", "illegal move")), g
PY
test "$(grep -c '^\[Event' "$out/games.pgn")" -eq 2

# Resumed: the second run plays no game, the file is unchanged.
cp "$out/results.jsonl" "$out/before.jsonl"
"$src/scripts/ladder" --opponents fairymax --games 2 --tc 1+0.01 --out "$out" --deepblue "$deepblue" > "$out/second.md"
cmp "$out/before.jsonl" "$out/results.jsonl"
"$src/scripts/ladder" --report --opponents fairymax --tc 1+0.01 --out "$out" > "$out/report.md"
cmp "$out/second.md" "$out/report.md"
test -s "$out/report.json"
# The row: | Fairy-Max 5.0b | xboard | 2 | +W =D -L | S % | ELO +/- BAR | ... (BAR n/a for a clean sweep)
grep -E '^\| Fairy-Max 5\.0b \| xboard \| 2 \| \+[0-2] =[0-2] -[0-2] \| [0-9.]+ % \| ([+-][0-9]+|[+-]inf) \+/- ([0-9]+|n/a) \|' "$out/report.md"
echo LADDER_SMOKE_OK
