#!/bin/bash
# efsi on a CPU cluster under SLURM, as a chain of jobs (docs/building.md, "Long runs on
# clusters").  Every job continues from the newest restart file in the output directory
# (the first one starts afresh), is told 10 minutes before its time limit (SIGUSR1), stops
# after the current step with a restart file (exit status 4) and submits the next job.
#   sbatch runs/cluster-cpu.sh                 the case below
#   CASE=my.ini OUT=out/my sbatch runs/cluster-cpu.sh
# Adapt the #SBATCH lines (nodes, cores, time, partition, account) to your cluster.
#SBATCH --job-name=efsi
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=32
#SBATCH --cpus-per-task=2
#SBATCH --time=24:00:00
#SBATCH --signal=B:USR1@600
#SBATCH --output=efsi-%j.log
set -u
case_file=${CASE:-runs/sphere-shear.ini}
out=${OUT:-out/$(basename "$case_file" .ini)}
efsi=${EFSI:-efsi}
max_jobs=${MAX_JOBS:-20}          # a bound on the chain, against a run that never ends
job=${EFSI_JOB:-1}
export OMP_NUM_THREADS=${SLURM_CPUS_PER_TASK:-1}

# The scheduler's SIGUSR1 goes to this script (--signal=B:...); srun passes it on to every
# rank.  time.wall_limit is the second line of defence: it stops before the limit by
# itself, from the measured step and restart-write times (set it to the job's limit less
# what the start of the job takes).
srun "$efsi" -o "$out" --restart latest-or-new --set time.wall_limit=23:55:00 "$case_file" &
run=$!
trap 'kill -USR1 "$run" 2> /dev/null' USR1 TERM
# wait returns when the trap runs, while efsi is still writing its restart file: wait on
wait "$run"
status=$?
while kill -0 "$run" 2> /dev/null; do
  wait "$run"
  status=$?
done
# srun can end, and bash reap it, between a wait the trap cut short and kill -0: status then
# holds that wait's 128 + signal, not srun's.  bash keeps the exit status of a child it has
# reaped, and a wait on it returns that.
if [ "$status" -gt 128 ]; then
  wait "$run"
  status=$?
fi
case $status in
  0) echo "efsi: the run is complete (job $job of the chain)" ;;
  4) if [ "$job" -lt "$max_jobs" ]; then
       echo "efsi: stopped early with a restart file; submitting job $((job + 1))"
       sbatch --export=ALL,EFSI_JOB=$((job + 1)) "$0"
     else
       echo "efsi: stopped early after $job jobs (MAX_JOBS); continue by hand" >&2
     fi ;;
  *) # what the status meant and why the run stopped: efsi's record of it (docs/output.md)
     echo "efsi: exit status $status; the chain stops; efsi --status of $out:" >&2
     "$efsi" --status "$out" "$case_file" >&2
     exit "$status" ;;
esac
