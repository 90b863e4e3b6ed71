#!/usr/bin/env bash
# deepblue egtb build of the 3-piece databases into a fresh directory, then egtb probe and search
# on positions whose value the rules of chess give (mate, stalemate, mate in one, either colour),
# the errors on positions the databases cannot answer, and the search using the databases: a won
# root played by distance to mate, and a 4-piece root whose captures reach them.
# Usage: egtb_build_probe.sh DEEPBLUE   (prints EGTB_BUILD_PROBE_OK on success)
set -euo pipefail
deepblue=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
build=$("$deepblue" egtb build --dir "$dir" --pieces 3 --json)
probe() { "$deepblue" egtb probe --dir "$dir" --fen "$1" --json; }
mated=$(probe "k7/1Q6/2K5/8/8/8/8/8 b - - 0 1")
stalemate=$(probe "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1")
mate1=$(probe "k7/8/2K5/8/8/8/8/1Q6 w - - 0 1")
mate1_black=$(probe "1q6/8/8/8/8/2k5/8/K7 b - - 0 1")
krk=$(probe "8/8/8/3k4/8/8/8/R3K3 w - - 0 1")
errors=""
for fen in "r3k3/8/8/8/8/8/8/4K3 b q - 0 1" "k7/8/8/8/8/8/8/KQRBN3 w - - 0 1" "k7/8/8/8/8/8/8/KQR5 w - - 0 1"; do
  if out=$("$deepblue" egtb probe --dir "$dir" --fen "$fen" 2>&1); then errors+="no error for $fen;"; fi
  errors+="$out|"
done
set +e
"$deepblue" egtb probe --dir "$dir" --fen "k7/8/8/8/8/8/8/KQR5 w - - 0 1" >/dev/null 2>&1
code=$?
set -e
search_krk=$("$deepblue" search --egtb "$dir" --fen "8/8/8/3k4/8/8/8/R3K3 w - - 0 1" --depth 6 --chip-depth 0 --json)
search_kqkn=$("$deepblue" search --egtb "$dir" --fen "8/8/8/3k4/8/2n5/8/Q3K3 w - - 0 1" --depth 3 --chip-depth 0 --json)
uci=$("$(dirname "$0")/uci_session.sh" "$deepblue" "setoption name OwnBook value false" \
  "setoption name EgtbPath value /nonexistent/egtb" "setoption name EgtbPath value $dir" \
  "position fen 8/8/8/3k4/8/8/8/R3K3 w - - 0 1" "go depth 5")
search_off=$("$deepblue" search --egtb none --fen "8/8/8/3k4/8/2n5/8/Q3K3 w - - 0 1" --depth 3 --chip-depth 0 --json)
python3 - "$build" "$mated" "$stalemate" "$mate1" "$mate1_black" "$krk" "$errors" "$code" "$search_krk" "$search_kqkn" "$search_off" "$uci" <<'PY'
import json, re, sys
build, mated, stalemate, mate1, mate1_black, krk = (json.loads(a) for a in sys.argv[1:7])
errors, code = sys.argv[7], int(sys.argv[8])
search_krk, search_kqkn, search_off = (json.loads(a) for a in sys.argv[9:12])
uci = sys.argv[12]
ok = True
def check(cond, what):
    global ok
    if not cond:
        print("FAILED:", what); ok = False
tables = {t["material"]: t for t in build["tables"]}
check(sorted(tables) == ["KBvK", "KNvK", "KPvK", "KQvK", "KRvK"], f"tables {sorted(tables)}")
check(all(t["positions"] > 0 for t in tables.values()), "every table has positions")
check(tables["KNvK"]["wins"] == 0 and tables["KBvK"]["wins"] == 0, "a lone minor piece wins")
check(tables["KQvK"]["draws"] > 0 and tables["KQvK"]["wins"] > 0, "KQvK has wins and draws (stalemates, the queen lost)")
check((mated["result"], mated["dtm_plies"], mated["best_move"]) == ("loss", 0, None), f"mated {mated}")
check((stalemate["result"], stalemate["distance"]) == ("draw", 0), f"stalemate {stalemate}")
check((mate1["result"], mate1["distance"], mate1["dtm_plies"], mate1["best_move"]) == ("win", 1, 1, "b1b7"), f"mate in one {mate1}")
check((mate1_black["result"], mate1_black["distance"], mate1_black["best_move"]) == ("win", 1, "b8b2"), f"black's mate in one {mate1_black}")
check(krk["result"] == "win" and krk["dtm_plies"] % 2 == 1 and krk["distance"] == (krk["dtm_plies"] + 1) // 2, f"KRvK {krk}")
check("castling rights" in errors and "more than any database holds" in errors and "no database KRQvK.dbtb" not in errors
      and "no database KQRvK.dbtb" in errors, f"errors {errors}")
check(code == 2, f"exit code {code} for a missing database")
# A won root: the databases' move and its distance, no search.
check(search_krk["egtb_root"] and search_krk["bestmove"] == krk["best_move"] and search_krk["mate"] == krk["distance"],
      f"search KRvK {search_krk['bestmove']} mate {search_krk['mate']}, probe {krk}")
check(len(search_krk["pv"].split()) == krk["dtm_plies"], f"KRvK pv to mate: {search_krk['pv']}")
# KQvKN is not in the 3-piece set: searched, its captures of the knight scored by KQvK.
check(not search_kqkn["egtb_root"] and search_kqkn["egtb_hits"] > 0, f"KQvKN hits {search_kqkn['egtb_hits']}")
check(search_kqkn["bestmove"] == "a1c3" and search_kqkn["score"] >= 18000, f"KQvKN {search_kqkn['bestmove']} {search_kqkn['score']}")
check(search_off["egtb"] is None and search_off["egtb_hits"] == 0 and search_off["score"] < 18000, f"off {search_off['score']}")
# UCI: EgtbPath refused when it is no directory, then the databases' move with a mate score.
check("info string error EgtbPath: '/nonexistent/egtb' is not a directory" in uci, f"uci EgtbPath error: {uci}")
mate = re.search(r"info depth 1 .*score mate (\d+) .*\nbestmove (\S+)", uci)
check(mate and int(mate.group(1)) == krk["distance"] and mate.group(2) == krk["best_move"], f"uci: {uci}")
print("EGTB_BUILD_PROBE_OK" if ok else "egtb build/probe failed")
PY
