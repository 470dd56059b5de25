#!/usr/bin/env bash
# shellcheck disable=SC2016 # the step's shell expands those, not this one
# Smoke test of running interestingness tests as Slurm job steps, the way
# `hdd --launcher 'srun -Q --quit-on-interrupt -n1'` does, on a private
# one-node cluster (cluster.sh).
#
#   tests/slurm/smoke.sh [DIR]     # DIR: where the cluster lives (default: a
#                                  # fresh temporary directory, removed after)
#
# Needs root and Debian's slurmctld, slurmd, slurm-client and munge. The
# cluster is stopped on every exit. Exits 0 only if every check holds.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cluster=$here/cluster.sh

own_dir=
if [ $# -ge 1 ]; then
  dir=$1
  case $dir in /*) ;; *) dir=$PWD/$dir ;; esac
else
  dir=$(mktemp -d)
  own_dir=$dir
fi
# munged runs as user munge and must reach its key and socket under DIR
[ -d "$dir" ] && chmod go+x "$dir"

work=$(mktemp -d)
chmod 0755 "$work"
bg=()
cleanup() {
  local p
  for p in "${bg[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
  "$cluster" stop "$dir" >&2 || true
  rm -rf "$work"
  [ -z "$own_dir" ] || rm -rf "$own_dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

passed=0
failed=0
ok() { echo "ok: $*"; passed=$((passed + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }
check() { # check DESCRIPTION COMMAND...
  local what=$1
  shift
  if "$@"; then ok "$what"; else bad "$what"; fi
}
now() { echo "$EPOCHREALTIME"; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }
less() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }
alive() { [ -d "/proc/$1" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null; }
steps() { squeue -h -s -o '%i' 2>/dev/null | grep -c . || true; }

launcher=(srun -Q --quit-on-interrupt -n1)

# ------------------------------------------------------------------ start
t=$(now)
if ! env_line=$("$cluster" start "$dir"); then
  bad "cluster starts"
  echo "$passed passed, $failed failed"
  exit 1
fi
eval "$env_line"
ok "cluster starts, node idle after $(since "$t") s ($env_line)"
t=$(now)
again=$("$cluster" start "$dir" 2> /dev/null) || again=failed
check "start again keeps the running cluster ($(since "$t") s)" test "$again" = "$env_line"
check "sinfo shows the node idle" \
  test "$(sinfo -h -N -o '%T' | head -n 1)" = idle

# ------------------------------------- 8 concurrent tests, like hdd -j 8
file=$work/candidate.c
echo 'int main(void) { return 0; }' > "$file"
t=$(now)
pids=()
for i in $(seq 8); do
  "${launcher[@]}" sh -c 'sleep 0.25; test -f "$1"' sh "$file" \
    < /dev/null > "$work/out.$i" 2>&1 &
  pids+=($!)
done
fails=0
for p in "${pids[@]}"; do wait "$p" || fails=$((fails + 1)); done
wall=$(since "$t")
check "8 concurrent steps all exit 0" test "$fails" = 0
# one after another they would take at least 8 x 0.25 s
if less "$wall" 1.9; then
  ok "8 concurrent steps of 0.25 s ran side by side ($wall s)"
else
  bad "8 concurrent steps of 0.25 s took $wall s (not concurrent?)"
fi

set +e
"${launcher[@]}" sh -c 'sleep 0.25; test -f "$1"' sh "$work/missing.c" < /dev/null > /dev/null 2>&1
rc=$?
"${launcher[@]}" sh -c 'exit 3' < /dev/null > /dev/null 2>&1
rc3=$?
set -e
check "a step that fails gives exit status 1 (got $rc)" test "$rc" = 1
check "a step's exit status 3 comes back from srun (got $rc3)" test "$rc3" = 3

# -------------------------------------------- cwd and environment arrive
mkdir -p "$work/run/tmp"
got=$(cd "$work/run" && TMPDIR=$work/run/tmp HDD_SMOKE=yes \
  "${launcher[@]}" sh -c 'echo "$PWD|$TMPDIR|$HDD_SMOKE"' < /dev/null 2>&1)
check "step runs in srun's cwd with its TMPDIR and variables ($got)" \
  test "$got" = "$work/run|$work/run/tmp|yes"

# ------------------------------------------------ one SIGINT cancels it
# setsid: srun leads its own process group, as hdd's launched tests do.
mkdir -p "$work/long"
setsid "${launcher[@]}" sh -c 'echo $$ > "$1/pid"; exec sleep 300' sh "$work/long" \
  < /dev/null > "$work/long/out" 2>&1 &
long=$!
bg+=("$long")
for _ in $(seq 200); do
  [ -s "$work/long/pid" ] && [ "$(steps)" = 1 ] && break
  sleep 0.05
done
task=$(cat "$work/long/pid" 2>/dev/null || echo none)
check "the long step runs (task pid $task, $(steps) step in squeue -s)" \
  test "$(steps)" = 1 -a "$task" != none
t=$(now)
kill -INT "$long"
gone=
for _ in $(seq 20); do
  if ! alive "$long" && [ "$(steps)" = 0 ] && ! alive "$task"; then
    gone=$(since "$t")
    break
  fi
  sleep 0.05
done
if [ -n "$gone" ]; then
  ok "one SIGINT: srun, the step and its task gone after $gone s"
else
  bad "one SIGINT: after 1 s srun $(alive "$long" && echo alive || echo gone)," \
    "squeue -s: '$(squeue -h -s -o '%i' | tr '\n' ' ')', task $(alive "$task" && echo alive || echo gone)"
fi
# (if it is still there, SIGTERM makes srun kill the step at once)
alive "$long" && kill -TERM "$long" 2>/dev/null
wait "$long" 2>/dev/null || true

# ------------------------------------------------------------------- stop
daemons=$(cat "$dir/munge/munged.pid" "$dir/run/slurmctld.pid" "$dir/run/slurmd.pid" 2>/dev/null | tr '\n' ' ')
check "stop" "$cluster" stop "$dir"
left=
for p in $daemons; do alive "$p" && left="$left $p"; done
check "no daemon left after stop (pids $daemons)" test -z "$left"
check "stop again is a no-op" "$cluster" stop "$dir"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
