#!/bin/sh
# studies/fig2-study and studies/fig2_analysis.py on a tiny channel (20^3 cells of 0.5 um,
# walls in y, two RBCs of 4 um): the ACM and SMAC to t = 0.25 us (12 steps) with snapshots
# at 0.125 and 0.25 us, and the dt study's pair at dt/2 to t = 0.125 us.
#   - the pair's initial states are the same bits (the study says so and records it in
#     initial_state.json), and the same comparison tells a run of another seed apart;
#   - every table and figure is written, non-empty, and report.md links each; every
#     figure's title names the case; fig2.png's title fits it, its colour bar's numbers
#     keep apart, its panels have ticks; its state (fig2_state.npz) is small and --redraw
#     draws the same picture from it alone; report.md says what it shows and that the
#     snapshot at 0.5 us was not run;
#   - the centroid distance at step 0 is 0 for every RBC (body_comparison.csv), the
#     snapshot differences at step 0 are 0, and the dt study has its two values of dt;
#   - a run interrupted (its newest restart file and its last fields file gone) and
#     continued by the same command ends with the files of the uninterrupted run: the
#     restart and fields files and bodies.nc bit for bit, the diagnostics rows but
#     wall_seconds; a finished run is skipped; --run runs only the runs named; a run whose
#     newest restart file is damaged continues from the one before with --discard-newer
#     and ends with the same files;
#   - two case files that differ in more than case.name and pressure.method are refused
#     with status 2 before anything runs; --dry-run says each run's steps and cost on
#     run.ranks without starting the launcher; the study files of runs/ are read and their
#     runs planned;
#   - run.wall_limit reaches efsi as time.wall_limit and a run stopped early stops the study
#     with status 4; a SIGTERM to the study's process group is waited for and ends it with
#     status 4 (a stand-in for efsi, so that nothing depends on timing; a signal to the
#     study alone is tests/test_study_signals.sh's).
# Skipped (77) without python3's numpy, netCDF4, matplotlib or skimage.
set -eu
. "$(dirname "$0")/lib.sh"
srcdir=${top_srcdir:-.}
study="/usr/bin/python3 $srcdir/studies/fig2-study"
/usr/bin/python3 -c 'import numpy, netCDF4, matplotlib, skimage, scipy' 2>/dev/null \
  || { echo "python3 numpy, netCDF4, matplotlib, skimage or scipy absent: skipped"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

tiny() {   # tiny FILE NAME [MORE LINES]: the tiny channel's case file
  write_case "$1" "20 20 20" "10 10 10" <<EOF
[case]
name = $2
[boundary]
y = wall
z = periodic
[drive]
pressure_gradient = 2e-3
[rbc]
count = 2
diameter = 4
modulus = 2e-2
orientation = y
[time]
end_time = 1
${3:-}
EOF
}
tiny "$tmp/acm.ini" tiny-channel
tiny "$tmp/smac.ini" tiny-channel-smac "[pressure]
method = smac"
cat > "$tmp/study.ini" <<EOF
[study]
name = tiny
output = $tmp/full
[cases]
acm = $tmp/acm.ini
smac = $tmp/smac.ini
[time]
end_time = 0.25
snapshots = 0.125 0.25 0.5
[output]
diagnostics_every = 2
bodies_every = 2
restart_every = 4
[convergence]
time = 0.125
dt_factors = 0.5
[run]
mpirun = none
EOF

# the whole study
$study --efsi "$efsi" "$tmp/study.ini" > "$tmp/full.log" 2>&1 || { cat "$tmp/full.log"; fail "the study"; }
cat "$tmp/full.log"
grep -q "^smac  *initial state: the same bits as acm (restart_00000000.nc, fields_00000000.nc, bodies.nc at step 0)" \
  "$tmp/full.log" || fail "no check of the initial states"
grep -q '"identical": true' "$tmp/full/initial_state.json" || fail "initial_state.json"
for f in body_comparison.csv body_comparison.png flow_comparison.csv flow_comparison.png \
    snapshot_differences.csv convergence.csv convergence.png fig2.png; do
  [ -s "$tmp/full/analysis/$f" ] || fail "$f missing or empty"
  grep -q "($f)" "$tmp/full/analysis/report.md" || fail "report.md does not link $f"
done
echo "ok: 5 figures, 4 tables and report.md"

/usr/bin/python3 - "$tmp/full/analysis" <<'PY' || fail "the tables"
import csv, os, sys
top = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(top, "body_comparison.csv"))))
first = [r for r in rows if r["step"] == "0"]
assert len(first) == 2 and {r["kind"] for r in rows} == {"rbc"}, first
assert all(float(r["centroid_distance_cells"]) == 0 == float(r["centroid_distance_um"])
           for r in first), first
assert max(int(r["step"]) for r in rows) == 12, "the bodies' last step"
snap = list(csv.DictReader(open(os.path.join(top, "snapshot_differences.csv"))))
assert [r["step"] for r in snap] == ["0", "6", "12"], snap
assert all(float(snap[0][k]) == 0 for k in ("u_max_rel", "phi_l1_rel", "centroid_cells_max"))
conv = list(csv.DictReader(open(os.path.join(top, "convergence.csv"))))
assert [(r["dt_factor"], r["step"]) for r in conv] == [("1", "6"), ("0.5", "12")], conv
report = open(os.path.join(top, "report.md")).read()
assert "tiny (tiny-channel, 20 x 20 x 20 cells)" in report and "step 0: 0" in report
print("ok: the centroid distance at step 0 is 0 for both RBCs; snapshots at steps 0, 6, 12; "
      "the dt study at steps 6 and 12")
PY

# fig2.png: its title inside it, its colour bar's numbers apart with their power of ten in
# the label, ticks on every panel; its state kept small (fig2_state.npz) and drawn again from
# that file alone (--redraw) to the same picture; report.md says what it shows and what was
# not run
mkdir "$tmp/redrawn"
cp "$tmp/full/analysis/fig2_state.npz" "$tmp/redrawn/"
/usr/bin/python3 "$srcdir/studies/fig2_analysis.py" --redraw "$tmp/redrawn" > "$tmp/redraw.out" \
  || fail "--redraw"
[ "$(cat "$tmp/redraw.out")" = "$tmp/redrawn/fig2.png" ] || fail "--redraw wrote $(cat "$tmp/redraw.out")"
/usr/bin/python3 - "$srcdir/studies" "$tmp/full/analysis" "$tmp/redrawn" <<'PY' || fail "fig2.png or its state"
import os, sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
import numpy as np
from matplotlib import image
import fig2_analysis
state = os.path.join(sys.argv[2], "fig2_state.npz")
size = os.path.getsize(state)
# 2 methods x 3 snapshots of 20^3 cells: well under a byte a cell (128^3: a few MiB)
assert size < 0.5 * 6 * 20 ** 3, "fig2_state.npz is %d bytes" % size
render, case, frames, steps = fig2_analysis.load_state(state)
assert steps == [0, 6, 12] and len(frames) == 6, (steps, sorted(frames))
assert all(fr.counts == {"rbc": 2} for fr in frames.values()), [fr.counts for fr in frames.values()]
fig = fig2_analysis.fig2_figure(render, case, frames, steps)
fig.canvas.draw()
r = fig.canvas.get_renderer()
W = fig.bbox.width
title = fig.texts[0].get_window_extent(r)
assert 0 <= title.x0 and title.x1 <= W, "the title runs off: %s of %g" % (title.extents, W)
bar = [a for a in fig.axes if a.name != "3d"]
assert len(bar) == 1 and not bar[0].xaxis.get_offset_text().get_text()
ticks = [t.get_window_extent(r) for t in bar[0].get_xticklabels() if t.get_text()]
assert len(ticks) >= 2 and all(a.x1 < b.x0 for a, b in zip(ticks, ticks[1:])), \
    "the colour bar's numbers run together"
for ax in fig.axes:
    if ax.name == "3d":
        assert all(len(axis.get_majorticklocs()) >= 2 for axis in (ax.xaxis, ax.yaxis, ax.zaxis))
a = image.imread(os.path.join(sys.argv[2], "fig2.png"))[..., :3]
b = image.imread(os.path.join(sys.argv[3], "fig2.png"))[..., :3]
assert a.shape == b.shape and np.abs(a - b).mean() < 2e-3, (a.shape, b.shape, np.abs(a - b).mean())
report = open(os.path.join(sys.argv[2], "report.md")).read()
assert "At t = 0.25 us the ACM's and SMAC's RBC surfaces cannot be told apart by eye" in report
assert "Not run: the snapshot at t = 0.5 us (time.end_time = 0.25 us)" in report
assert "(fig2_state.npz)" in report
print("ok: fig2.png's title fits (%.0f of %.0f px), %d numbers on its colour bar apart; its "
      "state %d bytes, redrawn from it alone (mean difference %.1e)" % (
          title.width, W, len(ticks), size, np.abs(a - b).mean()))
PY
set +e
/usr/bin/python3 "$srcdir/studies/fig2_analysis.py" --redraw "$tmp/full/acm" > /dev/null 2> "$tmp/redraw.err"
status=$?
set -e
[ "$status" -eq 2 ] && [ "$(wc -l < "$tmp/redraw.err")" -eq 1 ] && grep -q "fig2_state.npz" "$tmp/redraw.err" \
  || fail "--redraw of a folder without a state: status $status, $(cat "$tmp/redraw.err")"
echo "ok: fig2.png fits, its state is small and draws it again"

# the same comparison tells another seed apart
$efsi -o "$tmp/seed2" --set time.steps=0 --set init.seed=2 --set output.fields_every=0 \
  "$tmp/acm.ini" > "$tmp/seed2.log" 2>&1 || { cat "$tmp/seed2.log"; fail "the run of seed 2"; }
/usr/bin/python3 - "$srcdir/studies" "$tmp/full/acm" "$tmp/seed2" "$tmp/full/smac" <<'PY' || fail "another seed not told apart"
import sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
import fig2_analysis
other = fig2_analysis.same_initial_state(sys.argv[2], sys.argv[3])
assert not other["identical"] and "restart_00000000.nc: phi_rbc" in other["differences"], other
assert fig2_analysis.same_initial_state(sys.argv[2], sys.argv[4])["identical"]
print("ok: a run of another seed differs (%s)" % ", ".join(other["differences"][:3]))
PY

# interrupted and continued: the acm run of a copy loses its newest restart file and its last
# fields file (killed after the restart file of step 8), and the same command continues it
cp -r "$tmp/full" "$tmp/cont"
[ -e "$tmp/cont/acm/restart_00000008.nc" ] || fail "no restart file of step 8 to continue from"
rm "$tmp/cont/acm/restart_00000012.nc" "$tmp/cont/acm/fields_00000012.nc" "$tmp/cont/acm/performance.json"
$study --efsi "$efsi" --set "study.output=$tmp/cont" --run acm --run smac "$tmp/study.ini" > "$tmp/cont.log" 2>&1 \
  || { cat "$tmp/cont.log"; fail "the continuation"; }
cat "$tmp/cont.log"
grep -q "^acm  *from step 8 (t = 0.166667 us) to t = 0.25 us" "$tmp/cont.log" || fail "acm not continued from step 8"
grep -q "^smac  *skipped: finished at step 12 (t = 0.25 us)" "$tmp/cont.log" || fail "the finished smac run not skipped"
for f in restart_00000012.nc fields_00000012.nc bodies.nc; do
  same "$tmp/full/acm/$f" "$tmp/cont/acm/$f" || fail "$f of the continued run differs"
done
rows "$tmp/full/acm/diagnostics.csv" > "$tmp/rows-a"
rows "$tmp/cont/acm/diagnostics.csv" > "$tmp/rows-b"
cmp -s "$tmp/rows-a" "$tmp/rows-b" || fail "diagnostics rows of the continued run differ"
echo "ok: interrupted and continued, the run ends with the same files bit for bit"

# a damaged newest restart file (cut short after the run, as a full disk or a copy leaves it):
# the smac run of another copy continues from the one before with efsi's --discard-newer,
# which moves the later files aside, and ends with the files of the uninterrupted run
cp -r "$tmp/full" "$tmp/dmg"
head -c 4096 "$tmp/full/smac/restart_00000012.nc" > "$tmp/dmg/smac/restart_00000012.nc"
$study --efsi "$efsi" --set "study.output=$tmp/dmg" --run smac "$tmp/study.ini" > "$tmp/dmg.log" 2>&1 \
  || { cat "$tmp/dmg.log" "$tmp/dmg/smac/efsi.log"; fail "the continuation past a damaged restart file"; }
cat "$tmp/dmg.log"
grep -q "^smac  *from step 8 (t = 0.166667 us) (restart_00000012.nc unreadable: the files after it moved aside, --discard-newer) to t = 0.25 us" \
  "$tmp/dmg.log" || fail "smac not continued from step 8 past the damaged restart file"
grep -q -- "--restart .*/restart_00000008.nc --discard-newer " "$tmp/dmg/smac/efsi.log" \
  && [ -e "$tmp/dmg/smac/discarded-after-00000008/restart_00000012.nc" ] \
  || fail "no --discard-newer, or the damaged file not moved aside"
for f in restart_00000012.nc fields_00000012.nc bodies.nc; do
  same "$tmp/full/smac/$f" "$tmp/dmg/smac/$f" || fail "$f of the run continued past the damaged file differs"
done
rows "$tmp/full/smac/diagnostics.csv" > "$tmp/rows-a"
rows "$tmp/dmg/smac/diagnostics.csv" > "$tmp/rows-b"
cmp -s "$tmp/rows-a" "$tmp/rows-b" || fail "diagnostics rows of the run continued past the damaged file differ"
echo "ok: a damaged newest restart file passed over with --discard-newer, the same files bit for bit"

# bad input: two cases that are not one; the dry run
tiny "$tmp/other.ini" tiny-channel-smac "[pressure]
method = smac
[init]
seed = 2"
set +e
$study --efsi "$efsi" --set "cases.smac=$tmp/other.ini" --set "study.output=$tmp/bad" \
  "$tmp/study.ini" > "$tmp/bad.log" 2>&1
status=$?
set -e
[ "$status" -eq 2 ] && grep -q "differ in more than case.name and pressure.method: init.seed" \
  "$tmp/bad.log" && [ ! -e "$tmp/bad" ] || { cat "$tmp/bad.log"; fail "two cases not refused: status $status"; }
# the dry run on 4 ranks through a launcher that records its calls: planned without it
printf '#!/bin/sh\necho "fake-mpirun $*" >> "%s"\nexit 1\n' "$tmp/launcher.log" > "$tmp/fake-mpirun"
chmod +x "$tmp/fake-mpirun"
$study --efsi "$efsi" --dry-run --set "study.output=$tmp/dry" --set run.ranks=4 \
  --set "run.mpirun=$tmp/fake-mpirun -np {ranks}" "$tmp/study.ini" > "$tmp/dry.log" 2>&1 \
  || { cat "$tmp/dry.log" "$tmp/launcher.log" 2> /dev/null; fail "--dry-run"; }
[ "$(grep -c "new; segments: step 0, .* [0-9]* steps, [0-9.e+]* cell-updates, about [0-9:]* on this machine" \
  "$tmp/dry.log")" -eq 4 ] && [ ! -e "$tmp/dry" ] && [ ! -e "$tmp/launcher.log" ] \
  || { cat "$tmp/dry.log" "$tmp/launcher.log" 2> /dev/null; fail "--dry-run"; }
echo "ok: two cases that are not one refused with status 2; --dry-run says each run's steps and cost on 4 ranks, no launcher started"

# the study files of runs/ read, their pairs are one case, and their runs are planned (--run
# of no such run stops there, with the list of runs)
for shipped in "$srcdir"/runs/fig2-study*.ini; do
  set +e
  (cd "$srcdir" && /usr/bin/python3 studies/fig2-study --efsi "$efsi" --run none \
     "runs/$(basename "$shipped")") > "$tmp/shipped.log" 2>&1
  status=$?
  set -e
  [ "$status" -eq 2 ] && grep -q "no such run (runs: acm, smac, acm-dt0.5, smac-dt0.5, acm-dt0.25, smac-dt0.25)" \
    "$tmp/shipped.log" || { cat "$tmp/shipped.log"; fail "$(basename "$shipped")"; }
done
echo "ok: the study files of runs/ are read and planned"

# run.wall_limit and signals through a stand-in for efsi: --status says new, a run logs its
# arguments and stops as efsi does, with status 4
fake=$tmp/fake-efsi
stand_in "$fake"
export FAKE_LOG="$tmp/fake.log"
set +e
$study --efsi "$fake" --set "study.output=$tmp/stop" --set run.wall_limit=100 "$tmp/study.ini" \
  > "$tmp/stop.log" 2>&1
status=$?
set -e
[ "$status" -eq 4 ] && grep -q "acm stopped early (run.wall_limit = 100 s)" "$tmp/stop.log" \
  && grep -q "efsi: stopped early before time.wall_limit" "$tmp/stop.log" \
  && grep -q -- "--set time.steps=0 --set time.wall_limit=[0-9.]* " "$FAKE_LOG" \
  && [ "$(wc -l < "$FAKE_LOG")" -eq 1 ] || { cat "$tmp/stop.log" "$FAKE_LOG"; fail "run.wall_limit: status $status"; }
rm -f "$FAKE_LOG"
status=$(terminated "$tmp/sig.log" $study --efsi "$fake" --set "study.output=$tmp/sig" "$tmp/study.ini")
[ "$status" -eq 4 ] && grep -q "acm stopped early (signal 15)" "$tmp/sig.log" \
  || { cat "$tmp/sig.log"; fail "SIGTERM: status $status"; }
echo "ok: run.wall_limit passed to efsi, a run stopped early and a SIGTERM end the study with status 4"
echo "1 passed, 0 failed"
