#!/usr/bin/env bash
# Runs hdd on corpus cases at -j 1 and at -j N (default 2) and prints a
# markdown table: how long a test takes, tests and wall time at each, the
# tests started on a wrong guess, the wall-time ratio, how much of the
# available core time went into the user's test, the reducer's own time, and
# whether both results are byte for byte the same.
#
#   bench/bench-jobs.sh [CASE...]     default: the cases whose test takes 60 ms or more
#
# Environment: JOBS (default 2), HDD_BIN, BENCH_OUT (as in bench.sh; results
# go to BENCH_OUT/j1 and BENCH_OUT/jN), TABLE_ONLY=1 (print the table of what
# BENCH_OUT holds). Run it on an otherwise idle machine: it measures time.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
corpora=$(dirname "$here")/corpora
jobs=${JOBS:-2}
out=${BENCH_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/hdd-bench-jobs.XXXXXX")}
mkdir -p "$out"
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(js/he-encode c/bzip2-maybe-uninit c/zope-interface-null-deref)

if [ -z "${TABLE_ONLY:-}" ]; then
  for j in 1 "$jobs"; do
    HDD_ARGS="-j $j" BENCH_OUT="$out/j$j" "$here/bench.sh" "${cases[@]}" > "$out/j$j.md"
  done
fi

echo "| case | ms/test | -j 1: tests · s | -j $jobs: tests · waste · s | -j $jobs / -j 1 | in tests (-j $jobs) | own time (-j $jobs) | same result |"
echo "|---|---:|---:|---:|---:|---:|---:|---|"
for c in "${cases[@]}"; do
  w=${c//\//-}
  input=$(sed -n 's/^input=//p' "$corpora/$c/case.env")
  same=no
  cmp -s "$out/j1/$w/result-$input" "$out/j$jobs/$w/result-$input" && same=yes
  python3 - "$c" "$out/j1/$w/stats.json" "$out/j$jobs/$w/stats.json" "$jobs" "$same" <<'PY'
import json, sys
case, one, many, jobs, same = sys.argv[1], *map(lambda p: json.load(open(p)), sys.argv[2:4]), int(sys.argv[4]), sys.argv[5]
ms = 1000 * one["test_time"] / max(1, one["tests"])
waste = many["wasted"] + many["cancelled"]
inside = many["test_time"] / (many["wall_time"] * jobs)
own = (many["unparse_time"] + many["guard_time"] + many["spawn_time"]) / many["wall_time"]
print(f"| {case} | {ms:.0f} | {one['tests']} · {one['wall_time']:.0f} | "
      f"{many['tests'] + many['cancelled']} · {waste} · {many['wall_time']:.0f} | "
      f"{many['wall_time'] / one['wall_time']:.2f} | {inside:.0%} | {own:.1%} | {same} |")
PY
done
echo
echo "results: $out"
