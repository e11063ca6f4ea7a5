# Sourced by the script tests that run efsi, as . "$(dirname "$0")/lib.sh": efsi, the program
# under test; tmp, a directory of the test's own, removed on exit; write_case.
efsi=${top_builddir:-.}/efsi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# write_case FILE CELLS LENGTH: the case file FILE, a [grid] of CELLS cells over LENGTH and
# then the sections on standard input
write_case() {
  printf '[grid]\ncells = %s\nlength = %s\n' "$2" "$3" > "$1"
  cat >> "$1"
}
