#!/usr/bin/env bash
# shellcheck disable=SC2016 # the step's shell expands those, not this one
# Measure how Slurm job steps behave for a launcher like
# `srun -Q --quit-on-interrupt -n1`: latency, parallelism, exit codes, cwd
# and environment, and what each way of stopping a step does to it.
#
#   tests/slurm/measure.sh DIR
#
# Starts the private cluster of cluster.sh in DIR (stopping it on exit) and
# prints one line per fact. The figures in README.md come from this script.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
dir=$1
case $dir in /*) ;; *) dir=$PWD/$dir ;; esac
# munged runs as user munge and must reach its key and socket under DIR
[ -d "$dir" ] && chmod go+x "$dir"

work=$(mktemp -d)
cleanup() {
  local p
  for p in $(jobs -p); do kill -KILL "$p" 2>/dev/null || true; done
  "$here/cluster.sh" stop "$dir" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

now() { echo "$EPOCHREALTIME"; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }
fact() { printf '%-44s %s\n' "$1:" "$2"; }

"$here/cluster.sh" stop "$dir" >/dev/null 2>&1
t=$(now)
eval "$("$here/cluster.sh" start "$dir" 2>/dev/null)"
fact "start, until sinfo shows the node idle (s)" "$(since "$t")"
t=$(now)
"$here/cluster.sh" start "$dir" >/dev/null 2>&1
fact "start again while running (s)" "$(since "$t")"
echo "SLURM_CONF=$SLURM_CONF  ($(srun --version))"

# ---------------------------------------------------------------- latency
lat=()
for _ in $(seq 20); do
  t=$(now)
  srun -Q -n1 true
  lat+=("$(since "$t")")
done
fact "srun -n1 true, 20 in a row: min/median/max (s)" \
  "$(printf '%s\n' "${lat[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[1] " / " a[int((NR + 1) / 2)] " / " a[NR] }')"

t=$(now)
pids=()
for _ in $(seq 8); do
  srun -Q -n1 sleep 1 &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
fact "8 concurrent srun -n1 sleep 1, wall (s)" "$(since "$t")"

t=$(now)
pids=()
for _ in $(seq 16); do
  srun -Q -n1 sleep 1 &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
fact "16 concurrent srun -n1 sleep 1, wall (s)" "$(since "$t")"

# ------------------------------------------------------------- exit codes
set +e
srun -Q -n1 sh -c 'exit 3' 2>/dev/null
fact "exit status of a step that exits 3" "$?"
err=$(srun -Q -n1 sh -c 'kill -SEGV $$' 2>&1 >/dev/null)
rc=$?
fact "exit status of a step killed by SIGSEGV" "$rc (stderr: $(echo "$err" | head -n 1))"
out=$(srun -Q -n1 sh -c 'echo out; echo err >&2' 2>/dev/null)
fact "stdout of the step reaches srun's stdout" "$out"
set -e

# ------------------------------------------------------- cwd, environment
mkdir -p "$work/cwd/sub" "$work/tmp"
fact "cwd when srun runs in DIR" "$(cd "$work/cwd" && srun -Q -n1 pwd)"
fact "cwd with --chdir=DIR/sub" "$(srun -Q -n1 --chdir="$work/cwd/sub" pwd)"
fact "cwd with --chdir=/nonexistent" \
  "$(srun -Q -n1 --chdir=/nonexistent pwd 2>&1 | tr '\n' ' ')"
fact "TMPDIR and HDD_X seen by the step" \
  "$(TMPDIR=$work/tmp HDD_X=42 srun -Q -n1 sh -c 'echo "$TMPDIR $HDD_X"')"
fact "stdin forwarded to the step" "$(echo hello | srun -Q -n1 cat)"

# ---------------------------------------------------------------- signals
# The task writes its pid, then the first signal it gets; "deaf" ignores
# SIGTERM and SIGINT (and so do its children), so only SIGKILL ends it.
cat > "$work/task.sh" <<'EOF'
#!/bin/sh
d=$1
trap 'echo "TERM@$(date +%s.%N)" >> "$d/sig"; exit 143' TERM
trap 'echo "INT@$(date +%s.%N)" >> "$d/sig"; exit 130' INT
trap 'echo "HUP@$(date +%s.%N)" >> "$d/sig"; exit 129' HUP
echo $$ > "$d/pid"
while :; do sleep 0.05; done
EOF
cat > "$work/deaf.sh" <<'EOF'
#!/bin/sh
trap '' TERM INT HUP
echo $$ > "$1/pid"
while :; do sleep 0.05; done
EOF
chmod +x "$work/task.sh" "$work/deaf.sh"

alive() { [ -d "/proc/$1" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null; }
steps() { squeue -h -s -o '%i' 2>/dev/null | grep -c . || true; }

# trial NAME TASK SIGNAL-ACTION [SRUN-OPTION...]: start one step, stop it
# with the action, and report when srun, the step and the task ended.
trial() {
  local name=$1 task=$2 action=$3 d pid job tpid t srun_t='' step_t='' task_t=''
  shift 3
  d=$(mktemp -d "$work/trial.XXXX")
  # setsid: srun leads its own process group, as a launcher's child would
  setsid srun -Q "$@" -n1 "$work/$task" "$d" < /dev/null > "$d/out" 2>&1 &
  pid=$!
  for _ in $(seq 200); do
    [ -s "$d/pid" ] && break
    sleep 0.05
  done
  tpid=$(cat "$d/pid")
  job=$(squeue -h -o '%A' | head -n 1)
  sleep 0.2
  t=$(now)
  case $action in
    KILL-group) kill -KILL -- "-$pid" ;;
    TERM) kill -TERM "$pid" ;;
    TERM-group) kill -TERM -- "-$pid" ;;
    INT) kill -INT "$pid" ;;
    INT-group) kill -INT -- "-$pid" ;;
    INT-twice) kill -INT "$pid"; sleep 0.3; kill -INT "$pid" ;;
    scancel) scancel "$job" ;;
    scancel-step) scancel "$job.0" ;;
  esac
  for _ in $(seq 200); do
    [ -z "$srun_t" ] && ! alive "$pid" && srun_t=$(since "$t")
    [ -z "$step_t" ] && [ "$(steps)" = 0 ] && step_t=$(since "$t")
    [ -z "$task_t" ] && ! alive "$tpid" && task_t=$(since "$t")
    [ -n "$srun_t" ] && [ -n "$step_t" ] && [ -n "$task_t" ] && break
    sleep 0.05
  done
  local got=nothing sig at
  if [ -s "$d/sig" ]; then
    got=
    while IFS=@ read -r sig at; do
      got="$got$sig at $(awk -v a="$t" -v b="$at" 'BEGIN { printf "%.3f", b - a }') "
    done < "$d/sig"
  fi
  fact "$name" "srun ${srun_t:-alive after 10 s}, step ${step_t:-in squeue after 10 s}, task ${task_t:-alive after 10 s}; task's trap saw: ${got% }"
  [ -s "$d/out" ] && fact "  srun printed" "$(tr '\n' '|' < "$d/out")"
  if [ -z "$step_t" ] || [ -z "$task_t" ]; then
    fact "  squeue -s then" "$(squeue -h -s -o '%i %M %N' | tr '\n' ' ')"
    fact "  task process then" "$(ps -o pid=,args= -p "$tpid" || echo gone)"
    t=$(now)
    scancel "$job" 2>/dev/null || true
    for _ in $(seq 400); do
      [ "$(steps)" = 0 ] && ! alive "$tpid" && break
      sleep 0.05
    done
    fact "  then scancel $job ended it after (s)" "$(since "$t")"
  fi
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
} 2>/dev/null

echo "KillWait=$(scontrol show config | awk '$1 == "KillWait" { print $3 }') s; times in seconds after the signal"
trial "SIGKILL to srun's process group" task.sh KILL-group
trial "SIGTERM to srun" task.sh TERM
trial "SIGTERM to srun, task ignores TERM" deaf.sh TERM
trial "SIGTERM to srun's process group" task.sh TERM-group
trial "SIGINT to srun --quit-on-interrupt" task.sh INT --quit-on-interrupt
trial "SIGINT to the group of srun --quit-on-int.." task.sh INT-group --quit-on-interrupt
trial "SIGINT to srun --quit-on-interrupt, deaf task" deaf.sh INT --quit-on-interrupt
trial "one SIGINT to srun without the option" task.sh INT
trial "two SIGINTs to srun without the option" task.sh INT-twice
trial "scancel JOB" task.sh scancel
trial "scancel JOB, task ignores TERM" deaf.sh scancel
trial "scancel JOB.0 (the step)" task.sh scancel-step
