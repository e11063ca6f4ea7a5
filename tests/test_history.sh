#!/bin/sh
# One history per output folder (docs/output.md, "One history per folder") and what efsi
# says before and after a run:
#   - reproduction (a) of the first-hour review: a run to step 150 with restart files every
#     50, continued from step 50 with another viscosity into the same folder: refused,
#     naming the later files and --discard-newer, nothing changed; with --discard-newer the
#     later files move aside (kept whole there with the tables' copies), diagnostics.csv ends
#     at the new run's last step with the rows to 50 of the first, every file carries one
#     run identity, and --restart latest takes the new run's file, says it is finished and
#     writes nothing;
#   - reproduction (b): --restart FILE -o DIR where DIR holds another run: refused, DIR's
#     diagnostics.csv unchanged; into a new folder it starts a branch with FILE's identity;
#     into a folder of only a table: refused; --restart latest never takes a foreign file;
#   - efsi --status: JSON of the folder (next, run_id, restart file, last run's exit status
#     and its meaning, finished against a case); a missing folder is "new";
#   - the last line of a run; run.json's record; --discard-newer needs --restart;
#   - the smaller findings: a case file of more than 1 MiB (/dev/zero) refused at once; an
#     automatic dt that underflows refused by --check; a restart file with step -7 and time
#     -1 refused; an RBC smaller than a cell refused, one of 8 cells warned about; --check
#     prints the steps, the wall time and the disk; a file-size limit that the next file
#     fits (but not with 256 KiB more per file) lets the run write it.
set -u
. "$(dirname "$0")/lib.sh"
channel_case "$tmp/f.ini" "8 8 8" 100 <<'EOF'
diagnostics_every = 10
fields_every = 50
EOF
json() {   # json FILE EXPRESSION: python's value of EXPRESSION on the JSON object s of FILE
  /usr/bin/python3 -c 'import json, sys; s = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# ---- (a) a restart older than the folder's newest output
e1 -o "$tmp/mix" --steps 150 --set output.restart_every=50 "$tmp/f.ini" > "$tmp/log" 2>&1 ||
  fail "the first run"
tail -n 1 "$tmp/log" | grep -q "^efsi: finished at step 150 (t = [0-9.]*): time.steps = 150 reached; wrote 4 fields files, 3 restart files and 16 diagnostics rows in $tmp/mix (continue from $tmp/mix/restart_00000150.nc)$" ||
  fail "the last line: $(tail -n 1 "$tmp/log")"
ls -l --time-style=+%s.%N "$tmp/mix" | md5sum > "$tmp/before"
md5sum "$tmp/mix"/* > "$tmp/sums-before"
e1 -o "$tmp/mix" --restart "$tmp/mix/restart_00000050.nc" --steps 80 --set fluid.viscosity=2 \
  "$tmp/f.ini" > "$tmp/log" 2> "$tmp/err"
status=$?
[ $status -eq 2 ] && [ "$(grep -c 'efsi: error' "$tmp/err")" -eq 1 ] &&
  grep -q "restart_00000050.nc is at step 50, but $tmp/mix holds a later part of its history (restart_00000100.nc, fields_00000100.nc, restart_00000150.nc and 1 more; diagnostics.csv to step 150).*add --discard-newer" "$tmp/err" &&
  md5sum "$tmp/mix"/* | cmp -s - "$tmp/sums-before" || fail "(a) not refused: status $status, $(cat "$tmp/err")"
ok "(a) refused: $(grep 'efsi: error' "$tmp/err" | cut -c1-120)..."
e1 -o "$tmp/mix" --restart "$tmp/mix/restart_00000050.nc" --steps 80 --set fluid.viscosity=2 \
  --discard-newer "$tmp/f.ini" > "$tmp/log" 2> "$tmp/err" || fail "(a) with --discard-newer: $(cat "$tmp/err")"
grep -q "^efsi: --discard-newer: moved 4 files after step 50 (.*) to $tmp/mix/discarded-after-00000050; the tables (diagnostics.csv, bodies.csv, bodies.nc) are cut after step 50" "$tmp/log" ||
  fail "(a) the move not said: $(grep discard "$tmp/log")"
aside=$tmp/mix/discarded-after-00000050
[ "$(ls "$aside" | tr '\n' ' ')" = "diagnostics.csv fields_00000100.nc fields_00000150.nc performance.json restart_00000100.nc restart_00000150.nc run.json " ] ||
  fail "(a) aside: $(ls "$aside")"
grep "discarded-after-00000050/restart_00000150.nc\|discarded-after-00000050/diagnostics.csv" "$tmp/sums-before" > /dev/null 2>&1
for f in restart_00000150.nc fields_00000100.nc diagnostics.csv; do
  [ "$(md5sum < "$aside/$f")" = "$(grep "/mix/$f\$" "$tmp/sums-before" | cut -d' ' -f1)  -" ] ||
    fail "(a) $f not kept whole aside"
done
[ "$(ls "$tmp/mix" | grep -c '_.*\.nc$')" -eq 5 ] || fail "(a) files left: $(ls "$tmp/mix")"
steps=$(cut -d, -f1 "$tmp/mix/diagnostics.csv" | tail -n +2 | tr '\n' ' ')
[ "$steps" = "0 10 20 30 40 50 60 70 80 " ] || fail "(a) diagnostics.csv steps: $steps"
ids=$(for f in "$tmp/mix"/*.nc; do ncdump -h "$f" | sed -n 's/.*:run_id = "\(.*\)" ;/\1/p'; done | sort -u)
[ "$(echo "$ids" | wc -l)" -eq 1 ] && [ -n "$ids" ] || fail "(a) run identities in the folder: $ids"
[ "$(json "$tmp/mix/run.json" 's["run_id"]')" = "$ids" ] || fail "(a) run.json's run_id"
e1 -o "$tmp/mix" --restart latest --steps 80 "$tmp/f.ini" > "$tmp/log" 2>&1 || fail "(a) latest"
grep -q "^efsi: $tmp/mix/restart_00000080.nc is at the end of the run (step 80, t = [0-9.]*: time.steps = 80 reached): nothing to do" "$tmp/log" ||
  fail "(a) a finished run not said: $(tail -n 2 "$tmp/log")"
[ "$(cut -d, -f1 "$tmp/mix/diagnostics.csv" | tail -n 1)" = 80 ] || fail "(a) the finished run wrote"
ok "(a) --discard-newer: the later files aside, one history of steps $steps, one run_id; finished said"

# ---- (b) --restart FILE -o DIR of another run
e1 -o "$tmp/b1" --steps 20 "$tmp/f.ini" > /dev/null 2>&1 || fail "(b) run 1"
e1 -o "$tmp/b2" --steps 60 --set output.restart_every=50 "$tmp/f.ini" > /dev/null 2>&1 || fail "(b) run 2"
cp "$tmp/b1/diagnostics.csv" "$tmp/b1-rows"
e1 -o "$tmp/b1" --restart "$tmp/b2/restart_00000050.nc" "$tmp/f.ini" > "$tmp/log" 2> "$tmp/err"
status=$?
id1=$(json "$tmp/b1/run.json" 's["run_id"]')
id2=$(json "$tmp/b2/run.json" 's["run_id"]')
[ $status -eq 2 ] && grep -q "belongs to run $id2, but $tmp/b1 holds the history of run $id1 (run.json)" "$tmp/err" &&
  cmp -s "$tmp/b1-rows" "$tmp/b1/diagnostics.csv" || fail "(b) another run's folder: status $status, $(cat "$tmp/err")"
ok "(b) refused: $(grep 'efsi: error' "$tmp/err" | cut -c1-110)..."
mkdir "$tmp/b3" && cp "$tmp/b1/diagnostics.csv" "$tmp/b3/"
e1 -o "$tmp/b3" --restart "$tmp/b2/restart_00000050.nc" "$tmp/f.ini" > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] && grep -q "does not name the run" "$tmp/err" || fail "(b) a folder of a table only: $(cat "$tmp/err")"
e1 -o "$tmp/branch" --restart "$tmp/b2/restart_00000050.nc" "$tmp/f.ini" > /dev/null 2>&1 ||
  fail "(b) a branch into a new folder"
[ "$(json "$tmp/branch/run.json" 's["run_id"]')" = "$id2" ] || fail "(b) the branch's identity"
# a foreign restart file dropped into a folder: --restart latest refuses it
cp "$tmp/b2/restart_00000060.nc" "$tmp/b1/restart_00000060.nc"
e1 -o "$tmp/b1" --restart latest "$tmp/f.ini" > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] && grep -q "belongs to run $id2, but $tmp/b1 holds the history of run $id1" "$tmp/err" ||
  fail "(b) --restart latest took a foreign file: $(cat "$tmp/err")"
ok "(b) table-only folder refused; a branch carries its run; --restart latest never takes a foreign file"

# ---- efsi --status
e1 --status "$tmp/b1" "$tmp/f.ini" > "$tmp/status.json" 2> "$tmp/err" || fail "--status: $(cat "$tmp/err")"
[ "$(json "$tmp/status.json" 's["next"], sorted(s["run_ids"]) == sorted(["'"$id1"'", "'"$id2"'"])')" = "('mixed', True)" ] ||
  fail "--status of a mixed folder: $(cat "$tmp/status.json")"
rm "$tmp/b1/restart_00000060.nc"
e1 --status "$tmp/b1" "$tmp/f.ini" > "$tmp/status.json" || fail "--status"
[ "$(json "$tmp/status.json" '(s["next"], s["run_id"] == "'"$id1"'", s["restart"]["step"], s["finished"], s["last_run"]["exit_status"], s["files"]["diagnostics_last_step"])')" = "('continue', True, 20, False, 0, 20)" ] ||
  fail "--status of a run to go on: $(cat "$tmp/status.json")"
e1 --status "$tmp/b1" --steps 20 "$tmp/f.ini" > "$tmp/status.json" || fail "--status --steps"
[ "$(json "$tmp/status.json" '(s["next"], s["finished"], s["end"]["reached"], s["last_run"]["meaning"])')" = "('finished', True, 'time.steps = 20 reached', 'the run reached time.steps or time.end_time')" ] ||
  fail "--status of a finished run: $(cat "$tmp/status.json")"
e1 --status "$tmp/nothing-here" > "$tmp/status.json" || fail "--status of a missing folder"
[ "$(json "$tmp/status.json" '(s["next"], s["exists"], s["restart"])')" = "('new', False, None)" ] ||
  fail "--status of a missing folder: $(cat "$tmp/status.json")"
ok "efsi --status: mixed, continue, finished, new"

# ---- the command line and the smaller findings
expect2() {   # expect2 WHAT WORDS efsi arguments...: exit status 2, one error line with WORDS
  what=$1 words=$2
  shift 2
  e1 "$@" > "$tmp/log" 2> "$tmp/err"
  status=$?
  [ $status -eq 2 ] && [ "$(grep -c 'efsi: error' "$tmp/err")" -eq 1 ] && grep -q -- "$words" "$tmp/err" ||
    { fail "$what: status $status, $(cat "$tmp/err")"; return; }
  ok "$what: $(grep 'efsi: error' "$tmp/err")"
}
expect2 "--discard-newer without --restart" "only with --restart" --discard-newer "$tmp/f.ini"
start=$(date +%s)
expect2 "a case file of /dev/zero" "larger than 1024 KiB" /dev/zero
[ $(($(date +%s) - start)) -lt 20 ] || fail "/dev/zero took more than 20 s"
expect2 "dt underflows" "time.dt: the automatic dt is 0" --check --set drive.pressure_gradient=1e170 "$tmp/f.ini"
ncdump "$tmp/b2/restart_00000050.nc" | sed 's/:step = 50LL ;/:step = -7LL ;/; s/:time = [0-9.e+-]* ;/:time = -1. ;/' |
  ncgen -k nc4 -o "$tmp/negative.nc" -
expect2 "a restart file at step -7, time -1" "step -7, time -1: a restart file's step and time are at least 0" \
  -o "$tmp/neg-run" --restart "$tmp/negative.nc" "$tmp/f.ini"
write_case "$tmp/rbc.ini" "24 24 24" "8 8 8" <<'EOF'
[rbc]
count = 1
diameter = 0.1
modulus = 0.02
[time]
steps = 2
EOF
expect2 "an RBC smaller than a cell" "rbc.diameter: the rbc is 0.1 across, smaller than a cell (h = 0.333333)" \
  --check "$tmp/rbc.ini"
e1 --check --set rbc.diameter=2.7 "$tmp/rbc.ini" > "$tmp/log" 2>&1 || fail "an RBC of 8 cells: $(cat "$tmp/log")"
grep -q "^efsi: warning: rbc.diameter = 2.7 spans 8.1 cells (h = 0.3333)" "$tmp/log" ||
  fail "no resolution warning: $(grep -i warn "$tmp/log")"
ok "an RBC of 8 cells: $(grep warning "$tmp/log" | cut -c1-80)..."
e1 --check "$tmp/f.ini" > "$tmp/log" 2>&1 || fail "--check"
grep -q "^  plan: 100 steps (time.steps), 5.12e+04 cell-updates$" "$tmp/log" &&
  grep -q "^  time: about 0:00:0[0-9] on this machine for 1 rank like this one's ([0-9.e+-]* M cell-updates/s per rank, measured with [0-9]* steps of a 8 x 8 x 8 block" "$tmp/log" &&
  grep -q "^  disk: about [0-9]* KiB of output: 3 fields files and 1 restart file of 16 KiB each, diagnostics.csv$" "$tmp/log" ||
  fail "--check's plan: $(grep 'plan\|time:\|disk' "$tmp/log")"
ok "--check: $(grep 'plan:' "$tmp/log")"
# a file-size limit of 100 KiB: a fields file of 8^3 cells and 4 arrays (16 KiB of values,
# about 30 KiB on disk) fits; with 256 KiB added to each estimate it did not
OMPI_MCA_btl=self,tcp $EFSI_MPIRUN -np 1 sh -c 'ulimit -f 100; exec "$0" "$@"' "$efsi" \
  -o "$tmp/small-files" "$tmp/f.ini" > "$tmp/log" 2> "$tmp/err" ||
  fail "a file-size limit the files fit: $(cat "$tmp/err")"
[ -s "$tmp/small-files/fields_00000100.nc" ] && ok "files of about 30 KiB written under a 100 KiB file-size limit"

echo "$failures failed"
[ $failures -eq 0 ]
