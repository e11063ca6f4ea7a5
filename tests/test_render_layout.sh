#!/bin/sh
# tools/efsi-render's bodies and layout:
#   - 4 RBCs and 6 platelets packed close in a 10 x 5 x 5 um channel (fewer connected regions
#     of phi >= 1/2 than bodies: some touch) are counted and coloured by their own tracers
#     (bodies.nc): 10 bodies, 4 rbc and 6 platelet, ten colours; each body is drawn whole
#     (no wider than it is), one cut by a periodic side across that side; the same file
#     away from its folder's tracers counts its regions, and says so;
#   - the pictures of that channel and of a thin one (runs/poiseuille.ini's 4 x 32 x 4
#     cells, 1.25 x 10 x 1.25 um) keep every part in its place: the 3-D box, its bodies and
#     its labels inside the left half and above the wall shear's colour bar; ticks in um on
#     the three axes; no "x10^n" beside a colour bar (its power of ten is in its label),
#     which keeps clear of its tick numbers; the title inside the picture; the slice panel
#     at least half its room wide and high; the thin channel's stretch said in the picture
#     (x and z drawn 2.7 times longer; the slice's x axis);
#   - under a Python without numpy efsi-render says in one line what to install and exits
#     with status 2, without a traceback.
# Skipped (77) without python3's matplotlib, skimage, scipy or netCDF4.
set -u
. "$(dirname "$0")/lib.sh"
srcdir=${top_srcdir:-$(dirname "$0")/..}
render="/usr/bin/python3 $srcdir/tools/efsi-render"

# a Python without numpy: a numpy that cannot be imported ahead of the installed one
mkdir -p "$tmp/no-numpy/numpy"
echo 'raise ImportError("No module named numpy")' > "$tmp/no-numpy/numpy/__init__.py"
PYTHONPATH="$tmp/no-numpy" $render "$tmp" > "$tmp/nonumpy.out" 2> "$tmp/nonumpy.err"
status=$?
[ $status -eq 2 ] && [ "$(wc -l < "$tmp/nonumpy.err")" -eq 1 ] &&
  grep -q "has no numpy.*apt-get install python3-numpy" \
    "$tmp/nonumpy.err" && ! grep -q Traceback "$tmp/nonumpy.err" ||
  fail "without numpy: status $status, $(cat "$tmp/nonumpy.err")"

/usr/bin/python3 -c 'import matplotlib, skimage, scipy, netCDF4' 2>/dev/null \
  || { echo "python3 matplotlib, skimage, scipy or netCDF4 absent: skipped"; exit 77; }

write_case "$tmp/mix.ini" "40 20 20" "10 5 5" <<'EOF'
[boundary]
y = wall
z = periodic
[drive]
pressure_gradient = 2e-3
[rbc]
count = 4
diameter = 4
modulus = 2e-2
[platelet]
count = 6
modulus = 0.2
[time]
steps = 2
[output]
fields_every = 2
EOF
$EFSI_MPIRUN -np 1 "$efsi" -o "$tmp/mix" "$tmp/mix.ini" > "$tmp/mix.log" 2>&1 || fail "run mix"
$EFSI_MPIRUN -np 1 "$efsi" -o "$tmp/channel" --set time.end_time=8 --set output.fields_every=500 \
  "$srcdir/runs/poiseuille.ini" > "$tmp/channel.log" 2>&1 || fail "run the thin channel"
$render --size 1200x500 "$tmp/mix/fields_00000002.nc" > /dev/null || fail "render mix"
[ -s "$tmp/mix/fields_00000002.png" ] || fail "no picture of mix"

mkdir "$tmp/lone"
cp "$tmp/mix/fields_00000002.nc" "$tmp/lone/"
/usr/bin/python3 - "$srcdir/tools/efsi-render" "$tmp/mix/fields_00000002.nc" \
  "$(ls "$tmp"/channel/fields_*.nc | tail -n 1)" "$tmp/lone/fields_00000002.nc" \
  <<'PY' || fail "the bodies or the layout"
import importlib.machinery
import importlib.util
import sys
import numpy as np
loader = importlib.machinery.SourceFileLoader("efsi_render", sys.argv[1])
render = importlib.util.module_from_spec(importlib.util.spec_from_loader("efsi_render", loader))
loader.exec_module(render)
from matplotlib.transforms import Bbox

# the bodies: by their tracers, not by their regions
f = render.read_fields(sys.argv[2])
regions = sum(render.label_bodies(f["phi"][m] >= 0.5, render.periodic_axes(f))[1]
              for m in ("rbc", "platelet"))
assert regions < 10, "no two bodies touch (%d regions): the case tests nothing" % regions
frame = render.Frame(f, 1.0, "body")
assert frame.labels_from == "bodies.nc", frame.labels_from
assert frame.counts == {"rbc": 4, "platelet": 6} and frame.bodies == 10, frame.counts
assert frame.bodies_words() == "10 bodies (4 rbc, 6 platelet)", frame.bodies_words()
numbers = sorted(n for _, n, _ in frame.surfaces)
assert numbers == list(range(10)), numbers
colours = {frame.colour_of(m, n) for m, n, _ in frame.surfaces}
assert len(colours) == 10, colours
crossing = 0
for material, n, tri in frame.surfaces:
    span = tri.reshape(-1, 3).max(axis=0) - tri.reshape(-1, 3).min(axis=0)
    size = 4.0 if material == "rbc" else 2.0     # the RBC's diameter, the platelet's
    assert (span < size + 2 * 0.25).all(), "body %d drawn %s um wide" % (n, span)
    low, high = tri.reshape(-1, 3).min(axis=0), tri.reshape(-1, 3).max(axis=0)
    crossing += int(((low[[0, 2]] < 0) | (high[[0, 2]] > np.array([10, 5]))).any())
assert crossing >= 1, "no body drawn across a periodic side"
# without its folder's tracers: the regions, and the title says so
lone = render.Frame(render.read_fields(sys.argv[4]), 1.0, "body")
assert lone.bodies == regions and lone.bodies_words().startswith(
    "%d regions of phi >= 1/2 (" % regions) and "no body tracers of step 2" in \
    lone.bodies_words(), lone.bodies_words()
print("ok: %d regions, 10 bodies by their tracers (4 rbc, 6 platelet), 10 colours, each drawn "
      "whole, %d across a periodic side" % (regions, crossing))


def overlap(a, b):
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def check(path, size):
    f = render.read_fields(path)
    frame = render.Frame(f, 1.0, "body")
    limits = render.new_limits()
    render.add_to_limits(limits, frame)
    fig = render.figure_of(frame, limits, size, "")
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    W, H = size
    scene = next(a for a in fig.axes if a.name == "3d")
    bar = [a for a in fig.axes if a.get_position().width > 3 * a.get_position().height]
    slice_ax = max((a for a in fig.axes if a.name != "3d" and a not in bar),
                   key=lambda a: a.get_position().width)
    room = Bbox.from_extents(0, 0, W / 2, H)
    box = render.scene_bbox(fig, scene)
    assert room.x0 - 1 <= box.x0 and box.x1 <= room.x1 + 1 and 0 <= box.y0 and box.y1 <= H, (
        "the 3-D panel %s outside the left half %s" % (box.extents, room.extents))
    assert box.width > 0.35 * W / 2 or box.height > 0.5 * H, "3-D panel small: %s" % box.bounds
    for axis, name in ((scene.xaxis, "x"), (scene.yaxis, "z"), (scene.zaxis, "y")):
        low, high = axis.get_view_interval()
        ticks = [t for t in axis.get_majorticklocs() if low - 1e-9 <= t <= high + 1e-9]
        assert len(ticks) >= 2 and axis.label.get_text().startswith(name + " (um)"), (
            name, ticks, axis.label.get_text())
    assert len(bar) == 1, "one wall shear colour bar, not %d" % len(bar)
    cb = bar[0]
    assert not overlap(box, cb.get_tightbbox(r)), "the 3-D panel covers the colour bar"
    for a in fig.axes:
        if a.name != "3d":
            for axis in (a.xaxis, a.yaxis):
                assert not axis.get_offset_text().get_text(), "a power of ten at a bar's end"
    ticks = [t.get_window_extent(r) for t in cb.get_xticklabels() if t.get_text()]
    label = cb.xaxis.label.get_window_extent(r)
    assert len(ticks) >= 2 and not any(overlap(t, label) for t in ticks), "bar's label on its ticks"
    assert all(a.x1 < b.x0 for a, b in zip(ticks, ticks[1:])), "the bar's numbers touch"
    assert 0 <= label.x0 and label.x1 <= W / 2 and label.y0 >= 0, label.extents
    title = fig.texts[0].get_window_extent(r)
    assert 0 <= title.x0 and title.x1 <= W and title.y1 <= H, title.extents
    sb = slice_ax.get_window_extent(r)
    assert sb.width > 0.5 * (W / 2 - 142) and sb.height > 0.5 * (H - 104), (
        "the slice is a strip: %s" % (sb.bounds,))
    assert sb.x0 > W / 2 and slice_ax.get_tightbbox(r).x1 <= W
    for t in fig.texts:
        e = t.get_window_extent(r)
        assert 0 <= e.x0 and e.x1 <= W and 0 <= e.y0 and e.y1 <= H, (t.get_text(), e.extents)
    said = [t.get_text() for t in fig.texts[1:]]
    thin = f["L"][0] < f["L"][1] / 3
    assert said == (["box: x and z drawn 2.7 times longer"] if thin else []), said
    assert ("drawn x" in slice_ax.xaxis.label.get_text()) == thin, slice_ax.xaxis.label.get_text()
    return box, sb


for path, size in ((sys.argv[2], (1200, 500)), (sys.argv[3], (1500, 640)),
                   (sys.argv[3], (800, 400))):
    box, sb = check(path, size)
    print("ok: %s at %dx%d: 3-D panel %.0f x %.0f px in the left half, slice %.0f x %.0f px"
          % (path.split("/")[-2], size[0], size[1], box.width, box.height, sb.width, sb.height))
PY

[ $failures -eq 0 ] && echo "ok: efsi-render's bodies and layout"
[ $failures -eq 0 ]
