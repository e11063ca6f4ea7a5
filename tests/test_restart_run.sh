#!/bin/sh
# Whole-program restart and reproducibility, ACM and SMAC, on 1 and 2 ranks, with a solid
# sphere and its tracer: a run stopped at step 10 and continued with --restart ends bitwise
# where the uninterrupted run ends (restart file with phi, B and the tracer, fields file,
# diagnostics and bodies rows, bodies.nc, the averages, box and slices files); the same run
# twice gives the same files.
set -eu
. "$(dirname "$0")/lib.sh"
write_case "$tmp/case.ini" "12 12 12" "3 3 3" <<'INI'
[boundary]
y = wall
y_hi_u = 0.05
wall_omega = 0.5
[drive]
pressure_gradient = 0.01
[init]
flow = taylor-green
flow_amplitude = 0.1
[sphere]
center = 1.4 1.5 1.6
radius = 0.8
modulus = 0.5
[time]
steps = 20
[output]
diagnostics_every = 5
restart_every = 10
[average]
sample_every = 3
fields = u p phi_sphere
[slices]
every = 10
y = 1.2
fields = u phi_sphere
[box]
every = 10
lo = 0.5 0.5 0.5
stride = 2 2 2
INI
fail() { echo "FAIL: $*"; exit 1; }
for method in acm smac; do
  for np in 1 2; do
    run="$EFSI_MPIRUN -np $np $efsi --set pressure.method=$method"
    $run -o "$tmp/full-$method-$np" "$tmp/case.ini" > /dev/null
    $run -o "$tmp/again-$method-$np" "$tmp/case.ini" > /dev/null
    cp -r "$tmp/full-$method-$np" "$tmp/cont-$method-$np"
    (cd "$tmp/cont-$method-$np" && rm restart_00000020.nc fields_00000020.nc average.nc \
                                      slices_00000020.nc box_00000020.nc)
    $run -o "$tmp/cont-$method-$np" --restart "$tmp/cont-$method-$np/restart_00000010.nc" \
      "$tmp/case.ini" > /dev/null
    # the averages (samples 0, 3, .. 18 and the last step, 20) carried by restart_00000010.nc
    for f in restart_00000020.nc fields_00000020.nc average.nc slices_00000020.nc \
             box_00000020.nc; do
      same "$tmp/full-$method-$np/$f" "$tmp/cont-$method-$np/$f" ||
        fail "$method, $np ranks: restarted $f differs"
      same "$tmp/full-$method-$np/$f" "$tmp/again-$method-$np/$f" ||
        fail "$method, $np ranks: repeated run's $f differs"
    done
    rows "$tmp/full-$method-$np/diagnostics.csv" > "$tmp/a"
    rows "$tmp/cont-$method-$np/diagnostics.csv" > "$tmp/b"
    cmp -s "$tmp/a" "$tmp/b" || fail "$method, $np ranks: diagnostics rows differ after restart"
    [ "$(wc -l < "$tmp/a")" -eq 6 ] || fail "diagnostics.csv should hold a header and 5 rows"
    cmp -s "$tmp/full-$method-$np/bodies.csv" "$tmp/cont-$method-$np/bodies.csv" ||
      fail "$method, $np ranks: bodies.csv differs after restart"
    grep -q "^0,sphere,20," "$tmp/full-$method-$np/bodies.csv" || fail "no tracer row at step 20"
    ncdump -h "$tmp/cont-$method-$np/average.nc" | grep -q "average_samples = 8LL" ||
      fail "$method, $np ranks: average.nc should hold 8 samples"
    # bodies.nc: cut at step 10 and appended again, the uninterrupted run's records bitwise
    same "$tmp/full-$method-$np/bodies.nc" "$tmp/cont-$method-$np/bodies.nc" ||
      fail "$method, $np ranks: bodies.nc differs after restart"
    ncdump -v step "$tmp/cont-$method-$np/bodies.nc" | grep -q "step = 0, 5, 10, 15, 20 ;" ||
      fail "$method, $np ranks: bodies.nc should hold steps 0, 5, 10, 15, 20"
    echo "ok: $method on $np rank(s): restart and repeat bitwise identical"
  done
done
# verify/compare-restarts, which the GPU checks rely on, fails a NaN and a variable of only
# one file: a copy of a restart file with one value set to NaN, and one with an extra variable
if /usr/bin/python3 -c 'import numpy, netCDF4' 2>/dev/null; then
  compare="/usr/bin/python3 ${top_srcdir:-$(dirname "$0")/..}/verify/compare-restarts"
  good=$tmp/full-acm-1/restart_00000020.nc
  cp "$good" "$tmp/nan.nc"
  cp "$good" "$tmp/extra.nc"
  /usr/bin/python3 - "$tmp/nan.nc" "$tmp/extra.nc" <<'PY' || fail "could not edit a restart copy"
import sys, netCDF4
with netCDF4.Dataset(sys.argv[1], "a") as nc:
    u = nc["u"]
    first = (0,) * u.ndim
    u[first] = float("nan")
with netCDF4.Dataset(sys.argv[2], "a") as nc:
    nc.createVariable("extra", "f8", nc["u"].dimensions)[...] = 0.0
PY
  $compare "$good" "$good" > /dev/null || fail "compare-restarts: a file differs from itself"
  ! $compare "$good" "$tmp/nan.nc" > /dev/null || fail "compare-restarts passes a NaN in B"
  ! $compare "$tmp/nan.nc" "$good" > /dev/null || fail "compare-restarts passes a NaN in A"
  ! $compare "$good" "$tmp/extra.nc" > /dev/null || fail "compare-restarts passes a variable only in B"
  ! $compare "$tmp/extra.nc" "$good" > /dev/null || fail "compare-restarts passes a variable only in A"
  echo "ok: verify/compare-restarts fails a NaN and a variable of one file only"
else
  echo "no numpy or netCDF4 for /usr/bin/python3: verify/compare-restarts not checked"
fi
# the overlapped exchanges change no bit: performance.overlap = true gives the same files as
# the default (false), and so does the barrier of performance.sync_timers, which
# performance.json then times
$EFSI_MPIRUN -np 2 "$efsi" -o "$tmp/overlap" --set performance.overlap=true \
  --set performance.sync_timers=true "$tmp/case.ini" > /dev/null || fail "run with overlap"
same "$tmp/full-acm-2/restart_00000020.nc" "$tmp/overlap/restart_00000020.nc" ||
  fail "performance.overlap = true changes the result"
cmp -s "$tmp/full-acm-2/bodies.csv" "$tmp/overlap/bodies.csv" ||
  fail "performance.overlap = true changes the tracers"
python3 - "$tmp/full-acm-2/performance.json" "$tmp/overlap/performance.json" <<'PY' ||
import json, sys
plain, timed = (json.load(open(p))["kernels"] for p in sys.argv[1:])
assert plain["reduce_wait"]["seconds"] == 0, "reduce_wait timed without performance.sync_timers"
assert timed["reduce_wait"]["seconds"] > 0, "performance.sync_timers timed no barrier"
for k in timed.values():
    assert 0 <= k["mean_seconds"] <= k["seconds"] * (1 + 1e-9), k
PY
  fail "performance.json: reduce_wait or mean_seconds wrong"
echo "ok: the same result with and without the overlapped exchanges and the timed barrier"
# a restart written on 1 rank continues on 2 ranks (to round-off, not bitwise)
$EFSI_MPIRUN -np 2 "$efsi" -o "$tmp/cross" --restart "$tmp/full-acm-1/restart_00000010.nc" \
  "$tmp/case.ini" > /dev/null || fail "restart on another process grid"
echo "ok: 1-rank restart file continued on 2 ranks"
echo "1 passed, 0 failed"
