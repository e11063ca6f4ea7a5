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
# the chain's start, wait and next job (runs/cluster-chain.sh, beside this script in the
# folder the job was submitted from; CHAIN names it elsewhere; EFSI_JOB and MAX_JOBS)
# shellcheck disable=SC1090,SC1091  # (the file is ours: runs/cluster-chain.sh)
. "${CHAIN:-runs/cluster-chain.sh}"
case_file=${CASE:-runs/sphere-shear.ini}
out=${OUT:-out/$(basename "$case_file" .ini)}
efsi=${EFSI:-efsi}
export OMP_NUM_THREADS=${SLURM_CPUS_PER_TASK:-1}

# The scheduler's SIGUSR1 goes to this script (--signal=B:...); srun passes it on to every
# rank.  time.wall_limit is the second line of defence: it stops before the limit by
# itself, from the measured step and restart-write times (set it to the job's limit less
# what the start of the job takes).
efsi_chain "$efsi" -o "$out" --restart latest-or-new --set time.wall_limit=23:55:00 "$case_file"
