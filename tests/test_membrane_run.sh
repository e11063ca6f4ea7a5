#!/bin/sh
# Membrane RBCs through a whole run (docs/membrane.md): the quickstart's tube with its three
# RBCs as membranes round an interior five times as viscous (rbc.model = membrane), seeded
# as the solid ones are, for 40 steps.  The restart file holds each membrane's level
# (level_rbc); a run continued from step 20 ends with the bits of the uninterrupted one, and
# so does the same run on two ranks; --check counts the membrane's arrays and warns that the
# RBC's centre is thinner than the membrane's two bands.  Then one RBC pulled by the optical
# tweezers.  1 on failure.
. "$(dirname "$0")/lib.sh"
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
export OMP_NUM_THREADS=1
grep -v '^modulus = 2e-2' "$top_srcdir/runs/quickstart.ini" > "$tmp/case.ini"
set -- --set rbc.model=membrane --set rbc.surface_modulus=5e-3 --set rbc.dilatation=10 \
  --set rbc.viscosity=5 --set output.restart_every=20 --set output.fields_every=0

# the plain run's --check: the level and its next value counted (2 arrays more a cell than
# the solid RBC's, and one for the viscosity contrast)
mem() { "$efsi" --check "$@" 2>&1 | sed -n 's/.* \([0-9]*\) bytes per cell.*/\1/p'; }
solid=$(mem "$top_srcdir/runs/quickstart.ini")
membrane=$(mem "$@" "$tmp/case.ini")
if [ -n "$solid" ] && [ -n "$membrane" ] && [ "$membrane" -gt "$solid" ]; then
  ok "--check: $membrane bytes a cell with membrane RBCs, $solid with solid ones"
else
  fail "--check's bytes a cell: membrane '$membrane', solid '$solid'"
fi

# the quickstart's RBC is 20 cells across: its centre, 2.1 cells thick, is warned about
if "$efsi" --check "$@" "$tmp/case.ini" 2>&1 | grep -q "warning: rbc.model = membrane: the RBC's centre is 2.1 cells thick"; then
  ok "--check warns of the membrane RBC's thin centre"
else
  fail "no warning of the membrane RBC's thin centre"
fi

e1 -o "$tmp/whole" "$@" --steps 40 "$tmp/case.ini" > "$tmp/whole.log" 2>&1 ||
  { fail "the membrane run failed"; tail -5 "$tmp/whole.log"; }
if ! { e1 -o "$tmp/parts" "$@" --steps 20 "$tmp/case.ini" &&
        e1 -o "$tmp/parts" "$@" --steps 40 --restart latest "$tmp/case.ini"; } \
     > "$tmp/parts.log" 2>&1; then
  fail "the run in two parts failed"
  tail -5 "$tmp/parts.log"
fi
$EFSI_MPIRUN -np 2 "$efsi" -o "$tmp/two" "$@" --steps 40 "$tmp/case.ini" > "$tmp/two.log" 2>&1 ||
  { fail "the run on two ranks failed"; tail -5 "$tmp/two.log"; }

if ncdump -h "$tmp/whole/restart_00000040.nc" 2> /dev/null | grep -q 'double level_rbc('; then
  ok "the restart file holds level_rbc"
else
  fail "no level_rbc in the restart file"
fi
if same "$tmp/whole/restart_00000040.nc" "$tmp/parts/restart_00000040.nc"; then
  ok "continued from step 20: the bits of the uninterrupted run"
else
  fail "the continued run differs from the uninterrupted one"
fi
if same "$tmp/whole/restart_00000040.nc" "$tmp/two/restart_00000040.nc"; then
  ok "two ranks: the bits of one"
else
  fail "two ranks differ from one"
fi
# verify/membrane-band on the restart files: 40 steps from rest leave B = I, so the
# reference area B implies is the membrane's area, and the level's inside is the RBCs'
# interior (to 1e-3: each step shifts the level to the interior's volume); with --offsets,
# J_s is 1 in every bin of the band (to 1e-3); skipped without /usr/bin/python3 and numpy
if /usr/bin/python3 -c 'import numpy' 2> /dev/null; then
  if /usr/bin/python3 "$top_srcdir/verify/membrane-band" "$tmp/whole" --csv "$tmp/band.csv" \
       > "$tmp/band.log" 2>&1 &&
     /usr/bin/python3 - "$tmp/band.csv" <<'PYTHON'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
last = rows[-1]
ok = (len(rows) == 2 and float(last["A"]) > 0 and abs(float(last["ratio"]) - 1) < 1e-3
      and abs(float(last["V_psi"]) / float(last["V_phi"]) - 1) < 1e-3)
print("membrane-band: %d files, A %s, A / A0(B) %s, V_psi / V_phi %.4f"
      % (len(rows), last["A"], last["ratio"], float(last["V_psi"]) / float(last["V_phi"])))
sys.exit(0 if ok else 1)
PYTHON
  then
    ok "verify/membrane-band: the area B implies is the membrane's at rest"
  else
    fail "verify/membrane-band"
    cat "$tmp/band.log"
  fi
  # --offsets: at rest J_s is 1 at every offset of the band
  if /usr/bin/python3 "$top_srcdir/verify/membrane-band" "$tmp/whole" --offsets \
       > "$tmp/offsets.log" 2>&1 &&
     /usr/bin/python3 - "$tmp/offsets.log" <<'PYTHON'
import re, sys
lines = open(sys.argv[1]).read().split("J_s (and |grad psi| h)")[1].strip().splitlines()[2:]
pairs = [(float(j), float(g)) for line in lines
         for j, g in re.findall(r"(\S+) \((\S+)\)", line) if j != "nan"]
worst_j = max(abs(j - 1) for j, _ in pairs)
worst_g = max(abs(g - 1) for _, g in pairs)
print("membrane-band --offsets: %d bins, |J_s - 1| <= %.2g, ||grad psi| h - 1| <= %.2g"
      % (len(pairs), worst_j, worst_g))
sys.exit(0 if len(pairs) >= 8 and worst_j < 1e-3 else 1)
PYTHON
  then
    ok "verify/membrane-band --offsets: J_s 1 across the band at rest"
  else
    fail "verify/membrane-band --offsets"
    cat "$tmp/offsets.log"
  fi
else
  echo "python3 numpy absent: verify/membrane-band not checked"
fi

# the optical tweezers' pull (docs/membrane.md, "Stretching an RBC"): one membrane RBC
# pulled along x by 0.1 (100 pN) for 60 steps: it lengthens along x and narrows along y, its
# centroid stays (to 1e-8), and two ranks (1 x 1 x 2: their boundary cuts both patches) give
# the bits of one
cat > "$tmp/pull.ini" <<'CASE'
[grid]
cells = 48 32 32
length = 14.4 9.6 9.6
[boundary]
y = wall
z = wall
[rbc]
center = 7.2 4.8 4.8
orientation = z
model = membrane
surface_modulus = 5.3e-3
dilatation = 10
stretch = 0.1
[time]
steps = 60
[output]
diagnostics_every = 60
fields_every = 0
CASE
e1 -o "$tmp/pull1" "$tmp/pull.ini" > "$tmp/pull1.log" 2>&1 &&
  $EFSI_MPIRUN -np 2 "$efsi" -o "$tmp/pull2" "$tmp/pull.ini" \
    > "$tmp/pull2.log" 2>&1 || { fail "the pulled RBC's runs failed"; tail -5 "$tmp/pull2.log"; }
if same "$tmp/pull1/restart_00000060.nc" "$tmp/pull2/restart_00000060.nc"; then
  ok "the pull on two ranks: the bits of one"
else
  fail "the pull on two ranks differs from one"
fi
if awk -F, 'NR == 1 { for (c = 1; c <= NF; c++) col[$c] = c; next }
            NR == 2 { x0 = $col["centroid_x_rbc"]; xx0 = $col["moment_xx_rbc"]; yy0 = $col["moment_yy_rbc"] }
            END { dx = $col["centroid_x_rbc"] - x0; if (dx < 0) dx = -dx
                  printf "pull: Mxx %.6g -> %.6g, Myy %.6g -> %.6g, centroid moved %.2g\n",
                         xx0, $col["moment_xx_rbc"], yy0, $col["moment_yy_rbc"], dx
                  exit !($col["moment_xx_rbc"] > xx0 && $col["moment_yy_rbc"] < yy0 && dx < 1e-8) }' \
     "$tmp/pull1/diagnostics.csv"; then
  ok "the pulled RBC lengthens along the pull, narrows across it, its centroid kept"
else
  fail "the pulled RBC's shape or centroid"
fi
[ "$failures" -eq 0 ]
