# Sourced by the script tests that run efsi, as . "$(dirname "$0")/lib.sh": efsi, the program
# under test; tmp, a directory of the test's own, removed on exit; fail and ok (failures
# counts the first), e1, write_case, channel_case, dump, same, rows.
efsi=${top_builddir:-.}/efsi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# fail WHAT, ok WHAT: a check's line; failures counts the failed ones
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }

# e1 ARGS...: efsi on one rank
e1() { $EFSI_MPIRUN -np 1 "$efsi" "$@"; }

# write_case FILE CELLS LENGTH: the case file FILE, a [grid] of CELLS cells over LENGTH and
# then the sections on standard input
write_case() {
  printf '[grid]\ncells = %s\nlength = %s\n' "$2" "$3" > "$1"
  cat >> "$1"
}

# channel_case FILE CELLS STEPS: a channel between walls in y of CELLS cells over a unit box,
# driven by a pressure gradient, for STEPS steps; then the keys of [output] on standard input
channel_case() {
  { printf '[boundary]\ny = wall\n[drive]\npressure_gradient = 0.1\n[time]\nsteps = %s\n' "$3"
    printf '[output]\n'
    cat; } | write_case "$1" "$2" "1 1 1"
}

# dump FILE: the numbers of a NetCDF file as text with 17 significant digits (equal text,
# equal bits), without the first line (which names the file) and the run identity (which
# names the run, docs/output.md: two runs of one case are two histories)
dump() { ncdump -p 17,17 "$1" 2> /dev/null | sed '1d; /^\t\t:run_id = /d'; }

# same A B: NetCDF files A and B hold the same numbers, bit for bit, and A could be read
# (uses $tmp/a and $tmp/b)
same() { dump "$1" > "$tmp/a"; dump "$2" > "$tmp/b"; [ -s "$tmp/a" ] && cmp -s "$tmp/a" "$tmp/b"; }

# rows FILE: the rows of a diagnostics.csv without the wall_seconds column
rows() {
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "wall_seconds") w = i }
           { line = ""; for (i = 1; i <= NF; i++) if (i != w) line = line $i ","; print line }' "$1"
}

# stand_in FILE: a stand-in for efsi at FILE, for the tests of the study drivers (nothing then
# depends on timing): --status says the folder is new, --check passes, and a run appends its
# arguments to $FAKE_LOG and stops as efsi does, with exit status 4, on time.wall_limit at
# once or on SIGTERM (else it waits 30 s and finishes)
stand_in() {
  cat > "$1" <<'SH'
#!/bin/sh
[ "$1" = --status ] && { echo '{"next": "new", "files": {"restart": [], "unreadable": []}}'; exit 0; }
for a in "$@"; do [ "$a" = --check ] && exit 0; done
trap 'echo "efsi: stopped early on SIGTERM"; exit 4' TERM
echo "$*" >> "$FAKE_LOG"
case "$*" in *time.wall_limit=*) echo "efsi: stopped early before time.wall_limit"; exit 4;; esac
sleep 30 & wait
exit 0
SH
  chmod +x "$1"
}

# terminated LOG COMMAND...: COMMAND run in a process group of its own, its output into LOG,
# the group sent SIGTERM once the stand-in has started (a line in $FAKE_LOG); prints
# COMMAND's exit status
terminated() {
  log=$1
  shift
  setsid "$@" > "$log" 2>&1 &
  pid=$!
  for i in $(seq 100); do [ -s "$FAKE_LOG" ] && break; sleep 0.1; done
  kill -TERM -"$pid"   # the process group (dash takes no -- here)
  wait "$pid" && echo 0 || echo $?
}
