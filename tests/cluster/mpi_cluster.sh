#!/usr/bin/env bash
# The cluster search on real ranks (docs/cluster.md): mpirun --oversubscribe -np 2..4 on one machine.
# - the run gives the simulated cluster's (--sim-nodes N) best move, score, nodes and simulated
#   time exactly, for N = 2, 3, 4 (the ranks' wall-time order does not matter);
# - the best move and the mate distance are the single-process search's;
# - a worker far slower than --worker-timeout is given up, its jobs re-assigned, and the search
#   still gives the answer;
# - epd and uci run on the cluster too (rank 0 speaks UCI; quit ends every rank), and the workers
#   see the game's moves before the root: a repetition of a position before it is a draw below a job;
# - a worker rank that dies ends the run with an error and a non-zero exit, not a hang.
set -euo pipefail
DEEPBLUE=${1:?usage: mpi_cluster.sh path/to/deepblue shared-data-dir}
DATA=${2:?usage: mpi_cluster.sh path/to/deepblue shared-data-dir}
# Open MPI refuses root unless told; containers have no ptrace for the shared-memory transport's
# single-copy mechanism (CMA), so it is switched off.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPIRUN=(mpirun --oversubscribe --mca btl self,vader --mca btl_vader_single_copy_mechanism none)
AIJ1="r1r1q1k1/6p1/3b1p1p/1p1PpP2/1Pp5/2P4P/R1B2QP1/R5K1 w - - 0 37"
WAC1="2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1"
MATE2="7k/8/8/8/8/8/1R6/R5K1 w - - 0 1"
SMALL=(--depth 5 --chip-depth 3 --chips 4 --workers 4 --json)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

field() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$1" "$2"; }
fail() { echo "FAIL: $*" >&2; exit 1; }

for n in 2 3 4; do
  timeout 300 "${MPIRUN[@]}" -np "$n" "$DEEPBLUE" search --fen "$AIJ1" "${SMALL[@]}" --cluster > "$TMP/mpi$n.json"
  "$DEEPBLUE" search --fen "$AIJ1" "${SMALL[@]}" --sim-nodes "$n" > "$TMP/sim$n.json"
  for f in "d['bestmove']" "d['score']" "d['nodes']" "d['chip']['parallel_clocks']" "d['cluster']['jobs_per_worker']" \
           "d['cluster']['node_chips']" "d['cluster']['unused_job_nodes']"; do
    a=$(field "$TMP/mpi$n.json" "$f"); b=$(field "$TMP/sim$n.json" "$f")
    [ "$a" = "$b" ] || fail "-np $n: $f is $a, the simulated cluster's $b"
  done
  [ "$(field "$TMP/mpi$n.json" "d['cluster']['mode']")" = mpi ] || fail "-np $n: not an MPI run"
  [ "$(field "$TMP/mpi$n.json" "d['cluster']['nodes']")" = "$n" ] || fail "-np $n: wrong node count"
  echo "-np $n: $(field "$TMP/mpi$n.json" "d['bestmove'], d['score'], d['nodes']") as simulated"
done

timeout 300 "${MPIRUN[@]}" -np 3 "$DEEPBLUE" search --fen "$WAC1" --depth 5 --chip-depth 2 --chips 4 --workers 4 \
  --cluster --json > "$TMP/wac.json"
"$DEEPBLUE" search --fen "$WAC1" --depth 5 --chip-depth 2 --chips 4 --workers 4 --json > "$TMP/wac1.json"
[ "$(field "$TMP/wac.json" "d['bestmove']")" = "$(field "$TMP/wac1.json" "d['bestmove']")" ] ||
  fail "WAC 1: the cluster's best move differs from one process's"
[ "$(field "$TMP/wac.json" "d['bestmove']")" = g3g6 ] || fail "WAC 1: not Qg6"
timeout 300 "${MPIRUN[@]}" -np 4 "$DEEPBLUE" search --fen "$MATE2" --depth 5 --chip-depth 2 --chips 4 --cluster --json \
  > "$TMP/mate.json"
[ "$(field "$TMP/mate.json" "d['mate']")" = 2 ] || fail "mate in 2 found as mate $(field "$TMP/mate.json" "d['mate']")"
echo "best move and mate distance as one process"

# epd and uci on the cluster: the suite's moves, and a UCI session with rank 0 speaking UCI (quit
# reaches every rank: mpirun ends).
timeout 300 "${MPIRUN[@]}" -np 3 "$DEEPBLUE" epd "$DATA/wac.epd" --count 3 --depth 4 \
  --chip-depth 2 --chips 4 --workers 4 --cluster --json > "$TMP/epd.json"
"$DEEPBLUE" epd "$DATA/wac.epd" --count 3 --depth 4 --chip-depth 2 --chips 4 --workers 4 \
  --json > "$TMP/epd1.json"
[ "$(field "$TMP/epd.json" "[r['move'] for r in d['results']]")" = "$(field "$TMP/epd1.json" "[r['move'] for r in d['results']]")" ] ||
  fail "epd --cluster: other moves than one process's"
cat > "$TMP/engine.sh" <<ENGINE
#!/usr/bin/env bash
exec ${MPIRUN[*]} -np 3 "$DEEPBLUE" "\$@" --cluster --chips 4 --chip-depth 2 --workers 4 --master-plies 0
ENGINE
chmod +x "$TMP/engine.sh"
timeout 300 "$(dirname "$0")/../cli/uci_session.sh" "$TMP/engine.sh" uci "setoption name OwnBook value false" \
  "position fen $WAC1" "go depth 5" > "$TMP/uci.txt"
grep -q "^bestmove g3g6" "$TMP/uci.txt" || fail "uci --cluster: $(tail -2 "$TMP/uci.txt")"
# Black has just checked with Qa5-e5+ Kh2-g1: Qe1+ Kh2 Qe5+ repeats that position three plies down,
# on a worker (tests/cluster/test_cluster_search.cpp); without the history black is lost (-730).
timeout 300 "$(dirname "$0")/../cli/uci_session.sh" "$TMP/engine.sh" uci "setoption name OwnBook value false" \
  "position fen 7k/6pp/8/q7/2R5/1Q5P/5PPK/8 b - - 0 40 moves a5e5 h2g1" "go depth 5" > "$TMP/uci_history.txt"
# (The PV past g1h2 is read from the master's table, which holds only what the workers passed up.)
grep -q "^info depth 5 .* score cp 0 .* pv e5e1 g1h2" "$TMP/uci_history.txt" ||
  fail "uci --cluster with moves: no draw by repetition: $(tail -2 "$TMP/uci_history.txt")"
echo "epd and uci on the cluster"

# A worker 4 s late with every reply, given up after 0.5 s: the search ends with the answer.
# Once in many runs (2026-11-26, a loaded CI machine) Open MPI 4.1's mpirun itself crashed with
# SIGSEGV while handling the master's MPI_Abort, after the answer was printed (its own backtrace,
# frames in mpirun): that launcher crash alone is retried once; anything else fails at once.
slow_worker() {
  timeout 300 "${MPIRUN[@]}" -np 3 "$DEEPBLUE" search --fen "$WAC1" --depth 5 --chip-depth 2 --chips 4 --workers 4 \
    --json --cluster --worker-timeout 0.5 --debug-slow-rank 2 --debug-slow-ms 4000 > "$TMP/slow.json" 2> "$TMP/slow.err"
}
set +e
slow_worker
rc=$?
if [ $rc -eq 139 ] && grep -q "mpirun(" "$TMP/slow.err"; then
  echo "mpirun crashed handling MPI_Abort (Open MPI's launcher, not a rank): retrying once"
  slow_worker
  rc=$?
fi
set -e
[ $rc -eq 0 ] || fail "slow worker: exit $rc ($(tail -3 "$TMP/slow.err"))"
[ "$(field "$TMP/slow.json" "d['cluster']['workers_lost']")" = "[2]" ] || fail "slow worker not given up"
[ "$(field "$TMP/slow.json" "d['bestmove']")" = g3g6 ] || fail "slow worker: not Qg6"
grep -q "worker 2 has not answered" "$TMP/slow.err" || fail "slow worker: no message saying so"
echo "slow worker given up, jobs re-assigned ($(field "$TMP/slow.json" "d['cluster']['jobs_reassigned']")), same move"

# A worker rank that dies: a clear error and a non-zero exit, within the timeout (no hang).
set +e
timeout 120 "${MPIRUN[@]}" -np 3 "$DEEPBLUE" search --fen "$AIJ1" "${SMALL[@]}" --cluster --debug-exit-rank 1 \
  > "$TMP/dead.json" 2> "$TMP/dead.err"
rc=$?
set -e
[ $rc -ne 0 ] && [ $rc -ne 124 ] || fail "dead worker: exit $rc (124: hung)"
grep -q "rank 1: ending on its first job" "$TMP/dead.err" || fail "dead worker: no message"
echo "dead worker: exit $rc"
echo MPI_CLUSTER_OK
