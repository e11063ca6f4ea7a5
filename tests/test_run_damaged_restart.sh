#!/bin/sh
# One history per folder when the newest restart file is damaged (docs/output.md, "One
# history per folder"): a folder of a run to step 200 with restart files 100 and 200, the
# 200 one cut to its first 20000 bytes (head -c, a copy that did not finish).
#   - --restart latest and --restart DIR/restart_00000100.nc agree: both refused with exit
#     status 2 and one line that names the damaged file as truncated, the later files and
#     --discard-newer (latest: the whole command), and the folder is left as it was;
#   - --restart latest --discard-newer moves the later files (the damaged one included)
#     aside, says so, and the folder then holds one history: diagnostics.csv's steps run
#     0..250 once, every file carries one run identity.
set -u
. "$(dirname "$0")/lib.sh"
# 20000 bytes must cut the restart file: 24^3 cells of 5 arrays, about 0.5 MiB
channel_case "$tmp/f.ini" "24 24 24" 200 <<'EOF'
diagnostics_every = 50
fields_every = 100
restart_every = 100
EOF
e1 -o "$tmp/run" "$tmp/f.ini" > "$tmp/log" 2>&1 || fail "the first run: $(tail -n 3 "$tmp/log")"
head -c 20000 "$tmp/run/restart_00000200.nc" > "$tmp/cut" && mv "$tmp/cut" "$tmp/run/restart_00000200.nc"
(cd "$tmp/run" && md5sum ./*) > "$tmp/sums"

refused() {   # refused NAME ARGS...: exit status 2, one line, the folder unchanged
  name=$1
  shift
  rm -rf "$tmp/try"
  cp -r "$tmp/run" "$tmp/try"
  e1 -o "$tmp/try" "$@" --steps 250 "$tmp/f.ini" > "$tmp/$name.out" 2> "$tmp/$name.err"
  status=$?
  [ $status -eq 2 ] || fail "$name: exit status $status, not 2: $(cat "$tmp/$name.err")"
  [ "$(grep -c "^efsi:" "$tmp/$name.err")" -eq 1 ] || fail "$name: not one line: $(cat "$tmp/$name.err")"
  (cd "$tmp/try" && md5sum -c --quiet "$tmp/sums") > /dev/null 2>&1 &&
    [ "$(ls "$tmp/try" | wc -l)" -eq "$(ls "$tmp/run" | wc -l)" ] ||
    fail "$name: the folder changed: $(ls "$tmp/try")"
  for words in "restart_00000200.nc is not readable (a truncated file: 20000 bytes of the" \
               "restart_00000100.nc is at step 100, but $tmp/try holds a later part of its history (restart_00000200.nc, fields_00000200.nc; diagnostics.csv to step 200)" \
               "would mix two histories; add --discard-newer"; do
    grep -q -F -- "$words" "$tmp/$name.err" || fail "$name: the message lacks '$words': $(cat "$tmp/$name.err")"
  done
}
refused latest --restart latest
grep -q -F -- "--restart latest: the newer $tmp/try/restart_00000200.nc" "$tmp/latest.err" &&
  grep -q -F -- "(efsi -o $tmp/try --restart latest --discard-newer ... $tmp/f.ini)" "$tmp/latest.err" ||
  fail "latest: the command that goes on is not given: $(cat "$tmp/latest.err")"
ok "--restart latest refused: $(cut -c1-160 "$tmp/latest.err")..."
refused explicit --restart "$tmp/try/restart_00000100.nc"
ok "--restart DIR/restart_00000100.nc refused alike: $(cut -c1-120 "$tmp/explicit.err")..."

# the command the refusal gives
rm -rf "$tmp/try"
cp -r "$tmp/run" "$tmp/try"
e1 -o "$tmp/try" --restart latest --discard-newer --steps 250 "$tmp/f.ini" > "$tmp/log" 2> "$tmp/err" ||
  fail "--discard-newer: $(cat "$tmp/err")"
grep -q "^efsi: --discard-newer: moved 2 files after step 100 (restart_00000200.nc, fields_00000200.nc) to $tmp/try/discarded-after-00000100" "$tmp/log" ||
  fail "--discard-newer: the move not said: $(grep discard "$tmp/log")"
cmp -s "$tmp/try/discarded-after-00000100/restart_00000200.nc" "$tmp/run/restart_00000200.nc" ||
  fail "the damaged file not kept aside whole"
steps=$(cut -d, -f1 "$tmp/try/diagnostics.csv" | tail -n +2 | tr '\n' ' ')
[ "$steps" = "0 50 100 150 200 250 " ] || fail "diagnostics.csv's steps: $steps"
ids=$(for f in "$tmp/try"/*.nc; do ncdump -h "$f" | sed -n 's/.*:run_id = "\(.*\)" ;/\1/p'; done | sort -u)
[ -n "$ids" ] && [ "$(echo "$ids" | wc -l)" -eq 1 ] || fail "run identities in the folder: $ids"
ok "--restart latest --discard-newer: the later files aside, steps $steps, one run_id"

echo "$failures failed"
[ $failures -eq 0 ]
