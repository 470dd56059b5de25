#!/usr/bin/env bash
# The -j scaling curve: runs hdd at -j 1, 2, 4, 8, 16, 32 and 64 on tests
# that take 250 ms and use no CPU (a `sleep 0.25` before a cheap check), so
# that any -j is measurable on a machine with few cores, and prints a
# markdown table per case: tests run, tests wasted (started on a wrong
# guess: finished but unused, or cancelled), wall time, speed-up over -j 1,
# whether the result is byte for byte the one of -j 1, and the waves: test
# latencies one after the other (bench/waves.py on the run's --trace,
# kept as trace.jsonl beside its stats.json; waves.py TRACE prints them
# by phase).
#
#   bench/bench-scale.sh [CASE...]     CASE: c-grep (default), c-names, xml-svg, xml-gir or c-gcc
#
#   c-grep   c/bzip2-maybe-uninit's compress.c (20 KB), interesting while
#            seven names from six of its functions are still in it
#   c-names  c-grep's predicate in one awk process instead of seven greps:
#            the same outcomes, a third of the processor time per test
#            (3.4 ms against 9.5 ms here), so that 64 tests at once
#            on two cores measure the reducer rather than process starts
#   xml-svg  xml/svg-htop-gradient-href's own oracle (xmllint), sleep-wrapped
#   xml-gir  xml/gir-gdk-window-cursor's own oracle (an XPath query with
#            xmllint), sleep-wrapped: a larger input (1.7 MB) whose
#            reduction takes about 500 tests at -j 1
#   c-gcc    c/pyrsistent-redundant-decls's own oracle (gcc -fsyntax-only, a
#            real compiler, on C whose declarations depend on each other)
#            after a `sleep 1`: its gcc takes about 60 ms of CPU, so that
#            16 of them at once still fit on two cores within the sleep
#
# With MEMO=1 the tests answer from recorded outcomes instead: the case's
# test runs once at -j 1 (a run the printed table leaves out) and each
# outcome is kept under the candidate's `cksum` (CRC and size); then every
# run sleeps as the case does and answers from those (the test itself for
# a text the -j 1 run never saw: a guess that went the other way). The outcomes are
# the case's test's, but a test costs a few milliseconds of processor
# time instead of the check's (xmllint: 8 to 28 ms), so that 64 at once
# on two cores measure the reducer rather than the machine. "same result"
# then compares with the result of the run of the test itself.
#
# Environment: JOBS (default "1 2 4 8 16 32 64"), HDD_BIN, HDD_ARGS (extra
# arguments), BENCH_OUT (where results go; default a temporary directory),
# MEMO.
# Run it on an otherwise idle machine: it measures time.
set -euo pipefail
export LC_ALL=C
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
corpora=$root/corpora
bin=${HDD_BIN:-$root/target/release/hdd}
if [ -z "${HDD_BIN:-}" ]; then
  (cd "$root" && cargo build --release --quiet)
fi
out=${BENCH_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/hdd-bench-scale.XXXXXX")}
mkdir -p "$out"
# shellcheck disable=SC2206  # word lists on purpose
jobs=(${JOBS:-1 2 4 8 16 32 64})
# shellcheck disable=SC2206
extra=(${HDD_ARGS:-})
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(c-grep)

# What c-grep and c-names ask of compress.c: that these are all still in it.
names="bsPutUInt32 nMTF BZ2_bsInitWrite zPend BZ_G_SIZE selectorMtf origPtr"

# Writes case $1's input and oracle into directory $2; prints the input's name.
setup() {
  local name=$1 dir=$2
  mkdir -p "$dir"
  case $name in
    c-grep)
      cp "$corpora/c/bzip2-maybe-uninit/compress.c" "$dir/"
      cat > "$dir/test.sh" <<EOF
#!/bin/sh
# interesting while seven names from six functions are all still there
sleep 0.25
for name in $names; do
  grep -q "\$name" "\$1" || exit 1
done
EOF
      echo compress.c ;;
    c-names)
      cp "$corpora/c/bzip2-maybe-uninit/compress.c" "$dir/"
      cat > "$dir/test.sh" <<EOF
#!/bin/sh
# c-grep's test: interesting while each of the seven names is on a line
sleep 0.25
exec awk '
  BEGIN { n = split("$names", name) }
  { for (i = 1; i <= n; i++) if (!(i in seen) && index(\$0, name[i])) seen[i] = 1 }
  END { for (i = 1; i <= n; i++) if (!(i in seen)) exit 1 }
' "\$1"
EOF
      echo compress.c ;;
    xml-svg)
      cp "$corpora/xml/svg-htop-gradient-href/htop.svg" "$dir/"
      cat > "$dir/test.sh" <<EOF
#!/bin/sh
sleep 0.25
exec "$corpora/xml/svg-htop-gradient-href/test.sh" "\$@"
EOF
      echo htop.svg ;;
    xml-gir)
      cp "$corpora/xml/gir-gdk-window-cursor/Gdk-3.0.gir" "$dir/"
      cat > "$dir/test.sh" <<EOF
#!/bin/sh
sleep 0.25
exec "$corpora/xml/gir-gdk-window-cursor/test.sh" "\$@"
EOF
      echo Gdk-3.0.gir ;;
    c-gcc)
      cp "$corpora/c/pyrsistent-redundant-decls/pvectorcmodule.c" "$dir/"
      cat > "$dir/test.sh" <<EOF
#!/bin/sh
sleep 1
exec "$corpora/c/pyrsistent-redundant-decls/test.sh" "\$@"
EOF
      echo pvectorcmodule.c ;;
    *) echo "unknown case $name (c-grep, c-names, xml-svg, xml-gir, c-gcc)" >&2; exit 2 ;;
  esac
  chmod +x "$dir/test.sh"
}

# Makes $1/test.sh (as setup wrote it: a sleep, then the check) record
# each outcome into directory $2 ($3 = record) or answer from it ($3 =
# replay), the check itself in $1/check.sh.
memoize() {
  local dir=$1 memo=$2 mode=$3 nap
  nap=$(sed -n 's/^sleep //p' "$dir/test.sh")
  sed '/^sleep /d' "$dir/test.sh" > "$dir/check.sh"
  chmod +x "$dir/check.sh"
  mkdir -p "$memo"
  case $mode in
    record)
      cat > "$dir/test.sh" <<EOF
#!/bin/sh
# the case's test, each outcome kept under the candidate's cksum
sleep $nap
"$dir/check.sh" "\$1"
rc=\$?
set -- \$(cksum < "\$1")
echo \$rc > "$memo/\$1-\$2"
exit \$rc
EOF
      ;;
    replay)
      cat > "$dir/test.sh" <<EOF
#!/bin/sh
# the outcome the case's test gave this text at -j 1 (by its cksum);
# the test itself for a text that run did not see
sleep $nap
f=\$1
set -- \$(cksum < "\$f")
if [ -f "$memo/\$1-\$2" ]; then read -r rc < "$memo/\$1-\$2"; exit "\$rc"; fi
exec "$dir/check.sh" "\$f"
EOF
      ;;
  esac
}

for c in "${cases[@]}"; do
  echo "### $c"
  echo
  echo "| -j | tests | wasted | waves | wall s | speed-up | same result as -j 1 |"
  echo "|---:|---:|---:|---:|---:|---:|---|"
  base_wall=
  first="$out/$c/j${jobs[0]}"
  if [ -n "${MEMO:-}" ]; then
    first="$out/$c/record"
    input=$(setup "$c" "$first")
    memoize "$first" "$out/$c/memo" record
    "$bin" -q -j 1 "${extra[@]}" --test "$first/test.sh" -o "$first/result-$input" "$first/$input"
  fi
  for j in "${jobs[@]}"; do
    dir="$out/$c/j$j"
    input=$(setup "$c" "$dir")
    [ -z "${MEMO:-}" ] || memoize "$dir" "$out/$c/memo" replay
    "$bin" -q -j "$j" "${extra[@]}" --test "$dir/test.sh" --stats-json "$dir/stats.json" \
      --trace "$dir/trace.jsonl" -o "$dir/result-$input" "$dir/$input"
    same=no
    cmp -s "$first/result-$input" "$dir/result-$input" && same=yes
    base_wall=${base_wall:-$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["wall_time"])' "$dir/stats.json")}
    python3 - "$dir/stats.json" "$j" "$base_wall" "$same" "$dir/trace.jsonl" "$here" <<'PY'
import json, sys
s, j, base, same = json.load(open(sys.argv[1])), sys.argv[2], float(sys.argv[3]), sys.argv[4]
sys.path.insert(0, sys.argv[6])
from waves import waves
with open(sys.argv[5]) as f:
    n = len(waves([json.loads(line) for line in f]))
tests = s["tests"] + s["cancelled"]
wasted = s["wasted"] + s["cancelled"]
print(f"| {j} | {tests} | {wasted} | {n} | {s['wall_time']:.1f} | {base / s['wall_time']:.1f} | {same} |")
PY
  done
  echo
done
echo "results: $out"
