#!/usr/bin/env bash
# Memory and progress on a large JSON file: builds a JSON array of real
# tweets (copies of the statuses of corpora/json/twitter-bigint-precision,
# ids made unique, one object holding the marker HDD_MARKER in the middle),
# then measures for `hdd --lang json`:
#   - `--dump-tree`: peak resident memory and wall time;
#   - `-j N` (JOBS, default "1 2"): peak resident memory, seconds from the
#     start to the first test (the check of the original) and to the
#     second (the first candidate), and tests run within --max-time.
# Prints a markdown table.
#
#   bench/bench-big-json.sh [MEGABYTES]       (default 50)
#
# Environment:
#   HDD_BIN    the hdd binary (default: target/release/hdd, built if missing)
#   JOBS       the -j values (default "1 2")
#   MAX_TIME   hdd's --max-time per run (default 30s)
#   BENCH_OUT  where the input and results go (default: a temporary directory)
#
# The test is `grep -q HDD_MARKER` plus one timestamp appended to a log
# outside hdd's directories, so the figures are hdd's own. Peak memory is
# the maximum resident set size from /usr/bin/time -f %M.
set -euo pipefail
export LC_ALL=C
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
bin=${HDD_BIN:-$root/target/release/hdd}
if [ -z "${HDD_BIN:-}" ] && [ ! -x "$bin" ]; then
  (cd "$root" && cargo build --release --quiet)
fi
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
mb=${1:-50}
out=${BENCH_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/hdd-bench-big-json.XXXXXX")}
mkdir -p "$out"
# shellcheck disable=SC2206  # a word list on purpose
jobs=(${JOBS:-1 2})
max_time=${MAX_TIME:-30s}
input=$out/big-$mb.json

# The input: the tweets of the corpus case, copied until the array holds
# about $mb megabytes, each copy's ids changed so no two objects are equal.
# Deterministic: the same bytes on every run.
if [ ! -f "$input" ]; then
  python3 - "$root/corpora/json/twitter-bigint-precision/twitter.json" "$input" "$mb" <<'EOF'
import json, sys
src, path, mb = sys.argv[1], sys.argv[2], int(sys.argv[3])
statuses = json.load(open(src, encoding="utf-8"))["statuses"]
texts = [json.dumps(s, ensure_ascii=False, indent=2) for s in statuses]
size = mb * 1_000_000
parts, n, copy, marked = [], 0, 0, False
while n < size:
    for t in texts:
        if not marked and n >= size // 2:
            parts.append('{"marker": "HDD_MARKER"}')
            marked = True
        parts.append(t.replace('"id": ', '"id": %d' % (copy + 1), 1))
        n += len(parts[-1].encode()) + 2
        if n >= size:
            break
    copy += 1
with open(path, "w", encoding="utf-8") as f:
    f.write("[\n" + ",\n".join(parts) + "\n]\n")
EOF
fi
size=$(wc -c < "$input")

cat > "$out/test.sh" <<EOF
#!/bin/sh
date +%s.%N >> "$out/stamps"
grep -q HDD_MARKER "\$1"
EOF
chmod +x "$out/test.sh"

# Runs the command after it under /usr/bin/time; sets peak_mb and secs.
measure() {
  local t
  t=$(mktemp "$out/time.XXXXXX")
  /usr/bin/time -o "$t" -f '%M %e' "$@" > /dev/null 2>> "$out/hdd.log" || true
  read -r kb secs < <(tail -n 1 "$t")
  peak_mb=$(awk -v k="$kb" 'BEGIN { printf "%.0f", k / 1024 }')
  rm -f "$t"
}

ratio() { awk -v m="$1" -v s="$size" 'BEGIN { printf "%.1f", m * 1048576 / s }'; }

echo "| run | peak MB | peak / input | first test s | second test s | tests in $max_time |"
echo "|---|---:|---:|---:|---:|---:|"
measure "$bin" --lang json --dump-tree "$input"
echo "| --dump-tree | $peak_mb | $(ratio "$peak_mb") | | | (done in $secs s) |"
for j in "${jobs[@]}"; do
  rm -f "$out/stamps"
  start=$(date +%s.%N)
  measure "$bin" --lang json --test "$out/test.sh" "$input" -o "$out/result-$j.json" \
    -q -j "$j" --max-time "$max_time"
  read -r first second count < <(awk -v s="$start" \
    'NR == 1 { f = $1 - s } NR == 2 { g = $1 - s } END { printf "%.1f %s %d\n", f, (NR > 1 ? sprintf("%.1f", g) : "-"), NR }' \
    "$out/stamps" 2> /dev/null || echo "- - 0")
  echo "| -j $j | $peak_mb | $(ratio "$peak_mb") | $first | $second | $count |"
done
echo
echo "input: $input ($size bytes); results: $out"
