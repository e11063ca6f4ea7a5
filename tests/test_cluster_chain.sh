#!/bin/sh
# The job scripts of a chain on a SLURM cluster (runs/cluster-cpu.sh, runs/cluster-gpu.sh,
# their shared runs/cluster-chain.sh; docs/building.md, "Long runs on clusters"), run with
# stand-ins for srun, sbatch and efsi: a finished run ends the chain, a run stopped early
# (exit status 4) submits the next job (EFSI_JOB + 1) until MAX_JOBS, another status stops
# the chain with efsi --status, and the scheduler's SIGUSR1 to the script reaches efsi, which
# stops, and the next job is submitted.
top=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { echo "ok: $*"; passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

mkdir -p "$tmp/bin"
# srun: its own options dropped, the command run in its place
cat > "$tmp/bin/srun" << 'EOS'
#!/bin/sh
while [ $# -gt 0 ]; do case $1 in -*) shift ;; *) break ;; esac; done
exec "$@"
EOS
# sbatch: its arguments recorded
cat > "$tmp/bin/sbatch" << EOS
#!/bin/sh
echo "\$*" >> "$tmp/sbatch.log"
EOS
# efsi: --status prints a line; a run ends with FAKE_STATUS, or with FAKE_STATUS=wait it
# waits for SIGUSR1 and stops with 4 as efsi does
cat > "$tmp/bin/efsi" << EOS
#!/bin/bash
if [ "\$1" = --status ]; then echo "status of \$2"; exit 0; fi
echo "\$*" >> "$tmp/efsi.log"
if [ "\$FAKE_STATUS" = wait ]; then
  trap 'echo stopped >> "$tmp/efsi.log"; exit 4' USR1
  for i in \$(seq 200); do sleep 0.05; done
  exit 9
fi
exit "\$FAKE_STATUS"
EOS
chmod +x "$tmp/bin/"*

chain() {  # chain SCRIPT STATUS [VAR=VALUE...]: the script's exit status; its output in $tmp/out
  script=$1 fake=$2
  shift 2
  : > "$tmp/sbatch.log"
  : > "$tmp/efsi.log"
  (cd "$top" && env PATH="$tmp/bin:$PATH" EFSI="$tmp/bin/efsi" FAKE_STATUS="$fake" \
     OUT="$tmp/run" "$@" bash "runs/$script" > "$tmp/out" 2>&1)
}

for script in cluster-cpu.sh cluster-gpu.sh; do
  chain $script 0
  if [ $? -eq 0 ] && grep -q "the run is complete (job 1 of the chain)" "$tmp/out" &&
     [ ! -s "$tmp/sbatch.log" ] && grep -q -- "--restart latest-or-new" "$tmp/efsi.log"; then
    ok "$script: a finished run ends the chain"
  else fail "$script: a finished run"; cat "$tmp/out"; fi

  chain $script 4 EFSI_JOB=3
  if [ $? -eq 0 ] && grep -q "EFSI_JOB=4 runs/$script" "$tmp/sbatch.log"; then
    ok "$script: stopped early (4), job 4 submitted"
  else fail "$script: stopped early"; cat "$tmp/out" "$tmp/sbatch.log"; fi

  chain $script 4 EFSI_JOB=5 MAX_JOBS=5
  if [ $? -eq 0 ] && [ ! -s "$tmp/sbatch.log" ] && grep -q "after 5 jobs (MAX_JOBS)" "$tmp/out"; then
    ok "$script: MAX_JOBS ends the chain"
  else fail "$script: MAX_JOBS"; cat "$tmp/out"; fi

  chain $script 1
  status=$?
  if [ $status -eq 1 ] && grep -q "exit status 1; the chain stops" "$tmp/out" &&
     grep -q "status of $tmp/run" "$tmp/out" && [ ! -s "$tmp/sbatch.log" ]; then
    ok "$script: a failed run stops the chain with efsi --status (exit 1)"
  else fail "$script: a failed run: status $status"; cat "$tmp/out"; fi

  : > "$tmp/sbatch.log"
  : > "$tmp/efsi.log"
  # exec: the job's pid is the script's own, as the scheduler's signal reaches the script
  (cd "$top" && exec env PATH="$tmp/bin:$PATH" EFSI="$tmp/bin/efsi" FAKE_STATUS=wait \
     OUT="$tmp/run" bash "runs/$script" > "$tmp/out" 2>&1) &
  job=$!
  for i in $(seq 100); do [ -s "$tmp/efsi.log" ] && break; sleep 0.05; done
  sleep 0.3   # the script's trap is set just after efsi starts
  kill -USR1 "$job"
  wait "$job"
  status=$?
  if [ $status -eq 0 ] && grep -q stopped "$tmp/efsi.log" && grep -q "EFSI_JOB=2" "$tmp/sbatch.log"; then
    ok "$script: SIGUSR1 to the script stops efsi, job 2 submitted"
  else fail "$script: SIGUSR1: status $status"; cat "$tmp/out" "$tmp/efsi.log"; fi
done
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
