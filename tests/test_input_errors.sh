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
# expect NAME 'case text' 'expected words in the message' [extra efsi arguments]; the output
# directory is $tmp/existing, holding a diagnostics.csv of its own, or out_dir when set
expect() {
  name=$1 text=$2 words=$3
  shift 3
  printf '%s\n' "$text" > "$tmp/$name.ini"
  mkdir -p "$tmp/existing" "${out_dir:-$tmp/existing}"
  echo keep > "$tmp/existing/diagnostics.csv"
  before=$(ls -lA --time-style=full-iso "${out_dir:-$tmp/existing}" | md5sum)   # the files, not . and ..
  $EFSI_MPIRUN -np 1 "$efsi" -o "${out_dir:-$tmp/existing}" "$@" "$tmp/$name.ini" > "$tmp/out" 2> "$tmp/err"
  status=$?
  after=$(ls -lA --time-style=full-iso "${out_dir:-$tmp/existing}" | md5sum)
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
# damaged restart files: each refused with one line naming the file, before anything is
# allocated or written
printf '%s\n' "$good" > "$tmp/good.ini"
$EFSI_MPIRUN -np 1 "$efsi" -o "$tmp/made" "$tmp/good.ini" > /dev/null ||
  { echo "FAIL: making a restart file"; failures=$((failures + 1)); }
valid=$tmp/made/restart_00000002.nc
head -c 2000 "$valid" > "$tmp/truncated.nc"
: > "$tmp/empty.nc"
echo "step,time" > "$tmp/text.nc"
ncdump "$valid" > "$tmp/valid.cdl"
sed 's/efsi_restart_format = 1/efsi_restart_format = 7/' "$tmp/valid.cdl" | ncgen -k nc4 -o "$tmp/version.nc" -
awk '/^ p =/ { print; getline; sub(/^  [^,]*,/, "  NaN,") } { print }' "$tmp/valid.cdl" |
  ncgen -k nc4 -o "$tmp/nan.nc" -
expect restart_truncated "$good" "truncated.nc: a truncated file: 2000 bytes of the " --restart "$tmp/truncated.nc"
expect restart_empty "$good" "empty.nc: an empty file, not a NetCDF file" --restart "$tmp/empty.nc"
expect restart_not_netcdf "$good" "text.nc: not a NetCDF file" --restart "$tmp/text.nc"
expect restart_wrong_shape "$good" "restart_00000002.nc: grid is 8x8x8, case has 8x8x16" \
  --restart "$valid" --set grid.cells="8 8 16"
expect restart_wrong_version "$good" "version.nc: restart format 7, this efsi reads format 1" \
  --restart "$tmp/version.nc"
# (the values are read when the run starts: into a folder of its own, beyond the file's step)
out_dir=$tmp/nan-run expect restart_nan "$good" "nan.nc: variable p holds NaN at cell (0, 0, 0)" \
  --restart "$tmp/nan.nc" --steps 4
# damaged voxel files
voxels good32 32 phi
head -c 600 "$tmp/good32.nc" > "$tmp/vtruncated.nc"
awk 'BEGIN { printf "netcdf v { dimensions: z = 32 ; y = 32 ; x = 32 ; variables: double phi(z, y, x) ; data: phi = NaN"
             for (i = 1; i < 32768; i++) printf ", 0"; print " ; }" }' | ncgen -k nc4 -o "$tmp/vnan.nc" -
for v in vtruncated empty text vnan; do
  case $v in
    vnan) words="vnan.nc: variable phi has the value nan" ;;
    vtruncated) words="vtruncated.nc: variable phi holds the NetCDF fill value" ;;
    *) words="$v.nc: voxels.file: cannot open" ;;
  esac
  expect "voxels_$v" "$solid
[voxels]
file = $tmp/$v.nc
modulus = 1" "$words"
done
# sizes: an enormous grid is refused for the memory it needs, or for the size of one rank's
# block, before anything is allocated; --check of 10^12 cells on 10^5 ranks in 64 bits
expect enormous_memory "[grid]
cells = 1200 1200 1200
length = 1 1 1
[time]
steps = 2" "grid.cells: 1200 x 1200 x 1200 cells need"
expect enormous_block "[grid]
cells = 100000 100000 100000
length = 1 1 1
[time]
steps = 2" "grid.cells: a block of 100000 x 100000 x 100000 cells per rank"
printf '[grid]\ncells = 10000 10000 10000\nlength = 1 1 1\n[time]\nsteps = 2\n' > "$tmp/huge.ini"
$EFSI_MPIRUN -np 1 "$efsi" --check --ranks 100000 "$tmp/huge.ini" > "$tmp/out" 2> "$tmp/err"
status=$?
if [ $status -eq 0 ] && grep -q "grid 10000 x 10000 x 10000 = 1000000000000 cells" "$tmp/out" &&
   awk '/ ranks as / { split($0, w, " "); p = w[4] * w[6] * w[8]; n = 10000 / w[4] * 10000 / w[6] * 10000 / w[8]
                       if (w[1] != 100000 || p != 100000 || w[9] != 10000 / w[4] || n * p != 1e12) exit 1; found = 1 }
        / memory: / { mib = $2; per_cell = $6; total = $10
                      if (mib * 1048576 / per_cell < 0.99e7 || total < 1e5 * mib / 1024 * 0.99 || total > 1e5 * mib / 1024 * 1.01) exit 1; mem = 1 }
        END { exit !(found && mem) }' "$tmp/out"; then
  echo "ok 64-bit sizes: $(grep -E 'grid|ranks as|memory' "$tmp/out" | tr -s ' ' | tr '\n' ';')"; passes=$((passes + 1))
else
  echo "FAIL 64-bit sizes: status $status"; cat "$tmp/out" "$tmp/err"; failures=$((failures + 1))
fi
# an existing output directory with efsi output is refused without --restart
expect existing_output "$good" "already holds efsi output"
echo "input errors: $passes passed, $failures failed"
[ $failures -eq 0 ]
