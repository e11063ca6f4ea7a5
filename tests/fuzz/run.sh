#!/bin/sh
# Fuzz one reader for a given time (docs/building.md, "Fuzzing"):
#   tests/fuzz/run.sh TARGET SECONDS [OUT]
# TARGET is config (the case-file parser with --set overrides), restart or voxels.  Builds
# the targets when OUT (default build-fuzz/) has none, starts from the seeds in
# tests/fuzz/corpus/TARGET and the corpus of earlier campaigns in OUT/corpus-TARGET, runs
# libFuzzer on one core and writes a crash, sanitizer report, hang or memory blow-up to
# OUT/findings-TARGET/ (the campaign stops at the first: fix it, keep the input in
# tests/fuzz/regressions/TARGET/ and start again; FUZZ_FLAGS="-fork=1 -ignore_crashes=1"
# collects them all instead).
# Ends with libFuzzer's statistics: executions, coverage (cov: edges, ft: features).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
target=${1:?usage: tests/fuzz/run.sh config|restart|voxels SECONDS [OUT]}
seconds=${2:?usage: tests/fuzz/run.sh config|restart|voxels SECONDS [OUT]}
out=${3:-$top/build-fuzz}
case $target in config|restart|voxels) ;; *) echo "run.sh: unknown target $target" >&2; exit 2 ;; esac
[ -x "$out/fuzz_$target" ] || "$top/tests/fuzz/build.sh" "$out"
mkdir -p "$out/corpus-$target" "$out/findings-$target"
# MPI runs as one process without mpirun; HDF5's caches live for the whole process
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1}"
# a damaged file that sends the NetCDF library into an endless loop: given up after 0.3 s
# (a sound file of the corpus takes 15 ms)
export EFSI_DEBUG=probe_seconds=0.3
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
cd "$out/findings-$target"
before=$(find . -maxdepth 1 -type f | wc -l)
status=0
# shellcheck disable=SC2086
"$out/fuzz_$target" -max_total_time="$seconds" -timeout=60 -rss_limit_mb=2048 \
  ${FUZZ_FLAGS:-} \
  -print_final_stats=1 -artifact_prefix="$out/findings-$target/" \
  "$out/corpus-$target" "$top/tests/fuzz/corpus/$target" || status=$?
# The probe (io/output.h: ncfile_probe) opens a restart or voxel file in a forked child
# first; when the NetCDF library crashes there, libFuzzer's handler, inherited by the child,
# writes the input as a crash-* file although efsi refused the file and went on.  A campaign
# that ended without a finding of its own (status 0) has only such files: they are moved
# aside and counted, not reported as findings.
if [ "$status" -eq 0 ]; then
  mkdir -p probe-children
  n=0
  for f in crash-* leak-* timeout-* oom-*; do
    [ -f "$f" ] || continue
    mv "$f" probe-children/
    n=$((n + 1))
  done
  echo "run.sh: no finding; $n inputs crashed the NetCDF library inside the probe's child" \
    "process and were refused by efsi (kept in $out/findings-$target/probe-children/)"
else
  echo "run.sh: a finding (libFuzzer's exit status $status): $(( $(find . -maxdepth 1 -type f | wc -l) - before ))" \
    "new files in $out/findings-$target/" >&2
fi
exit "$status"
