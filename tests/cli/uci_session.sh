#!/usr/bin/env bash
# Plays one UCI session against an engine the way a GUI does: sends the commands, waits for
# "bestmove" (up to 300 s), then quits, and prints the engine's output for the test's regex.
# Usage: uci_session.sh ENGINE 'command1' 'command2' ... (the last one should be a go)
set -euo pipefail
engine=$1
shift
coproc ENGINE { "$engine" uci; }
# Bash unsets ENGINE_PID once the engine has exited, which it may do before the wait below.
engine_pid=$ENGINE_PID
for cmd in "$@"; do echo "$cmd" >&"${ENGINE[1]}"; done
deadline=$((SECONDS + 300))
while IFS= read -r -t 300 line <&"${ENGINE[0]}"; do
  echo "$line"
  case $line in bestmove*) break ;; esac
  if ((SECONDS > deadline)); then echo "timeout waiting for bestmove" >&2; exit 1; fi
done
echo quit >&"${ENGINE[1]}"
wait "$engine_pid"
