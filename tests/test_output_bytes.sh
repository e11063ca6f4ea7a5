#!/bin/sh
# Output that scales (docs/output.md, "Selective outputs"): three RBCs in a capillary (the
# quick start's case, 60 x 32 x 32 cells), 80 steps with an output every 2 steps.  Written
# as slices (the cross-section x = 12 of u and phi_rbc, deflated, quantized to 3 digits) and
# averages (u and phi_rbc, deflated), the run writes at most 1/100 of the bytes of the full
# fields files of the same cadence: 41 files, each of the size of one written by the same
# case (every fields file of a case has the same size: contiguous doubles).  The average
# holds the 41 samples of steps 0 to 80.  xarray reads the slices as a series in time, the
# average with its window and bodies.nc (skipped without xarray).
set -eu
. "$(dirname "$0")/lib.sh"
fail() { echo "FAIL: $*"; exit 1; }
write_case "$tmp/case.ini" "60 32 32" "24 12.8 12.8" <<'INI'
[boundary]
y = wall
z = wall
[drive]
pressure_gradient = 0.08
[vessel]
shape = tube
diameter = 10
modulus = 0.5
[rbc]
count = 3
diameter = 8
modulus = 2e-2
[time]
steps = 80
[output]
restart_every = -1
diagnostics_every = 20
INI
run="$EFSI_MPIRUN -np 2 $efsi"
# today's output: a fields file every 2 steps (two of them, to know their size)
$run -o "$tmp/full" --steps 2 --set output.fields_every=2 "$tmp/case.ini" > /dev/null
one=$(wc -c < "$tmp/full/fields_00000002.nc")
[ "$one" -eq "$(wc -c < "$tmp/full/fields_00000000.nc")" ] || fail "fields files differ in size"
# slices and averages at the same cadence, 80 steps: 41 outputs
$run -o "$tmp/some" --steps 80 --set output.fields_every=-1 --set slices.every=2 \
  --set slices.x=12 --set "slices.fields=u phi_rbc" --set slices.deflate=1 \
  --set slices.quantize=3 --set average.sample_every=2 --set "average.fields=u phi_rbc" \
  --set average.deflate=1 "$tmp/case.ini" > /dev/null
[ "$(ls "$tmp/some" | grep -c '^slices_.*\.nc$')" -eq 41 ] || fail "41 slices files expected"
ls "$tmp/some" | grep -q '^fields_' && fail "a fields file was written"
ncdump -h "$tmp/some/average.nc" | grep -q "average_samples = 41LL" ||
  fail "average.nc should hold 41 samples"
written=$(cat "$tmp/some"/slices_*.nc "$tmp/some/average.nc" | wc -c)
full=$((41 * one))
echo "slices and averages: $written bytes; full fields at the same cadence: $full bytes" \
     "(41 x $one): $(awk "BEGIN { printf \"%.3g\", $written / $full }") of them"
[ $((written * 100)) -le "$full" ] || fail "more than 1/100 of the full fields' bytes"
echo "ok: slices and averages write at most 1/100 of the full fields' bytes"
# xarray reads them as they are: the slices as one series along time (concat: no dask
# needed), the average with its window, bodies.nc's records (body by id, the CF time axis)
if /usr/bin/python3 -c 'import xarray' 2>/dev/null; then
  /usr/bin/python3 - "$tmp/some" <<'PY' || fail "xarray"
import glob, os, sys
import numpy as np
import xarray
d = sys.argv[1]
files = sorted(glob.glob(os.path.join(d, "slices_*.nc")))
s = xarray.concat([xarray.open_dataset(f) for f in files], dim="time")
assert s.u_yz.dims == ("time", "z", "y", "x_yz") and s.sizes["time"] == 41, s.u_yz.dims
assert abs(float(s.x_yz[0]) - 12.2) < 1e-12 and s.time.attrs["units"] == "us"
a = xarray.open_dataset(os.path.join(d, "average.nc"))
assert a.attrs["average_samples"] == 41 and a.u.attrs["cell_methods"] == "time: mean"
lo, hi = a.time_bnds.values[0]
assert lo == 0.0 and hi == float(a.time[0]) == float(s.time[-1]), (lo, hi)
b = xarray.open_dataset(os.path.join(d, "bodies.nc"))
assert b.sizes["body"] == 3 and list(b.body.values) == [0, 1, 2], b.body.values
assert b.position.dims == ("time", "body", "xyz") and b.second_moment.sizes["sym"] == 6
assert b.kind.attrs["flag_meanings"].split()[0] == "rbc" and (b.kind.values == 0).all()
v = b.volume.values
assert (v > 0).all() and np.allclose(v, v[0, 0], rtol=0.1), v
print("ok: xarray reads the slices (41 times), average.nc (41 samples) and bodies.nc "
      "(3 RBCs of %.4g um3)" % v[-1, 0])
PY
fi
