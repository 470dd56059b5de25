#!/usr/bin/env bash
# Peak memory against input size: generates JSON and XML inputs of several
# sizes (and C by concatenating a corpus file), runs hdd on each at -j 1 and
# -j 8 with a cheap grep test, and runs --dump-tree on each; prints a
# markdown table: input, size, what ran, peak resident memory (MB), and
# peak / input size.
#
#   bench/bench-memory.sh [INPUT...]   INPUT: json-1, json-10, json-50,
#                                      xml-2, xml-20, c-5 (default: all;
#                                      the number is megabytes)
#
# Environment:
#   HDD_BIN    the hdd binary (default: target/release/hdd, built if missing)
#   JOBS       the -j values (default "1 8")
#   MAX_TIME   hdd's --max-time per run (default 60s): the peak comes early
#              (parse, the first candidates), and this bounds each run
#   BENCH_OUT  where inputs and results go (default: a temporary directory)
#
# The test is interesting while one marker string, placed once in the middle
# of the input, is still there: it costs a grep, so the figures are hdd's
# own. Peak memory is the maximum resident set size of hdd (and its tests,
# which are tiny), from /usr/bin/time -f %M. Run one at a time: two runs
# side by side do not change the figures, but a 5 GB one may not fit twice.
set -euo pipefail
export LC_ALL=C
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
corpora=$root/corpora
bin=${HDD_BIN:-$root/target/release/hdd}
if [ -z "${HDD_BIN:-}" ] && [ ! -x "$bin" ]; then
  (cd "$root" && cargo build --release --quiet)
fi
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
out=${BENCH_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/hdd-bench-memory.XXXXXX")}
mkdir -p "$out"
# shellcheck disable=SC2206  # a word list on purpose
jobs=(${JOBS:-1 8})
max_time=${MAX_TIME:-60s}
inputs=("$@")
[ ${#inputs[@]} -gt 0 ] || inputs=(json-1 json-10 json-50 xml-2 xml-20 c-5)

# Writes input $1 (lang-megabytes) to file $2, with the marker HDD_MARKER in
# its middle. Deterministic: the same bytes on every run.
generate() {
  python3 - "$1" "$2" "$corpora" <<'EOF'
import random, sys
name, path, corpora = sys.argv[1], sys.argv[2], sys.argv[3]
lang, mb = name.split("-")
size = int(mb) * 1_000_000
rng = random.Random(42)
words = ["alpha", "beta", "gamma", "delta", "id", "name", "value", "items",
         "type", "tags", "enabled", "count", "url", "created", "owner"]

def json_value(depth):
    r = rng.random()
    if depth > 3 or r < 0.35:
        c = rng.randrange(4)
        if c == 0: return str(rng.randrange(100000))
        if c == 1: return '"%s-%d"' % (rng.choice(words), rng.randrange(1000))
        if c == 2: return rng.choice(["true", "false", "null"])
        return "%d.%d" % (rng.randrange(1000), rng.randrange(100))
    if r < 0.6:
        return "[" + ", ".join(json_value(depth + 1) for _ in range(rng.randrange(1, 6))) + "]"
    pad = "\n" + "  " * (depth + 2)
    body = ("," + pad).join('"%s": %s' % (rng.choice(words), json_value(depth + 1))
                            for _ in range(rng.randrange(1, 6)))
    return "{" + pad + body + "\n" + "  " * (depth + 1) + "}"

def xml_element(depth):
    tag = rng.choice(words)
    attrs = "".join(' %s="%s%d"' % (rng.choice(words), rng.choice(words), rng.randrange(100))
                    for _ in range(rng.randrange(3)))
    if depth > 3 or rng.random() < 0.3:
        return "<%s%s>%s %d</%s>" % (tag, attrs, rng.choice(words), rng.randrange(1000), tag)
    pad = "\n" + "  " * (depth + 1)
    kids = pad.join(xml_element(depth + 1) for _ in range(rng.randrange(1, 5)))
    return "<%s%s>%s%s\n%s</%s>" % (tag, attrs, pad, kids, "  " * depth, tag)

parts, n, marked = [], 0, False
if lang == "json":
    head, sep, tail = "[\n  ", ",\n  ", "\n]\n"
    item = lambda: json_value(0)
    marker = '{"marker": "HDD_MARKER"}'
elif lang == "xml":
    head, sep, tail = '<?xml version="1.0"?>\n<root>\n  ', "\n  ", "\n</root>\n"
    item = lambda: xml_element(1)
    marker = "<marker>HDD_MARKER</marker>"
elif lang == "c":
    src = open(corpora + "/c/bzip2-maybe-uninit/compress.c").read()
    head, sep, tail = "", "\n", "\nint HDD_MARKER;\n"
    marked = True
    chunk = [0]
    def item():
        chunk[0] += 1
        return src.replace("BZ2_", "BZ2_%d_" % chunk[0])
    marker = ""
else:
    sys.exit("unknown input " + name)
while n < size:
    if not marked and n >= size // 2:
        parts.append(marker); marked = True
    else:
        parts.append(item())
    n += len(parts[-1]) + len(sep)
with open(path, "w") as f:
    f.write(head + sep.join(parts) + tail)
EOF
}

# Prints the peak RSS in kilobytes of the command after it.
peak_kb() {
  local t
  t=$(mktemp "$out/time.XXXXXX")
  /usr/bin/time -o "$t" -f %M "$@" > /dev/null 2>> "$out/hdd.log" || true
  tail -n 1 "$t"; rm -f "$t"
}

cat > "$out/test.sh" <<'EOF'
#!/bin/sh
grep -q HDD_MARKER "$1"
EOF
chmod +x "$out/test.sh"

echo "| input | size MB | run | peak MB | peak / size |"
echo "|---|---:|---|---:|---:|"
for name in "${inputs[@]}"; do
  lang=${name%%-*}
  file=$out/$name.$lang
  [ -f "$file" ] || generate "$name" "$file"
  size=$(wc -c < "$file")
  row() {
    awk -v n="$name" -v s="$size" -v r="$1" -v k="$2" \
      'BEGIN { printf "| %s | %.1f | %s | %.0f | %.1f |\n", n, s / 1e6, r, k / 1024, k * 1024 / s }'
  }
  row "--dump-tree" "$(peak_kb "$bin" --lang "$lang" --dump-tree "$file")"
  for j in "${jobs[@]}"; do
    row "-j $j" "$(peak_kb nice "$bin" --lang "$lang" --test "$out/test.sh" "$file" \
      -o "$out/$name.result.$lang" -q -j "$j" --max-time "$max_time")"
  done
done
echo
echo "results: $out"
