#!/usr/bin/env bash
# Runs hdd and its peers (treereduce, C-Vise) on the shared benchmark's real
# reduction tasks and prints one markdown table, a row per case, a column per
# reducer: tests run · final bytes · wall seconds (T/O: stopped at the cap).
#
#   corpora/bench-peers.sh [CASE...]
#
# The shared benchmark (its cases, run.sh, setup.sh, peers.sh) lives outside
# this repository, by default in ../shared/bench; run its setup.sh and
# peers.sh first (see its README). Nothing of the peers is committed here.
#
# Environment:
#   BENCH_DIR    the shared benchmark (default: ../shared/bench from the repo root)
#   BENCH_OUT    where run.sh appends results.jsonl (default: bench-out/ in the repo)
#   REDUCERS     which reducers (default: "hdd treereduce cvise")
#   BENCH_MAX_S  cap per run in seconds (default here: 240, as in PEERS.md)
#   BENCH_JOBS   parallel tests offered to every reducer (default 1)
#   HDD_BIN      hdd (default: target/release/hdd, built if missing)
#   TABLE_ONLY=1 print the table of what BENCH_OUT already holds
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bench=${BENCH_DIR:-$root/../shared/bench}
[ -x "$bench/run.sh" ] || { echo "bench-peers.sh: no benchmark at $bench (set BENCH_DIR)" >&2; exit 2; }
bench=$(cd "$bench" && pwd)
out=${BENCH_OUT:-$root/bench-out}
mkdir -p "$out"
export BENCH_MAX_S=${BENCH_MAX_S:-240}
if [ -z "${HDD_BIN:-}" ]; then
  export HDD_BIN=$root/target/release/hdd
  [ -x "$HDD_BIN" ] || (cd "$root" && cargo build --release --quiet)
fi

cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
  for d in "$bench"/cases/*/; do cases+=("$(basename "$d")"); done
fi
if [ -z "${TABLE_ONLY:-}" ]; then
  for c in "${cases[@]}"; do
    for r in ${REDUCERS:-hdd treereduce cvise}; do
      "$bench/run.sh" "$r" "$c" "$out" > /dev/null
    done
  done
fi

python3 - "$out/results.jsonl" "${cases[@]}" <<'PY'
import json, sys
path, cases = sys.argv[1], sys.argv[2:]
latest = {}
for line in open(path, encoding="utf-8"):
    line = line.strip()
    if line:
        r = json.loads(line)
        latest[(r["case"], r["reducer"])] = r
reducers = [x for x in ["hdd", "treereduce", "cvise"] if any(k[1] == x for k in latest)]
print("| case | input B | " + " | ".join(reducers) + " |")
print("|---|---:|" + "---|" * len(reducers))
for c in cases:
    rows = [latest.get((c, x)) for x in reducers]
    orig = next((r["orig_bytes"] for r in rows if r), "-")
    cells = []
    for r in rows:
        if r is None:
            cells.append("-")
        elif r["status"] == "unsupported":
            cells.append("unsupported")
        else:
            to = "T/O " if r["status"] == "timeout" else ""
            size = "nothing" if r["final_bytes"] in (None, r["orig_bytes"]) else f'{r["final_bytes"]} B'
            bad = "" if r.get("final_interesting") else " (**not interesting**)"
            cells.append(f'{to}{r["tests"]} t · {size} · {r["wall_s"]:.0f} s{bad}')
    print(f"| {c} | {orig} | " + " | ".join(cells) + " |")
PY
