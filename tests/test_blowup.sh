#!/bin/sh
# A run that blows up stops with exit status 3 and a diagnosis (step, field, cell) and keeps
# its last good restart file: (1) a fixed dt five times the viscous limit forced with
# time.unsafe grows without bound; (2) a restart whose flow is faster than the case's
# time step allows is stopped by the stable-range check at the first diagnostics step.
set -u
. "$(dirname "$0")/lib.sh"
fail() { echo "FAIL: $*"; cat "$tmp/err"; exit 1; }
write_case "$tmp/case.ini" "8 8 8" "1 1 1" <<'INI'
[boundary]
y = periodic
[init]
flow = taylor-green
flow_amplitude = 0.1
[time]
steps = 1000
[output]
diagnostics_every = 1
restart_every = 4
INI
$EFSI_MPIRUN -np 2 "$efsi" -o "$tmp/unstable" --set time.dt=0.0130 --set time.unsafe=true \
  "$tmp/case.ini" > /dev/null 2> "$tmp/err"
status=$?
[ $status -eq 3 ] || fail "unstable run: exit status $status, expected 3"
grep -q "blew up after step" "$tmp/err" || fail "no step in the diagnosis"
grep -q "at cell (" "$tmp/err" || fail "no cell in the diagnosis"
last=$(sed -n 's/.*last good restart file: //p' "$tmp/err")
[ -n "$last" ] && [ -f "$last" ] || fail "the last good restart file is not named or missing"
ncdump -h "$last" > /dev/null || fail "the last restart file does not open"
echo "ok: unstable run stopped: $(grep 'blew up' "$tmp/err")"

# a fast flow (amplitude 5) saved to a restart file, continued with the time step of a slow
# one (amplitude 0.01): the measured speed is far outside the stable range of that dt
$EFSI_MPIRUN -np 1 "$efsi" -o "$tmp/fast" --set init.flow_amplitude=5 --set time.steps=4 --set fluid.viscosity=0.01 \
  "$tmp/case.ini" > /dev/null 2> "$tmp/err" || fail "fast run"
$EFSI_MPIRUN -np 1 "$efsi" -o "$tmp/fast" --set init.flow_amplitude=0.01 \
  --set fluid.viscosity=0.01 --restart "$tmp/fast/restart_00000004.nc" "$tmp/case.ini" \
  > /dev/null 2> "$tmp/err"
status=$?
[ $status -eq 3 ] || fail "fast restart: exit status $status, expected 3"
grep -q "left the stable range" "$tmp/err" || fail "no stable-range diagnosis"
grep -q "largest speed: [uvw] at cell" "$tmp/err" || fail "no location of the largest speed"
grep -q "restart_00000004.nc" "$tmp/err" || fail "the last good restart is not named"
echo "ok: $(grep 'stable range' "$tmp/err")"
echo "blow-up: 2 passed, 0 failed"
