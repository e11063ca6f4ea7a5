#!/bin/sh
# What efsi --check says of a random packing (docs/bodies.md, "Seeding" and "Cost"):
#   - run on its ranks (1 and 2), it packs: the hematocrit reached, the sweeps, the
#     seconds, the busiest rank's CPU seconds, the estimate and the bodies held, and the
#     same sweeps on both (the same packing);
#   - planned for N ranks (--check --ranks N), it packs nothing and prints the hematocrit
#     asked and the estimate, which falls as the bodies per rank do (1, 16, 64 ranks) and
#     stays with the bodies per rank, not the total: 10^6 RBCs at 40 % on 8000 ranks cost
#     about what 10^4 do on 64 (boxes of 32 and 34 um).
set -u
. "$(dirname "$0")/lib.sh"

# randomly oriented 8 um RBCs at 40 % of a periodic cube: NAME CELLS SIDE (um)
cube() {
  write_case "$tmp/$1.ini" "$2 $2 $2" "$3 $3 $3" <<EOF
[boundary]
y = periodic
z = periodic
[rbc]
hematocrit = 0.4
[time]
steps = 1
EOF
}

cube small 32 16.2
for np in 1 2; do
  $EFSI_MPIRUN -np $np "$efsi" --check "$tmp/small.ini" > "$tmp/run$np" 2>&1 || fail "--check on $np ranks: $(cat "$tmp/run$np")"
  line=$(grep "bodies:" "$tmp/run$np")
  echo "$np ranks:$line"
  echo "$line" | grep -q "rbc (hematocrit 0.40[0-9]*); random packing on $np ranks: [0-9]* sweeps, [0-9.]* s (the busiest rank computing for [0-9.]* s of CPU, estimated [0-9.e+]* s), at most [0-9]* bodies on a rank, axis order" \
    || fail "no packing line on $np ranks"
done
sweeps1=$(sed -n 's/.*: \([0-9]*\) sweeps.*/\1/p' "$tmp/run1")
sweeps2=$(sed -n 's/.*: \([0-9]*\) sweeps.*/\1/p' "$tmp/run2")
[ -n "$sweeps1" ] && [ "$sweeps1" = "$sweeps2" ] || fail "sweeps $sweeps1 on 1 rank, $sweeps2 on 2"

# planned: 10^4 RBCs (100.75 um^3) at 40 % in a 136 um cube, 10^6 in a 631 um one
cube ten4 68 136
cube ten6 320 631
estimate() {
  "$efsi" --check --ranks "$2" "$tmp/$1.ini" > "$tmp/plan" 2>&1 || { fail "--check --ranks $2: $(cat "$tmp/plan")"; echo 0; return; }
  grep -q "random packing, estimated .* s on $2 ranks (not packed in a plan)" "$tmp/plan" \
    || fail "no estimate for $2 ranks: $(grep bodies: "$tmp/plan")"
  sed -n 's/.*random packing, estimated \([^ ]*\) s on.*/\1/p' "$tmp/plan"
}
e1=$(estimate ten4 1)
e16=$(estimate ten4 16)
e64=$(estimate ten4 64)
e8000=$(estimate ten6 8000)
grep -q "bodies: [0-9]* rbc (hematocrit 0.4" "$tmp/plan" || fail "no hematocrit in the plan"
echo "estimates: 10^4 RBCs on 1 rank $e1 s, 16 ranks $e16 s, 64 ranks $e64 s; 10^6 on 8000 ranks $e8000 s"
awk -v a="$e1" -v b="$e16" -v c="$e64" -v d="$e8000" 'BEGIN {
  exit !(a > 4 * b && b > c && c > 0 && d / c > 0.5 && d / c < 2) }' \
  || fail "the estimate does not follow the bodies per rank"

echo "$failures failed"
[ "$failures" -eq 0 ]
