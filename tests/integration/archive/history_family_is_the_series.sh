#!/bin/sh
# history judges a change as compare does (the ratio interval new/old,
# Bonferroni over the series' own neighbouring pairs), so: (a) a series of
# two sets has no change point, even where compare calls the pair a
# regression, while the same step followed by a third set that stays is
# one; (b) adding sets of another device, workloads and suite to the
# archive leaves a series' points and change points byte-identical.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
# archives of up to 40 sets made and removed (1.5 s of CPU on ext4, 0.8 s on tmpfs)
tmpfs_T
need_cmd jq
GEN="$ROOT/tests/report/gen_archive.py"

# (a) two sets, 50 % slower in the second: compare speaks, history does not
python3 "$GEN" "$T/two" --sets 2 --cells 2 --repeat 5 --step-at 2 --step -0.5 --seed 11 ||
	fail "generator failed"
set1=$(ls "$T/two" | sed -n 1p)
set2=$(ls "$T/two" | sed -n 2p)
expect_exit 3 "$IOMATRIX" compare "$T/two/$set1" "$T/two/$set2" --format json -o "$T/cmp" --fail-on-regression
expect_exit 0 "$IOMATRIX" history "$T/two" --format json
n=$(jq '[.series[].points[] | select(.change)] | length' "$T/out")
[ "$n" = 0 ] && ok "two sets: no change point (compare: regression)" || not_ok "two sets: $n change points"
# the same step with a third set at the new level: a change point at set 2
python3 "$GEN" "$T/three" --sets 3 --cells 2 --repeat 5 --step-at 2 --step -0.5 --seed 11 ||
	fail "generator failed"
expect_exit 0 "$IOMATRIX" history "$T/three" --format json
at=$(jq -c '[.series[] | [.points | to_entries[] | select(.value.change) | .key]]' "$T/out")
[ "$at" = "[[1],[1]]" ] && ok "three sets, the level stays: a change point at set 2 in each series" ||
	not_ok "three sets: change points at $at"

# (b) a series' change points do not depend on the rest of the archive
python3 "$GEN" "$T/arc" --sets 30 --cells 4 --repeat 5 --step-at 20 --step -0.25 --seed 3 ||
	fail "generator failed"
expect_exit 0 "$IOMATRIX" history "$T/arc" --format json
jq -c '.series[] | select(.device == "ssd")' "$T/out" >"$T/before"
nb=$(jq -s '[.[].points[] | select(.change)] | length' "$T/before")
[ "$nb" = 4 ] && ok "before: one change point per ssd series" || not_ok "before: $nb change points"
# another device on the same days (another suite), with more workloads and
# a step of its own; and more sets of it on later days
python3 "$GEN" "$T/arc" --sets 30 --cells 8 --repeat 3 --devices hdd:hdd --suite other \
	--step-at 5 --step 0.4 --seed 9 || fail "generator failed"
python3 "$GEN" "$T/arc" --sets 10 --first 31 --cells 8 --repeat 3 --devices hdd:hdd --suite other \
	--seed 10 || fail "generator failed"
expect_exit 0 "$IOMATRIX" history "$T/arc" --format json
jq -c '.series[] | select(.device == "ssd")' "$T/out" >"$T/after"
nh=$(jq '[.series[] | select(.device == "hdd")] | length' "$T/out")
[ "$nh" = 8 ] && ok "the archive now has 8 hdd series" || not_ok "hdd series: $nh"
cmp -s "$T/before" "$T/after" && ok "ssd series byte-identical after adding hdd sets" ||
	{ diff "$T/before" "$T/after" | head -20; not_ok "ssd series changed"; }
tap_end
