#!/usr/bin/env bash
# A deliberately broken copy of a source for a formal check's --mutant run: applies the sed
# expression to SRC, writes OUT and prints OUT's path; fails (exit 2) if the expression no longer
# changes SRC, so that a stale mutation cannot make the check pass vacuously.
#   mutant.sh SRC SED_EXPRESSION OUT
set -euo pipefail
src=$1 expr=$2 out=$3
sed "$expr" "$src" > "$out"
if cmp -s "$src" "$out"; then
  echo "$(basename "$0"): the mutation '$expr' no longer applies to $src" >&2
  exit 2
fi
echo "$out"
