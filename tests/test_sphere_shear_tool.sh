#!/bin/sh
# The analysis of verify/sphere-shear (docs/verification-solid.md, "A neo-Hookean sphere in
# shear"): diagnostics.csv files written here from the theory's own transient, with a known
# error put into the deformation (+10 % of D at 8 cells per radius, +5 % at 12, theta
# +1 degree), read back through --only-analyse --at: the shape from the moments, the
# comparison at fixed strain and the order of the error (log 2 / log 1.5 = 1.71) must come
# out as put in.  A short run of efsi gives the same table from bodies.nc as from
# diagnostics.csv.  Skipped (77) without /usr/bin/python3 or numpy; 1 on failure.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
py=/usr/bin/python3
[ -x "$py" ] || { echo "/usr/bin/python3 not found: skipped"; exit 77; }
"$py" -c 'import numpy' 2>/dev/null || { echo "python3 numpy absent: skipped"; exit 77; }
dir=$(mktemp -d /tmp/efsi-test-sphere-tool-XXXXXX) || exit 1
trap 'rm -rf "$dir"' EXIT

"$py" - "$dir" "$top_srcdir/verify" <<'PYTHON' || exit 1
import math, os, sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[2])
import numpy as np
import roscoe_theory as rt

out, ca, re_ = sys.argv[1], 0.2, 0.2           # gdot = Re with R = rho = mu = 1
rows, _ = rt.transient(ca, t_end=2.0, dt=0.01, every=0.05)   # rows every 0.05 exactly
for n, err in ((8, 0.10), (12, 0.05)):
    d = os.path.join(out, "ca%g-n%d-box8-re%g" % (ca, n, re_))
    os.makedirs(d)
    with open(os.path.join(d, "diagnostics.csv"), "w") as f:
        f.write("step,time,volume_sphere," + ",".join(
            "moment_%s_sphere" % k for k in ("xx", "yy", "zz", "xy", "xz", "yz")) + "\n")
        for k, (t, D, theta, a1, a2, a3) in enumerate(rows):
            D2 = D * (1.0 + err)                       # the error put in, volume kept
            s = math.sqrt(a1 * a2 / ((1.0 + D2) * (1.0 - D2)))
            b1, b2 = s * (1.0 + D2), s * (1.0 - D2)
            th = math.radians(theta + 1.0)
            R = np.array([[math.cos(th), -math.sin(th), 0], [math.sin(th), math.cos(th), 0],
                          [0, 0, 1]])
            M = R @ np.diag([b1 * b1 / 5, b2 * b2 / 5, a3 * a3 / 5]) @ R.T
            vol = 4.0 * math.pi / 3.0 * b1 * b2 * a3
            f.write("%d,%.17g,%.17g,%s\n" % (k, t / re_, vol, ",".join("%.17g" % x for x in (
                M[0, 0], M[1, 1], M[2, 2], M[0, 1], M[0, 2], M[1, 2]))))
PYTHON

"$py" "$top_srcdir/verify/sphere-shear" --only-analyse --ca 0.2 --cells 8 12 --re 0.2 \
  --strain 2 --no-extra --out "$dir" --at 1 1.5 > "$dir/table.txt" || {
  echo "verify/sphere-shear --only-analyse failed"; cat "$dir/table.txt"; exit 1; }
cat "$dir/table.txt"

"$py" - "$dir/results.json" <<'PYTHON' || exit 1
import json, math, sys
res = {r["n"]: r for r in json.load(open(sys.argv[1]))}
bad = 0
for n, err in ((8, 0.10), (12, 0.05)):
    for a in res[n]["at"]:
        ok = abs(a["D_error"] - err) < 1e-4 and abs(a["theta_error"] - 1.0) < 1e-3
        print("n = %d at gdot t = %g: D error %.4f (put in %.2f), theta error %.3f (1)%s"
              % (n, a["strain"], a["D_error"], err, a["theta_error"], "" if ok else "  WRONG"))
        bad += not ok
lines = [l for l in open(sys.argv[1].replace("results.json", "table.md")) if l.startswith("| 0.2 | 8 -> 12")]
orders = [float(x) for x in lines[-1].strip().strip("|").split("|")[2:]] if lines else []
want = math.log(2.0) / math.log(1.5)
print("orders of the D error:", orders, "(put in %.3f)" % want)
bad += not orders or any(abs(o - want) > 0.01 for o in orders)
sys.exit(1 if bad else 0)
PYTHON

# a run (Ca = 0.2, 4 cells per radius in a box of 4 radii, to a strain of 0.5): the table from
# bodies.nc (the body's moments, the default) is the one from diagnostics.csv's material
# columns (--shape-from diagnostics): the same figures; the moments agree to the volume of
# the small undershoots of phi (phi < 0 counts in diagnostics.csv, not in a body's cells)
"$py" -c 'import netCDF4' 2>/dev/null || { echo "python3 netCDF4 absent: the run not checked"; exit 0; }
. "$top_srcdir/tests/environment.sh"
efsi=${top_builddir:-.}/efsi
shear="$py $top_srcdir/verify/sphere-shear --ca 0.2 --cells 4 --box 4 --strain 0.5 --window 0.25 --no-extra"
$shear --efsi "$efsi" --launcher none --out "$dir/run" > "$dir/bodies.txt" 2>&1 || {
  echo "verify/sphere-shear failed"; cat "$dir/bodies.txt"; exit 1; }
$shear --only-analyse --out "$dir/run" --shape-from diagnostics > "$dir/diag.txt" || exit 1
grep "^| 0.2 | 4 |" "$dir/bodies.txt" > "$dir/a"
grep "^| 0.2 | 4 |" "$dir/diag.txt" > "$dir/b"
cat "$dir/a"
[ -s "$dir/a" ] && cmp -s "$dir/a" "$dir/b" || {
  echo "the table from bodies.nc differs from diagnostics.csv's:"; cat "$dir/b"; exit 1; }
"$py" - "$dir/run/ca0.2-n4-box4-re0.1" "$top_srcdir/verify/sphere-shear" <<'PYTHON' || exit 1
import importlib.machinery, importlib.util, sys
loader = importlib.machinery.SourceFileLoader("sphere_shear", sys.argv[2])
spec = importlib.util.spec_from_loader("sphere_shear", loader)
ss = importlib.util.module_from_spec(spec)
loader.exec_module(ss)
a, b = (ss.read_shape(sys.argv[1], "sphere", s) for s in ("bodies", "diagnostics"))
assert len(a) == len(b) > 5 and all(x[0] == y[0] for x, y in zip(a, b)), (len(a), len(b))
worst = max(max(abs(x[1] / y[1] - 1), max(abs(x[2][i][j] - y[2][i][j]) / y[2][0][0]
                                        for i in range(3) for j in range(3)))
            for x, y in zip(a, b))
assert 0 < worst < 1e-5, worst
print("ok: %d rows: the sphere's moments from bodies.nc and diagnostics.csv agree to %.1g, "
      "the table the same" % (len(a), worst))
PYTHON
