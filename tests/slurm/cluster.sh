#!/usr/bin/env bash
# A private single-node Slurm cluster for testing hdd's --launcher support.
#
#   tests/slurm/cluster.sh start  DIR   # start (or find running); prints `export SLURM_CONF=...`
#   tests/slurm/cluster.sh stop   DIR   # cancel jobs, stop the daemons, leave no process
#   tests/slurm/cluster.sh status DIR   # 0: all up, 1: partly, 3: nothing runs
#   tests/slurm/cluster.sh env    DIR   # print the export line again
#
# Everything lives under DIR: slurm.conf, cgroup.conf, the munge key and
# socket, state, spool, logs and pid files. Nothing in /etc is read or
# written, so it can run beside a system Slurm or munge, and several clusters
# can run at once in different DIRs (each start picks free ports).
#
# Usage from a shell:  eval "$(tests/slurm/cluster.sh start "$dir")"
#
# Needs root (slurmctld and slurmd run as root, munged as user `munge`) and
# Debian's packages slurmctld, slurmd, slurm-client and munge; this script
# installs nothing. Both start and stop are idempotent.
#
# Environment (all optional):
#   HDD_SLURMCTLD_PORT, HDD_SLURMD_PORT  fixed ports instead of free ones
#   HDD_SLURM_CPUS      CPUs the node claims (default 64, more than the
#                       machine has, so that many 1-CPU steps run at once)
#   HDD_SLURM_KILLWAIT  seconds between SIGTERM and SIGKILL when Slurm
#                       cancels a step (default 5; Slurm's own default is 30)
#   HDD_SLURM_START_TIMEOUT  seconds to wait for the node to be idle (30)
set -euo pipefail

prog=$(basename "$0")
die() { echo "$prog: $*" >&2; exit 1; }
note() { echo "$prog: $*" >&2; }

usage() {
  echo "usage: $prog start|stop|status|env DIR" >&2
  exit 2
}

[ $# -eq 2 ] || usage
cmd=$1
[ -n "$2" ] || usage
case $2 in /*) dir=$2 ;; *) dir=$PWD/$2 ;; esac
dir=${dir%/}

conf=$dir/slurm.conf
mdir=$dir/munge
msock=$mdir/munged.socket
mkey=$mdir/munge.key
rundir=$dir/run
logdir=$dir/log
pid_munged=$mdir/munged.pid
pid_ctld=$rundir/slurmctld.pid
pid_slurmd=$rundir/slurmd.pid
# Every daemon of this cluster is started with this variable in its
# environment, so that `stop` can tell ours from another cluster's.
marker="HDD_SLURM_CLUSTER=$dir"

# -------------------------------------------------------------- processes

# pid_alive FILE NAME: prints the pid recorded in FILE if that process is
# alive and is NAME (so a recycled pid is never taken for ours).
pid_alive() {
  local file=$1 name=$2 pid comm
  [ -r "$file" ] || return 1
  read -r pid 2>/dev/null < "$file" || return 1
  case $pid in '' | *[!0-9]*) return 1 ;; esac
  comm=$(cat "/proc/$pid/comm" 2>/dev/null) || return 1
  # zombies count as gone
  case $(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null) in Z | X | '') return 1 ;; esac
  [ "$comm" = "$name" ] || return 1
  echo "$pid"
}

# wait_gone SECONDS PID...: true once none of the pids is alive.
wait_gone() {
  local limit=$1 t=0 p left
  shift
  while :; do
    left=0
    for p in "$@"; do
      if [ -d "/proc/$p" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$p/status" 2>/dev/null; then
        left=1
      fi
    done
    [ $left = 0 ] && return 0
    # 20 polls a second
    [ "$t" -ge $((limit * 20)) ] && return 1
    sleep 0.05
    t=$((t + 1))
  done
}

# kill_pids PID...: SIGTERM, up to 5 s, then SIGKILL, up to 5 s.
kill_pids() {
  [ $# -gt 0 ] || return 0
  kill -TERM "$@" 2>/dev/null || true
  wait_gone 5 "$@" && return 0
  note "still running after SIGTERM, sending SIGKILL: $*"
  kill -KILL "$@" 2>/dev/null || true
  wait_gone 5 "$@" || note "could not kill: $*"
}

# leftover_pids: this cluster's daemons that the pid files do not name:
# slurmstepd (one per running step; slurmd starts it with a clean
# environment, but in slurmd's working directory, our log directory) and
# slurmscriptd (slurmctld's helper). Matched by name and by working directory
# or the marker variable, so other clusters' processes are never touched.
leftover_pids() {
  local f p cwd
  # shellcheck disable=SC2013 # /proc paths have no blanks
  for f in $(grep -lsxE 'slurmstepd|slurmscriptd|slurmctld|slurmd|munged' /proc/[0-9]*/comm); do
    p=${f#/proc/}
    p=${p%/comm}
    cwd=$(readlink "/proc/$p/cwd" 2>/dev/null) || cwd=
    case $cwd in "$dir" | "$dir"/*)
      echo "$p"
      continue
      ;;
    esac
    grep -qsxzF "$marker" "/proc/$p/environ" && echo "$p"
  done
  return 0
}

# descendants PID...: every process below the given ones.
descendants() {
  ps -e -o pid= -o ppid= | awk -v roots="$*" '
    { parent[$1] = $2 }
    END {
      n = split(roots, r, " ")
      for (i = 1; i <= n; i++) mark[r[i]] = 1
      do {
        more = 0
        for (p in parent)
          if (!(p in mark) && (parent[p] in mark)) { mark[p] = 2; more = 1 }
      } while (more)
      for (p in mark) if (mark[p] == 2) print p
    }'
}

# ------------------------------------------------------------------ ports

# tcp_ports [STATE]: local TCP ports from /proc (no ss needed), all of them
# or only those in STATE (0A is LISTEN), one a line.
tcp_ports() {
  cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk -v want="${1:-}" '
    NR > 1 && $2 ~ /:/ && (want == "" || $4 == want) {
      hex = toupper(substr($2, index($2, ":") + 1)); n = 0
      for (i = 1; i <= length(hex); i++)
        n = n * 16 + index("0123456789ABCDEF", substr(hex, i, 1)) - 1
      print n
    }'
}

# wait_listen PORT SECONDS: true once something listens on PORT.
wait_listen() {
  local i
  for i in $(seq $(($2 * 100))); do
    tcp_ports 0A | grep -qx "$1" && return 0
    sleep 0.01
  done
  return 1
}

# pick_port EXCLUDE: a free port in 20000-29999, below Linux's ephemeral
# range so that outgoing connections do not take it meanwhile.
pick_port() {
  local used p i
  used=" $(tcp_ports | sort -u | tr '\n' ' ') $1 "
  for i in $(seq 200); do
    p=$((20000 + RANDOM % 10000))
    case $used in *" $p "*) continue ;; esac
    echo "$p"
    return 0
  done
  die "found no free TCP port in 20000-29999"
}

# ----------------------------------------------------------------- config

write_conf() {
  local host=$1 ctld_port=$2 slurmd_port=$3 cpus=$4 killwait=$5
  cat > "$conf.tmp" <<EOF
# Written by tests/slurm/cluster.sh: a private one-node test cluster.
# Every path is under this directory; nothing in /etc is used.
ClusterName=hddtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root

# Authentication through this cluster's own munged and key.
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$msock

StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$pid_ctld
SlurmdPidFile=$pid_slurmd
SlurmctldLogFile=$logdir/slurmctld.log
SlurmdLogFile=$logdir/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
MailProg=/bin/true

# No cgroups anywhere: track processes by their parent chain and bind no
# tasks, so this works in containers without a (writable) cgroup tree
# (see also cgroup.conf, beside this file).
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none

# Schedule at once: every srun allocates one CPU of a node that claims more
# CPUs than the machine has (config_overrides trusts this file over the
# hardware), so many test steps run side by side.
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
SchedulerParameters=batch_sched_delay=0
SlurmdParameters=config_overrides
ReturnToService=2
# A reducer starts thousands of short jobs: forget finished ones quickly.
MinJobAge=10
KillWait=$killwait
InactiveLimit=0

NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
  mv "$conf.tmp" "$conf"

  # slurmd initialises a cgroup plugin even when no other plugin uses it.
  # Its default, autodetect, fails when /sys/fs/cgroup is not mounted ("No
  # filesystem mounted") or is cgroup v2 without a usable systemd. Slurm
  # 23.02 and later can switch it off; 22.05 (Debian bookworm) cannot, but
  # its cgroup/v1 plugin starts without any cgroup filesystem and is unused
  # with the plugins above.
  local v
  v=$(slurmd -V 2>/dev/null | awk '{ print $NF }')
  case $v in
    1[0-9].* | 2[0-2].* | 23.0[01].*) echo "CgroupPlugin=cgroup/v1" ;;
    *) echo "CgroupPlugin=disabled" ;;
  esac > "$dir/cgroup.conf"
}

print_env() {
  echo "export SLURM_CONF=$conf"
}

# ------------------------------------------------------------------ start

need_cmds() {
  local c missing=
  for c in munged mungekey munge unmunge slurmctld slurmd sinfo squeue scancel srun runuser; do
    command -v "$c" >/dev/null 2>&1 || missing="$missing $c"
  done
  [ -z "$missing" ] ||
    die "missing:$missing (apt-get install slurmctld slurmd slurm-client munge)"
}

node_state() {
  SLURM_CONF=$conf timeout 5 sinfo -h -N -n "$1" -o '%T' 2>/dev/null | head -n 1
}

start_failed() {
  local f
  note "start failed: $*"
  for f in "$logdir/munged.out" "$mdir/munged.log" "$logdir/slurmctld.out" \
    "$logdir/slurmctld.log" "$logdir/slurmd.out" "$logdir/slurmd.log"; do
    [ -s "$f" ] || continue
    echo "==> $f <==" >&2
    tail -n 15 "$f" >&2
  done
  do_stop >&2 || true
  exit 1
}

do_start() {
  need_cmds
  [ "$(id -u)" = 0 ] || die "must run as root (SlurmUser=root, munged as munge)"
  id munge >/dev/null 2>&1 || die "no user munge (apt-get install munge)"

  local host
  host=$(hostname -s)
  [ -n "$host" ] || die "empty hostname"

  if pid_alive "$pid_munged" munged >/dev/null &&
    pid_alive "$pid_ctld" slurmctld >/dev/null &&
    pid_alive "$pid_slurmd" slurmd >/dev/null; then
    case $(node_state "$host") in
      idle | mixed | allocated)
        note "already running in $dir"
        print_env
        return 0
        ;;
    esac
  fi
  # A half-running cluster (one daemon died): start over cleanly.
  do_stop >/dev/null 2>&1 || true

  if [ ! -d "$dir" ]; then
    mkdir -p "$dir"
    chmod 0755 "$dir"
  fi
  # munged (as user munge) must reach its key and socket, and refuses paths
  # below a group- or world-writable directory without the sticky bit.
  runuser -u munge -- test -x "$dir" ||
    die "user munge cannot enter $dir (and its parents): chmod o+x them, e.g. after mktemp -d"
  mkdir -p "$dir/state" "$dir/spool" "$rundir" "$logdir"
  mkdir -p "$mdir"
  chown munge:munge "$mdir"
  chmod 0755 "$mdir"

  # --- munged: own key (0600, owned by munge), own socket, run as munge
  if [ ! -s "$mkey" ]; then
    runuser -u munge -- mungekey --create --keyfile="$mkey"
  fi
  chown munge:munge "$mkey"
  chmod 0600 "$mkey"
  rm -f "$msock" "$msock.lock" "$pid_munged"
  runuser -u munge -- env "$marker" munged \
    --socket="$msock" --key-file="$mkey" --pid-file="$pid_munged" \
    --log-file="$mdir/munged.log" --seed-file="$mdir/munged.seed" \
    < /dev/null >> "$logdir/munged.out" 2>&1 ||
    start_failed "munged exited with $?"
  local i
  for i in $(seq 100); do
    if [ -S "$msock" ] && munge -n -S "$msock" 2>/dev/null | unmunge -S "$msock" >/dev/null 2>&1; then
      break
    fi
    [ "$i" = 100 ] && start_failed "munged does not answer on $msock"
    sleep 0.05
  done

  # --- slurm.conf with free ports
  local ctld_port slurmd_port
  ctld_port=${HDD_SLURMCTLD_PORT:-$(pick_port "")}
  slurmd_port=${HDD_SLURMD_PORT:-$(pick_port "$ctld_port")}
  write_conf "$host" "$ctld_port" "$slurmd_port" "${HDD_SLURM_CPUS:-64}" "${HDD_SLURM_KILLWAIT:-5}"

  # --- slurmctld and slurmd fork into the background themselves (without
  # -D) and write their pid files; their stdio goes to files so that
  # $(cluster.sh start DIR) returns.
  rm -f "$pid_ctld" "$pid_slurmd"
  # -c: do not recover jobs from a previous run of this cluster
  env "$marker" SLURM_CONF="$conf" slurmctld -c -f "$conf" \
    < /dev/null >> "$logdir/slurmctld.out" 2>&1 ||
    start_failed "slurmctld exited with $?"
  # Clients and slurmd retry a refused connection only after a second: wait
  # for the port instead, then slurmd registers on its first try.
  wait_listen "$ctld_port" 20 || start_failed "slurmctld does not listen on port $ctld_port"
  env "$marker" SLURM_CONF="$conf" slurmd -f "$conf" -N "$host" \
    < /dev/null >> "$logdir/slurmd.out" 2>&1 ||
    start_failed "slurmd exited with $?"

  local timeout=${HDD_SLURM_START_TIMEOUT:-30} state=
  for i in $(seq $((timeout * 20))); do
    state=$(node_state "$host")
    [ "$state" = idle ] && break
    pid_alive "$pid_ctld" slurmctld >/dev/null || [ "$i" -lt 20 ] ||
      start_failed "slurmctld is not running"
    pid_alive "$pid_slurmd" slurmd >/dev/null || [ "$i" -lt 20 ] ||
      start_failed "slurmd is not running"
    sleep 0.05
  done
  [ "$state" = idle ] || start_failed "node $host is '${state:-unknown}', not idle, after ${timeout}s"
  print_env > "$dir/env"
  note "cluster up in $dir (node $host, ports $ctld_port/$slurmd_port)"
  print_env
}

# ------------------------------------------------------------------- stop

do_stop() {
  local ctld slurmd munged pids
  ctld=$(pid_alive "$pid_ctld" slurmctld || true)
  slurmd=$(pid_alive "$pid_slurmd" slurmd || true)
  munged=$(pid_alive "$pid_munged" munged || true)

  # Cancel what still runs, so that slurmstepd kills its tasks.
  if [ -n "$ctld" ] && [ -n "$munged" ] && [ -r "$conf" ]; then
    local jobs
    jobs=$(SLURM_CONF=$conf timeout 5 squeue -h -o '%A' 2>/dev/null || true)
    if [ -n "$jobs" ]; then
      # SIGTERM, then SIGKILL after KillWait seconds
      # shellcheck disable=SC2086
      SLURM_CONF=$conf timeout 5 scancel $jobs 2>/dev/null || true
      for _ in $(seq $(((${HDD_SLURM_KILLWAIT:-5} + 3) * 20))); do
        [ -z "$(SLURM_CONF=$conf timeout 5 squeue -h -o '%A' 2>/dev/null)" ] && break
        sleep 0.05
      done
    fi
  fi

  pids=
  [ -n "$slurmd" ] && pids="$pids $slurmd"
  [ -n "$ctld" ] && pids="$pids $ctld"
  # shellcheck disable=SC2086
  kill_pids $pids
  # Step daemons left behind (their slurmd is gone) and anything else ours,
  # except munged, which goes last.
  # slurmstepd ignores SIGTERM, and killing it alone would orphan its tasks:
  # SIGKILL the whole tree at once.
  pids=$(leftover_pids | grep -vxF "${munged:-none}" || true)
  if [ -n "$pids" ]; then
    # shellcheck disable=SC2086
    pids="$pids $(descendants $pids)"
    # shellcheck disable=SC2086
    note "killing leftover processes:" $pids
    # shellcheck disable=SC2086
    kill -KILL $pids 2>/dev/null || true
    # shellcheck disable=SC2086
    wait_gone 5 $pids || note "could not kill:" $pids
  fi
  # shellcheck disable=SC2086
  [ -z "$munged" ] || kill_pids $munged
  rm -f "$pid_ctld" "$pid_slurmd" "$pid_munged" "$msock" "$dir/env"
  if [ -n "$ctld$slurmd$munged" ]; then
    note "stopped $dir"
  fi
  return 0
}

# ----------------------------------------------------------------- status

do_status() {
  local name file pid up=0 host state
  for name in munged slurmctld slurmd; do
    case $name in
      munged) file=$pid_munged ;;
      slurmctld) file=$pid_ctld ;;
      slurmd) file=$pid_slurmd ;;
    esac
    if pid=$(pid_alive "$file" "$name"); then
      echo "$name: running, pid $pid"
      up=$((up + 1))
    else
      echo "$name: not running"
    fi
  done
  if [ $up = 3 ]; then
    host=$(hostname -s)
    state=$(node_state "$host")
    echo "node $host: ${state:-unknown}"
    print_env
    case $state in idle | mixed | allocated | completing) return 0 ;; esac
    return 1
  fi
  [ $up = 0 ] && return 3
  return 1
}

case $cmd in
  start) do_start ;;
  stop) do_stop ;;
  status) do_status ;;
  env) print_env ;;
  *) usage ;;
esac
