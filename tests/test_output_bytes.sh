#!/bin/sh
# Output that scales (docs/output.md, "Selective outputs"): three RBCs in a capillary (the
# quick start's case, 60 x 32 x 32 cells), 80 steps with an output every 2 steps.  Written
# as slices (the cross-section x = 12 of u and phi_rbc, deflated, quantized to 3 digits) and
# averages (u and phi_rbc, deflated), the run writes at most 1/100 of the bytes of the full
# fields files of the same cadence: 41 files, each of the size of one written by the same
# case (every fields file of a case has the same size: contiguous doubles).  The average
# holds the 41 samples of steps 0 to 80.
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
