#!/bin/sh
# fio 2.x JSON comes in (fio 2.2.10, which distributions shipped for years):
# its latencies are µs, io_bytes KiB, bw KiB/s, and its percentile list is
# padded with the key "0.00" repeated.  After conversion the numbers are
# exact: 15,624.70 write IOPS, 62,499 KiB/s = 63,998,976 B/s, clat p99
# 8,640 µs = 8,640,000 ns, lat mean 8,182.26 µs = 8,182,260 ns (kept
# apart as lat_total_ns: the cell holds clat, latency_kind); the cell
# records the source version and the units converted.  fio 1.x is refused.
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
F="$ROOT/tests/data/fio/fio-2.2.10-randwrite-4k-qd128.json"
expect_exit 0 "$IOMATRIX" import fio "$F" -o "$T/set"
c="$T/set/cells/0001.json"
w() { jq -r ".repetitions[0].write$1" "$c"; }
[ "$(w .iops)" = 15624.7 ] && ok "write IOPS 15624.70" || not_ok "iops $(w .iops)"
[ "$(w .bw_bytes_s)" = 63998976 ] && ok "bw 62499 KiB/s = 63998976 B/s" || not_ok "bw $(w .bw_bytes_s)"
[ "$(w '.lat_ns.percentiles["99.000000"]')" = 8640000 ] && ok "clat p99 8640 us = 8640000 ns" \
	|| not_ok "p99 $(w '.lat_ns.percentiles["99.000000"]')"
# fio 2.x prints percentiles for clat only: the cell holds completion
# latency (latency_kind), so lat_ns.mean is clat's, and fio's lat mean is
# kept apart in lat_total_ns
[ "$(w .lat_total_ns.mean)" = 8182260 ] && ok "lat mean 8182.26 us = 8182260 ns exactly, kept as lat_total_ns" \
	|| not_ok "mean $(w .lat_total_ns.mean)"
[ "$(jq -r .latency_kind "$c")" = completion ] && [ "$(w .lat_ns.mean)" = 8148430 ] \
	&& ok "latency_kind completion: lat_ns.mean is clat's (8148.43 us)" || not_ok "kind $(jq -r .latency_kind "$c"), mean $(w .lat_ns.mean)"
[ "$(w .bytes)" = $((3749928 * 1024)) ] && ok "io_bytes KiB -> bytes" || not_ok "bytes $(w .bytes)"
[ "$(w .ios)" = 937482 ] && ok "total_ios" || not_ok "ios $(w .ios)"
[ "$(w '.lat_ns.percentiles | length')" = 17 ] && ok "the \"0.00\" padding is dropped (17 percentiles)" \
	|| not_ok "percentiles: $(w '.lat_ns.percentiles | keys')"
[ "$(jq -r '.repetitions[0].read // "none" | if type == "object" then "present" else . end' "$c")" != present ] \
	&& ok "no read direction for a write job" || not_ok "read present"
[ "$(jq -r .source.fio_version "$c")" = fio-2.2.10 ] && ok "the cell records fio-2.2.10" || not_ok "source: $(jq -c .source "$c")"
[ "$(jq -r '.source.units_converted | [.latency, .io_bytes, .bw] | join(",")' "$c")" = "us -> ns,KiB -> bytes,KiB/s -> bytes/s" ] \
	&& ok "the cell records the units converted" || not_ok "units: $(jq -c .source.units_converted "$c")"
grep -q '"version":[[:space:]]*"fio-2.2.10"' "$T/set/manifest.json" && ok "manifest source version" || not_ok "manifest version"
# the report reads it like any set
expect_exit 0 "$IOMATRIX" report "$T/set" --charts none --format csv -o "$T/rep"
grep -q "15624.7" "$T/rep/report.csv" && ok "report shows 15624.7 IOPS" || not_ok "report.csv: $(head -3 "$T/rep/report.csv")"
# fio 1.x stays refused, with the position
sed 's/"fio-2.2.10"/"fio-1.59"/' "$F" >"$T/old.json"
expect_exit 2 "$IOMATRIX" import fio "$T/old.json" -o "$T/old"
grep -q "old.json:2:[0-9]*: 'fio-1.59' output is not supported" "$T/err" && ok "fio 1.x refused with its position" \
	|| not_ok "$(cat "$T/err")"
tap_end
