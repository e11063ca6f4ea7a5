#!/bin/sh
# Long runs on clusters (docs/building.md, "Long runs on clusters"), on 2 ranks: the
# progress line; SIGTERM to one rank, SIGUSR1 to mpirun and a second signal during the
# restart write all stop after one agreed step with exit status 4 and a restart file that
# continues bitwise; a run killed with SIGKILL in the middle of a restart write leaves the
# previous one, which --restart latest finds (skipping damaged newer files); a chain of
# jobs stopped by time.wall_limit ends bitwise where one uninterrupted run ends; a full disk
# or a file-size limit stops with exit status 1 naming the file, earlier files intact.  The
# halo paths of a GPU cluster (docs/gpu.md, "Halo paths"): efsi --check --ranks N prints the
# plan without a GPU (a CUDA build), a forced path that cannot work is one line and exit
# status 2, and the keys halo_path replaced are refused naming it.
set -u
. "$(dirname "$0")/lib.sh"
write_case "$tmp/case.ini" "16 16 16" "1 1 1" <<'INI'
[boundary]
y_hi_u = 0.5
[init]
flow = taylor-green
[sphere]
center = 0.5 0.5 0.5
radius = 0.25
modulus = 1
[time]
steps = 40
[output]
diagnostics_every = 5
restart_every = 0
progress_seconds = 0
INI
passes=0
failures=0
ok() { echo "ok: $*"; passes=$((passes + 1)); }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
run2() { $EFSI_MPIRUN -np 2 "$efsi" "$@" > "$tmp/log" 2> "$tmp/err"; }
# start ARGS: efsi on 2 ranks in the background, mpirun's pid in $pid.  The logs of the run
# before are removed first: the background job truncates them only when it starts, and
# wait_for must not find the last run's lines in them meanwhile.
start() {
  rm -f "$tmp/log" "$tmp/err"
  $EFSI_MPIRUN -np 2 "$efsi" "$@" > "$tmp/log" 2> "$tmp/err" &
  pid=$!
}
# wait_for PATTERN FILE: until FILE has a line matching PATTERN (60 s at most)
wait_for() {
  n=0
  until grep -q "$1" "$2" 2> /dev/null; do
    n=$((n + 1)); [ $n -gt 600 ] && return 1; sleep 0.1
  done
}
ranks() { pgrep -P "$pid"; }
# give_up NAME WHAT: wait_for gave up waiting for WHAT of the run start began: fail, then
# kill that run's own processes (its ranks, then mpirun) before reaping it, so that no wait
# blocks on a run of 100000 steps
give_up() {
  fail "$1: no $2 within 60 s"; cat "$tmp/log" "$tmp/err"
  kill -KILL $(ranks) "$pid" 2> /dev/null
  wait "$pid" 2> /dev/null
}
# the step of the "stopped early ... after step N" line of the log
stop_step() { sed -n 's/.*stopped early .* after step \([0-9]*\) .*/\1/p' "$tmp/log"; }
restart_name() { printf 'restart_%08d.nc' "$1"; }

# the reference: one uninterrupted run of the 40 steps; the case's output.progress_seconds
# = 0 prints no progress lines
run2 -o "$tmp/full" "$tmp/case.ini" || fail "uninterrupted run"
if grep -q '^step ' "$tmp/log"; then fail "output.progress_seconds = 0 still prints"; else ok "progress_seconds = 0: no lines"; fi

# ---- the progress line: plain lines at the interval, and no bit of the fields changes
run2 -o "$tmp/progress" --set output.progress_seconds=0.000001 "$tmp/case.ini"
if grep -Eq '^step 40/40  t [0-9.e+-]+  dt [0-9.e+-]+  [0-9.e+-]+ Mcell-updates/s  div_rms [0-9.e+-]+  mach [0-9.e+-]+  left [0-9]+:[0-9][0-9]:[0-9][0-9]$' "$tmp/log" &&
   [ "$(grep -c '^step ' "$tmp/log")" -ge 30 ] && same "$tmp/full/restart_00000040.nc" "$tmp/progress/restart_00000040.nc"; then
  ok "progress lines ($(grep -c '^step ' "$tmp/log") lines): $(grep '^step 40/' "$tmp/log")"
else
  fail "progress lines"; cat "$tmp/log"
fi

# ---- a signal to one rank only: every rank stops after the same step, exit status 4
long="--set time.steps=100000 --set output.progress_seconds=0.05"
# check_stop NAME: the run in $tmp/NAME stopped with status $status; its restart file
# continues to step 40 bitwise (when it stopped before 40)
check_stop() {
  n=$(stop_step)
  if [ "$status" -ne 4 ] || [ -z "$n" ] || [ ! -f "$tmp/$1/$(restart_name "$n")" ]; then
    fail "$1: status $status, stop step '$n'"; cat "$tmp/log" "$tmp/err"; return
  fi
  last=$(tail -n 1 "$tmp/$1/diagnostics.csv" | cut -d, -f1)
  [ "$last" = "$n" ] || fail "$1: the last diagnostics row is step $last, not $n"
  if [ "$n" -lt 40 ]; then
    run2 -o "$tmp/$1" --restart latest --steps 40 "$tmp/case.ini" ||
      fail "$1: continuing with --restart latest"
    same "$tmp/full/restart_00000040.nc" "$tmp/$1/restart_00000040.nc" ||
      fail "$1: continued from step $n, step 40 differs from the uninterrupted run"
  fi
  ok "$1: stopped after step $n, exit status 4, $(restart_name "$n") continues bitwise"
}
start -o "$tmp/term" $long "$tmp/case.ini"
if wait_for '^step ' "$tmp/log"; then
  kill -TERM "$(ranks | tail -n 1)"
  wait $pid; status=$?
  check_stop term
else
  give_up term "progress line"
fi

start -o "$tmp/usr1" $long "$tmp/case.ini"
if wait_for '^step ' "$tmp/log"; then
  kill -USR1 "$pid"   # mpirun forwards SIGUSR1 to the ranks
  wait $pid; status=$?
  grep -q "on SIGUSR1" "$tmp/log" || fail "usr1: the message does not name SIGUSR1"
  check_stop usr1
else
  give_up usr1 "progress line"
fi

# a second and a third signal while the restart file is being written change nothing
EFSI_DEBUG=stall_write=restart:2 start -o "$tmp/twice" $long "$tmp/case.ini"
if wait_for '^step ' "$tmp/log" && kill -INT $(ranks) && wait_for 'stalling in the write' "$tmp/err"; then
  kill -TERM $(ranks) && sleep 0.3 && kill -INT $(ranks)
  wait $pid; status=$?
  check_stop twice
else
  give_up twice "progress line or stalled restart write"
fi

# ---- SIGKILL in the middle of a restart write: the previous file is what --restart
# latest finds; damaged newer files are later history: refused, then moved aside with
# --discard-newer (docs/output.md, "One history per folder")
EFSI_DEBUG=stall_write=restart_00000040.nc start -o "$tmp/killed" --set output.restart_every=20 \
  "$tmp/case.ini"
wait_for 'stalling in the write' "$tmp/err" || fail "killed: no stalled restart write within 60 s"
kill -KILL $(ranks) "$pid"
wait $pid 2> /dev/null
if [ -f "$tmp/killed/restart_00000040.nc.tmp" ] && [ ! -f "$tmp/killed/restart_00000040.nc" ]; then
  ok "killed in the write: restart_00000040.nc.tmp left, no restart_00000040.nc"
else
  fail "killed in the write: $(ls "$tmp/killed")"
fi
: > "$tmp/killed/restart_00000060.nc"                                  # zero length
head -c 3000 "$tmp/full/restart_00000040.nc" > "$tmp/killed/restart_00000050.nc"   # truncated
echo "not a NetCDF file" > "$tmp/killed/restart_00000045.nc"
run2 -o "$tmp/killed" --restart latest "$tmp/case.ini"
status=$?
if [ $status -eq 2 ] && grep -q "restart_00000020.nc is at step 20, but $tmp/killed holds a later part of its history" "$tmp/err"; then
  ok "--restart latest with damaged newer files: refused, exit status 2"
else
  fail "--restart latest after the kill: status $status"; cat "$tmp/log" "$tmp/err"
fi
run2 -o "$tmp/killed" --restart latest --discard-newer "$tmp/case.ini"
status=$?
if [ $status -eq 0 ] && grep -q "restart: $tmp/killed/restart_00000020.nc" "$tmp/log" &&
   grep -q "^efsi: --discard-newer: moved .* after step 20" "$tmp/log" &&
   same "$tmp/full/restart_00000040.nc" "$tmp/killed/restart_00000040.nc" &&
   [ "$(rows "$tmp/full/diagnostics.csv")" = "$(rows "$tmp/killed/diagnostics.csv")" ]; then
  ok "--restart latest --discard-newer moved the damaged files aside, continued from step 20, ends bitwise"
else
  fail "--restart latest --discard-newer after the kill: status $status"; cat "$tmp/log" "$tmp/err"
fi

# ---- --restart latest without a restart file: refused, or a fresh start when asked
mkdir -p "$tmp/empty"
run2 -o "$tmp/empty" --restart latest "$tmp/case.ini"
status=$?
if [ $status -eq 2 ] && grep -q "holds no complete restart file" "$tmp/err"; then
  ok "--restart latest with none: exit status 2"
else
  fail "--restart latest with none: status $status"; cat "$tmp/err"
fi
run2 -o "$tmp/empty" --restart latest-or-new "$tmp/case.ini"
status=$?
if [ $status -eq 0 ] && same "$tmp/full/restart_00000040.nc" "$tmp/empty/restart_00000040.nc"; then
  ok "--restart latest-or-new with none: a fresh start"
else
  fail "--restart latest-or-new: status $status"; cat "$tmp/err"
fi

# ---- a chain of jobs, each stopped by time.wall_limit, ends where one run ends
# chain NAME STEPS LIMIT: jobs of --restart latest-or-new until one ends with status 0 (60
# at most); $jobs and $stopped (status 4) count them; then compare with $tmp/one-STEPS
chain() {
  jobs=0 stopped=0 status=4
  while [ $status -eq 4 ] && [ $jobs -lt 60 ]; do
    run2 -o "$tmp/$1" --steps "$2" --restart latest-or-new --set time.wall_limit="$3" \
      "$tmp/case.ini"
    status=$?
    jobs=$((jobs + 1))
    [ $status -eq 4 ] && stopped=$((stopped + 1))
    if grep -q "stopped early on SIG" "$tmp/log"; then fail "$1: a wall-limit job names a signal"; fi
  done
  final=$(restart_name "$2")
  rows "$tmp/$1/diagnostics.csv" > "$tmp/chain-rows"
  [ $status -eq 0 ] && same "$tmp/one-$2/$final" "$tmp/$1/$final" &&
    same "$tmp/one-$2/fields_$(printf %08d "$2").nc" "$tmp/$1/fields_$(printf %08d "$2").nc" &&
    rows "$tmp/one-$2/diagnostics.csv" | while read -r row; do
      grep -qxF "$row" "$tmp/chain-rows" || exit 1
    done
}
# a limit already past when the first step votes: every job takes exactly one step
run2 -o "$tmp/one-6" --steps 6 "$tmp/case.ini" || fail "uninterrupted run of 6 steps"
if chain "chain-tight" 6 0.01 && [ $jobs -eq 6 ] && [ $stopped -eq 5 ]; then
  ok "wall-limit chain: 6 jobs of one step each (5 stopped by time.wall_limit), final fields bitwise"
else
  fail "tight wall-limit chain: $jobs jobs, $stopped stopped, last status $status"; cat "$tmp/log" "$tmp/err"
fi
# a limit of a fifth of the time loop of one run (from its performance report): the jobs
# stop by the measured step and write times, however loaded the machine.  The loop is made
# long enough (at least 3 s, from the speed of a first run) for the 0.6 s floor of the
# limit to bite on a fast machine too.  The limit counts from efsi's start, so each job
# spends part of it starting, reading the restart file and keeping its margin (twice the
# longest step and write): with a floor of 0.3 s and a loop of 1.5 s a loaded 2-core CI
# machine made about 14 steps a job and was at step 567 of the run after 40 jobs.
# The first run is the reference of the chain too where 240 steps are enough.
run2 -o "$tmp/one-240" --steps 240 "$tmp/case.ini" || fail "uninterrupted run of 240 steps"
steps=$(awk '/ s per step/ { n = int(3.0 / $1 / 40 + 1) * 40; print n < 240 ? 240 : n }' "$tmp/log")
if [ "$steps" != 240 ]; then
  run2 -o "$tmp/one-$steps" --steps "$steps" "$tmp/case.ini" || fail "uninterrupted run of $steps steps"
fi
took=$(awk -v n="$steps" '/ s per step/ { printf "%.2f", $1 * n }' "$tmp/log")
limit=$(echo "$took" | awk '{ l = $1 / 5; printf "%.2f", l < 0.6 ? 0.6 : l }')
if chain "chain" "$steps" "$limit" && [ $stopped -ge 1 ]; then
  ok "wall-limit chain: $jobs jobs of time.wall_limit = $limit s ($stopped stopped by it; the time loop of one run of $steps steps takes $took s), final fields bitwise"
else
  fail "wall-limit chain: $jobs jobs, $stopped stopped, last status $status"; cat "$tmp/log" "$tmp/err"
fi

# ---- a failing write: exit status 1 naming the file; the earlier files stay intact
run2 -o "$tmp/full-disk" --steps 20 --set output.restart_every=20 "$tmp/case.ini"
cp "$tmp/full-disk/diagnostics.csv" "$tmp/rows-before"
# a file-size limit below the next file's size (the ranks only: Open MPI's shared-memory
# files would hit it too, so they talk through TCP here)
OMPI_MCA_btl=self,tcp $EFSI_MPIRUN -np 2 sh -c 'ulimit -f 200; exec "$0" "$@"' "$efsi" \
  -o "$tmp/full-disk" --restart latest "$tmp/case.ini" > "$tmp/log" 2> "$tmp/err"
status=$?
if [ $status -eq 1 ] && grep -q "efsi: error: cannot write $tmp/full-disk/fields_00000040.nc" "$tmp/err" &&
   [ "$(head -c "$(wc -c < "$tmp/rows-before")" "$tmp/full-disk/diagnostics.csv" | md5sum)" = "$(md5sum < "$tmp/rows-before")" ] &&
   [ ! -e "$tmp/full-disk/fields_00000040.nc.tmp" ]; then
  ok "file-size limit: $(grep 'efsi: error' "$tmp/err")"
else
  fail "file-size limit: status $status"; cat "$tmp/err"
fi
run2 -o "$tmp/full-disk" --restart latest "$tmp/case.ini" &&
  same "$tmp/full/restart_00000040.nc" "$tmp/full-disk/restart_00000040.nc" &&
  ok "the previous restart file continues bitwise after the failed write" ||
  fail "continuing after the failed write"
# a full disk: a small tmpfs, where this machine lets us mount one
mkdir -p "$tmp/small"
if mount -t tmpfs -o size=300k tmpfs "$tmp/small" 2> /dev/null; then
  run2 -o "$tmp/small/run" "$tmp/case.ini"
  status=$?
  if [ $status -eq 1 ] && grep -q "efsi: error: cannot write $tmp/small/run/.*No space left" "$tmp/err" &&
     [ "$(wc -l < "$tmp/small/run/diagnostics.csv")" -ge 2 ]; then
    ok "full disk: $(grep 'efsi: error' "$tmp/err")"
  else
    fail "full disk: status $status"; cat "$tmp/err"
  fi
  umount "$tmp/small"
else
  echo "skipped: full disk (no tmpfs can be mounted here)"
fi

# ---- the halo paths: planned on a login node, forced where they cannot work, old keys
# refused1 NAME ARGS: efsi ARGS exits with status 2 and one error line
refused1() {
  name=$1; shift
  "$efsi" "$@" > "$tmp/log" 2> "$tmp/err"
  status=$?
  if [ $status -eq 2 ] && [ "$(grep -c 'efsi: error' "$tmp/err")" -eq 1 ]; then
    ok "$name: $(cat "$tmp/err")"
  else
    fail "$name: status $status"; cat "$tmp/log" "$tmp/err"
  fi
}
refused1 "peer_halos refused" --check --set performance.peer_halos=false "$tmp/case.ini"
grep -q "replaced by performance.halo_path" "$tmp/err" || fail "peer_halos: the new key not named"
refused1 "cuda_aware_mpi refused" --check --set performance.cuda_aware_mpi=yes "$tmp/case.ini"
refused1 "a GPU path on CPU ranks" --check --set performance.halo_path=nccl "$tmp/case.ini"
gpu="--set performance.device=gpu"
# shellcheck disable=SC2086  # $gpu is two words
if "$efsi" --check --ranks 16 $gpu "$tmp/case.ini" > "$tmp/log" 2> "$tmp/err"; then
  # 16 ranks as 1 x 4 x 4 (16^3 cells, walls in y), 4 GPUs a node in rank order: the z
  # lines are the nodes
  if grep -q 'halos (planned: 4 GPUs per node, ranks in order; NCCL built in;.*: 56 faces between ranks: 32 peer, 24 nccl, 0 cuda_aware_mpi, 0 host_mpi' "$tmp/log"; then
    ok "the plan of 16 GPUs: $(grep 'halos (planned' "$tmp/log")"
  elif grep -q 'NCCL not built in.*56 faces between ranks: 32 peer, 0 nccl, 0 cuda_aware_mpi, 24 host_mpi' "$tmp/log"; then
    ok "the plan of 16 GPUs without NCCL: $(grep 'halos (planned' "$tmp/log")"
  else
    fail "the plan of 16 GPUs"; cat "$tmp/log"
  fi
  grep -q 'halo messages a step' "$tmp/log" || fail "the plan names no message sizes"
  # shellcheck disable=SC2086
  refused1 "peer forced across nodes" --check --ranks 16 $gpu --set performance.halo_path=peer "$tmp/case.ini"
  # shellcheck disable=SC2086
  "$efsi" --check --ranks 16 --gpus-per-node 16 $gpu --set performance.halo_path=peer \
    "$tmp/case.ini" > "$tmp/log" 2>&1 && grep -q '56 faces between ranks: 56 peer' "$tmp/log" &&
    ok "peer on a node of 16 GPUs" || { fail "peer on a node of 16 GPUs"; cat "$tmp/log"; }
elif "$efsi" --version | grep -q "GPU (CUDA)"; then
  fail "the plan of 16 GPUs: efsi --check --ranks 16 failed"; cat "$tmp/log" "$tmp/err"
else
  echo "skipped: the plan of a GPU run (this efsi has no GPU backend: $(cat "$tmp/err"))"
fi

echo "$passes passed, $failures failed"
[ $failures -eq 0 ]
