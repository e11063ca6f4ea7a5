#!/bin/sh
# The whole program on the GPU against the CPU (docs/gpu.md, "Verification"): the Fig. 2
# channel at 64^3 with RBCs (ACM) and the Taylor-Green vortex (SMAC), 20 steps each; the
# same GPU run twice bit for bit; two ranks bit for bit as one, with their halos GPU to GPU
# (CUDA IPC; two ranks may share one GPU) and through MPI; a restart file written on the CPU
# continued on the GPU and the other way round.  Skipped (77) where efsi has no GPU backend
# or sees no GPU.
set -u
. "$(dirname "$0")/lib.sh"
runs=${top_srcdir:-..}/runs
compare=${top_srcdir:-..}/verify/compare-restarts
mpirun=${EFSI_MPIRUN:-mpirun}
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
NP=2 run fig2-peer gpu 20 "$runs/fig2-channel-64.ini"
NP=2 run fig2-mpi gpu 20 "$runs/fig2-channel-64.ini" --set performance.peer_halos=false
faces() { sed -n 's/.*halos: \([0-9]*\) of \([0-9]*\) faces.*/\1 \2/p' "$tmp/$1.log"; }
echo "== two ranks, halos GPU to GPU ($(faces fig2-peer)) and through MPI ($(faces fig2-mpi))"
set -- $(faces fig2-peer)
[ "${1:-0}" -gt 0 ] && [ "$1" = "${2:-}" ] \
  || { echo "FAILED: not every face between the two ranks went GPU to GPU"; status=1; }
set -- $(faces fig2-mpi)
[ "${1:-1}" = 0 ] || { echo "FAILED: performance.peer_halos=false left faces GPU to GPU"; status=1; }
$python "$compare" "$(last fig2-gpu)" "$(last fig2-peer)" --bitwise || status=1
$python "$compare" "$(last fig2-gpu)" "$(last fig2-mpi)" --bitwise || status=1
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
