#!/bin/sh
# The whole program on the GPU against the CPU (docs/gpu.md, "Verification"): the Fig. 2
# channel at 64^3 with RBCs (ACM) and the Taylor-Green vortex (SMAC), 20 steps each; the
# same GPU run twice bit for bit; two ranks bit for bit as one on every halo path two ranks
# sharing one GPU can take (docs/gpu.md, "Halo paths"): GPU to GPU by CUDA IPC (auto and
# peer) and through MPI from page-locked host memory (host_mpi), each with and without the
# overlap, from device memory where the MPI library is CUDA-aware; NCCL refused there with
# one line (tests/test_gpu_nccl.sh runs it on two GPUs); a restart file written on the CPU
# continued on the GPU and the other way round.  Skipped (77) where efsi has no GPU backend
# or sees no GPU.
set -u
. "$(dirname "$0")/lib.sh"
runs=${top_srcdir:-..}/runs
compare=${top_srcdir:-..}/verify/compare-restarts
mpirun=${EFSI_MPIRUN:-mpirun}
# A GPU run planned for 2 ranks (efsi --check --ranks 2), with or without a GPU here (a
# cluster's login node): the plan and the halo paths, and no step timed where no GPU is seen.
if "$efsi" --version | grep -q "GPU (CUDA)"; then
  "$efsi" --check --ranks 2 --set performance.device=gpu "$runs/quickstart.ini" > "$tmp/plan.log" 2>&1 \
    || { echo "FAILED: efsi --check --ranks 2 of a GPU run"; cat "$tmp/plan.log"; exit 1; }
  grep -q 'halos (planned: .*2 faces between ranks' "$tmp/plan.log" \
    || { echo "FAILED: the plan names no halo paths"; cat "$tmp/plan.log"; exit 1; }
  echo "== the plan of 2 GPU ranks: $(grep 'halos (planned' "$tmp/plan.log" | sed 's/^ *//')"
  echo "   $(grep '^  time:' "$tmp/plan.log" | sed 's/^ *//')"
fi
"$efsi" --check --set performance.device=gpu "$runs/quickstart.ini" >/dev/null 2>&1 \
  || { echo "efsi has no GPU backend or no GPU is visible: skipped"; exit 77; }
python=${EFSI_PYTHON:-/usr/bin/python3}
$python -c 'import numpy' 2>/dev/null \
  || { echo "$python has no numpy: skipped"; exit 77; }
run() {   # run NAME DEVICE STEPS CASE [efsi options]: $NP ranks (1), output in $tmp/NAME
  name=$1 device=$2 steps=$3 case=$4; shift 4
  $mpirun -np "${NP:-1}" "$efsi" -o "$tmp/$name" --steps "$steps" --set performance.device="$device" \
    --set output.diagnostics_every=10 "$@" "$case" > "$tmp/$name.log" 2>&1 \
    || { echo "FAILED: $name"; tail -n 20 "$tmp/$name.log"; exit 1; }
}
last() { ls "$tmp/$1"/restart_*.nc | tail -n 1; }
status=0
run fig2-cpu cpu 20 "$runs/fig2-channel-64.ini"
run fig2-gpu gpu 20 "$runs/fig2-channel-64.ini"
run fig2-gpu2 gpu 20 "$runs/fig2-channel-64.ini"
echo "== fig2-channel-64, GPU against CPU"
$python "$compare" "$(last fig2-cpu)" "$(last fig2-gpu)" --tolerance 1e-10 || status=1
echo "== the same GPU run twice"
$python "$compare" "$(last fig2-gpu)" "$(last fig2-gpu2)" --bitwise || status=1
# paths NAME PATH: the faces of run NAME that took PATH ("halos: N faces between ranks: ...")
paths() { sed -n "s/.*halos: [0-9]* faces between ranks:.* \([0-9][0-9]*\) $2[,( ].*/\1/p" "$tmp/$1.log"; }
# two NAME PATH [options]: two ranks on the path (auto: what efsi chooses), bitwise against
# one rank, every face on EXPECTED (the path, or peer for auto)
two() {
  name=$1 path=$2 expected=$2; shift 2
  [ "$path" = auto ] && expected=peer
  NP=2 run "$name" gpu 20 "$runs/fig2-channel-64.ini" --set performance.halo_path="$path" "$@"
  faces=$(sed -n 's/.*halos: \([0-9]*\) faces between ranks.*/\1/p' "$tmp/$name.log")
  echo "== two ranks, halo_path = $path $*: $(grep 'halos:' "$tmp/$name.log" | sed 's/^ *//')"
  [ "${faces:-0}" -gt 0 ] && [ "$(paths "$name" "$expected")" = "$faces" ] \
    || { echo "FAILED: not every face took $expected"; status=1; }
  $python "$compare" "$(last fig2-gpu)" "$(last "$name")" --bitwise || status=1
}
two fig2-auto auto
two fig2-peer peer --set performance.overlap=true
two fig2-host host_mpi
two fig2-host-overlap host_mpi --set performance.overlap=true
# forced PATH on two ranks, checked only: its exit status, the log in $tmp/PATH.log
forced() {
  $mpirun -np 2 "$efsi" --check --set performance.device=gpu --set performance.halo_path="$1" \
    "$runs/fig2-channel-64.ini" > "$tmp/$1.log" 2>&1
}
# refused PATH PATTERN: the forced path stops with exit status 2 and one line of efsi's
# matching PATTERN (the MPI library may add warnings of its own)
refused() {
  forced "$1"
  code=$?
  echo "== halo_path = $1 refused: exit status $code: $(grep '^efsi: error:' "$tmp/$1.log")"
  [ "$code" = 2 ] && [ "$(grep -c '^efsi: error:' "$tmp/$1.log")" = 1 ] && grep -Eq "$2" "$tmp/$1.log" \
    || { echo "FAILED: halo_path = $1 not refused with one line"; status=1; }
}
# a CUDA-aware MPI moves device memory; Debian's Open MPI is not one: then it is refused
if forced cuda_aware_mpi; then
  two fig2-aware cuda_aware_mpi --set performance.overlap=true
else
  refused cuda_aware_mpi 'not CUDA-aware'
fi
# NCCL needs a GPU for each rank: two ranks sharing one are refused (and a build without it)
gpus=$("$efsi" --check --set performance.device=gpu "$runs/quickstart.ini" 2>/dev/null \
       | sed -n 's/.*GPU [0-9]* of \([0-9]*\):.*/\1/p')
[ "${gpus:-1}" -gt 1 ] || refused nccl 'share one GPU|without NCCL'
run tg-cpu cpu 20 "$runs/taylor-green.ini" --set pressure.method=smac --set grid.cells="32 32 32"
run tg-gpu gpu 20 "$runs/taylor-green.ini" --set pressure.method=smac --set grid.cells="32 32 32"
echo "== taylor-green (SMAC), GPU against CPU"
$python "$compare" "$(last tg-cpu)" "$(last tg-gpu)" --tolerance 1e-10 || status=1
NP=2 run tg-gpu2 gpu 20 "$runs/taylor-green.ini" --set pressure.method=smac --set grid.cells="32 32 32"
echo "== taylor-green (SMAC), two ranks against one (the solve gathered on rank 0's GPU)"
$python "$compare" "$(last tg-gpu)" "$(last tg-gpu2)" --bitwise || status=1
# a CPU restart continued on the GPU, and a GPU restart continued on the CPU
run half-cpu cpu 10 "$runs/fig2-channel-64.ini" --set output.restart_every=10
run half-gpu gpu 10 "$runs/fig2-channel-64.ini" --set output.restart_every=10
cp -r "$tmp/half-cpu" "$tmp/cont-gpu"
cp -r "$tmp/half-gpu" "$tmp/cont-cpu"
run cont-gpu gpu 20 "$runs/fig2-channel-64.ini" --restart "$(last half-cpu)"
run cont-cpu cpu 20 "$runs/fig2-channel-64.ini" --restart "$(last half-gpu)"
echo "== CPU restart continued on the GPU"
$python "$compare" "$(last fig2-cpu)" "$(last cont-gpu)" --tolerance 1e-10 || status=1
echo "== GPU restart continued on the CPU"
$python "$compare" "$(last fig2-cpu)" "$(last cont-cpu)" --tolerance 1e-10 || status=1
exit $status
