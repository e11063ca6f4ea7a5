#!/bin/sh
# studies/weak-scaling-study on tiny blocks (24^3 cells of 0.5 um per rank, RBCs of 6 um at
# 30 % and 2 platelets per rank), 1 and 2 ranks, 20 steps, an output step every 10:
#   - the cases grow with the ranks (48 x 24 x 24 cells on 2 ranks) and keep the block;
#   - the table has a row per run: the cells, the bodies (per rank about the same), the
#     packing's seconds, s/step and M cell-updates/s as efsi's performance.json says, weak
#     efficiency 1 for one rank, the output's time and bytes per output step (a bodies.nc
#     record, a slice, a diagnostics row: between 1 and 500 KB);
#   - called again, it runs nothing (efsi --status: finished); a run whose files were cut
#     (no performance.json, diagnostics.csv and the slices short of the end) starts afresh,
#     its files moved aside;
#   - a count not in the study (--ranks 3) and an unknown key are refused with status 2.
set -eu
. "$(dirname "$0")/lib.sh"
study="/usr/bin/python3 ${top_srcdir:-.}/studies/weak-scaling-study"
[ -x /usr/bin/python3 ] || { echo "/usr/bin/python3 absent: skipped"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
cat > "$tmp/tiny.ini" <<EOF
[study]
name = tiny
output = $tmp/out
[runs]
ranks = 1 2
mpirun = ${EFSI_MPIRUN:-mpirun} -np {ranks}
[block]
cells = 24 24 24
h = 0.5
[bodies]
hematocrit = 0.3
rbc_diameter = 6
platelets_per_rank = 2
[time]
steps = 20
[output]
every = 10
EOF
$study --efsi "$efsi" "$tmp/tiny.ini" > "$tmp/log" 2>&1 || { cat "$tmp/log"; fail "the study"; }
cat "$tmp/log"
grep -q "^cells = 48 24 24$" "$tmp/out/ranks-2/case.ini" || fail "the 2-rank case's grid"
/usr/bin/python3 - "$tmp/out" <<'PY' || fail "the table"
import json, os, sys
rows = json.load(open(os.path.join(sys.argv[1], "results.json")))
assert [r["ranks"] for r in rows] == [1, 2], rows
one, two = rows
assert one["cells"] == 13824 and two["cells"] == 27648, rows
assert one["bodies"] > 5 and abs(two["bodies"] / one["bodies"] - 2) < 0.25, rows
for r in rows:
    perf = json.load(open(os.path.join(sys.argv[1], "ranks-%d" % r["ranks"], "performance.json")))
    assert r["s_per_step"] == perf["seconds_per_step"] > 0, r
    assert r["mcups"] == perf["mcell_updates_per_second"] > 0, r
    assert r["seeding_s"] is not None and r["seeding_s"] > 0, r
    assert 0 < r["output_s"] < 10 and 1e-3 < r["output_mb"] < 0.5, r
assert one["efficiency"] == 1.0 and 0 < two["efficiency"] < 2, rows
table = open(os.path.join(sys.argv[1], "table.md")).read()
assert len([l for l in table.splitlines() if l[:3] in ("| 1", "| 2")]) == 2, table
print("ok: %d and %d cells, %d and %d bodies, weak efficiency %.3f, %.3g MB per output step"
      % (one["cells"], two["cells"], one["bodies"], two["bodies"], two["efficiency"],
         two["output_mb"]))
PY
$study --efsi "$efsi" "$tmp/tiny.ini" > "$tmp/again" 2>&1 || fail "the study again"
[ "$(grep -c "finished before" "$tmp/again")" -eq 2 ] || { cat "$tmp/again"; fail "ran again"; }
rm "$tmp/out/ranks-2/performance.json" "$tmp/out/ranks-2"/slices_00000010.nc \
   "$tmp/out/ranks-2"/slices_00000020.nc
head -n 2 "$tmp/out/ranks-2/diagnostics.csv" > "$tmp/cut" && cp "$tmp/cut" "$tmp/out/ranks-2/diagnostics.csv"
$study --efsi "$efsi" "$tmp/tiny.ini" > "$tmp/cut.log" 2>&1 || { cat "$tmp/cut.log"; fail "after a cut"; }
grep -q "^  2 ranks started afresh (earlier output moved to .*discarded-1)" "$tmp/cut.log" &&
  grep -q "^  1 rank  finished before" "$tmp/cut.log" && [ -s "$tmp/out/ranks-2/performance.json" ] ||
  { cat "$tmp/cut.log"; fail "a cut run not started afresh"; }
echo "ok: finished runs skipped, a cut one started afresh"
set +e
$study --efsi "$efsi" "$tmp/tiny.ini" --ranks 3 > "$tmp/bad" 2>&1
status=$?
sed -i 's/^every = 10$/every = 10\ncadence = 2/' "$tmp/tiny.ini"
$study --efsi "$efsi" "$tmp/tiny.ini" > "$tmp/bad2" 2>&1
status2=$?
set -e
[ $status -eq 2 ] && grep -q "not in runs.ranks" "$tmp/bad" && [ $status2 -eq 2 ] &&
  grep -q "output.cadence: unknown key" "$tmp/bad2" || { cat "$tmp/bad" "$tmp/bad2"; fail "bad input"; }
echo "ok: bad input refused with status 2"
