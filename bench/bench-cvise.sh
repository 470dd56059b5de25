#!/usr/bin/env bash
# hdd against C-Vise: runs hdd on each case, then C-Vise on hdd's result
# with the same oracle, and prints a markdown table of hdd's tests, bytes
# and seconds and of what C-Vise removed after it (its tests, its bytes,
# the share of hdd's bytes it removed). With CVISE_ORIGINAL=1 it also runs
# C-Vise alone from the original input, for a head-to-head comparison.
#
#   bench/bench-cvise.sh [CASE...]
#
# CASE: lang/name, a case of corpora/ (e.g. c/bzip2-maybe-uninit, or
# multi/bzip2-decompress-bool, whose input is a directory: C-Vise gets all
# its files at once), or bench/NAME, a case of the shared benchmark
# ($HDD_BENCH_SUITE/cases/NAME; its inputs come from that benchmark's
# setup.sh). Without cases: every corpus case, then every benchmark case.
#
# Environment:
#   HDD_BIN      the hdd binary (default: target/release/hdd, built if missing)
#   HDD_ARGS     extra arguments for hdd (default: -j 1, so test counts compare)
#   CVISE        the cvise executable (default: cvise on PATH)
#   CVISE_MAX_S  cap per C-Vise run on hdd's result, seconds (default 300;
#                it keeps its best result so far, reported as T/O)
#   CVISE_ORIGINAL  1: also run C-Vise alone from the original input
#   CVISE_ORIGINAL_MAX_S  cap of that run, seconds (default CVISE_MAX_S)
#   HDD_BENCH_SUITE  the shared benchmark's directory (needed for its cases,
#                and when no case is named); BENCH_CACHE where its setup.sh
#                put the inputs (default: HDD_BENCH_SUITE/.cache)
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
corpora=$root/corpora
bin=${HDD_BIN:-$root/target/release/hdd}
if [ -z "${HDD_BIN:-}" ] && [ ! -x "$bin" ]; then
  (cd "$root" && cargo build --release --quiet)
fi
cvise=${CVISE:-cvise}
command -v "$cvise" > /dev/null || { echo "bench-cvise.sh: no $cvise (apt-get install cvise)" >&2; exit 2; }
max_s=${CVISE_MAX_S:-300}
from_original=${CVISE_ORIGINAL:-0}
original_max_s=${CVISE_ORIGINAL_MAX_S:-$max_s}
out=${BENCH_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/hdd-bench-cvise.XXXXXX")}
mkdir -p "$out"
# shellcheck disable=SC2206  # HDD_ARGS is a word list on purpose
args=(${HDD_ARGS--j 1})

cases=("$@")
# the shared benchmark, when a case of it is named or no case is
bench= need_bench=
[ ${#cases[@]} -gt 0 ] || need_bench=1
for c in "${cases[@]}"; do [ "${c%%/*}" != bench ] || need_bench=1; done
if [ -n "$need_bench" ]; then
  [ -n "${HDD_BENCH_SUITE:-}" ] || {
    echo "bench-cvise.sh: set HDD_BENCH_SUITE to the shared benchmark's directory (or name only corpus cases)" >&2
    exit 2
  }
  [ -x "$HDD_BENCH_SUITE/run.sh" ] || { echo "bench-cvise.sh: no run.sh in HDD_BENCH_SUITE=$HDD_BENCH_SUITE" >&2; exit 2; }
  bench=$(cd "$HDD_BENCH_SUITE" && pwd)
fi
if [ ${#cases[@]} -eq 0 ]; then
  for d in "$corpora"/*/*/case.env; do
    d=${d%/case.env}; cases+=("${d#"$corpora"/}")
  done
  for d in "$bench"/cases/*/case.env; do
    [ -f "$d" ] && { d=${d%/case.env}; cases+=("bench/${d##*/}"); }
  done
fi

# Bytes of a file, or of all the files under a directory.
bytes() {
  if [ -d "$1" ]; then find "$1" -type f -exec cat {} + | wc -c; else wc -c < "$1"; fi
}

# Runs C-Vise in the directory $1 on its entry $2 (a file, or a directory
# all of whose files are reduced) with the oracle command $3 (given the
# candidate's absolute path as its last argument), for at most $4 seconds;
# prints "tests status seconds". C-Vise takes file names without a folder
# (it copies them flat into a directory of its own and runs the test
# there), so it runs inside a directory candidate, which must be flat, as
# the corpus's are.
run_cvise() {
  local work=$1 cand=$2 oracle=$3 cap=$4 status=ok arg files=() lang_opt=() cwd=$1
  if [ -d "$work/$cand" ]; then
    arg='$PWD'
    cwd=$work/$cand
    while IFS= read -r f; do files+=("$f"); done \
      < <(cd "$cwd" && find . -maxdepth 1 -type f -printf '%P\n' | sort)
  else
    arg="\$PWD/$cand"
    files=("$cand")
    case $cand in *.c | *.h | *.i | *.cc | *.cpp | *.ii | *.hpp) ;; *) lang_opt=(--not-c) ;; esac
  fi
  printf '#!/bin/sh\necho >> "%s/counter"\nexec %s "%s"\n' "$work" "$oracle" "$arg" > "$work/counted.sh"
  chmod +x "$work/counted.sh"
  : > "$work/counter"
  local start end
  start=$(date +%s)
  (cd "$cwd" && timeout -k 10 "$cap" "$cvise" --n 1 --timeout 60 "${lang_opt[@]}" \
    "$work/counted.sh" "${files[@]}" > "$work/cvise.log" 2>&1) || status=T/O
  end=$(date +%s)
  # its backups of the original files and the reports of its passes'
  # crashes (cvise_bug_N) are not part of the result
  for f in "${files[@]}"; do rm -f "$cwd/$f.orig"; done
  if [ "$cwd" != "$work" ]; then
    find "$cwd" -maxdepth 1 -name 'cvise_bug_*' -exec mv -t "$work" {} +
  fi
  echo "$(wc -l < "$work/counter") $status $((end - start))"
}

# One table cell for a C-Vise run: "[T/O ]tests | bytes".
cvise_cells() {
  local tests=$1 status=$2 bytes=$3 mark=
  [ "$status" = ok ] || mark="T/O "
  printf '%s%s | %s' "$mark" "$tests" "$bytes"
}

if [ "$from_original" = 1 ]; then
  echo "| case | input B | hdd tests | hdd B | hdd s | C-Vise alone: tests | C-Vise B | C-Vise s | C-Vise after hdd: tests | C-Vise B | removed |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
else
  echo "| case | input B | hdd tests | hdd B | hdd s | C-Vise after hdd: tests | C-Vise B | removed |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|"
fi
for c in "${cases[@]}"; do
  work=$out/${c//\//-}
  rm -rf "$work"; mkdir -p "$work/cvise"
  start=$(date +%s)
  if [ "${c%%/*}" = bench ]; then
    name=${c#bench/}
    getv() { sed -n "s/^$1=//p" "$bench/cases/$name/case.env" | head -1; }
    file=$(getv FILE)
    cache=${BENCH_CACHE:-$bench/.cache}
    original=$cache/$(getv INPUT)
    HDD_BIN=$bin HDD_ARGS="${args[*]}" BENCH_MAX_S=${BENCH_MAX_S:-600} \
      "$bench/run.sh" hdd "$name" "$work/hdd" > /dev/null 2>&1 || true
    result=$work/hdd/final/$name.hdd.$file
    [ -f "$result" ] || { echo "| $c | $(bytes "$original") | error | | | | | |"; continue; }
    tests=$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readlines()[-1])["tests"])' \
      "$work/hdd/results.jsonl")
    # the benchmark's oracles take the candidate's path; they find their
    # tools and data through BENCH_DIR and BENCH_CACHE
    oracle="env BENCH_DIR=$bench BENCH_CACHE=$cache BENCH_CASE=$name $bench/cases/$name/test.sh"
  else
    dir=$corpora/$c
    file=$(sed -n 's/^input=//p' "$dir/case.env")
    original=$dir/$file
    lang=(--lang "${c%%/*}")
    [ -d "$original" ] && lang=()   # a set: each file by its extension
    cp -r "$original" "$work/$file"
    result=$work/result-$file
    "$bin" "${lang[@]}" --test "$dir/test.sh" "$work/$file" -o "$result" \
      --stats-json "$work/stats.json" -q "${args[@]}" > "$work/hdd.log" 2>&1 || true
    [ -f "$work/stats.json" ] && [ -e "$result" ] || { echo "| $c | $(bytes "$original") | error | | | | | |"; continue; }
    tests=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["tests"])' "$work/stats.json")
    oracle=$dir/test.sh
  fi
  hdd_s=$(($(date +%s) - start))
  hdd_bytes=$(bytes "$result")
  cp -r "$result" "$work/cvise/$file"
  read -r cv_tests cv_status _ < <(run_cvise "$work/cvise" "$file" "$oracle" "$max_s")
  cv_bytes=$(bytes "$work/cvise/$file")
  after="$(cvise_cells "$cv_tests" "$cv_status" "$cv_bytes") | $(awk -v a="$hdd_bytes" -v b="$cv_bytes" \
    'BEGIN { printf "%.0f%%", a ? 100 * (a - b) / a : 0 }')"
  alone=
  if [ "$from_original" = 1 ]; then
    mkdir -p "$work/cvise-alone"
    cp -r "$original" "$work/cvise-alone/$file"
    read -r al_tests al_status al_s < <(run_cvise "$work/cvise-alone" "$file" "$oracle" "$original_max_s")
    alone=" $(cvise_cells "$al_tests" "$al_status" "$(bytes "$work/cvise-alone/$file")") | $al_s |"
  fi
  printf '| %s | %s | %s | %s | %s |%s %s |\n' "$c" "$(bytes "$original")" "$tests" "$hdd_bytes" \
    "$hdd_s" "$alone" "$after"
done
echo
echo "results: $out"
