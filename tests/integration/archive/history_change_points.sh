#!/bin/sh
# history on a generated archive: 30 dated sets of one host·device, a 25 %
# slowdown and a kernel change injected at set 20 -> exactly set 20 is a
# change point in every series, with the kernel change named, and nothing
# else; the same noise without the step gives no change point at all.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
need_cmd jq
GEN="$ROOT/tests/report/gen_archive.py"

python3 "$GEN" "$T/step" --sets 30 --cells 4 --repeat 5 --step-at 20 --step -0.25 --seed 3 || fail "generator failed"
python3 "$GEN" "$T/flat" --sets 30 --cells 4 --repeat 5 --seed 3 || fail "generator failed"
set20=$(ls "$T/step" | sed -n 20p)

expect_exit 0 "$IOMATRIX" history "$T/step" --format json
j="$T/out"
nser=$(jq '.series | length' "$j")
[ "$nser" = 4 ] && ok "4 series (one per workload)" || not_ok "series: $nser, expected 4"
nchg=$(jq '[.series[].points[] | select(.change)] | length' "$j")
[ "$nchg" = 4 ] && ok "one change point per series" || not_ok "$nchg change points, expected 4"
bad=$(jq -r --arg s "$set20" '[.series[].points[] | select(.change and .set != $s)] | length' "$j")
[ "$bad" = 0 ] && ok "every change point is set 20 ($set20)" || not_ok "$bad change points elsewhere"
kern=$(jq -r --arg s "$set20" '[.series[].points[] | select(.set == $s) | .env_changes[]] | unique | join("|")' "$j")
[ "$kern" = "kernel 6.1.0-synthetic → 6.6.0-synthetic" ] && ok "the kernel change is named" ||
	not_ok "env changes at set 20: '$kern'"
other=$(jq -r --arg s "$set20" '[.series[].points[] | select(.set != $s) | .env_changes[]] | length' "$j")
[ "$other" = 0 ] && ok "no environment change elsewhere" || not_ok "$other env changes elsewhere"
# the shape scripts rely on
keys=$(jq -r '.series[0] | keys_unsorted | join(",")' "$j")
pkeys=$(jq -r '.series[0].points[0] | keys_unsorted | join(",")' "$j")
[ "$keys" = "host,device,workload,metric,points" ] && [ "$pkeys" = "set,date,value,ci95,n,change,env_changes" ] &&
	ok "json shape" || not_ok "json keys: $keys / $pkeys"
dates=$(jq -r '.series[0].points[].date' "$j")
[ "$dates" = "$(echo "$dates" | sort)" ] && [ "$(echo "$dates" | wc -l)" = 30 ] && ok "30 points in date order" ||
	not_ok "points not in date order"
# the slowdown is about 25 %
v19=$(jq --arg s "$set20" '[.series[] | select(.workload == "RND4K Q1T1 randread") | .points[] ] | .[18].value' "$j")
v21=$(jq --arg s "$set20" '[.series[] | select(.workload == "RND4K Q1T1 randread") | .points[] ] | .[20].value' "$j")
awk -v a="$v19" -v b="$v21" 'BEGIN { r = b / a; exit !(r > 0.6 && r < 0.9) }' && ok "values show the slowdown ($v19 -> $v21)" ||
	not_ok "values $v19 -> $v21"

expect_exit 0 "$IOMATRIX" history "$T/flat" --format json
n=$(jq '[.series[].points[] | select(.change)] | length' "$T/out")
[ "$n" = 0 ] && ok "flat noisy series: no change point" || not_ok "flat series: $n change points"

# text names the change and the kernel; csv has one row per point
expect_exit 0 "$IOMATRIX" history "$T/step" --workload "RND4K Q1T1 randread"
grep -q "^  2026-01-20 .*-2[0-9].[0-9] % \(step\|shift\).*kernel 6.1.0-synthetic → 6.6.0-synthetic" "$T/out" &&
	ok "text: set 20 marked with the kernel change" || { cat "$T/out"; not_ok "text output"; }
expect_exit 0 "$IOMATRIX" history "$T/step" --format csv --metric lat_mean
rows=$(($(wc -l <"$T/out") - 1))
[ "$rows" = 120 ] && ok "csv: 120 rows" || not_ok "csv rows: $rows"
grep -q '^synthhost,ssd,RND4K Q1T1 randread,lat_mean,' "$T/out" && ok "csv metric column" || not_ok "csv metric"

# a rehearsal is kept apart, with the reason
python3 "$GEN" "$T/step" --sets 1 --first 31 --cells 4 --seed 4 --scale-at 31:0.1 || fail "generator failed"
expect_exit 0 "$IOMATRIX" history "$T/step" --format json --workload "RND4K Q1T1 randread"
w=$(jq -r '[.series[].workload] | join("|")' "$T/out")
[ "$w" = "RND4K Q1T1 randread|RND4K Q1T1 randread [rehearsal, --scale 0.1]" ] && ok "rehearsal kept apart" ||
	not_ok "workloads: $w"

# identities: another host name is another device; --same joins them
python3 "$GEN" "$T/two" --sets 3 --cells 1 --hosts web1 --seed 5 || fail "generator failed"
python3 "$GEN" "$T/two" --sets 3 --first 4 --cells 1 --hosts web2 --seed 6 || fail "generator failed"
expect_exit 0 "$IOMATRIX" history "$T/two" --format json
[ "$(jq '.series | length' "$T/out")" = 2 ] && ok "two hosts, two identities" || not_ok "identities"
expect_exit 0 "$IOMATRIX" history "$T/two" --format json --same web1:ssd=web2:ssd
[ "$(jq '.series | length' "$T/out")" = 1 ] && [ "$(jq '.series[0].points | length' "$T/out")" = 6 ] &&
	ok "--same joins them (6 points)" || not_ok "--same"
expect_exit 2 "$IOMATRIX" history "$T/two" --same web1:ssd=nowhere:x
grep -q "no device 'nowhere:x'" "$T/err" && ok "--same with an unknown name: exit 2, named" || not_ok "--same message"
# a fleet set (run --hosts): one series per host, with that host's fingerprint
python3 "$GEN" "$T/fleet" --sets 3 --cells 1 --fleet h1,h2 --seed 7 || fail "generator failed"
expect_exit 0 "$IOMATRIX" history "$T/fleet" --format json
hosts=$(jq -r '[.series[] | "\(.host):\(.points | length)"] | join(" ")' "$T/out")
[ "$hosts" = "node-h1:3 node-h2:3" ] && ok "fleet sets: a series per host, a point per set" ||
	not_ok "fleet series: $hosts"
expect_exit 2 "$IOMATRIX" history "$T/two" --metric speed
expect_exit 2 "$IOMATRIX" history "$T/nonexistent"
grep -q "nonexistent" "$T/err" && ok "missing directory: exit 2, named" || not_ok "missing dir message"
tap_end
