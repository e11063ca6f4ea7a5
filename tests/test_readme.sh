#!/bin/sh
# Every command of README.md and the docs' quick examples works as written, so that none can
# rot: the lines of each fenced ```sh block of README.md, docs/output.md, docs/studies.md and
# docs/scripts.md (in that order: later examples read what earlier ones wrote) run one by
# one, and each fenced ```python block runs whole, in a folder that holds the checkout's
# runs/, tools/, verify/, bench/ and studies/ and this build as build/; each must end with
# exit status 0.  The build commands (./quickstart, configure, make) are indented blocks,
# not fenced: make check itself stands on them.  As every script test, under
# tests/environment.sh (mpirun as root allowed; the README says what to do as root).  Also:
# the Python examples run with what ./quickstart installs (xarray.open_mfdataset needs
# python3-dask).  The three study commands at the top of README.md are checked without
# running them (below).  Skipped (77) without python3's xarray, netCDF4 and matplotlib.
set -u
. "$(dirname "$0")/lib.sh"
srcdir=$(cd "${top_srcdir:-$(dirname "$0")/..}" && pwd)
builddir=$(cd "${top_builddir:-.}" && pwd)
/usr/bin/python3 -c 'import xarray, netCDF4, matplotlib, dask' 2>/dev/null \
  || { echo "python3 xarray, netCDF4, matplotlib or dask absent: skipped"; exit 77; }
top=$tmp/top
mkdir -p "$top"
for d in runs tools verify bench studies; do ln -s "$srcdir/$d" "$top/$d"; done
ln -s "$builddir" "$top/build"
failures=0
ran=0

# blocks FILE LANG: the fenced blocks of that language in FILE, each line prefixed with the
# block's number ("3<TAB>line")
blocks() {
  awk -v lang="$2" '/^```/ { if (inside) { inside = 0 } else if ($0 == "```" lang) { inside = 1; n++ } next }
                    inside { print n "\t" $0 }' "$1"
}

for doc in README.md docs/output.md docs/studies.md docs/scripts.md; do
  blocks "$srcdir/$doc" sh > "$tmp/sh"
  blocks "$srcdir/$doc" python > "$tmp/py"
  [ -s "$tmp/sh" ] || [ -s "$tmp/py" ] || { echo "FAIL: $doc has no fenced example"; failures=$((failures + 1)); }
  while IFS="$(printf '\t')" read -r n line; do
    case $line in ''|'#'*) continue ;; esac
    ran=$((ran + 1))
    if (cd "$top" && sh -c "$line") < /dev/null > "$tmp/out" 2>&1; then
      echo "ok: $doc: $line"
    else
      echo "FAIL: $doc, block $n: $line"; tail -n 15 "$tmp/out"; failures=$((failures + 1))
    fi
  done < "$tmp/sh"
  for n in $(cut -f1 "$tmp/py" | sort -un); do
    awk -F '\t' -v n="$n" '$1 == n { sub(/^[0-9]+\t/, ""); print }' "$tmp/py" > "$tmp/block.py"
    ran=$((ran + 1))
    if (cd "$top" && /usr/bin/python3 "$tmp/block.py") < /dev/null > "$tmp/out" 2>&1; then
      echo "ok: $doc: python block $n"; sed 's/^/    /' "$tmp/out" | tail -n 5
    else
      echo "FAIL: $doc, python block $n:"; tail -n 15 "$tmp/out"; failures=$((failures + 1))
    fi
  done
done
# The opening of README.md names the one command of each of efsi's three uses (indented
# lines "studies/SCRIPT runs/STUDY.ini ..."): running them starts long runs, so here each
# script must answer --help and each study file must be in the repository.
grep -E '^ +studies/[A-Za-z0-9_-]+ runs/[A-Za-z0-9_.-]+\.ini' "$srcdir/README.md" > "$tmp/uses"
uses=0
while read -r script study rest; do
  uses=$((uses + 1))
  if [ ! -f "$srcdir/$study" ]; then
    echo "FAIL: README.md: $script $study: no $study"; failures=$((failures + 1))
  elif (cd "$top" && "$script" --help) < /dev/null > "$tmp/out" 2>&1; then
    echo "ok: README.md: $script --help, $study"
  else
    echo "FAIL: README.md: $script --help"; tail -n 15 "$tmp/out"; failures=$((failures + 1))
  fi
done < "$tmp/uses"
[ "$uses" -eq 3 ] || { echo "FAIL: README.md names $uses study commands, not the three uses"; failures=$((failures + 1)); }
echo "$ran examples, $failures failed"
[ "$ran" -ge 12 ] || { echo "FAIL: only $ran examples found"; exit 1; }
[ $failures -eq 0 ]
