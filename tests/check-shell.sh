#!/bin/sh
# The job templates for clusters (runs/*.sh, docs/building.md, "Long runs on
# clusters"), the fuzzing scripts, the CI script and the shell scripts of bench/, verify/
# and studies/ (gpu-check runs on a GPU node) through shellcheck: they run where nobody
# watches them.
set -u
top=${top_srcdir:-$(dirname "$0")/..}
if ! command -v shellcheck > /dev/null; then
  echo "FAIL: shellcheck is missing (Debian: shellcheck; ./quickstart installs it)"
  echo "0 passed, 1 failed"
  exit 1
fi
failed=0 passed=0
for script in "$top"/runs/*.sh "$top"/tests/fuzz/*.sh "$top"/.ci/run "$top"/bench/* \
              "$top"/verify/* "$top"/studies/*; do
  [ -f "$script" ] || continue
  case $(head -n 1 "$script") in '#!/bin/sh'*|'#!/bin/bash'*) ;; *) continue ;; esac
  if shellcheck "$script"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
