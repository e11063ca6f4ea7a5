#!/bin/sh
# Bad input: each class of mistake gives a one-line error naming the file, line and key,
# exit status 2, and writes nothing into an existing output directory.
set -u
. "$(dirname "$0")/lib.sh"
good='[grid]
cells = 8 8 8
length = 1 1 1
[time]
steps = 2'
failures=0
passes=0
# expect NAME 'case text' 'expected words in the message' [extra efsi arguments]
expect() {
  name=$1 text=$2 words=$3
  shift 3
  printf '%s\n' "$text" > "$tmp/$name.ini"
  mkdir -p "$tmp/existing"
  echo keep > "$tmp/existing/diagnostics.csv"
  before=$(ls -la "$tmp/existing" | md5sum)
  $EFSI_MPIRUN -np 1 "$efsi" -o "$tmp/existing" "$@" "$tmp/$name.ini" > "$tmp/out" 2> "$tmp/err"
  status=$?
  after=$(ls -la "$tmp/existing" | md5sum)
  message=$(grep "efsi: error" "$tmp/err" | head -n 1)
  if [ $status -ne 2 ]; then
    echo "FAIL $name: exit status $status, expected 2"; failures=$((failures + 1))
  elif [ "$(grep -c 'efsi: error' "$tmp/err")" -ne 1 ]; then
    echo "FAIL $name: expected one error line, got:"; cat "$tmp/err"; failures=$((failures + 1))
  elif ! printf '%s' "$message" | grep -q -F -- "$words"; then
    echo "FAIL $name: message lacks '$words': $message"; failures=$((failures + 1))
  elif [ "$before" != "$after" ] || [ "$(cat "$tmp/existing/diagnostics.csv")" != keep ]; then
    echo "FAIL $name: the existing output directory was changed"; failures=$((failures + 1))
  else
    echo "ok $name: $message"; passes=$((passes + 1))
  fi
}
expect unknown_section "$good
[gird]
x = 1" "unknown_section.ini:7: gird.x"
expect unknown_key "$good
[fluid]
viscosty = 1" "unknown_key.ini:7: fluid.viscosty"
expect malformed_number "[grid]
cells = 8 8 8
length = 1 1x 1
[time]
steps = 2" "malformed_number.ini:3: grid.length"
expect negative_size "[grid]
cells = 8 -8 8
length = 1 1 1
[time]
steps = 2" "negative_size.ini:2: grid.cells"
expect missing_key "[grid]
cells = 8 8 8
[time]
steps = 2" "grid.length"
expect ranks_do_not_divide "$good
[grid]
ranks = 3 1 1" "grid.ranks"
expect dt_too_large "$good
dt = 1" "dt_too_large.ini:6: time.dt: 1 is above the stable limit"
expect solid_conflict "$good
[rbc]
count = 4
hematocrit = 0.1" "solid_conflict.ini:8: rbc.hematocrit: give rbc.count or rbc.hematocrit"
# the solid: bodies that overlap, leave the box, cannot be placed; voxel files that do not fit
solid='[grid]
cells = 32 32 32
length = 16 16 16
[time]
steps = 2'
expect bodies_overlap "$solid
[sphere]
center = 8 8 8
radius = 3
modulus = 1
[ellipsoid]
center = 11 8 8
semi_axes = 3 2 2
modulus = 1" "ellipsoid"
expect body_outside "$solid
[sphere]
center = 8 0.5 8
radius = 3
modulus = 1" "sphere.center"
expect hematocrit_too_high "$solid
[rbc]
hematocrit = 0.6" "rbc.hematocrit = 0.6 cannot be placed"
expect unknown_material "$solid
[voxels]
file = v.nc
variable = density
modulus = 1" "voxels.variable"
# voxels NAME N VARIABLE: $tmp/NAME.nc, a voxel file of the double VARIABLE(z, y, x) on N^3
voxels() {
  echo "netcdf $1 { dimensions: z = $2 ; y = $2 ; x = $2 ; variables: double $3(z, y, x) ; }" |
    ncgen -o "$tmp/$1.nc" -
}
voxels small 4 phi
expect voxels_wrong_size "$solid
[voxels]
file = $tmp/small.nc
modulus = 1" "small.nc: variable phi is 4 x 4 x 4 (z, y, x), the case grid is 32 x 32 x 32"
voxels labels 32 label
expect voxels_wrong_type "$solid
[voxels]
file = $tmp/labels.nc
variable = label
modulus = 1 2" "labels.nc: variable label must be of an integer type"
expect bad_override "$good" "--set fluid.viscosity=-1" --set fluid.viscosity=-1
expect bad_option "$good" "--steps" --steps x
expect missing_restart_file "$good" "nosuch.nc" --restart "$tmp/nosuch.nc"
# the case file itself is missing
$EFSI_MPIRUN -np 1 "$efsi" -o "$tmp/new" "$tmp/absent.ini" 2> "$tmp/err" > /dev/null
status=$?
if [ $status -eq 2 ] && grep -q "absent.ini" "$tmp/err" && [ ! -e "$tmp/new" ]; then
  echo "ok missing case file"; passes=$((passes + 1))
else
  echo "FAIL missing case file: status $status"; failures=$((failures + 1))
fi
# an existing output directory with efsi output is refused without --restart
printf '%s\n' "$good" > "$tmp/good.ini"
expect existing_output "$good" "already holds efsi output"
echo "input errors: $passes passed, $failures failed"
[ $failures -eq 0 ]
