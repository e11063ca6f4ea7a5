#!/bin/sh
# verify/rbc-stretch, reduced (docs/membrane.md, "Stretching an RBC"): the membrane RBC at 16
# cells a diameter, the fluid 1000 times as dense as water, at rest and pulled by 193.1 pN
# for 600 us (a fifth of the way to its steady shape; about 5 s on one thread).  Asserted:
# at rest both diameters within 3 % of the RBC's 7.8 um; pulled, the axial diameter at least
# 1 um longer and the transverse one shorter; the tool's table written.  Skipped (77)
# without /usr/bin/python3, numpy or a NetCDF reader, and in a build with --enable-debug
# (the native build runs it); 1 on failure.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-.}
py=/usr/bin/python3
[ -x "$py" ] || { echo "/usr/bin/python3 not found: skipped"; exit 77; }
"$py" -c 'import numpy' 2>/dev/null || { echo "python3 numpy absent: skipped"; exit 77; }
"$py" -c 'import netCDF4' 2>/dev/null || "$py" -c 'import h5py' 2>/dev/null ||
  { echo "python3 netCDF4 and h5py absent: skipped"; exit 77; }
if grep -q -- '--enable-debug' "$top_builddir/config.log" 2> /dev/null; then
  echo "a build with --enable-debug: skipped (the native build runs it)"
  exit 77
fi
efsi=$top_builddir/efsi
[ -x "$efsi" ] || { echo "no $efsi"; exit 1; }
dir=$(mktemp -d /tmp/efsi-test-stretch-XXXXXX) || exit 1
trap 'rm -rf "$dir"' EXIT
OMP_NUM_THREADS=1 "$py" "$top_srcdir/verify/rbc-stretch" --efsi "$efsi" --cells 16 \
  --time 600 --density 1000 --forces 0 193.1 --out "$dir/runs" \
  --figure "$dir/stretch.png" "$dir/stretch.csv" > "$dir/table.txt" 2>&1 || {
  echo "verify/rbc-stretch failed"; cat "$dir/table.txt"; exit 1; }
cat "$dir/table.txt"
"$py" - "$dir/stretch.csv" <<'PYTHON'
import csv, sys
rows = {float(r["force_pN"]): r for r in csv.DictReader(open(sys.argv[1]))}
rest, pulled = rows.get(0.0), rows.get(193.1)
checks = []
if rest and pulled:
    a0, t0 = float(rest["axial"]), float(rest["transverse"])
    a1, t1 = float(pulled["axial"]), float(pulled["transverse"])
    checks = [(abs(a0 / 7.8 - 1) < 0.03 and abs(t0 / 7.8 - 1) < 0.03,
               "at rest: axial %.3f, transverse %.3f um (7.8 within 3 %%)" % (a0, t0)),
              (a1 > a0 + 1.0, "pulled: axial %.3f um, at least 1 um longer" % a1),
              (t1 < t0, "pulled: transverse %.3f um, shorter" % t1)]
else:
    checks = [(False, "the table lacks the two forces")]
print("\n".join(("ok    " if ok else "FAIL  ") + what for ok, what in checks))
sys.exit(0 if all(ok for ok, _ in checks) else 1)
PYTHON
