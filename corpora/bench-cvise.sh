#!/usr/bin/env bash
# How far past hdd's result C-Vise still gets: runs hdd on each case, then
# C-Vise on hdd's result with the same oracle, and prints a markdown table of
# hdd's tests and bytes and of what C-Vise removed after it (its tests, its
# bytes, the share of hdd's bytes it removed).
#
#   corpora/bench-cvise.sh [CASE...]
#
# CASE: lang/name, a corpus case (e.g. c/bzip2-maybe-uninit), or
# bench/NAME, a case of the shared benchmark (../shared/bench/cases/NAME;
# its inputs come from that benchmark's setup.sh). Without cases: every
# corpus case that holds one file, then every benchmark case.
#
# Environment:
#   HDD_BIN      the hdd binary (default: target/release/hdd, built if missing)
#   HDD_ARGS     extra arguments for hdd (default: -j 1, so test counts compare)
#   CVISE        the cvise executable (default: cvise on PATH)
#   CVISE_MAX_S  cap per C-Vise run, seconds (default 300; it keeps its best
#                result so far, reported as T/O)
#   BENCH_DIR    the shared benchmark (default: ../shared/bench beside the
#                repository); BENCH_CACHE where its setup.sh put the inputs
#   BENCH_OUT    directory for results (default: a temporary one, printed)
#
# Test counts are the oracle's own: hdd's from its --stats-json (the check
# of the original and the final re-check not included) for corpus cases and
# from the benchmark's counter for benchmark cases; C-Vise's from a counter
# in a wrapper around the oracle (its own check of the original included).
set -euo pipefail
export LC_ALL=C
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
bin=${HDD_BIN:-$root/target/release/hdd}
if [ -z "${HDD_BIN:-}" ] && [ ! -x "$bin" ]; then
  (cd "$root" && cargo build --release --quiet)
fi
cvise=${CVISE:-cvise}
command -v "$cvise" > /dev/null || { echo "bench-cvise.sh: no $cvise (apt-get install cvise)" >&2; exit 2; }
max_s=${CVISE_MAX_S:-300}
bench=${BENCH_DIR:-$(dirname "$root")/shared/bench}
out=${BENCH_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/hdd-bench-cvise.XXXXXX")}
mkdir -p "$out"
# shellcheck disable=SC2206  # HDD_ARGS is a word list on purpose
args=(${HDD_ARGS--j 1})

cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
  for d in "$here"/*/*/case.env; do
    d=${d%/case.env}
    input=$(sed -n 's/^input=//p' "$d/case.env")
    [ -f "$d/$input" ] && cases+=("${d#"$here"/}")
  done
  for d in "$bench"/cases/*/case.env; do
    [ -f "$d" ] && { d=${d%/case.env}; cases+=("bench/${d##*/}"); }
  done
fi

# Runs C-Vise in $1 (a directory holding the candidate $2) with the oracle
# command $3 (run in that directory with the candidate's path as its last
# argument); prints "tests status".
run_cvise() {
  local work=$1 file=$2 oracle=$3 status=ok
  cat > "$work/counted.sh" <<EOF
#!/bin/sh
echo >> "$work/counter"
exec $oracle "\$PWD/$file"
EOF
  chmod +x "$work/counted.sh"
  : > "$work/counter"
  local lang_opt=()
  case $file in *.c | *.h | *.i | *.cc | *.cpp | *.ii | *.hpp) ;; *) lang_opt=(--not-c) ;; esac
  (cd "$work" && timeout -k 10 "$max_s" "$cvise" --n 1 --timeout 60 "${lang_opt[@]}" \
    "$work/counted.sh" "$file" > "$work/cvise.log" 2>&1) || status=T/O
  echo "$(wc -l < "$work/counter") $status"
}

echo "| case | input B | hdd tests | hdd B | C-Vise after hdd: tests | C-Vise B | removed |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for c in "${cases[@]}"; do
  work=$out/${c//\//-}
  rm -rf "$work"; mkdir -p "$work/cvise"
  if [ "${c%%/*}" = bench ]; then
    name=${c#bench/}
    getv() { sed -n "s/^$1=//p" "$bench/cases/$name/case.env" | head -1; }
    file=$(getv FILE)
    cache=${BENCH_CACHE:-$bench/.cache}
    input_bytes=$(wc -c < "$cache/$(getv INPUT)")
    HDD_BIN=$bin HDD_ARGS="${args[*]}" BENCH_MAX_S=${BENCH_MAX_S:-600} \
      "$bench/run.sh" hdd "$name" "$work/hdd" > /dev/null 2>&1 || true
    result=$work/hdd/final/$name.hdd.$file
    [ -f "$result" ] || { echo "| $c | $input_bytes | error | | | | |"; continue; }
    tests=$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readlines()[-1])["tests"])' \
      "$work/hdd/results.jsonl")
    # the benchmark's oracles take the candidate's path; they find their
    # tools and data through BENCH_DIR and BENCH_CACHE
    oracle="env BENCH_DIR=$bench BENCH_CACHE=$cache BENCH_CASE=$name $bench/cases/$name/test.sh"
  else
    dir=$here/$c
    file=$(sed -n 's/^input=//p' "$dir/case.env")
    input_bytes=$(wc -c < "$dir/$file")
    cp "$dir/$file" "$work/$file"
    result=$work/result-$file
    "$bin" --lang "${c%%/*}" --test "$dir/test.sh" "$work/$file" -o "$result" \
      --stats-json "$work/stats.json" -q "${args[@]}" > "$work/hdd.log" 2>&1 || true
    [ -f "$work/stats.json" ] && [ -f "$result" ] || { echo "| $c | $input_bytes | error | | | | |"; continue; }
    tests=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["tests"])' "$work/stats.json")
    oracle=$dir/test.sh
  fi
  hdd_bytes=$(wc -c < "$result")
  cp "$result" "$work/cvise/$file"
  read -r cv_tests cv_status < <(run_cvise "$work/cvise" "$file" "$oracle")
  cv_bytes=$(wc -c < "$work/cvise/$file")
  mark=; [ "$cv_status" = ok ] || mark="T/O "
  printf '| %s | %s | %s | %s | %s%s | %s | %s |\n' "$c" "$input_bytes" "$tests" "$hdd_bytes" \
    "$mark" "$cv_tests" "$cv_bytes" \
    "$(awk -v a="$hdd_bytes" -v b="$cv_bytes" 'BEGIN { printf "%.0f%%", a ? 100 * (a - b) / a : 0 }')"
done
echo
echo "results: $out"
