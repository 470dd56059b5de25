#!/usr/bin/env bash
# Installs Picireny 21.8 (PyPI `picireny`, the reference HDD implementation)
# as an extra peer of bench/bench-peers.sh, for JSON inputs only, outside
# the repository: nothing of Picireny, its grammar or ANTLR is committed here.
#
#   bench/peers-picireny.sh [DIR]      DIR defaults to $PICIRENY_DIR, else
#                                      $HOME/.cache/hdd-peers/picireny
#
# What it sets up:
#   Java and ANTLR 4.7.2     Debian packages default-jre-headless, antlr4
#                            (apt-get, with sudo when not root), when missing
#   DIR/antlr/antlr4-4.7.2-debian.jar
#                            an empty jar whose manifest runs org.antlr.v4.Tool
#                            with Debian's jars on its Class-Path: Picireny
#                            runs `java -jar JAR`, and Debian's antlr4.jar
#                            names no Class-Path of its own
#   DIR/venv                 python venv: picireny==21.8, picire==21.8,
#                            antlr4-python3-runtime==4.9.2 (Picireny's pin)
#   DIR/grammars/JSON.g4     the JSON grammar of Picireny's own tests, taken
#                            from the picireny 21.8 sdist (sha256 checked)
# Picireny would fetch ANTLR 4.9.2's jar from antlr.org (antlerinator); the
# Debian 4.7.2 tool generates parsers with the same ATN serialization
# (version 3) that the 4.9.2 Python runtime reads; the runtime prints a
# harmless "versions disagree" line.  Picireny and picire come as wheels: the
# picireny sdist's build would download the ANTLR jar too.
#
# Idempotent: a second run checks versions and re-verifies in a few seconds.
# At the end it runs Picireny on a tiny JSON file and prints the command and
# the variable bench/bench-peers.sh reads.
set -euo pipefail
export LC_ALL=C

DIR=${1:-${PICIRENY_DIR:-$HOME/.cache/hdd-peers/picireny}}
PICIRENY_VERSION=21.8
RUNTIME_VERSION=4.9.2
SDIST_SHA256=a20fd7502afef59325a142fe88ee61205a4decfb222b4b11a1e2952f3785db52
ANTLR_JARS="antlr4 antlr4-runtime antlr3-runtime stringtemplate4 treelayout"  # as /usr/bin/antlr4

log()  { printf '[picireny] %s\n' "$*" >&2; }
die()  { printf '[picireny] ERROR: %s\n' "$*" >&2; exit 1; }
SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo

mkdir -p "$DIR"/{antlr,grammars,src}
DIR=$(cd "$DIR" && pwd)

# ------------------------------------------------------------------ apt
if [ -x /usr/bin/python3 ]; then PY=/usr/bin/python3; else PY=$(command -v python3) || die "python3 not found"; fi
pkgs=()
command -v java >/dev/null 2>&1 || pkgs+=(default-jre-headless)
for j in $ANTLR_JARS; do
  [ -f "/usr/share/java/$j.jar" ] || { pkgs+=(antlr4); break; }
done
"$PY" -c 'import ensurepip, venv' 2>/dev/null || pkgs+=(python3-venv)
if [ ${#pkgs[@]} -gt 0 ]; then
  log "apt-get install ${pkgs[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >/dev/null
fi
command -v java >/dev/null 2>&1 || die "java missing after apt-get"

# ------------------------------------------------------------------ ANTLR jar
JAR=$DIR/antlr/antlr4-4.7.2-debian.jar
if [ ! -s "$JAR" ]; then
  log "writing $JAR (manifest over /usr/share/java)"
  # shellcheck disable=SC2086  # ANTLR_JARS is a word list
  "$PY" - "$JAR" $ANTLR_JARS <<'PY'
import sys, zipfile
jar, names = sys.argv[1], sys.argv[2:]
lines = ["Manifest-Version: 1.0", "Main-Class: org.antlr.v4.Tool",
         "Class-Path: " + " ".join("/usr/share/java/%s.jar" % n for n in names)]
def wrap(line):  # manifest lines: 72 bytes at most, continued after a space
    b, out = line.encode(), []
    out.append(b[:72]); b = b[72:]
    while b:
        out.append(b" " + b[:71]); b = b[71:]
    return b"\r\n".join(out)
with zipfile.ZipFile(jar + ".tmp", "w") as z:
    z.writestr("META-INF/MANIFEST.MF", b"\r\n".join(map(wrap, lines)) + b"\r\n\r\n")
import os; os.replace(jar + ".tmp", jar)
PY
fi

# ------------------------------------------------------------------ venv
VENV=$DIR/venv
have() {
  "$VENV/bin/python" - "$PICIRENY_VERSION" "$RUNTIME_VERSION" 2>/dev/null <<'PY'
import sys
from importlib.metadata import version
sys.exit(not (version("picireny") == sys.argv[1] and version("antlr4-python3-runtime") == sys.argv[2]))
PY
}
if [ ! -x "$VENV/bin/picireny" ] || ! have; then
  log "creating $VENV with picireny $PICIRENY_VERSION"
  [ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check \
    --only-binary picireny,picire \
    "picireny==$PICIRENY_VERSION" "picire==$PICIRENY_VERSION" \
    "antlr4-python3-runtime==$RUNTIME_VERSION" >&2
  if [ ! -x "$VENV/bin/picireny" ] || ! have; then
    die "picireny $PICIRENY_VERSION missing in $VENV after pip install"
  fi
fi

# ------------------------------------------------------------------ grammar
SDIST=$DIR/src/picireny-$PICIRENY_VERSION.tar.gz
if [ ! -f "$SDIST" ]; then
  log "pip download picireny $PICIRENY_VERSION sdist (for tests/resources/JSON.g4)"
  "$VENV/bin/pip" download -q --disable-pip-version-check --no-deps --no-binary :all: \
    -d "$DIR/src" "picireny==$PICIRENY_VERSION" >&2
fi
echo "$SDIST_SHA256  $SDIST" | sha256sum -c --quiet - || die "$SDIST: sha256 mismatch"
GRAMMAR=$DIR/grammars/JSON.g4
if [ ! -s "$GRAMMAR" ]; then
  tar -xzf "$SDIST" -O "picireny-$PICIRENY_VERSION/tests/resources/JSON.g4" > "$GRAMMAR.tmp"
  mv "$GRAMMAR.tmp" "$GRAMMAR"
fi

# ------------------------------------------------------------------ verify
# A 60-byte list whose interesting part is "needle"; grammar JSON, start rule
# json.  Picireny should keep only the needle (replacing the rest by the
# grammar's shortest forms).
t=$(mktemp -d "${TMPDIR:-/tmp}/peers-picireny.XXXXXX")
trap 'rm -rf "$t"' EXIT
printf '{"a": [1, 2, {"b": "needle"}], "c": {"d": null}, "e": true}\n' > "$t/in.json"
# shellcheck disable=SC2016  # $1 is the test's own argument
printf '#!/bin/sh\ngrep -q needle "$1"\n' > "$t/test.sh"
chmod +x "$t/test.sh"
cmd=("$VENV/bin/picireny" --antlr "$JAR" -g "$GRAMMAR" -s json --encoding utf-8)
(cd "$t" && "${cmd[@]}" -i in.json --test "$t/test.sh" -o "$t/out") > "$t/log" 2>&1 \
  || { cat "$t/log" >&2; die "picireny failed on a tiny JSON file"; }
out=$(tr -d ' \n' < "$t/out/in.json")
case $out in
  *needle*) [ ${#out} -lt 40 ] || { cat "$t/log" >&2; die "picireny did not reduce: $out"; } ;;
  *) cat "$t/log" >&2; die "picireny lost the needle: $out" ;;
esac
log "verified: $(tr -d '\n' < "$t/in.json") -> $(tr -d '\n' < "$t/out/in.json")"
log "java: $(java -version 2>&1 | head -1); ANTLR tool 4.7.2 (Debian antlr4); picireny $PICIRENY_VERSION, antlr4-python3-runtime $RUNTIME_VERSION"

cat <<EOF
# picireny ready (JSON only); verified command:
#   ${cmd[*]} -i FILE --test TEST -o OUTDIR
# for bench/bench-peers.sh (this is its default):
export PICIRENY_DIR=$DIR
EOF
