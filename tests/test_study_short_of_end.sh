#!/bin/sh
# The hematocrit report's "Runs short of their window's end" names only runs that stopped
# before their time.end_time.  runs/hematocrit-cpu.ini shrunk (a 6 um lumen on 26^3 cells,
# Ht 0 without platelets, one rank) with end_time = plasma_end_time = 2 us (the issue's
# case at 200 us, a hundredth of it): both runs end at their end time, and the report says
# none is short; the same study with ht-0.00's diagnostics.csv cut at half its rows (a run
# that stopped early) names ht-0.00 and the end time it missed.
# Skipped (77) without python3's numpy, netCDF4 or matplotlib.
set -eu
. "$(dirname "$0")/lib.sh"
srcdir=${top_srcdir:-.}
/usr/bin/python3 -c 'import numpy, netCDF4, matplotlib' 2>/dev/null \
  || { echo "python3 numpy, netCDF4 or matplotlib absent: skipped"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

sed -e "s#^output = .*#output = $tmp/cpu#" -e 's/^diameter = 12 .*/diameter = 6/' \
    -e 's/^wall = 2 .*/wall = 1/' -e 's/^length = 16 .*/length = 8/' \
    -e 's/^cells_per_rbc = .*/cells_per_rbc = 8/' -e 's/^hematocrits = .*/hematocrits = 0/' \
    -e 's/^diameter = 8$/diameter = 2.5/' -e 's/^count = 6$/count = 0/' \
    -e 's/^pressure_gradient = .*/pressure_gradient = 0.01/' \
    -e 's/^end_time = .*/end_time = 2/' -e 's/^plasma_end_time = .*/plasma_end_time = 2/' \
    -e 's/^start = .*/start = 1/' -e 's/^diagnostics_every = .*/diagnostics_every = 10/' \
    -e 's/^fields_every = .*/fields_every = 50/' -e 's/^restart_every = .*/restart_every = 100/' \
    -e 's/^ranks = .*/ranks = 1\nmpirun = none/' "$srcdir/runs/hematocrit-cpu.ini" > "$tmp/cpu.ini"
grep -q "^end_time = 2$" "$tmp/cpu.ini" && grep -q "^cells_per_rbc = 8$" "$tmp/cpu.ini" &&
  grep -q "^mpirun = none$" "$tmp/cpu.ini" || fail "runs/hematocrit-cpu.ini not shrunk as expected"
/usr/bin/python3 "$srcdir/studies/hematocrit-study" --efsi "$efsi" "$tmp/cpu.ini" \
  > "$tmp/cpu.log" 2>&1 || { cat "$tmp/cpu.log"; fail "the study"; }
for run in plasma ht-0.00; do
  last=$(tail -n 1 "$tmp/cpu/$run/diagnostics.csv" | cut -d, -f2)
  /usr/bin/python3 -c "import sys; sys.exit(not float(sys.argv[1]) >= 2 - 1e-9)" "$last" ||
    fail "$run ended at t = $last, before its end time 2"
done
if grep "short of their window's end" "$tmp/cpu/report.md"; then
  fail "report.md calls runs that reached their end time short of it"
fi
echo "ok: both runs reached t = 2 (ht-0.00's last row at t = $last); the report calls none short"

# a run that did stop early is still named
head -n "$(($(wc -l < "$tmp/cpu/ht-0.00/diagnostics.csv") / 2))" "$tmp/cpu/ht-0.00/diagnostics.csv" \
  > "$tmp/cut" && cp "$tmp/cut" "$tmp/cpu/ht-0.00/diagnostics.csv"
cut_at=$(tail -n 1 "$tmp/cpu/ht-0.00/diagnostics.csv" | cut -d, -f2)
/usr/bin/python3 "$srcdir/studies/hematocrit_analysis.py" "$tmp/cpu" > "$tmp/again.log" 2>&1 ||
  { cat "$tmp/again.log"; fail "the analysis of the cut run"; }
line=$(grep "short of their window's end" "$tmp/cpu/report.md") || fail "the cut run not named short"
echo "$line" | grep -q "ht-0.00 (to t = [0-9.]* of 2 µs)" && ! echo "$line" | grep -q plasma ||
  fail "the report's line: $line"
echo "ok: a run cut at t = $cut_at is named: $line"
echo "1 passed, 0 failed"
