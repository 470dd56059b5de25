#!/usr/bin/env bash
# Runs hdd on every corpus case (or the ones named) and prints a markdown table:
# tests run, final bytes, wall time, reducer overhead (wall time not spent in
# the test), and whether the result is still interesting (re-checked here).
#
#   corpora/bench.sh [CASE...]        CASE: lang/name, e.g. json/mime-db-truncated
#
# Environment:
#   HDD_BIN    the hdd binary (default: target/release/hdd, built if missing)
#   HDD_ARGS   extra arguments for hdd (default: -j 1, so test counts compare)
#   BENCH_OUT  directory for results (default: a temporary one, printed)
set -euo pipefail
export LC_ALL=C
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
bin=${HDD_BIN:-$root/target/release/hdd}
if [ -z "${HDD_BIN:-}" ] && [ ! -x "$bin" ]; then
  (cd "$root" && cargo build --release --quiet)
fi
out=${BENCH_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/hdd-bench.XXXXXX")}
mkdir -p "$out"
# shellcheck disable=SC2206  # HDD_ARGS is a word list on purpose
args=(${HDD_ARGS--j 1})

cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
  for d in "$here"/*/*/case.env; do
    d=${d%/case.env}; cases+=("${d#"$here"/}")
  done
fi

echo "| case | input B | tests | final B | wall s | overhead s | interesting |"
echo "|---|---:|---:|---:|---:|---:|---|"
for c in "${cases[@]}"; do
  dir=$here/$c
  input=$(sed -n 's/^input=//p' "$dir/case.env")
  lang=${c%%/*}
  work=$out/${c//\//-}
  rm -rf "$work"; mkdir -p "$work"
  cp "$dir/$input" "$work/$input"
  result=$work/result-$input
  "$bin" --lang "$lang" --test "$dir/test.sh" "$work/$input" -o "$result" \
    --stats-json "$work/stats.json" -q "${args[@]}" > "$work/hdd.log" 2>&1 || true
  if [ ! -f "$work/stats.json" ]; then
    echo "| $c | $(wc -c < "$dir/$input") | error: $(head -c 200 "$work/hdd.log" | tr '\n' ' ') | | | | |"
    continue
  fi
  ok=no
  check=$(mktemp -d "$work/check.XXXXXX")
  cp "$result" "$check/$input"
  if (cd "$check" && "$dir/test.sh" "$check/$input") > /dev/null 2>&1; then ok=yes; fi
  rm -rf "$check"
  python3 - "$work/stats.json" "$c" "$ok" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
print(f"| {sys.argv[2]} | {s['original_bytes']} | {s['tests']} | {s['final_bytes']} | "
      f"{s['wall_time']:.1f} | {s['overhead_time']:.1f} | {sys.argv[3]} |")
PY
done
echo
echo "results: $out"
