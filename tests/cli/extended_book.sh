#!/usr/bin/env bash
# The extended book end to end (AIJ 8.2): deepblue book extend from the 1997 match's PGN, book bonus
# of the start position, search --extended-book (the bonuses reported and applied), UCI
# ExtendedBook (bonuses announced; a dominating move played at once), and a damaged file refused.
# Usage: extended_book.sh DEEPBLUE PGN   (prints EXTENDED_BOOK_OK on success)
set -euo pipefail
deepblue=$1
pgn=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
build=$("$deepblue" book extend --pgn "$pgn" --out "$dir/x.xbook" --json)
bonus=$("$deepblue" book bonus --extended-book "$dir/x.xbook" --fen startpos --json)
search=$("$deepblue" search --depth 3 --extended-book "$dir/x.xbook" --json)
# A book in which 1. d4 dominates: twelve won games, rated 2700.
for i in $(seq 12); do
  printf '[Event "g%s"]\n[Date "1997.01.01"]\n[WhiteElo "2700"]\n[Result "1-0"]\n\n1. d4 d5 1-0\n\n' "$i"
done > "$dir/d4.pgn"
"$deepblue" book extend --pgn "$dir/d4.pgn" --out "$dir/d4.xbook" > /dev/null
uci=$(printf 'uci\nsetoption name OwnBook value false\nsetoption name ExtendedBook value %s\nposition startpos\ngo depth 2\nisready\nquit\n' "$dir/d4.xbook" | "$deepblue" uci)
head -c 100 "$dir/x.xbook" > "$dir/bad.xbook"
bad=$("$deepblue" book bonus --extended-book "$dir/bad.xbook" 2>&1 || true)
python3 - "$build" "$bonus" "$search" "$uci" "$bad" <<'PY'
import json, sys
build, bonus, search = (json.loads(a) for a in sys.argv[1:4])
uci, bad = sys.argv[4], sys.argv[5]
ok = True
def check(cond, what):
    global ok
    if not cond:
        print("FAILED:", what); ok = False
check(build["games"] == 6 and build["latest_year"] == 1997, f"build {build}")
moves = {m["move"]: m for m in bonus["moves"]}
# The 1997 match: white played 1. e4 in games 2, 4 and 6, 1. Nf3 in games 1 and 3... from startpos.
check(sum(m["games"] for m in moves.values()) == 6, f"six games from the start position: {moves}")
check(all(abs(m["bonus"]) <= 50 for m in moves.values()), f"bonuses within half a pawn: {moves}")
check(search["extended_book"]["bonuses"] == {k: m["bonus"] for k, m in moves.items()}, f"search {search}")
check("info string extended book move d2d4" in uci and "bestmove d2d4" in uci, f"uci:\n{uci}")
check("bad.xbook" in bad and "truncated or damaged" in bad, f"damaged file: {bad}")
print("EXTENDED_BOOK_OK" if ok else "EXTENDED_BOOK_FAILED")
PY
