#!/bin/sh
# Aggregate: 3 test hosts load one shared file at the same instant, with
# the null engine and then libaio.  For each cell: the "all" cell's IOPS is
# the sum of the hosts' IOPS over the common window (within 1 %), its
# merged histogram holds exactly the sum of the hosts' counts, its p99 lies
# between the hosts' smallest and largest p99, each interval's histogram is
# the sum of the hosts' bucket by bucket, and the recorded start skew is
# under 50 ms on loopback.  Host clock offsets are in the manifest.
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/fleet_lib.sh"
. "$ROOT/tests/lib_ivhist.sh"
fleet_start 3
need_cmd jq
# the shared file exists (as on a SAN or NFS): no host lays it out or removes it
dd if=/dev/urandom of="$T/shared.dat" bs=1M count=16 status=none || fail "dd"
cat >"$T/a.yaml" <<Y
suite: fleet-aggregate
defaults: {bs: 4k, size: 16MiB, runtime: 1s, pattern: randread, iodepth: 4}
devices:
  - {name: shared, path: $T/shared.dat}
matrix:
  engine: [null, libaio]
Y
expect_exit 0 "$IOMATRIX" run "$T/a.yaml" --hosts h1,h2,h3 --aggregate --ssh-config "$SSHCFG" \
	--remote-iomatrix "$IOMATRIX" --out "$T/set" --quiet
S=$T/set
[ "$(jq -r .fleet.mode "$S/manifest.json")" = aggregate ] || fail "mode"
[ "$(ls "$S/cells" | wc -l)" = 8 ] || fail "want 2 aggregate + 6 host cells, got $(ls "$S/cells" | wc -l)"
jq -e '[.fleet.hosts[] | .clock.offset_ns != null and .clock.rtt_min_ns > 0] | all' "$S/manifest.json" >/dev/null ||
	fail "clock offsets missing from the manifest"
for engine in null libaio; do
	all=$(jq -s -c --arg e "$engine" '.[] | select(.host == "all" and .params.engine == $e)' "$S"/cells/*.json)
	[ -n "$all" ] || fail "$engine: no aggregate cell"
	hosts=$(jq -s -c --arg e "$engine" '[.[] | select(.host != "all" and .params.engine == $e)]' "$S"/cells/*.json)
	[ "$(echo "$hosts" | jq length)" = 3 ] || fail "$engine: want 3 host cells"
	[ "$(echo "$all" | jq -r .status)" = ok ] || fail "$engine: aggregate $(echo "$all" | jq -r .error)"
	agg_iops=$(echo "$all" | jq '.summary.read.iops.mean')
	sum_iops=$(echo "$hosts" | jq '[.[].summary.read.iops.mean] | add')
	echo "$engine: aggregate $agg_iops IOPS, hosts sum $sum_iops"
	jq -n -e --argjson a "$agg_iops" --argjson s "$sum_iops" '$s > 0 and (($a - $s) | fabs) <= 0.01 * $s' >/dev/null ||
		fail "$engine: aggregate IOPS $agg_iops is not the hosts' sum $sum_iops within 1 %"
	agg_n=$(echo "$all" | jq '[.repetitions[].read.hist.buckets[][1]] | add')
	sum_n=$(echo "$hosts" | jq '[.[].repetitions[].read.hist.buckets[][1]] | add')
	[ "$agg_n" = "$sum_n" ] || fail "$engine: merged histogram holds $agg_n, hosts $sum_n"
	p99=$(echo "$all" | jq '.summary.lat_ns_merged.read.percentiles["99.000000"]')
	lo=$(echo "$hosts" | jq '[.[].summary.lat_ns_merged.read.percentiles["99.000000"]] | min')
	hi=$(echo "$hosts" | jq '[.[].summary.lat_ns_merged.read.percentiles["99.000000"]] | max')
	echo "$engine: merged p99 $p99 ns, hosts $lo .. $hi ns; $agg_n IOs"
	jq -n -e --argjson p "$p99" --argjson lo "$lo" --argjson hi "$hi" '$p >= $lo and $p <= $hi' >/dev/null ||
		fail "$engine: merged p99 $p99 outside the hosts' $lo..$hi"
	skew=$(echo "$all" | jq '.fleet.start_skew_ns')
	echo "$engine: start skew $skew ns"
	jq -n -e --argjson k "$skew" '$k >= 0 and $k < 50000000' >/dev/null || fail "$engine: start skew $skew ns"
	[ "$(echo "$all" | jq -c '.fleet.hosts')" = '["h1","h2","h3"]' ] || fail "$engine: aggregate hosts"
done
[ -f "$T/shared.dat" ] || fail "the shared file (not ours) was removed"
# each interval's histogram of the aggregate is the sum of the hosts',
# and every cell's intervals add up to its histogram
out=$(ivhist_agg_sum "$S" 2>&1) || fail "per-interval histograms: $out"
echo "per-interval histograms: $out"
out=$(ivhist_check "$S" 2>&1) || fail "per-interval histograms: $out"

# the report: per workload the aggregate row first, then one per host, and
# the start skew; report.csv says 'all' for the aggregate rows
expect_exit 0 "$IOMATRIX" report "$S" -o "$T/rep" --charts none
md=$T/rep/report.md
rows=$(grep '^| [a-z0-9]* · shared |' "$md" | cut -d'|' -f2 | tr -d ' ' | tr '\n' ' ')
[ "$rows" = "all·shared h1·shared h2·shared h3·shared all·shared h1·shared h2·shared h3·shared " ] ||
	fail "row order: $rows"
[ "$(grep -c '^\*Aggregate of h1, h2, h3 (4 IOs in flight on each host, 12 in all: the "all" row.s IOPS times its mean latency is about 12, not 4): start skew [0-9.]* ms' "$md")" = 2 ] || fail "no skew line per workload"
[ "$(grep -c '^- On .*, the 3 hosts together did .* IOPS and .* MB/s (h1 .*, h2 .*, h3 .*)\.$' "$md")" = 2 ] ||
	fail "summary: $(sed -n '/^## Summary/,/^Throughput/p' "$md")"
[ "$(awk -F, 'NR > 1 && $2 == "all"' "$T/rep/report.csv" | wc -l)" = 2 ] || fail "report.csv: want 2 rows with host all"
[ -z "$(fleet_agents)" ] || fail "agents left"
