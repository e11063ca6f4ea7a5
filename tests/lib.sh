# Sourced by the script tests that run efsi, as . "$(dirname "$0")/lib.sh": efsi, the program
# under test; tmp, a directory of the test's own, removed on exit; write_case, dump, same,
# rows.
efsi=${top_builddir:-.}/efsi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# write_case FILE CELLS LENGTH: the case file FILE, a [grid] of CELLS cells over LENGTH and
# then the sections on standard input
write_case() {
  printf '[grid]\ncells = %s\nlength = %s\n' "$2" "$3" > "$1"
  cat >> "$1"
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
