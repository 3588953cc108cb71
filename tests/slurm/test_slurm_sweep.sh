#!/usr/bin/env bash
# docs/slurm_sweep.sh on a real, private, single-node SLURM: a job array of 4 over
# scenarios/phu_scaling.yaml (224 points), one array task killed mid-run and requeued (it must
# resume from its finished points and complete), then the 4 shards merged and compared byte
# for byte with a local `lightcode sweep -j 2` of the same scenario.
#
# Usage: test_slurm_sweep.sh <lightcode binary> <source dir>
#
# Contract:
# - As root, installs what is missing of slurmctld, slurmd, slurm-client and munge with
#   apt-get. Exits 77 with one "SKIP: ..." line only when they cannot be had: not root (the
#   daemons need root too), or apt-get fails. LIGHTCODE_SLURM_TEST_NOT_ROOT=1 takes the
#   not-root path, to check the skip.
# - Everything it starts (munged, slurmctld, slurmd, the jobs) lives in one mktemp -d folder,
#   on free ports and a private munge socket, so a system SLURM or munge is left alone; an EXIT
#   trap cancels the jobs, stops the daemons by pid and removes the folder, whatever happens.
# - Writes nothing into the source tree: the jobs run in the temporary folder, which holds a
#   build/lightcode symlink to the binary under test and its own results/.
# - Exit 0 on success with a one-line summary and the elapsed time; "FAIL: ..." plus the
#   daemon and job logs and exit 1 otherwise. Every wait has a timeout; the whole test takes
#   well under a minute on 2 cores.
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 <lightcode binary> <source dir>" >&2
  exit 2
fi
BIN=$(realpath "$1")
SRC=$(cd "$2" && pwd)
SCENARIO=$SRC/scenarios/phu_scaling.yaml
NAME=phu_scaling
POINTS=224              # in the scenario: 2 models x 2 systems x 2 objectives x 7 x 4
TASKS=4
VICTIM=$TASKS           # the last task starts last, so the test is watching when it does
export SOURCE_DATE_EPOCH=1700000000   # byte-reproducible results files
started=$SECONDS

skip() { echo "SKIP: $*"; exit 77; }
say() { echo "[$((SECONDS - started))s] $*"; }

# --- packages -------------------------------------------------------------------------------
packages=(slurmctld slurmd slurm-client munge)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
is_root=0
if [ "$(id -u)" -eq 0 ] && [ "${LIGHTCODE_SLURM_TEST_NOT_ROOT:-0}" != 1 ]; then is_root=1; fi
if [ "$is_root" -ne 1 ]; then
  if ((${#missing[@]})); then skip "not root and SLURM is not installed (missing: ${missing[*]})"; fi
  skip "not root: slurmd and munged for a private test cluster need root"
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/lc_slurm.XXXXXX")
policy_rc=""            # set when we create /usr/sbin/policy-rc.d ourselves
pids=()                 # daemons we started, stopped in reverse order
array=""                # the array job id, once submitted

cleanup() {
  local rc=$? conf=$TMP/etc/slurm.conf
  set +e
  if [ -n "$array" ]; then
    SLURM_CONF=$conf scancel "$array" 2>/dev/null
    # Let slurmd's step daemons reap the jobs before slurmd goes, so none outlives it.
    for _ in $(seq 50); do
      [ -z "$(SLURM_CONF=$conf squeue -h -j "$array" 2>/dev/null)" ] && break
      sleep 0.2
    done
  fi
  local i pid
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    pid=${pids[i]}
    kill "$pid" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  done
  [ -n "$policy_rc" ] && rm -f "$policy_rc"
  rm -rf "$TMP"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM   # through the EXIT trap

if ((${#missing[@]})); then
  echo "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # Package scripts would start system munge/slurm daemons where no policy forbids it (as
  # Docker images do): forbid it for the install, we start our own.
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    policy_rc=/usr/sbin/policy-rc.d
    printf '#!/bin/sh\nexit 101\n' >"$policy_rc" && chmod 755 "$policy_rc"
  fi
  if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$TMP/apt.log" 2>&1; then
    tail -5 "$TMP/apt.log"
    skip "apt-get could not install ${missing[*]}"
  fi
  [ -n "$policy_rc" ] && rm -f "$policy_rc" && policy_rc=""
fi

# --- helpers --------------------------------------------------------------------------------
fail() {
  echo "FAIL: $*"
  local f
  for f in "$TMP"/log/*.log "$TMP"/work/results/slurm-*.log; do
    [ -s "$f" ] && { echo "--- ${f#"$TMP"/} (last 25 lines)"; tail -25 "$f"; }
  done
  # A daemon's stderr repeats its log, but holds what failed before the log was open.
  for f in "$TMP"/log/*.stderr; do
    [ -s "$f" ] && { echo "--- ${f#"$TMP"/} (last 5 lines)"; tail -5 "$f"; }
  done
  [ -n "$array" ] && { echo "--- scontrol show job $array"; scontrol -o show job "$array" 2>&1; }
  exit 1
}
# Field of a job's record: job_field <job id or array_task> <Field>
job_field() { scontrol -o show job "$1" 2>/dev/null | head -1 | grep -oE "(^| )$2=[^ ]*" | cut -d= -f2- || true; }
# wait_for <seconds> <what> <command...>: polls every 0.2 s until the command succeeds.
wait_for() {
  local limit=$1 what=$2 t0=$SECONDS
  shift 2
  until "$@"; do
    ((SECONDS - t0 < limit)) || fail "$what not reached within ${limit}s"
    sleep 0.2
  done
}

# --- munge and slurm, private ---------------------------------------------------------------
mkdir -p "$TMP"/{etc,munge,log,state,spool,work/build,work/results}
dd if=/dev/urandom of="$TMP/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$TMP/munge/munge.key"
socket=$TMP/munge/munge.socket
# In the foreground munged logs to stderr. It warns that the 0700 folder hides the socket
# from other users: only root talks to it here.
munged --foreground --force --key-file="$TMP/munge/munge.key" --socket="$socket" \
  --pid-file="$TMP/munge/munged.pid" --seed-file="$TMP/munge/munged.seed" >"$TMP/log/munged.log" 2>&1 &
pids+=($!)
wait_for 10 "munged socket" test -S "$socket"

# Two free ports, so a system SLURM (or a concurrent run of this test) cannot collide.
read -r ctld_port slurmd_port < <(/usr/bin/python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))')
host=$(hostname -s)
export SLURM_CONF=$TMP/etc/slurm.conf
cat >"$SLURM_CONF" <<EOF
ClusterName=lctest
# Addresses pinned to loopback: no DNS needed for the host name.
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
# A requeued job waits one credential lifetime (default 120 s) before it may start again.
AuthInfo=socket=$socket,cred_expire=10
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
# CPUs are the only consumable: no memory bookkeeping on an unconfigured RealMemory.
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
# Requeue must be allowed; finished records stay for scontrol (restart count, exit code).
JobRequeue=1
MinJobAge=600
KillWait=5
# The main scheduler's full pass (default every 60 s) is what starts a requeued job.
SchedulerParameters=sched_interval=1,bf_interval=1
ReturnToService=2
StateSaveLocation=$TMP/state
SlurmdSpoolDir=$TMP/spool
SlurmctldPidFile=$TMP/state/slurmctld.pid
SlurmdPidFile=$TMP/spool/slurmd.pid
SlurmctldLogFile=$TMP/log/slurmctld.log
SlurmdLogFile=$TMP/log/slurmd.log
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=lctest Nodes=$host Default=YES State=UP MaxTime=INFINITE
EOF
# In the foreground (-D) and backgrounded here, so $! is the daemon itself.
slurmctld -D -f "$SLURM_CONF" >"$TMP/log/slurmctld.stderr" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >"$TMP/log/slurmd.stderr" 2>&1 &
pids+=($!)
node_idle() { [ "$(sinfo -h -n "$host" -o %T 2>/dev/null)" = idle ]; }
wait_for 30 "node $host idle in sinfo" node_idle
say "node $host idle (private slurmctld on port $ctld_port)"

# --- the array ------------------------------------------------------------------------------
# The script calls build/lightcode and writes results/ relative to its working directory.
work=$TMP/work
ln -s "$BIN" "$work/build/lightcode"
# --cpus-per-task=1 overrides the script's 8 (more than the node has would pend forever);
# append mode keeps the first run's log of the requeued task.
array=$(sbatch --parsable --array=1-$TASKS --cpus-per-task=1 --chdir="$work" \
  --export=ALL,SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH --open-mode=append \
  "$SRC/docs/slurm_sweep.sh" "$SCENARIO") || fail "sbatch refused the array"
array=${array%%;*}
victim=${array}_$VICTIM
vlog=$work/results/slurm-${array}_$VICTIM.log

# Kill the victim once it is running and has finished a point (the sweep prints "[n/m] id
# status" per finished point when stderr is not a terminal). Points take ~25 ms, so poll fast.
t0=$SECONDS
while :; do
  state=$(job_field "$victim" JobState)
  [ "$state" = RUNNING ] && grep -qE '^\[[0-9]+/[0-9]+\] ' "$vlog" 2>/dev/null && break
  case $state in PENDING | CONFIGURING | RUNNING | "") ;; *) fail "task $VICTIM is $state before it finished a point" ;; esac
  ((SECONDS - t0 < 60)) || fail "task $VICTIM did not finish a point within 60s"
  sleep 0.05
done
victim_pids=$(scontrol listpids "$(job_field "$victim" JobId)" 2>/dev/null | awk 'NR > 1 { print $1 }' || true)
scontrol requeue "$victim" || fail "scontrol requeue $victim"
say "requeued task $VICTIM, its processes: $(echo $victim_pids)"
gone() { local pid; for pid in $victim_pids; do ! kill -0 "$pid" 2>/dev/null || return 1; done; }
wait_for 15 "task $VICTIM's processes ($(echo $victim_pids)) gone after the requeue" gone

# Every task done: COMPLETED each, none failed or cancelled.
all_done() {
  local states
  states=$(scontrol -o show job "$array" 2>/dev/null | grep -o ' JobState=[A-Z_]*' | cut -d= -f2) || return 1
  if grep -qvE '^(PENDING|RUNNING|COMPLETING|COMPLETED|REQUEUED|CONFIGURING)$' <<<"$states"; then
    fail "an array task ended badly: $(tr '\n' ' ' <<<"$states")"
  fi
  [ "$(grep -c '^COMPLETED$' <<<"$states")" -eq "$TASKS" ]
}
wait_for 120 "all $TASKS array tasks COMPLETED" all_done
say "all $TASKS array tasks completed"

# --- the requeue really happened, and the task resumed --------------------------------------
restarts=$(job_field "$victim" Restarts)
[ "${restarts:-0}" -ge 1 ] || fail "task $VICTIM shows Restarts=${restarts:-?}, expected >= 1"
[ "$(job_field "$victim" ExitCode)" = 0:0 ] || fail "task $VICTIM exit code $(job_field "$victim" ExitCode)"
# "resume: N of M points already done, running R" from the second run.
resumed=$(grep -oE '^resume: [0-9]+ of [0-9]+' "$vlog" | tail -1 | awk '{ print $2 }')
shard_points=$(grep -oE '^resume: [0-9]+ of [0-9]+' "$vlog" | tail -1 | awk '{ print $4 }')
[ -n "$resumed" ] || fail "task $VICTIM's log has no 'resume:' line: it did not continue from its finished points"
((resumed >= 1 && resumed < shard_points)) || fail "task $VICTIM resumed $resumed of $shard_points points: not killed mid-run"
grep -q "DUE TO JOB REQUEUE" "$vlog" || fail "task $VICTIM's log does not show slurmstepd cancelling it for the requeue"
grep -qE "^sweep: $shard_points points \(shard $VICTIM/$TASKS of $POINTS, [0-9]+ run, $resumed resumed, 0 failed\)" "$vlog" ||
  fail "task $VICTIM's second run did not finish its shard"

# --- merge and compare with a local run -----------------------------------------------------
shards=()
for ((k = 1; k <= TASKS; k++)); do shards+=("$work/results/$NAME.shard$(printf %03d "$k").h5"); done
"$BIN" merge "${shards[@]}" -o "$TMP/merged.h5" >"$TMP/log/merge.log" 2>&1 || fail "lightcode merge: $(cat "$TMP/log/merge.log")"
merged=$(grep -oE 'merged [0-9]+ files, [0-9]+ points' "$TMP/log/merge.log" | awk '{ print $4 }')
[ "$merged" = "$POINTS" ] || fail "merge gave ${merged:-no} points, expected $POINTS: $(cat "$TMP/log/merge.log")"
"$BIN" sweep "$SCENARIO" -j 2 -q --out "$TMP/local.h5" >"$TMP/log/local.log" 2>&1 || fail "local sweep: $(tail -3 "$TMP/log/local.log")"
cmp "$TMP/merged.h5" "$TMP/local.h5" || fail "merged SLURM shards differ from the local -j 2 run"

echo "slurm: $TASKS array tasks, task $VICTIM requeued after $resumed of $shard_points points (Restarts=$restarts)," \
  "merged $merged points, identical to the local -j 2 run ($((SECONDS - started)) s)"
