#!/bin/sh
# The project documents itself (docs/architecture.md, "Where things are documented"): every
# Markdown file a source file or script names must be in the repository, and a cited
# section -- written  docs/FILE.md, "Heading"  -- must be a heading of that file.  Exit 1
# names every citation that points nowhere (a file outside the repository, a renamed
# section).
top=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top" || exit 1
# the scratch file lives outside the source tree (which may be read-only, as in distcheck)
citations=$(mktemp) || exit 1
trap 'rm -f "$citations"' EXIT
files=$(find base src stencils decomp io verify bench studies tests tools runs quickstart .ci \
          configure.ac Makefile.am \
          \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' -o -name '*.mk' \
             -o -name '*.am' -o -name '*.ac' -o -name '*.ini' -o -name '*.sh' -o -name '*.py' \
             -o -perm -u+x \) -type f 2>/dev/null | sort)
status=0
count=0
for file in $files; do
  [ "$file" = tests/check-citations.sh ] && continue
  # a design document that is not part of efsi
  if grep -q 'DESIGN' "$file"; then
    grep -n 'DESIGN' "$file" | sed "s|^|$file:|; s|\$|  (a document outside the repository)|"
    status=1
  fi
  # every document of the repository a line names (docs/NAME.md or README.md), with the
  # quoted heading after it if any; other .md names (files a program writes) are not cited
  grep -n -o '\(docs/[A-Za-z0-9_-]*\.md\|README\.md\)\(, "[^"]*"\)\{0,1\}' "$file" 2>/dev/null > "$citations"
  while IFS= read -r hit; do
    line=${hit%%:*}
    cite=${hit#*:}
    doc=${cite%%,*}
    count=$((count + 1))
    if [ ! -f "$doc" ]; then
      echo "$file:$line: cites $cite, which is not in the repository"
      status=1
      continue
    fi
    case $cite in
      *', "'*)
        heading=${cite#*, \"}
        heading=${heading%\"}
        if ! grep -q "^#.*$heading" "$doc"; then
          echo "$file:$line: cites $cite: $doc has no heading \"$heading\""
          status=1
        fi ;;
    esac
  done < "$citations"
done
[ $status -eq 0 ] && echo "check-citations: $count citations of documents, every one in the repository"
exit $status
