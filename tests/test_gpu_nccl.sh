#!/bin/sh
# Halos between GPUs by NCCL (docs/gpu.md, "Halo paths"): the Fig. 2 channel at 64^3 with
# RBCs, 20 steps, on two ranks with performance.halo_path = nccl, with and without the
# overlap, bit for bit as one rank.  NCCL needs a GPU for each rank (it refuses two ranks on
# one GPU), so this is skipped (77) where efsi has no GPU backend or no NCCL, or sees fewer
# than two GPUs; tests/test_gpu_run.sh checks that one GPU refuses it.
set -u
. "$(dirname "$0")/lib.sh"
runs=${top_srcdir:-..}/runs
compare=${top_srcdir:-..}/verify/compare-restarts
mpirun=${EFSI_MPIRUN:-mpirun}
python=${EFSI_PYTHON:-/usr/bin/python3}
gpus=$("$efsi" --check --set performance.device=gpu "$runs/quickstart.ini" 2>/dev/null \
       | sed -n 's/.*GPU [0-9]* of \([0-9]*\):.*/\1/p')
[ "${gpus:-0}" -ge 2 ] || { echo "efsi has no GPU backend or sees fewer than 2 GPUs: skipped"; exit 77; }
"$efsi" --version | grep -q 'NCCL' || { echo "efsi was built without NCCL: skipped"; exit 77; }
$python -c 'import numpy' 2>/dev/null || { echo "$python has no numpy: skipped"; exit 77; }
run() {   # run NAME RANKS [efsi options]: output in $tmp/NAME
  name=$1 np=$2; shift 2
  $mpirun -np "$np" "$efsi" -o "$tmp/$name" --steps 20 --set performance.device=gpu \
    "$@" "$runs/fig2-channel-64.ini" > "$tmp/$name.log" 2>&1 \
    || { echo "FAILED: $name"; tail -n 20 "$tmp/$name.log"; exit 1; }
}
last() { ls "$tmp/$1"/restart_*.nc | tail -n 1; }
status=0
run one 1
for overlap in false true; do
  run "nccl-$overlap" 2 --set performance.halo_path=nccl --set performance.overlap=$overlap
  line=$(grep 'halos:' "$tmp/nccl-$overlap.log" | sed 's/^ *//')
  echo "== two GPUs, halo_path = nccl, overlap = $overlap: $line"
  echo "$line" | grep -Eq 'halos: ([0-9]+) faces between ranks: 0 peer, \1 nccl,' \
    || { echo "FAILED: not every face took nccl"; status=1; }
  $python "$compare" "$(last one)" "$(last "nccl-$overlap")" --bitwise || status=1
done
exit $status
