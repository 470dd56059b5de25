#!/usr/bin/env bash
# Runs hdd (or a peer) on every corpus case (or the ones named) and prints a
# markdown table: tests run, final bytes, wall time, reducer overhead (wall
# time not spent in the test), and whether the result is still interesting
# (re-checked here).
#
#   bench/bench.sh [CASE...]          CASE: lang/name under corpora/, e.g. json/mime-db-truncated
#
# Environment:
#   REDUCER    hdd (default) or treereduce (C and JavaScript only; the one
#              the shared benchmark's peers.sh installs, see bench/README.md)
#   HDD_BIN    the hdd binary (default: target/release/hdd, built if missing)
#   HDD_ARGS   extra arguments for hdd (default: -j 1, so test counts compare)
#   TREEREDUCE_DIR  where bin/treereduce-{c,javascript} are
#              (default: $HOME/.cache/hdd-peers)
#   BENCH_MAX_S  cap per treereduce run, seconds (default 240; it writes
#              nothing when cut off)
#   BENCH_OUT  directory for results (default: a temporary one, printed)
#   AGAIN=1    run hdd once more on each of its results (same test, same
#              arguments) and add a column: its tests, and whether the
#              result stayed byte for byte the same (a run should end at a
#              fixpoint)
#
# hdd's test count comes from its --stats-json; a peer's is counted by a
# wrapper around the oracle, so it includes the peer's own check of the
# original (hdd's check of the original and its final re-check are not in
# its count: two tests).
set -euo pipefail
export LC_ALL=C
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
corpora=$root/corpora
reducer=${REDUCER:-hdd}
bin=${HDD_BIN:-$root/target/release/hdd}
if [ "$reducer" = hdd ] && [ -z "${HDD_BIN:-}" ] && [ ! -x "$bin" ]; then
  (cd "$root" && cargo build --release --quiet)
fi
out=${BENCH_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/hdd-bench.XXXXXX")}
mkdir -p "$out"
# shellcheck disable=SC2206  # HDD_ARGS is a word list on purpose
args=(${HDD_ARGS--j 1})

cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
  for d in "$corpora"/*/*/case.env; do
    d=${d%/case.env}; cases+=("${d#"$corpora"/}")
  done
fi

# Runs treereduce on $2 (case dir) / $3 (input) of language $1 in $4 (work
# dir), result in $5; prints "tests wall_seconds".
run_treereduce() {
  local lang=$1 dir=$2 input=$3 work=$4 result=$5 front
  case $lang in c) front=c ;; js) front=javascript ;; *) return 3 ;; esac
  local tr=${TREEREDUCE_DIR:-$HOME/.cache/hdd-peers}/bin/treereduce-$front
  [ -x "$tr" ] || { echo "no $tr (run the shared benchmark's peers.sh)" >&2; return 3; }
  # every call gets a fresh cwd holding the candidate under the input's name
  # (the contract the corpus oracles are written to: gcc needs the .c), and
  # is counted
  cat > "$work/counted.sh" <<EOF
#!/usr/bin/env bash
echo >> "$work/counter"
d=\$(mktemp -d "$work/call.XXXXXX")
cp "\${!#}" "\$d/$input" && cd "\$d" && "$dir/test.sh" "\$d/$input"; s=\$?
rm -rf "\$d"; exit \$s
EOF
  chmod +x "$work/counted.sh"
  : > "$work/counter"
  mkdir -p "$work/tmp"
  local start end
  start=$(date +%s.%N)
  timeout -k 10 "${BENCH_MAX_S:-240}" "$tr" -s "$work/$input" -o "$result" -j 1 \
    --timeout 60 --temp-dir "$work/tmp" -- "$work/counted.sh" @@ > "$work/peer.log" 2>&1 || true
  end=$(date +%s.%N)
  echo "$(wc -l < "$work/counter") $(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')"
}

# Bytes of a file, or of all the files under a directory (a directory
# input's result is a directory too).
bytes() {
  if [ -d "$1" ]; then find "$1" -type f -exec cat {} + | wc -c; else wc -c < "$1"; fi
}

if [ -n "${AGAIN:-}" ]; then
  echo "| case | input B | tests | final B | wall s | overhead s | interesting | hdd again |"
  echo "|---|---:|---:|---:|---:|---:|---|---|"
else
  echo "| case | input B | tests | final B | wall s | overhead s | interesting |"
  echo "|---|---:|---:|---:|---:|---:|---|"
fi

# hdd once more on result $1 of case dir $2 (input name $3), in $4; prints
# "N t, same" or "N t, to B bytes".
again() {
  local result=$1 dir=$2 input=$3 work=$4 name=()
  [ -d "$result" ] || name=(--name "$input")
  rm -rf "$work/again"
  "$bin" "${langarg[@]}" "${name[@]}" --test "$dir/test.sh" "$result" -o "$work/again" \
    --stats-json "$work/again.json" -q "${args[@]}" > "$work/again.log" 2>&1 || true
  local t
  t=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["tests"])' "$work/again.json" 2>/dev/null || echo "?")
  if diff -r "$result" "$work/again" > /dev/null 2>&1; then
    echo "$t t, same"
  else
    echo "$t t, to $(bytes "$work/again") B"
  fi
}
for c in "${cases[@]}"; do
  dir=$corpora/$c
  input=$(sed -n 's/^input=//p' "$dir/case.env")
  lang=${c%%/*}
  # a directory input (corpora/multi) has a language per file, by extension
  langarg=(--lang "$lang"); [ -d "$dir/$input" ] && langarg=()
  work=$out/${c//\//-}
  rm -rf "$work"; mkdir -p "$work"
  cp -r "$dir/$input" "$work/$input"
  result=$work/result-$input
  # each branch sets: tests, wall, overhead (empty when unknown)
  if [ "$reducer" = treereduce ]; then
    if ! measured=$(run_treereduce "$lang" "$dir" "$input" "$work" "$result"); then
      echo "| $c | $(bytes "$dir/$input") | unsupported | | | | |"
      continue
    fi
    read -r tests wall <<< "$measured"
    overhead=
  else
    "$bin" "${langarg[@]}" --test "$dir/test.sh" "$work/$input" -o "$result" \
      --stats-json "$work/stats.json" -q "${args[@]}" > "$work/hdd.log" 2>&1 || true
    if [ ! -f "$work/stats.json" ]; then
      echo "| $c | $(bytes "$dir/$input") | error: $(head -c 200 "$work/hdd.log" | tr '\n' ' ') | | | | |"
      continue
    fi
    read -r tests wall overhead < <(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
print(s["tests"], s["wall_time"], round(s["overhead_time"], 1))' "$work/stats.json")
  fi
  if [ ! -e "$result" ]; then
    printf '| %s | %s | %s | nothing (cut off) | %.1f | | |\n' "$c" "$(bytes "$dir/$input")" "$tests" "$wall"
    continue
  fi
  ok=no
  check=$(mktemp -d "$work/check.XXXXXX")
  cp -r "$result" "$check/$input"
  # a directory input's oracle runs in the copy itself
  cwd=$check; [ -d "$check/$input" ] && cwd=$check/$input
  if (cd "$cwd" && "$dir/test.sh" "$check/$input") > /dev/null 2>&1; then ok=yes; fi
  rm -rf "$check"
  extra=
  if [ -n "${AGAIN:-}" ] && [ "$reducer" = hdd ]; then
    extra=" $(again "$result" "$dir" "$input" "$work") |"
  fi
  printf '| %s | %s | %s | %s | %.1f | %s | %s |%s\n' "$c" "$(bytes "$dir/$input")" \
    "$tests" "$(bytes "$result")" "$wall" "$overhead" "$ok" "$extra"
done
echo
echo "results: $out"
