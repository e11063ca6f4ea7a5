#!/bin/sh
# A spherical capsule in simple shear, reduced (docs/membrane.md, "A spherical capsule in
# simple shear"): verify/sphere-shear --body capsule at Ca = 0.05, 5 cells
# a radius in a box of 4 radii, Re = 0.1, to a shear strain of 1, on one thread (15 s).
# What the model does today, asserted: the interior's volume kept to round-off, det B
# within 2 % of 1 in the bands (the normal fibre's reset at every step keeps it to 0.7 %), D of the moments between 0.11 and 0.15 (0.130 measured; the
# small-deformation theory's 0.104, raised by the box's walls one radius from the capsule
# and by the coarse band), rising, and the inclination below 45 degrees.  A change to the
# membrane that loses its strain (D grows without bound) or stiffens it fails here.  Then
# the neo-Hookean capsule at Ca = 0.15 (k_b = 1e-3 G_s R^2), 5 cells a radius in the box of 4,
# to a strain of 1.5 (15 s), through verify/capsule-reference: D over the strains 1 to 1.5
# within 8 % of Doddi and Bagchi's steady D (+3.8 % measured: the box's walls raise it, the
# transient lowers it) and its table written.
# Skipped (77) without /usr/bin/python3 or numpy, and in a build with --enable-debug; 1 on
# failure.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-.}
py=/usr/bin/python3
[ -x "$py" ] || { echo "/usr/bin/python3 not found: skipped"; exit 77; }
"$py" -c 'import numpy' 2>/dev/null || { echo "python3 numpy absent: skipped"; exit 77; }
efsi=$top_builddir/efsi
[ -x "$efsi" ] || { echo "no $efsi"; exit 1; }
# the sanitizers' build (configure --enable-debug) runs this 25 times slower, about 6
# minutes: it is left to the native build's suite; tests/test_membrane_run.sh runs the
# membrane's kernels under the sanitizers
if grep -q -- '--enable-debug' "$top_builddir/config.log" 2> /dev/null; then
  echo "a build with --enable-debug: skipped (the native build runs it)"
  exit 77
fi
dir=$(mktemp -d /tmp/efsi-test-capsule-XXXXXX) || exit 1
trap 'rm -rf "$dir"' EXIT

OMP_NUM_THREADS=1 "$py" "$top_srcdir/verify/sphere-shear" --efsi "$efsi" --body capsule \
  --ca 0.05 --cells 5 --box 4 --re 0.1 --strain 1 --window 0.5 --no-extra --launcher none \
  --shape-from diagnostics --out "$dir" > "$dir/table.txt" 2>&1 || {
  echo "verify/sphere-shear --body capsule failed"; cat "$dir/table.txt"; exit 1; }
cat "$dir/table.txt"

"$py" - "$dir" "$top_srcdir/verify" <<'PYTHON' || exit 1
import csv, importlib.machinery, importlib.util, os, sys
sys.dont_write_bytecode = True
loader = importlib.machinery.SourceFileLoader("ss", os.path.join(sys.argv[2], "sphere-shear"))
spec = importlib.util.spec_from_loader("ss", loader)
ss = importlib.util.module_from_spec(spec)
loader.exec_module(ss)
run = os.path.join(sys.argv[1], "capsule-ca0.05-n5-box4-re0.1")
rows = list(csv.DictReader(open(os.path.join(run, "diagnostics.csv"))))
shape = ss.read_shape(run, "sphere", "diagnostics")
gdot = 0.1
d = [(t * gdot, ss.shape(v, M)[1], ss.shape(v, M)[2]) for t, v, M in shape]
v0, v1 = float(rows[0]["volume_sphere"]), float(rows[-1]["volume_sphere"])
det_lo = min(float(r["detB_min"]) for r in rows)
det_hi = max(float(r["detB_max"]) for r in rows)
half = [x for s, x, _ in d if abs(s - 0.5) < 0.03]
end_strain, end_d, end_theta = d[-1]
checks = [
    (abs(v1 / v0 - 1) < 1e-12, "volume kept: %.3g relative" % abs(v1 / v0 - 1)),
    (0.98 < det_lo and det_hi < 1.02, "det B in [%.4f, %.4f]" % (det_lo, det_hi)),
    (abs(end_strain - 1.0) < 0.01, "ran to a strain of %.3f" % end_strain),
    (0.11 < end_d < 0.15, "D at a strain of 1: %.4f (0.11 to 0.15)" % end_d),
    (bool(half) and half[0] < end_d, "D rising: %.4f at 0.5, %.4f at 1" % (
        half[0] if half else float("nan"), end_d)),
    (25 < end_theta < 45, "inclination %.2f degrees" % end_theta),
]
bad = 0
for ok, what in checks:
    print(("ok    " if ok else "FAIL  ") + what)
    bad += not ok
sys.exit(1 if bad else 0)
PYTHON

OMP_NUM_THREADS=1 "$py" "$top_srcdir/verify/sphere-shear" --efsi "$efsi" --body capsule \
  --law neo-hookean --bending 1e-3 --ca 0.15 --cells 5 --box 4 --re 0.1 --strain 1.5 \
  --window 0.5 --no-extra --launcher none --shape-from diagnostics --out "$dir" \
  > "$dir/table-nh.txt" 2>&1 || {
  echo "verify/sphere-shear --law neo-hookean failed"; cat "$dir/table-nh.txt"; exit 1; }
"$py" "$top_srcdir/verify/capsule-reference" "$dir/reference.png" "$dir/reference.csv" \
  --window 1 1.5 "$dir/capsule-nh-ca0.15-n5-box4-re0.1" || {
  echo "verify/capsule-reference failed"; exit 1; }
"$py" - "$dir/reference.csv" <<'PYTHON' || exit 1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
vs = rows[0]["vs D&B 2008"] if len(rows) == 1 else ""
ok = len(rows) == 1 and vs.endswith("%") and abs(float(vs.rstrip(" %"))) < 8.0
print(("ok    " if ok else "FAIL  ") + "the neo-Hookean capsule's D against Doddi and Bagchi: %s "
      "(within 8 %%)" % (vs or "no row"))
sys.exit(0 if ok else 1)
PYTHON
