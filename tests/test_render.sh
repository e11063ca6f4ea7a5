#!/bin/sh
# tools/efsi-render draws what a fields file holds, where it is: a sphere in a channel at
# x = Lx/4, and the same sphere at x = 3Lx/4, each rendered to a PNG of the asked size that
# is not blank, whose body colour (the first body's red) fills a disc in the velocity slice
# on the side of the slice where the sphere is and shows in the 3-D panel further right for
# the second; the floor's wall shear colour map is there.  A run folder becomes one numbered
# frame per fields file, named as the file (and a movie where ffmpeg is installed), --last one
# picture of the newest under the same name; a vessel case draws its lumen; a file that is no fields file is refused with exit
# status 2.  Skipped (77) without python3's matplotlib, skimage, scipy or netCDF4.
set -u
. "$(dirname "$0")/lib.sh"
render="/usr/bin/python3 ${top_srcdir:-$(dirname "$0")/..}/tools/efsi-render"
/usr/bin/python3 -c 'import matplotlib, skimage, scipy, netCDF4' 2>/dev/null \
  || { echo "python3 matplotlib, skimage, scipy or netCDF4 absent: skipped"; exit 77; }

sphere() {   # sphere NAME X: a sphere of radius 1 at (X, 2, 2) in an 8 x 4 x 4 channel
  write_case "$tmp/$1.ini" "32 16 16" "8 4 4" <<EOF
[boundary]
y = wall
[drive]
pressure_gradient = 0.05
[sphere]
center = $2 2 2
radius = 1
modulus = 0.5
[time]
steps = 6
[output]
fields_every = 3
EOF
  $EFSI_MPIRUN -np 1 "$efsi" -o "$tmp/$1" "$tmp/$1.ini" > "$tmp/$1.log" 2>&1 || fail "run $1"
}
sphere left 2
sphere right 6
$render --size 1200x500 "$tmp/left/fields_00000006.nc" > "$tmp/left.out" 2>&1 || fail "render left"
$render --size 1200x500 -o "$tmp/pics" "$tmp/right/fields_00000006.nc" > "$tmp/right.out" 2>&1 ||
  fail "render right"
grep -q "fields_00000006.png" "$tmp/left.out" || fail "the PNG's path is not printed"

/usr/bin/python3 - "$tmp/left/fields_00000006.png" "$tmp/pics/fields_00000006.png" <<'PY' ||
import sys
import numpy as np
from matplotlib import image, colormaps

def look(path):
    a = image.imread(path)[..., :3]
    assert a.shape[:2] == (500, 1200), (path, a.shape)
    assert a.std() > 0.05, "%s is blank (std %g)" % (path, a.std())
    r, g, b = a[..., 0], a[..., 1], a[..., 2]
    red = (r > 0.5) & (g < 0.32) & (b < 0.32) & (r > 2 * g)
    w = a.shape[1]
    left, right = red[:, : w // 2], red[:, w // 2:]
    assert left.sum() > 300 and right.sum() > 300, "%s: red pixels %d (3-D) and %d (slice)" % (
        path, left.sum(), right.sum())
    # the floor, coloured by the wall shear stress (cividis)
    cividis = colormaps["cividis"](np.linspace(0, 1, 64))[:, :3]
    panel = a[:, : w // 2].reshape(-1, 3)
    near = np.min(np.linalg.norm(panel[:, None, :] - cividis[None], axis=2), axis=1) < 0.04
    assert near.sum() > 2000, "%s: %d pixels of the wall shear's colours" % (path, near.sum())
    xs = np.nonzero(red)[1]
    return xs[xs < w // 2].mean(), xs[xs >= w // 2].mean(), w

l3, lslice, w = look(sys.argv[1])
r3, rslice, _ = look(sys.argv[2])
centre = 0.75 * w   # the slice's axes are centred at 0.58 + 0.34 / 2 of the width
assert lslice < centre < rslice, "slice: sphere at x = 2 drawn at %g, at x = 6 at %g (centre %g)" % (
    lslice, rslice, centre)
assert r3 > l3 + 20, "3-D: the sphere at x = 6 (%g) is not right of the one at x = 2 (%g)" % (r3, l3)
print("ok: the sphere at x = 2 and 6 is drawn at pixel x %.0f and %.0f of the slice (centre %.0f), "
      "%.0f and %.0f in 3-D" % (lslice, rslice, centre, l3, r3))
PY
  fail "the pictures do not show the sphere where it is"

# a run folder: one frame per fields file (steps 0, 3, 6) named as the file, the movie where
# ffmpeg is; --last names the newest frame the same way
$render --size 600x300 "$tmp/left" > "$tmp/series.out" 2> "$tmp/series.err" || fail "render a folder"
for n in 00000000 00000003 00000006; do
  [ -s "$tmp/left/pictures/fields_$n.png" ] || fail "no fields_$n.png"
done
[ "$(ls "$tmp/left/pictures" | grep -c '\.png$')" -eq 3 ] || fail "frames: $(ls "$tmp/left/pictures")"
if command -v ffmpeg > /dev/null 2>&1; then
  [ -s "$tmp/left/pictures/movie.mp4" ] || fail "ffmpeg is installed, but no movie.mp4"
else
  grep -q "no ffmpeg" "$tmp/series.err" || fail "no word of the missing ffmpeg"
fi
$render --last --size 600x300 "$tmp/left" > "$tmp/last.out" || fail "render --last"
[ "$(cat "$tmp/last.out")" = "$tmp/left/pictures/fields_00000006.png" ] ||
  fail "--last wrote $(cat "$tmp/last.out")"

# a vessel: the lumen's surface coloured by the wall shear stress
write_case "$tmp/tube.ini" "24 20 20" "6 5 5" <<'EOF'
[boundary]
y = wall
z = wall
[drive]
pressure_gradient = 0.05
[vessel]
shape = tube
diameter = 3.5
modulus = 0.5
[time]
steps = 4
[output]
fields_every = 4
EOF
$EFSI_MPIRUN -np 1 "$efsi" -o "$tmp/tube" "$tmp/tube.ini" > /dev/null 2>&1 || fail "run the tube"
$render --size 600x300 --viscosity 1 "$tmp/tube/fields_00000004.nc" > /dev/null ||
  fail "render the tube"
[ -s "$tmp/tube/fields_00000004.png" ] || fail "no picture of the tube"

# the wall shear stress takes mu from the fields file, a --set of the run included
$EFSI_MPIRUN -np 1 "$efsi" -o "$tmp/tube2" --steps 2 --set output.fields_every=2 \
  --set fluid.viscosity=2 "$tmp/tube.ini" > /dev/null 2>&1 || fail "run the tube at mu = 2"
/usr/bin/python3 - "${top_srcdir:-$(dirname "$0")/..}/tools/efsi-render" "$tmp/tube2" <<'PY' ||
import importlib.machinery
import importlib.util
import sys
loader = importlib.machinery.SourceFileLoader("efsi_render", sys.argv[1])
render = importlib.util.module_from_spec(importlib.util.spec_from_loader("efsi_render", loader))
loader.exec_module(render)
first = render.efsi_output.fields_files(sys.argv[2])[0]
mu, source = render.viscosity_of(sys.argv[2], None, first)
assert mu == 2.0, "mu %g from %s" % (mu, source)
print("ok: mu = 2 from %s" % source)
PY
  fail "mu of the wall shear stress is not the run's"

# the selective outputs: a fields file of phi only (output.fields) draws the body without
# the velocity panel; a slices file (planes z = 2 and x = 6 through the sphere) draws one
# panel per plane with the sphere's outline in its colour
$EFSI_MPIRUN -np 1 "$efsi" -o "$tmp/some" --set output.fields=phi_sphere --set slices.every=6 \
  --set slices.z=2 --set slices.x=6 "$tmp/right.ini" > /dev/null 2>&1 || fail "run with slices"
$render --size 600x300 "$tmp/some/fields_00000006.nc" > /dev/null ||
  fail "render a fields file without velocity"
$render --size 900x400 "$tmp/some/slices_00000006.nc" > "$tmp/slices.out" ||
  fail "render a slices file"
[ "$(cat "$tmp/slices.out")" = "$tmp/some/slices_00000006.png" ] ||
  fail "the slices picture is $(cat "$tmp/slices.out")"
/usr/bin/python3 - "$tmp/some/slices_00000006.png" <<'PY' || fail "the slices picture"
import sys
from matplotlib import image
a = image.imread(sys.argv[1])[..., :3]
r, g, b = a[..., 0], a[..., 1], a[..., 2]
red = (r > 0.5) & (g < 0.32) & (b < 0.32) & (r > 2 * g)
w = a.shape[1]
# two planes through the sphere: its outline in both halves of the picture
assert red[:, : w // 2].sum() > 30 and red[:, w // 2:].sum() > 30, red.sum()
print("ok: a slices file drawn, the sphere's outline in both planes")
PY

# not a fields file: one line, exit status 2
echo "step,time" > "$tmp/notes.nc"
$render "$tmp/notes.nc" > /dev/null 2> "$tmp/bad.err"
status=$?
[ $status -eq 2 ] && [ "$(wc -l < "$tmp/bad.err")" -eq 1 ] && grep -q "notes.nc" "$tmp/bad.err" ||
  fail "a file that is no fields file: status $status, $(cat "$tmp/bad.err")"
$render "$tmp/no-such-folder" > /dev/null 2>&1
[ $? -eq 2 ] || fail "a missing path is not refused with status 2"

[ $failures -eq 0 ] && echo "ok: efsi-render" 
[ $failures -eq 0 ]
