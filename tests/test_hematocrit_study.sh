#!/bin/sh
# The hematocrit study command on a miniature sweep: a 6 um lumen in an 8.125 um box (26^3
# cells, RBCs scaled to 2.5 um), the plasma reference and tube hematocrits 0 and 0.05 of
# randomly oriented RBCs with 4 platelets in the radial band 0.7-0.9, 2 ranks, 123 steps.
#   - every figure and table is written, non-empty, and report.md links each of them;
#   - the figures from the new outputs (average.nc: the profiles; bodies.nc: the bodies) are
#     those of the fields files and bodies.csv the study read before (--from fields), every
#     number of every table (the runs write both: sampling.full_fields = yes); a fields file
#     of the volume fractions alone (the default) gives the same RBC profile;
#   - with h5py installed, the analysis read through h5py writes the same tables, byte for
#     byte, as through netCDF4;
#   - mu_rel at Ht = 0 (platelets only, against plasma) is within 1 % of 1;
#   - the tube hematocrit at step 0 (diagnostics.csv) is within 1 % of the seeded one (RBC
#     count from bodies.csv x the Evans-Fung volume / the lumen volume pi R^2 Lx);
#   - every platelet starts in the radial band; each of Fig. 9's bins with rows has 1-4 platelets;
#   - a sweep stopped at t = 0.5, extended to t = 1 and continued, with one run then
#     interrupted (performance.json and its last files gone, its newest restart file
#     damaged) and continued by a third call from the restart file before, ends with the
#     same last restart, fields and average files (every variable and attribute, bit for
#     bit), and the same bodies.csv and diagnostics rows (but wall_seconds) and bodies.nc
#     records as the uninterrupted sweep, with besides them only those of step 62 that
#     ended the first stint;
#   - a hematocrit the seeding cannot place (0.7) is refused with exit status 2 before any
#     run, naming the reachable limit;
#   - run.wall_limit reaches efsi as --set time.wall_limit (what is left of it), and a run
#     stopped early stops the study with status 4 and efsi's line; a limit already spent
#     starts no run; a SIGTERM to the study's process group is waited for (efsi stops with
#     a restart file) and ends it with status 4 (a stand-in for efsi, so that nothing
#     depends on timing);
#   - --run plasma runs the plasma reference alone, to time.plasma_end_time, and analyses
#     nothing; an unknown run label is refused with exit status 2;
#   - every study file of runs/ passes --dry-run (on the CPU, one rank);
#   - the flow rate's and the cell-free layer's change between the window's halves, on
#     made-up series.
# Skipped (77) without python3's numpy, netCDF4 or matplotlib.
set -eu
. "$(dirname "$0")/lib.sh"
srcdir=${top_srcdir:-.}
study="/usr/bin/python3 $srcdir/studies/hematocrit-study"
/usr/bin/python3 -c 'import numpy, netCDF4, matplotlib' 2>/dev/null \
  || { echo "python3 numpy, netCDF4 or matplotlib absent: skipped"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

write_study() {   # write_study FILE OUTPUT END_TIME [EXTRA RBC LINE]
  cat > "$1" <<EOF
[study]
name = mini
output = $2
[vessel]
diameter = 6
wall = 1
modulus = 0.5
length = 8
[grid]
cells_per_rbc = 8
[rbc]
hematocrits = ${4:-0 0.05}
diameter = 2.5
[platelet]
count = 4
radial_band = 0.7 0.9
semi_axes = 0.5 0.5 0.4
modulus = 0.1
[drive]
pressure_gradient = 0.01
[time]
end_time = $3
[sampling]
start = 0.3
diagnostics_every = 5
fields_every = 20
full_fields = yes
[run]
ranks = 2
mpirun = ${EFSI_MPIRUN:-mpirun} -np {ranks}
EOF
}

run_study() {   # run_study FILE LOG WHAT [OPTIONS]: the study of FILE, its output in LOG
  file=$1 log=$2 what=$3
  shift 3
  $study --efsi "$efsi" "$@" "$file" > "$log" 2>&1 || { cat "$log"; fail "$what"; }
}

each_run() {   # each_run LOG WORDS: LOG has a line "RUN  WORDS..." for every run
  for run in plasma ht-0.00 ht-0.05; do
    grep -q "^$run  *$2" "$1" || fail "no line '$run $2' in $(basename "$1")"
  done
}

# the uninterrupted sweep
write_study "$tmp/full.ini" "$tmp/full" 1
run_study "$tmp/full.ini" "$tmp/full.log" "study run"
cat "$tmp/full.log"
each_run "$tmp/full.log" started

# figures and tables, non-empty and linked from report.md
for f in fig7_cells_3d.png fig8_platelet_radial_position.png fig9_platelet_rms_radial_velocity.png \
    viscosity.png fahraeus.png cell_free_layer.png timeseries.png summary.csv timeseries.csv \
    radial_profiles.csv fig8_platelet_radial_position.csv fig9_platelet_rms_radial_velocity.csv \
    cell_free_layer_timeseries.png cell_free_layer_timeseries.csv; do
  [ -s "$tmp/full/$f" ] || fail "$f missing or empty"
  grep -q "($f)" "$tmp/full/report.md" || fail "report.md does not link $f"
done
echo "ok: 8 figures, 6 tables and report.md"

# the same figures from the new outputs (average.nc, bodies.nc) as from the fields files and
# bodies.csv the study read before (--from fields), on the same runs (sampling.full_fields =
# yes writes both): every number of every table
cp -r "$tmp/full" "$tmp/old"
/usr/bin/python3 "$srcdir/studies/hematocrit_analysis.py" "$tmp/old" --from fields > /dev/null ||
  fail "the analysis from the fields files"
grep -q "ht-0.05: average.nc (6 samples" "$tmp/full/report.md" &&
  grep -q "ht-0.05: fields files (6 in the window)" "$tmp/old/report.md" &&
  grep -q "ht-0.05: bodies.nc" "$tmp/full/report.md" || fail "report.md's data sources"
/usr/bin/python3 - "$tmp/full" "$tmp/old" <<'PY' || fail "the new outputs give other figures"
import csv, os, sys
new, old = sys.argv[1:]
tables = ("summary.csv", "radial_profiles.csv", "timeseries.csv", "cell_free_layer_timeseries.csv",
          "fig8_platelet_radial_position.csv", "fig9_platelet_rms_radial_velocity.csv")
worst, cells = 0.0, 0
for t in tables:
    a, b = (list(csv.reader(open(os.path.join(d, t)))) for d in (new, old))
    assert len(a) == len(b) and a[0] == b[0], t
    for ra, rb in zip(a, b):
        for x, y in zip(ra, rb):
            cells += 1
            if x == y:
                continue
            fx, fy = float(x), float(y)   # a text cell that differs fails here
            worst = max(worst, abs(fx - fy) / max(abs(fx), abs(fy)))
assert worst <= 1e-9, worst
print("ok: %d cells of %d tables, from average.nc and bodies.nc as from the fields files and "
      "bodies.csv (largest relative difference %.2g)" % (cells, len(tables), worst))
PY
# the analysis through h5py (a GPU machine without netCDF4) writes every table as through
# netCDF4, digit for digit (tools/efsi_output.py reads either)
if /usr/bin/python3 -c 'import h5py' 2>/dev/null; then
  cp -r "$tmp/full" "$tmp/h5py"
  EFSI_OUTPUT_NETCDF=h5py /usr/bin/python3 "$srcdir/studies/hematocrit_analysis.py" "$tmp/h5py" \
    > /dev/null || fail "the analysis through h5py"
  for t in summary.csv radial_profiles.csv timeseries.csv cell_free_layer_timeseries.csv \
      fig8_platelet_radial_position.csv fig9_platelet_rms_radial_velocity.csv; do
    cmp -s "$tmp/full/$t" "$tmp/h5py/$t" || fail "$t through h5py differs from netCDF4's"
  done
  echo "ok: the analysis through h5py writes the same 6 tables as through netCDF4"
else
  echo "note: h5py absent: the analysis through h5py not compared"
fi
# the fields files of the default sampling.full_fields = no hold the volume fractions alone:
# their RBC profile is that of the whole file
/usr/bin/python3 - "$tmp/full" "$srcdir/studies" <<'PY' || fail "a fields file of the volume fractions"
import glob, os, sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[2])
import numpy as np
import netCDF4
import hematocrit_analysis as h
whole = sorted(glob.glob(os.path.join(sys.argv[1], "ht-0.05", "fields_*.nc")))[-1]
phis = whole[:-3] + "-phi.nc"
with netCDF4.Dataset(whole) as a, netCDF4.Dataset(phis, "w") as b:
    for d, dim in a.dimensions.items():
        b.createDimension(d, len(dim))
    for n, v in a.variables.items():
        if n not in ("u", "v", "w", "p") and not n.startswith("b"):
            b.createVariable(n, v.dtype, v.dimensions)[...] = v[...]
    b.setncatts({k: a.getncattr(k) for k in a.ncattrs()})
st = h.Study(sys.argv[1])
g = st.geometry(whole)
qa = h.fields_quantities(whole, g, 1.0, 2.5, st.profile_bins)
qb = h.fields_quantities(phis, g, 1.0, 2.5, st.profile_bins)
assert np.array_equal(qa["prof_phi"], qb["prof_phi"]) and np.array_equal(qa["prof_n"], qb["prof_n"])
assert np.isnan(qb["Q"]) and qb["has_rbc"]
os.remove(phis)
print("ok: a fields file of the volume fractions alone gives the RBC profile")
PY

# Fig. 9's table: every bin with rows has at least one platelet and at most the run's 4
/usr/bin/python3 - "$tmp/full/fig9_platelet_rms_radial_velocity.csv" <<'PY' || fail "Fig. 9's table"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert {r["run"] for r in rows} == {"ht-0.00", "ht-0.05"}, rows
for r in rows:
    n, k = int(r["samples"]), int(r["platelets"])
    assert (n > 0) == (0 < k <= 4) and k <= n, r
assert sum(int(r["samples"]) for r in rows if r["run"] == "ht-0.00") > 0
PY
echo "ok: Fig. 9's bins count their rows and platelets"

# mu_rel at Ht = 0 and the tube hematocrit at step 0 against the seeded one
/usr/bin/python3 - "$tmp/full" <<'PY' || fail "mu_rel or tube hematocrit"
import csv, math, os, sys
top = sys.argv[1]
rows = {r["run"]: r for r in csv.DictReader(open(os.path.join(top, "summary.csv")))}
mu0 = float(rows["ht-0.00"]["mu_rel"])
assert abs(mu0 - 1) < 0.01, "mu_rel at Ht = 0 is %g" % mu0
case = {}
for line in open(os.path.join(top, "ht-0.05", "case.ini")):
    if "=" in line and not line.startswith("#"):
        k, v = line.split("=", 1)
        case[k.strip()] = v.strip()
lx = float(case["length"].split()[0])
d, D = float(case["diameter"]), 6.0   # the [rbc] diameter comes after the [vessel] one
ids = {l.split(",")[0] for l in open(os.path.join(top, "ht-0.05", "bodies.csv"))
       if ",rbc,0," in l}
R = d / 2
v_rbc = math.pi * R ** 3 * (2 * 0.2072 / 3 + 4 * 2.0026 / 15 - 16 * 1.1228 / 105)
seeded = len(ids) * v_rbc / (math.pi * (D / 2) ** 2 * lx)
got = float(rows["ht-0.05"]["ht_tube_step0"])
assert len(ids) == int(rows["ht-0.05"]["rbc_count"]) > 0, ids
assert abs(got / seeded - 1) < 0.01, "tube hematocrit %g at step 0, seeded %g" % (got, seeded)
diag = list(csv.DictReader(open(os.path.join(top, "ht-0.05", "diagnostics.csv"))))
assert "tube_hematocrit" in diag[0], "no tube_hematocrit column"
step0 = float(diag[0]["tube_hematocrit"])
assert abs(step0 / seeded - 1) < 0.01, "diagnostics tube_hematocrit %g, seeded %g" % (step0, seeded)
band = [math.hypot(float(r["y"]) - 8.125 / 2, float(r["z"]) - 8.125 / 2) / (D / 2)
        for r in csv.DictReader(open(os.path.join(top, "ht-0.05", "bodies.csv")))
        if r["kind"] == "platelet" and r["step"] == "0"]
assert len(band) == 4 and all(0.7 <= b <= 0.9 for b in band), band
nfields = len([f for f in os.listdir(os.path.join(top, "ht-0.05")) if f.startswith("fields_")])
layer = [r for r in csv.DictReader(open(os.path.join(top, "cell_free_layer_timeseries.csv")))]
assert [r["run"] for r in layer] == ["ht-0.05"] * nfields > [], (len(layer), nfields)
assert all(float(a["time_us"]) < float(b["time_us"]) for a, b in zip(layer, layer[1:])), layer
print("ok: mu_rel(Ht = 0) = %.6f; tube hematocrit at step 0 %.6f (diagnostics %.6f), seeded "
      "%.6f (%d RBCs); platelets start at r/(D/2) = %s"
      % (mu0, got, step0, seeded, len(ids), " ".join("%.3f" % b for b in band)))
PY

# stopped at t = 0.5, extended to 1, one run interrupted and continued
write_study "$tmp/part.ini" "$tmp/part" 0.5
run_study "$tmp/part.ini" "$tmp/part.log" "short sweep"
write_study "$tmp/part.ini" "$tmp/part" 1
run_study "$tmp/part.ini" "$tmp/part.log" "extension"
cat "$tmp/part.log"
each_run "$tmp/part.log" "continued from step 62 "
run=$tmp/part/ht-0.05
last=$(ls "$run" | grep '^restart_.*\.nc$' | tail -1)
[ "$last" = restart_00000123.nc ] || fail "last restart file is $last"
rm "$run/performance.json" "$run/restart_00000123.nc" "$run/fields_00000123.nc"
head -c 4096 "$run/restart_00000120.nc" > "$tmp/cut" && cp "$tmp/cut" "$run/restart_00000120.nc"
run_study "$tmp/part.ini" "$tmp/part.log" "continuation"
cat "$tmp/part.log"
grep -q "restart_00000120.nc: unreadable, passed over" "$tmp/part.log" || fail "damaged file not passed over"
grep -q "^ht-0.05  *continued from step 100 " "$tmp/part.log" || fail "ht-0.05 not continued from step 100"
grep -q "^plasma  *skipped" "$tmp/part.log" || fail "finished run not skipped"
/usr/bin/python3 - "$tmp/full" "$tmp/part" <<'PY' || fail "continued sweep differs"
import csv, os, sys
import numpy as np
import netCDF4

def variables(path):
    with netCDF4.Dataset(path) as nc:
        out = {}
        for name, var in nc.variables.items():
            var.set_auto_mask(False)
            data = np.ascontiguousarray(var[...])
            out[name] = (data.dtype.str, data.shape, data.tobytes())
        for name in nc.ncattrs():   # but the run identity: two sweeps are two histories
            if name != "run_id":
                out["@" + name] = repr(nc.getncattr(name))
        return out

def rows(path):
    r = list(csv.reader(open(path)))
    keep = [i for i, n in enumerate(r[0]) if n != "wall_seconds"]
    return [[x[i] for i in keep] for x in r]

def same_rows(a, b, what):
    """b holds a's rows, bit for bit, and besides them only the row(s) of step 62, the
    last step of the first stint (a stopped run writes a row at its last step; the
    continued run keeps it)."""
    ra, rb = rows(a), rows(b)
    step = ra[0].index("step")
    extra = [x for x in rb[1:] if x not in ra[1:]]
    assert all(x[step] == "62" for x in extra), "%s: rows differ: %s" % (what, extra[:2])
    assert [x for x in rb if x not in extra] == ra, what + ": rows differ"

a, b = sys.argv[1:]
for run in ("plasma", "ht-0.00", "ht-0.05"):
    for name in ("restart_00000123.nc", "fields_00000123.nc"):
        va, vb = variables(os.path.join(a, run, name)), variables(os.path.join(b, run, name))
        diff = sorted(k for k in set(va) | set(vb) if va.get(k) != vb.get(k))
        assert not diff, "%s/%s differs in %s" % (run, name, diff)
    same_rows(os.path.join(a, run, "diagnostics.csv"), os.path.join(b, run, "diagnostics.csv"),
              run + "/diagnostics.csv")
    if run != "plasma":
        same_rows(os.path.join(a, run, "bodies.csv"), os.path.join(b, run, "bodies.csv"),
                  run + "/bodies.csv")
        # bodies.nc: the same records but step 62's
        with netCDF4.Dataset(os.path.join(a, run, "bodies.nc")) as na, \
                netCDF4.Dataset(os.path.join(b, run, "bodies.nc")) as nb:
            keep = np.asarray(nb["step"][:]) != 62
            assert np.array_equal(na["step"][:], nb["step"][:][keep]), run + "/bodies.nc steps"
            for v in ("position", "velocity", "volume", "centroid", "second_moment"):
                x, y = np.asarray(na[v][:]), np.asarray(nb[v][:])[keep]
                assert x.tobytes() == y.tobytes(), run + "/bodies.nc " + v
    # the averages over the window: the end's average.nc, bit for bit
    va, vb = (variables(os.path.join(d, run, "average.nc")) for d in (a, b))
    diff = sorted(k for k in set(va) | set(vb) if va.get(k) != vb.get(k))
    assert not diff, "%s/average.nc differs in %s" % (run, diff)
print("ok: stopped, extended and interrupted sweep ends bitwise where the uninterrupted one does "
      "(its averages and bodies.nc too)")
PY

# bad input: a hematocrit the seeding cannot place, refused with status 2 before any run
write_study "$tmp/bad.ini" "$tmp/bad" 1 "0 0.7"
set +e
$study --efsi "$efsi" "$tmp/bad.ini" > "$tmp/bad.log" 2>&1
status=$?
set -e
[ "$status" -eq 2 ] || { cat "$tmp/bad.log"; fail "exit status $status for an impossible hematocrit"; }
grep -q "rbc.hematocrit = 0.7 cannot be placed: at most about 0\.[0-9]" "$tmp/bad.log" \
  || { cat "$tmp/bad.log"; fail "no seeding message with the reachable limit"; }
[ ! -e "$tmp/bad/plasma/diagnostics.csv" ] || fail "a run started despite bad input"
echo "ok: bad input refused with status 2 before any run"

# run.wall_limit and signals, through a stand-in for efsi (deterministic; efsi's own stop on
# time.wall_limit and SIGTERM is tests/test_cluster.sh's): --check passes, a run logs its
# arguments and stops as efsi does, with status 4
fake=$tmp/fake-efsi
stand_in "$fake"
export FAKE_LOG=$tmp/fake.log
stop_study() {   # stop_study LIMIT: the miniature study on one rank, no launcher, that limit
  write_study "$tmp/stop.ini" "$tmp/stop" 1
  sed -i "s/^ranks = 2\$/ranks = 1/; s/^mpirun = .*/mpirun = none\nwall_limit = $1/" "$tmp/stop.ini"
  rm -rf "$tmp/stop" "$FAKE_LOG"
}
stop_study 100
set +e
$study --efsi "$fake" "$tmp/stop.ini" > "$tmp/stop.log" 2>&1
status=$?
set -e
[ "$status" -eq 4 ] && grep -q "plasma stopped early (run.wall_limit = 100 s)" "$tmp/stop.log" \
  && grep -q "efsi: stopped early before time.wall_limit" "$tmp/stop.log" \
  && grep -q -- "--set time.wall_limit=[0-9.]* " "$FAKE_LOG" && [ "$(wc -l < "$FAKE_LOG")" -eq 1 ] \
  || { cat "$tmp/stop.log" "$FAKE_LOG"; fail "run.wall_limit: status $status"; }
stop_study 0.5
set +e
$study --efsi "$fake" "$tmp/stop.ini" > "$tmp/stop.log" 2>&1
status=$?
set -e
[ "$status" -eq 4 ] && grep -q "run.wall_limit = 0.5 s reached before plasma would be started" \
  "$tmp/stop.log" && [ ! -e "$FAKE_LOG" ] || { cat "$tmp/stop.log"; fail "an exhausted run.wall_limit: status $status"; }
stop_study 0
status=$(terminated "$tmp/stop.log" $study --efsi "$fake" "$tmp/stop.ini")
[ "$status" -eq 4 ] && grep -q "plasma stopped early (signal 15)" "$tmp/stop.log" \
  || { cat "$tmp/stop.log"; fail "SIGTERM: status $status"; }
echo "ok: run.wall_limit passed to efsi as what is left of it, or no run started; SIGTERM waited for; status 4"

# a signal to the job while the real efsi runs under a launcher that then ends with a status
# of its own (Open MPI's mpirun: 1 after a SIGTERM; a SIGUSR1, which the study passes on,
# it hands to the ranks): efsi stopped cleanly with 4 and says so in its record (efsi
# --status), so the study ends with 4, not 1
launcher=$tmp/fake-mpirun
cat > "$launcher" <<'SH'
#!/bin/sh
"$@" &
child=$!
trap 'kill -TERM $child 2> /dev/null; wait $child; exit 1' TERM
trap 'kill -USR1 $child 2> /dev/null' USR1
status=0
wait $child || status=$?
while kill -0 $child 2> /dev/null; do status=0; wait $child || status=$?; done
exit $status
SH
chmod +x "$launcher"
write_study "$tmp/sig.ini" "$tmp/sig" 20
sed -i "s/^ranks = 2\$/ranks = 1/; s#^mpirun = .*#mpirun = $launcher#" "$tmp/sig.ini"
setsid $study --efsi "$efsi" "$tmp/sig.ini" > "$tmp/sig.log" 2>&1 &
pid=$!
for i in $(seq 300); do [ -s "$tmp/sig/plasma/run.json" ] && break; sleep 0.1; done
sleep 0.5
kill -TERM -"$pid"   # the process group
set +e
wait "$pid"
status=$?
set -e
grep -q '"exit_status": 4' "$tmp/sig/plasma/run.json" && [ "$status" -eq 4 ] &&
  grep -q "plasma stopped early (signal 15)" "$tmp/sig.log" ||
  { cat "$tmp/sig.log" "$tmp/sig/plasma/run.json"; fail "a launcher's own status after efsi's 4: study status $status"; }
echo "ok: efsi stopped with 4 under a launcher that ended with 1: the study ends with 4"

# one run alone (--run), the plasma reference to its own end time
write_study "$tmp/one.ini" "$tmp/one" 1
sed -i 's/^end_time = 1$/end_time = 1\nplasma_end_time = 0.5/' "$tmp/one.ini"
run_study "$tmp/one.ini" "$tmp/one.log" "--run plasma" --run plasma
[ -s "$tmp/one/plasma/diagnostics.csv" ] || fail "--run plasma wrote no diagnostics"
[ ! -e "$tmp/one/ht-0.00" ] && [ ! -e "$tmp/one/report.md" ] || fail "--run plasma ran or analysed more"
t_end=$(tail -n 1 "$tmp/one/plasma/diagnostics.csv" | cut -d, -f2)
/usr/bin/python3 -c "import sys; t = float(sys.argv[1]); sys.exit(not 0.5 <= t < 0.52)" "$t_end" \
  || fail "the plasma run ended at t = $t_end, not at time.plasma_end_time = 0.5"
set +e
$study --efsi "$efsi" --run ht-0.99 "$tmp/one.ini" > "$tmp/one.log" 2>&1
status=$?
set -e
[ "$status" -eq 2 ] && grep -q "no such run" "$tmp/one.log" || { cat "$tmp/one.log"; fail "--run ht-0.99 not refused"; }
echo "ok: --run plasma alone, to t = $t_end; an unknown run refused"

# the study files shipped in runs/ are accepted: their cases written and passed by efsi --check
# (run on the CPU here, one rank; the seeding is that of the GPU run)
for shipped in "$srcdir"/runs/hematocrit-*.ini; do
  name=$(basename "$shipped" .ini)
  sed -e 's/^device *= *gpu/device = cpu/' -e 's/^ranks *= *[0-9]*/ranks = 1/' \
      -e "s#^output *=.*#output = $tmp/shipped-$name#" "$shipped" > "$tmp/shipped-$name.ini"
  run_study "$tmp/shipped-$name.ini" "$tmp/shipped-$name.log" "--dry-run of runs/$name.ini" --dry-run
  grep -q "would be started, [0-9]* steps, [0-9.e+]* cell-updates, about [0-9:]* on this machine" \
    "$tmp/shipped-$name.log" || { cat "$tmp/shipped-$name.log"; fail "runs/$name.ini"; }
done
echo "ok: the study files of runs/ pass --dry-run, which says each run's steps, cell-updates and wall time"

# the steadiness check: a flow rate 1 + t/1000 over the window [20, 100] changes by
# 0.04/1.04 between the window's halves; a constant one by 0; a short series gives nan
/usr/bin/python3 - "$top_srcdir/studies" <<'PY' || fail "the steadiness check"
import math, sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
import numpy as np
import hematocrit_analysis as h
t = np.linspace(0, 100, 101)
d, last = h.halves_drift(t, 1 + t / 1000, 20, 100)
assert abs(d - 0.04 / 1.04) < 1e-12 and last == 100, (d, last)
d, last = h.halves_drift(t[:61], 1 + t[:61] / 1000, 20, 100)   # stopped at t = 60
assert abs(d - 0.02 / 1.03) < 1e-12 and last == 60, (d, last)
assert h.halves_drift(t, np.full_like(t, 2.0), 20, 100)[0] == 0
assert math.isnan(h.halves_drift(t[:22], t[:22], 20, 100)[0])
# the layer's: files at 0, 25, ..., 100 in the window [20, 100] split at 60
tf, cf = np.array([0, 25, 50, 75, 100.0]), np.array([9, 1, 1.5, 2, 3])
assert h.cfl_halves_drift(tf, cf, 20, 100) == 1.25, h.cfl_halves_drift(tf, cf, 20, 100)
assert math.isnan(h.cfl_halves_drift(tf[:2], cf[:2], 20, 100))       # one file in the window
# a finished run is not short of its end when 1 % of the window is below dt: its last step
# (t = 1.2 with dt = 0.3) passes the end time 1 of the window [0.99, 1]; one stopped at 0.6 is
assert not h.short_of_end(1.2, 0.3, 0.99, 1.0)
assert not h.short_of_end(1.0 - 1e-8, 0.3, 0.99, 1.0)
assert h.short_of_end(0.6, 0.3, 0.0, 1.0) and h.short_of_end(0.9, 0.3, 0.99, 1.0)
print("ok: the flow rate's and the layer's change between the window's halves; short of the end")
PY
echo "1 passed, 0 failed"
