#!/bin/sh
# The folder graph is acyclic (docs/architecture.md, "Layers"): every quoted #include names
# its folder, the file exists, and a folder includes only from the folders below it:
#   base      base
#   stencils  base stencils
#   decomp    base decomp
#   io        base decomp io
#   verify    base decomp stencils verify
#   src/case    base decomp stencils io verify src/case
#   src/bodies  ... src/case src/bodies
#   src/step    ... src/case src/bodies src/step
#   src/run     ... src/case src/bodies src/step src/run
#   bench     bench                (stand-alone probes of the machine, not of efsi)
#   tests     anything
# src/ is four rooms, each above the ones before it (src/local.mk); a file directly in src/
# is refused.  A folder's cuda/ subfolder is held to the folder's own rule.  studies/ and tools/ hold
# Python and shell only (a C file there would be checked as bench/'s: no include of efsi).
# Exit 1 names every include that breaks it.
top=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top" || exit 1
# the scratch file lives outside the source tree (which may be read-only, as in distcheck)
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
allowed() {
  case $1 in
    base) echo "base" ;;
    stencils) echo "base stencils" ;;
    decomp) echo "base decomp" ;;
    io) echo "base decomp io" ;;
    verify) echo "base decomp stencils verify" ;;
    src/case) echo "base decomp stencils io verify src/case" ;;
    src/bodies) echo "base decomp stencils io verify src/case src/bodies" ;;
    src/step) echo "base decomp stencils io verify src/case src/bodies src/step" ;;
    src/run) echo "base decomp stencils io verify src/case src/bodies src/step src/run" ;;
    bench|studies|tools) echo "$1" ;;
    tests) echo "base decomp stencils io verify src/case src/bodies src/step src/run bench tests" ;;
  esac
}
status=0
checked=0
for file in src/*.c src/*.h; do
  [ -f "$file" ] && echo "$file: a source file of src/ belongs in one of its rooms" && echo x
done > "$out"
for folder in base stencils decomp io verify src/case src/bodies src/step src/run bench studies \
  tools tests; do
  ok=$(allowed "$folder")
  for file in $(find "$folder" \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \) | sort); do
    grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$file" | while IFS= read -r line; do
      target=$(printf '%s\n' "$line" | sed 's/.*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/')
      number=${line%%:*}
      case $target in
        */*) ;;
        *) echo "$file:$number: #include \"$target\" does not name its folder"; echo x; continue ;;
      esac
      if [ ! -f "$target" ]; then
        echo "$file:$number: #include \"$target\": no such file"; echo x; continue
      fi
      dir=${target%%/*}
      [ "$dir" = src ] && { rest=${target#src/}; dir=src/${rest%%/*}; }
      case " $ok " in
        *" $dir "*) ;;
        *) echo "$file:$number: $folder/ may not include $target (allowed: $ok)"; echo x ;;
      esac
    done
    checked=$((checked + 1))
  done
done >> "$out"
if grep -q '^x$' "$out"; then
  grep -v '^x$' "$out"
  status=1
fi
[ $status -eq 0 ] && echo "check-layers: the includes of $checked files follow the folder graph"
exit $status
