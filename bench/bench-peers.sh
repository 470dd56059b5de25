#!/usr/bin/env bash
# Runs hdd and its peers (treereduce, C-Vise, and Picireny when installed) on
# the shared benchmark's real reduction tasks and prints one markdown table, a
# row per case, a column per reducer: tests run · final bytes · wall seconds
# (T/O: stopped at the cap).
#
#   bench/bench-peers.sh [CASE...]
#
# The shared benchmark (its cases, run.sh, setup.sh, peers.sh) lives outside
# this repository, in the directory HDD_BENCH_SUITE names; run its setup.sh
# and peers.sh first (see its README). Nothing of the peers is committed here.
#
# Picireny (PyPI picireny 21.8, the reference HDD, JSON grammar only) is
# installed by bench/peers-picireny.sh into $HOME/.cache/hdd-peers/picireny.
# run.sh does not know it: the function run_picireny below does for it what
# run.sh does for the others (same work dir, counted oracle, per-test limit,
# cap, re-check and results.jsonl line); cases in other languages get a line
# with status "unsupported" without running anything.
#
# Environment:
#   HDD_BENCH_SUITE  the shared benchmark's directory (required)
#   BENCH_CACHE  its inputs (default: HDD_BENCH_SUITE/.cache, as in run.sh)
#   BENCH_OUT    where run.sh appends results.jsonl (default: bench-out/ in the repo)
#   REDUCERS     which reducers (default: "hdd treereduce cvise", plus picireny
#                when PICIRENY_DIR holds it: "hdd treereduce cvise picireny")
#   BENCH_MAX_S  cap per run in seconds (default here: 240, as in the suite's PEERS.md)
#   BENCH_JOBS   parallel tests offered to every reducer (default 1; picireny
#                gets -p -j N when N > 1)
#   BENCH_TEST_TIMEOUT  per-test limit (default: TIMEOUT in case.env)
#   BENCH_KEEP=1 keep the work dirs (reducer logs) and print their paths
#   HDD_BIN      hdd (default: target/release/hdd, built if missing and hdd runs)
#   PICIRENY_DIR picireny's install (default: $HOME/.cache/hdd-peers/picireny)
#   PICIRENY_ARGS extra picireny arguments (e.g. "--phase prune+hoist")
#   TABLE_ONLY=1 print the table of what BENCH_OUT already holds
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[ -n "${HDD_BENCH_SUITE:-}" ] || { echo "bench-peers.sh: set HDD_BENCH_SUITE to the shared benchmark's directory" >&2; exit 2; }
bench=$HDD_BENCH_SUITE
[ -x "$bench/run.sh" ] || { echo "bench-peers.sh: no run.sh in HDD_BENCH_SUITE=$bench" >&2; exit 2; }
bench=$(cd "$bench" && pwd)
out=${BENCH_OUT:-$root/bench-out}
mkdir -p "$out"
export BENCH_MAX_S=${BENCH_MAX_S:-240}
pny_dir=${PICIRENY_DIR:-$HOME/.cache/hdd-peers/picireny}
reducers=${REDUCERS:-hdd treereduce cvise}
if [ -z "${REDUCERS:-}" ] && [ -x "$pny_dir/venv/bin/picireny" ]; then
  reducers="$reducers picireny"
fi
if [ -z "${HDD_BIN:-}" ] && [ -z "${TABLE_ONLY:-}" ] && [[ " $reducers " == *" hdd "* ]]; then
  export HDD_BIN=$root/target/release/hdd
  [ -x "$HDD_BIN" ] || (cd "$root" && cargo build --release --quiet)
fi

# run_picireny CASE: what run.sh does for one reducer and one case, for
# Picireny; appends one line to $out/results.jsonl (run.sh's fields) and
# prints it.
run_picireny() (
  local CASE=$1
  export LC_ALL=C
  local BENCH_DIR=$bench BENCH_CACHE=${BENCH_CACHE:-$bench/.cache}
  local MAX_S=$BENCH_MAX_S JOBS=${BENCH_JOBS:-1} CASE_DIR=$bench/cases/$CASE
  [ -f "$CASE_DIR/case.env" ] || { echo "bench-peers.sh: no such case: $CASE" >&2; exit 2; }
  # case.env is KEY=VALUE, read without sourcing (its LANG is not a locale)
  getv() { sed -n "s/^$1=//p" "$CASE_DIR/case.env" | head -1; }
  local C_LANG C_FILE C_INPUT C_TIMEOUT INPUT
  C_LANG=$(getv LANG) C_FILE=$(getv FILE) C_INPUT=$(getv INPUT)
  C_TIMEOUT=${BENCH_TEST_TIMEOUT:-$(getv TIMEOUT)}
  INPUT=$BENCH_CACHE/$C_INPUT
  [ -f "$INPUT" ] || { echo "bench-peers.sh: input missing ($C_INPUT): run setup.sh first" >&2; exit 2; }
  local orig_bytes tests=0 wall=0.00 rc=3 status=unsupported final_bytes=null final_interesting=false
  orig_bytes=$(wc -c < "$INPUT")

  if [ "$C_LANG" = json ]; then   # the only grammar peers-picireny.sh installs
    local pny=$pny_dir/venv/bin/picireny
    [ -x "$pny" ] || { echo "bench-peers.sh: no $pny: run bench/peers-picireny.sh" >&2; exit 2; }
    mkdir -p "$out/final"
    local WORK TARGET FINAL COUNTER TEST start end
    WORK=$(mktemp -d "${TMPDIR:-/tmp}/bench-run.$CASE.picireny.XXXXXX")
    [ -n "${BENCH_KEEP:-}" ] || trap 'rm -rf "$WORK"' EXIT
    trap 'exit 130' INT TERM
    mkdir -p "$WORK/in" "$WORK/tmp"
    TARGET=$WORK/in/$C_FILE      # picireny's input; it never writes it
    FINAL=$WORK/out/$C_FILE      # picireny -o $WORK/out writes its result there
    cp "$INPUT" "$TARGET"; chmod u+w "$TARGET"
    COUNTER=$WORK/counter; : > "$COUNTER"
    # the test run.sh hands every reducer: environment and per-test limit baked in
    TEST=$WORK/test.sh
    {
      echo '#!/usr/bin/env bash'
      printf 'export BENCH_DIR=%q BENCH_CACHE=%q BENCH_CASE=%q BENCH_COUNTER=%q TMPDIR=%q\n' \
        "$BENCH_DIR" "$BENCH_CACHE" "$CASE" "$COUNTER" "$WORK/tmp"
      # shellcheck disable=SC2016  # "$@" belongs to the generated test
      printf 'exec timeout -k 2 %q %q "$@"\n' "$C_TIMEOUT" "$CASE_DIR/test.sh"
    } > "$TEST"
    chmod +x "$TEST"
    # one test at a time unless BENCH_JOBS > 1; picireny passes the candidate
    # as $1 (its own copy named $C_FILE, cwd a fresh dir); it writes its
    # result only when it finishes: a run cut by the cap ends with the original
    local par=()
    [ "$JOBS" -le 1 ] || par=(-p -j "$JOBS")
    start=$(date +%s.%N)
    rc=0
    # shellcheck disable=SC2086  # PICIRENY_ARGS is a word list on purpose
    ( cd "$WORK" && export TMPDIR=$WORK/tmp &&
      exec timeout -k 10 "$MAX_S" "$pny" --antlr "$pny_dir/antlr/antlr4-4.7.2-debian.jar" \
        -g "$pny_dir/grammars/JSON.g4" -s json --encoding utf-8 "${par[@]}" ${PICIRENY_ARGS:-} \
        -i "$TARGET" --test "$TEST" -o "$WORK/out" ) < /dev/null > "$WORK/picireny.log" 2>&1 || rc=$?
    end=$(date +%s.%N)
    wall=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f", e - s }')
    [ -f "$FINAL" ] || { mkdir -p "$WORK/out" && cp "$TARGET" "$FINAL"; }
    case $rc in 0) status=ok ;; 124|137) status=timeout ;; *) status=error ;; esac
    tests=$(wc -l < "$COUNTER")
    final_bytes=$(wc -c < "$FINAL")
    if ( cd "$WORK/tmp" && env -u BENCH_COUNTER BENCH_DIR="$BENCH_DIR" BENCH_CACHE="$BENCH_CACHE" \
           TMPDIR="$WORK/tmp" timeout -k 2 "$C_TIMEOUT" "$CASE_DIR/test.sh" "$FINAL" ) >/dev/null 2>&1; then
      final_interesting=true
    fi
    cp "$FINAL" "$out/final/$CASE.picireny.$C_FILE"
    [ -z "${BENCH_KEEP:-}" ] || echo "bench-peers.sh: work dir kept: $WORK" >&2
  fi

  local line
  line=$(printf '{"case":"%s","reducer":"%s","tests":%s,"wall_s":%s,"orig_bytes":%s,"final_bytes":%s,"final_interesting":%s,"status":"%s","exit_code":%s,"lang":"%s","max_s":%s,"jobs":%s,"timestamp":"%s"}' \
    "$CASE" picireny "$tests" "$wall" "$orig_bytes" "$final_bytes" "$final_interesting" \
    "$status" "$rc" "$C_LANG" "$MAX_S" "$JOBS" "$(date -u +%Y-%m-%dT%H:%M:%SZ)")
  printf '%s\n' "$line" >> "$out/results.jsonl"
  printf '%s\n' "$line"
)

cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
  for d in "$bench"/cases/*/; do cases+=("$(basename "$d")"); done
fi
if [ -z "${TABLE_ONLY:-}" ]; then
  for c in "${cases[@]}"; do
    for r in $reducers; do
      if [ "$r" = picireny ]; then
        run_picireny "$c" > /dev/null
      else
        "$bench/run.sh" "$r" "$c" "$out" > /dev/null
      fi
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
reducers = [x for x in ["hdd", "treereduce", "cvise", "picireny"] if any(k[1] == x for k in latest)]
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
