#!/bin/sh
# What goes wrong around a run is said at once, in one line (docs/output.md, "Exit
# statuses"):
#   - efsi --check -o DIR where DIR cannot be created or written (a read-only file system, a
#     path through a file): refused with exit status 2, naming the folder, as the run would be;
#   - a full disk in the middle of a run (a tmpfs of 160 KiB, where the machine lets a user
#     mount one in a namespace of its own; else a file-size limit): exit status 1, one line
#     naming the file and the cause, no Open MPI report, and run.json says "failed" with
#     exit status 1 and that line;
#   - --check of the quick start with rbc.count = 500: refused within a few seconds (it
#     searched for a packing for 30 s), naming the key and the fill.
set -u
. "$(dirname "$0")/lib.sh"
top=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
channel_case "$tmp/f.ini" "8 8 8" 200 <<'EOF'
diagnostics_every = 10
fields_every = 20
EOF
namespace=0
unshare -rm true 2> /dev/null && namespace=1

# ---- --check of a folder that cannot be written
echo x > "$tmp/a-file"
"$efsi" --check -o "$tmp/a-file/out" "$tmp/f.ini" > /dev/null 2> "$tmp/err"
status=$?
[ $status -eq 2 ] && [ "$(cat "$tmp/err")" = "efsi: error: output path $tmp/a-file/out: $tmp/a-file exists and is not a directory" ] ||
  fail "--check through a file: status $status, $(cat "$tmp/err")"
if [ $namespace -eq 1 ]; then
  mkdir "$tmp/ro"
  unshare -rm sh -c 'mount -t tmpfs -o ro tmpfs "$1" && exec "$2" --check -o "$1/out" "$3"' sh \
    "$tmp/ro" "$efsi" "$tmp/f.ini" > /dev/null 2> "$tmp/err"
  status=$?
  [ $status -eq 2 ] && [ "$(cat "$tmp/err")" = "efsi: error: output directory $tmp/ro/out cannot be created: $tmp/ro is not writable: Read-only file system" ] ||
    fail "--check on a read-only file system: status $status, $(cat "$tmp/err")"
elif [ "$(id -u)" -ne 0 ]; then
  mkdir "$tmp/ro" && chmod 555 "$tmp/ro"
  "$efsi" --check -o "$tmp/ro/out" "$tmp/f.ini" > /dev/null 2> "$tmp/err"
  status=$?
  [ $status -eq 2 ] && grep -q "^efsi: error: output directory $tmp/ro/out cannot be created: $tmp/ro is not writable: Permission denied$" "$tmp/err" ||
    fail "--check of a read-only folder: status $status, $(cat "$tmp/err")"
else
  echo "note: root without mount namespaces: the read-only folder is not tested"
fi
ok "--check refuses a folder it cannot write: $(cat "$tmp/err")"

# ---- a full disk
if [ $namespace -eq 1 ]; then
  mkdir "$tmp/disk"
  unshare -rm sh -c 'mount -t tmpfs -o size=160k tmpfs "$1" || exit 99
    "$2" -o "$1/out" "$3" > "$4/log" 2> "$4/err"
    status=$?
    cp "$1/out/run.json" "$4/run.json"
    exit $status' sh "$tmp/disk" "$efsi" "$tmp/f.ini" "$tmp"
  status=$?
  cause="No space left on device"
else
  OMPI_MCA_btl=self,tcp $EFSI_MPIRUN -np 1 sh -c 'ulimit -f 150; exec "$0" "$@"' "$efsi" \
    -o "$tmp/out" "$tmp/f.ini" > "$tmp/log" 2> "$tmp/err"
  status=$?
  cp "$tmp/out/run.json" "$tmp/run.json"
  cause="File too large"
fi
line=$(grep "^efsi: error:" "$tmp/err")
[ $status -eq 1 ] || fail "a full disk: exit status $status, not 1: $(cat "$tmp/err")"
[ "$(grep -c "^efsi: error:" "$tmp/err")" -eq 1 ] &&
  printf '%s\n' "$line" | grep -q "^efsi: error: cannot write .*/out/[a-z]*_000000[0-9]*\.nc: $cause" ||
  fail "a full disk: the line: $(cat "$tmp/err")"
if [ $namespace -eq 1 ]; then
  [ "$(grep -c . "$tmp/err")" -eq 1 ] || fail "a full disk: more than one line: $(cat "$tmp/err")"
fi
grep -q "Data unpack\|MPI_ABORT" "$tmp/err" && fail "a full disk: Open MPI's report: $(cat "$tmp/err")"
grep -q '"state": "failed",' "$tmp/run.json" && grep -q '"exit_status": 1,' "$tmp/run.json" &&
  grep -q -F "\"why\": \"${line#efsi: error: }\"" "$tmp/run.json" ||
  fail "a full disk: run.json: $(cat "$tmp/run.json")"
ok "a full disk: $line; run.json failed"

# ---- bodies that cannot fit: refused at once
start=$(date +%s)
"$efsi" --check --set rbc.count=500 "$top/runs/quickstart.ini" > /dev/null 2> "$tmp/err"
status=$?
took=$(($(date +%s) - start))
[ $status -eq 2 ] && [ $took -le 5 ] &&
  grep -q "^efsi: error: --set rbc.count=500: rbc.count = 500: the bodies asked would fill 2[0-9.]* times the lumen" "$tmp/err" ||
  fail "rbc.count = 500: status $status after $took s: $(cat "$tmp/err")"
ok "rbc.count = 500 refused in $took s: $(cat "$tmp/err")"

echo "$failures failed"
[ $failures -eq 0 ]
