#!/bin/sh
# The study drivers' --help and dry runs:
#   - studies/hematocrit-study, studies/weak-scaling-study, studies/fig2-study and
#     studies/study-acm-smac --help print their usage, exit statuses and signals with exit
#     status 0 and start no efsi (a stand-in that records its calls); study-acm-smac refuses an unknown option and a case file it
#     cannot read in one line with exit status 2;
#   - studies/weak-scaling-study runs/weak-scaling-cpu.ini --dry-run (ranks 1 to 16) on this
#     machine as it is (Open MPI told nothing of oversubscribing: 16 ranks are more slots
#     than it finds) plans every count, says which need more cores than it has, and starts
#     no launcher (runs.mpirun a stand-in that records its calls); so does
#     studies/hematocrit-study runs/hematocrit-cpu.ini --dry-run with run.ranks = 16.
set -eu
. "$(dirname "$0")/lib.sh"
srcdir=${top_srcdir:-.}
[ -x /usr/bin/python3 ] || { echo "/usr/bin/python3 absent: skipped"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
calls=$tmp/calls.log
for name in fake-efsi fake-mpirun; do
  printf '#!/bin/sh\necho "%s $*" >> "%s"\nexit 1\n' "$name" "$calls" > "$tmp/$name"
  chmod +x "$tmp/$name"
done

for driver in hematocrit-study weak-scaling-study fig2-study study-acm-smac; do
  status=0
  EFSI=$tmp/fake-efsi "$srcdir/studies/$driver" --help > "$tmp/help" 2> "$tmp/help.err" || status=$?
  [ "$status" -eq 0 ] && grep -q "^usage: studies/$driver " "$tmp/help" &&
    grep -q "Exit status" "$tmp/help" && grep -q "SIGUSR1" "$tmp/help" &&
    [ ! -s "$tmp/help.err" ] && [ ! -e "$calls" ] ||
    { cat "$tmp/help" "$tmp/help.err" "$calls" 2> /dev/null; fail "$driver --help: exit status $status"; }
  echo "ok: $driver --help: usage, exit statuses and signals, exit status 0, no efsi started"
done
for args in --bogus "$tmp/no-such-case.ini"; do
  status=0
  EFSI=$tmp/fake-efsi "$srcdir/studies/study-acm-smac" "$args" > "$tmp/bad" 2>&1 || status=$?
  [ "$status" -eq 2 ] && [ "$(wc -l < "$tmp/bad")" -eq 1 ] && [ ! -e "$calls" ] ||
    { cat "$tmp/bad"; fail "study-acm-smac $args: exit status $status"; }
  echo "ok: study-acm-smac $args refused: $(cat "$tmp/bad")"
done

# the dry run of the shipped CPU study, Open MPI as a user has it (tests/environment.sh
# allows oversubscribing: not here)
unset OMPI_MCA_rmaps_base_oversubscribe
sed -e "s#^output = .*#output = $tmp/weak#" "$srcdir/runs/weak-scaling-cpu.ini" > "$tmp/weak.ini"
status=0
/usr/bin/python3 "$srcdir/studies/weak-scaling-study" --efsi "$efsi" --dry-run "$tmp/weak.ini" \
  > "$tmp/dry" 2>&1 || status=$?
cat "$tmp/dry"
[ "$status" -eq 0 ] || fail "the dry run: exit status $status"
! grep -qi "slots" "$tmp/dry" || fail "the dry run started mpirun"
for n in 1 2 4 8 16; do
  grep -Eq "^ *$n ranks? +would be started, 40 steps, [0-9.e+]+ cell-updates, about [0-9:]+ " "$tmp/dry" ||
    fail "no plan for $n ranks"
done
cores=$(/usr/bin/python3 -c 'import os; print(len(os.sched_getaffinity(0)))')
over=$(for n in 1 2 4 8 16; do [ "$n" -le "$cores" ] || printf ' %s' "$n"; done)
if [ -n "$over" ]; then
  grep -q "^planned by efsi --check --ranks N, no MPI job started; $cores cores here: the runs of${over} ranks need more" "$tmp/dry" ||
    fail "the counts above the $cores cores not named"
fi
echo "ok: the dry run of runs/weak-scaling-cpu.ini plans 1 to 16 ranks on $cores cores without MPI"
sed -i "s#^mpirun = .*#mpirun = $tmp/fake-mpirun -np {ranks}#" "$tmp/weak.ini"
rm -rf "$tmp/weak"
/usr/bin/python3 "$srcdir/studies/weak-scaling-study" --efsi "$efsi" --dry-run "$tmp/weak.ini" \
  > "$tmp/dry" 2>&1 || { cat "$tmp/dry"; fail "the dry run with a stand-in launcher"; }
[ ! -e "$calls" ] || { cat "$calls"; fail "the dry run started the launcher"; }
echo "ok: the dry run starts no launcher"

# the same for the hematocrit study: runs/hematocrit-cpu.ini on 16 ranks through a launcher
# that records its calls, planned without it
sed -e "s#^output = .*#output = $tmp/ht#" -e 's/^ranks = .*/ranks = 16/' \
    "$srcdir/runs/hematocrit-cpu.ini" > "$tmp/ht.ini"
printf 'mpirun = %s -np {ranks}\n' "$tmp/fake-mpirun" >> "$tmp/ht.ini"
status=0
/usr/bin/python3 "$srcdir/studies/hematocrit-study" --efsi "$efsi" --dry-run "$tmp/ht.ini" \
  > "$tmp/dry" 2>&1 || status=$?
[ "$status" -eq 0 ] && [ ! -e "$calls" ] && [ "$(grep -c "would be started, [0-9]* steps" "$tmp/dry")" -eq 4 ] ||
  { cat "$tmp/dry" "$calls" 2> /dev/null; fail "the hematocrit study's dry run on 16 ranks: exit status $status"; }
echo "ok: the hematocrit study's dry run plans its 4 runs on 16 ranks and starts no launcher"
echo "1 passed, 0 failed"
