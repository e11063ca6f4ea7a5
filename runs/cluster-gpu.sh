#!/bin/bash
# efsi on a GPU cluster under SLURM, one MPI rank per GPU, as a chain of jobs
# (docs/building.md, "Long runs on clusters"; docs/gpu.md, "A job on a GPU cluster").  Every
# job continues from the newest restart file in the output directory (the first one starts
# afresh), is told 10 minutes before its time limit (SIGUSR1), stops after the current step
# with a restart file (exit status 4) and submits the next job.  Needs an efsi built with
# --enable-cuda (and NCCL: configure finds it in the CUDA toolkit or takes --with-nccl=DIR).
#   sbatch runs/cluster-gpu.sh                 the case below
#   CASE=my.ini OUT=out/my sbatch --nodes=16 runs/cluster-gpu.sh
# Adapt the #SBATCH lines (nodes, GPUs, time, partition, account) to your cluster; before
# the first job, check the halo paths on the login node:
#   efsi --check --ranks 8 --gpus-per-node 4 --set performance.device=gpu my.ini
#SBATCH --job-name=efsi-gpu
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=4
#SBATCH --gpus-per-node=4
#SBATCH --cpus-per-task=8
#SBATCH --time=12:00:00
#SBATCH --signal=B:USR1@600
#SBATCH --output=efsi-gpu-%j.log
set -u
# the chain's start, wait and next job (runs/cluster-chain.sh, beside this script in the
# folder the job was submitted from; CHAIN names it elsewhere; EFSI_JOB and MAX_JOBS)
# shellcheck disable=SC1090,SC1091  # (the file is ours: runs/cluster-chain.sh)
. "${CHAIN:-runs/cluster-chain.sh}"
case_file=${CASE:-runs/weak-scaling-unit.ini}
out=${OUT:-out/$(basename "$case_file" .ini)-gpu}
efsi=${EFSI:-efsi}
export OMP_NUM_THREADS=${SLURM_CPUS_PER_TASK:-1}

# One rank per GPU, each bound to the GPU closest to its cores, which is then the one GPU it
# sees (efsi takes it).  GPU_BIND=none shows every rank all GPUs of its node instead: efsi
# then gives each rank the GPU of its number on the node, and the faces inside a node can
# go GPU to GPU by CUDA IPC (halo path peer), which GPUs hidden from each other cannot.
gpu_bind=${GPU_BIND:-closest}
if [ "$gpu_bind" = none ]; then binding=(--gpu-bind=none)
else binding=(--gpus-per-task=1 --gpu-bind="$gpu_bind"); fi

# The environment of the halo paths (docs/gpu.md, "A multi-node run that is slow or hangs").
# NCCL prints the network and transports it chose (NET/IB, GDRDMA, P2P) with INFO; WARN
# prints problems only.
export NCCL_DEBUG=${NCCL_DEBUG:-WARN}
# Where NCCL picks the wrong network adapters or interface, name them, e.g.
#   export NCCL_IB_HCA=mlx5_0,mlx5_1,mlx5_2,mlx5_3  NCCL_SOCKET_IFNAME=ib0
# A CUDA-aware MPI (performance.halo_path = cuda_aware_mpi, or auto without NCCL):
#   Open MPI with UCX:  export UCX_TLS=rc,sm,cuda_copy,cuda_ipc,gdr_copy
#   Cray MPICH:         export MPICH_GPU_SUPPORT_ENABLED=1
# A run that hangs or fails in its first exchange: force the path that needs neither NCCL
# nor a CUDA-aware MPI with HALO_PATH=host_mpi (default auto: the fastest path per face).
halo_path=${HALO_PATH:-auto}
# The exchanges hidden behind the interior's work: measured to pay on every path between
# GPUs (docs/gpu.md, "Overlap"); OVERLAP=false turns it off.
overlap=${OVERLAP:-true}

# The scheduler's SIGUSR1 goes to this script; srun passes it on to every rank;
# time.wall_limit stops before the limit by itself as well.
efsi_chain "${binding[@]}" "$efsi" -o "$out" --restart latest-or-new --set performance.device=gpu \
  --set performance.halo_path="$halo_path" --set performance.overlap="$overlap" \
  --set time.wall_limit=11:55:00 "$case_file"
