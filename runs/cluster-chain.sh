# shellcheck shell=bash
# shellcheck disable=SC2154  # $efsi, $out and $case_file are the job script's
# The chain of jobs that runs/cluster-cpu.sh and runs/cluster-gpu.sh share (docs/building.md,
# "Long runs on clusters"), sourced from the folder the job was submitted in:
#   efsi_chain SRUN-ARGUMENTS...
# starts `srun SRUN-ARGUMENTS` in the background, passes the scheduler's SIGUSR1 (or a
# SIGTERM) on to it, waits for it to end, and then: exit status 0, the run is complete; 4
# (stopped early with a restart file), the next job of the chain is submitted with
# EFSI_JOB + 1, up to MAX_JOBS; anything else stops the chain with efsi --status of the
# output folder.  Uses $efsi, $out and $case_file of the job script.
job=${EFSI_JOB:-1}                # this job's place in the chain
max_jobs=${MAX_JOBS:-20}          # a bound on the chain, against a run that never ends
efsi_chain() {
  srun "$@" &
  local run=$! status
  trap 'kill -USR1 "$run" 2> /dev/null' USR1 TERM
  # wait returns when the trap runs, while efsi is still writing its restart file: wait on
  wait "$run"
  status=$?
  while kill -0 "$run" 2> /dev/null; do
    wait "$run"
    status=$?
  done
  # srun can end, and bash reap it, between a wait the trap cut short and kill -0: status
  # then holds that wait's 128 + signal, not srun's.  bash keeps the exit status of a child
  # it has reaped, and a wait on it returns that.
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
}
