#!/usr/bin/env bash
# What a test costs hdd on a directory of many small files: generates
# directories of one-line C files (one of them holds a marker), runs hdd on
# each with a test that greps the marker in its file, and prints a markdown
# table: files, tests, wall time, hdd's own time per test (the wall time
# not spent in the test, per test: `overhead_time / tests` of
# --stats-json), of which writing candidates and starting tests
# (`spawn_time / tests`), and the result's file count.
#
#   bench/bench-many-files.sh [FILES...]   FILES: how many files per
#                                          directory (default: 100 500)
#
# Environment:
#   HDD_BIN    the hdd binary (default: target/release/hdd, built if missing)
#   HDD_ARGS   more arguments for hdd (default: -j 1)
#   MAX_TIME   hdd's --max-time per run (default 300s)
#   BENCH_OUT  where inputs and results go (default: a temporary directory)
set -euo pipefail
export LC_ALL=C
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
bin=${HDD_BIN:-$root/target/release/hdd}
if [ -z "${HDD_BIN:-}" ] && [ ! -x "$bin" ]; then
  (cd "$root" && cargo build --release --quiet)
fi
command -v python3 >/dev/null || { echo "needs python3 (for --stats-json)" >&2; exit 2; }
out=${BENCH_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/hdd-bench-files.XXXXXX")}
mkdir -p "$out"
# shellcheck disable=SC2206  # a word list on purpose
args=(${HDD_ARGS:--j 1})
max_time=${MAX_TIME:-300s}
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(100 500)

echo "| files | tests | wall s | hdd's own ms/test | of which writing and starting ms/test | files left | exit |"
echo "|---|---|---|---|---|---|---|"
for n in "${counts[@]}"; do
  case=$out/files-$n
  rm -rf "$case"
  mkdir -p "$case/src"
  for i in $(seq 1 "$n"); do
    echo "int v$i = $i;" > "$case/src/f$i.c"
  done
  marked=$(( (n + 1) / 2 ))
  echo "int MARKER = 1;" > "$case/src/f$marked.c"
  printf '#!/bin/sh\ngrep -q MARKER "$1/f%s.c"\n' "$marked" > "$case/t.sh"
  chmod +x "$case/t.sh"
  set +e
  "$bin" -q -t "$case/t.sh" "$case/src" -o "$case/src.reduced" --max-time "$max_time" \
    --stats-json "$case/stats.json" "${args[@]}" 2> "$case/stderr"
  code=$?
  set -e
  left=$(find "$case/src.reduced" -type f 2>/dev/null | wc -l)
  python3 - "$case/stats.json" "$n" "$left" "$code" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
t = max(s["tests"], 1)
print(f"| {sys.argv[2]} | {s['tests']} | {s['wall_time']:.2f} | "
      f"{1000 * s['overhead_time'] / t:.1f} | {1000 * s['spawn_time'] / t:.1f} | "
      f"{sys.argv[3]} | {sys.argv[4]} |")
PY
done
echo
echo "results in $out"
