#!/bin/sh
# A result set is self-consistent JSON: every file parses, the manifest's
# cell index matches the cell files, suite.yaml is the suite byte for byte,
# plan.json is exactly what `plan --format json` prints, and the summary
# has a STAT object per metric.  The set directory goes to stdout.
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
mkdir -p "$T/scratch"
cat >"$T/s.yaml" <<'Y'
suite: t-roundtrip
title: "Round trip"
defaults:
  engine: psync
  direct: false
  size: 1MiB
  repeat: 2
devices:
  - name: d
    path: /nonexistent
matrix:
  pattern: [randread, randwrite]
  bs: [4k, 8k]
include:
  - {pattern: randrw, bs: 4k, requests: 100}
exclude:
  - {pattern: randwrite, bs: 8k}
Y
# no --out: the set is created under IOMATRIX_RESULTS with a dated name
IOMATRIX_RESULTS="$T/results" expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --device d="$T/scratch" --quiet
set=$(cat "$T/out")
case "$set" in "$T/results/"*_t-roundtrip_*) ok "set path printed: $set" ;;
	*) not_ok "stdout is '$set'" ;; esac
[ -d "$set" ] || fail "no set directory"
for f in "$set"/manifest.json "$set"/plan.json "$set"/cells/*.json; do
	jq empty "$f" 2>/dev/null || not_ok "$f does not parse"
done
ok "every JSON file parses"
m="$set/manifest.json"
[ "$(jq -r .status "$m")" = complete ] && ok "status complete" || not_ok "status $(jq -r .status "$m")"
[ "$(jq -r .schema_version "$m")" = 1 ] && ok "schema_version 1" || not_ok "schema_version"
[ "$(jq -r .source.kind "$m")" = iomatrix ] && ok "source kind" || not_ok "source kind"
n=$(jq '.cells_total' "$m"); nf=$(ls "$set"/cells/*.json | wc -l); ni=$(jq '.cells | length' "$m")
[ "$n" = 4 ] && [ "$nf" = 4 ] && [ "$ni" = 4 ] && ok "4 cells: total, files, index" || not_ok "cells_total $n files $nf index $ni"
bad=0
for id in $(jq '.cells[].id' "$m"); do
	file=$(jq -r ".cells[] | select(.id == $id) | .file" "$m")
	[ "$(jq .id "$set/$file")" = "$id" ] || bad=1
	[ "$(jq -r ".cells[] | select(.id == $id) | .label" "$m")" = "$(jq -r .params.label "$set/$file")" ] || bad=1
done
[ $bad = 0 ] && ok "cell ids and labels match the manifest" || not_ok "cell index mismatch"
cmp -s "$T/s.yaml" "$set/suite.yaml" && ok "suite.yaml byte for byte" || not_ok "suite.yaml differs"
[ "$(jq -r .suite.sha256 "$m")" = "$(sha256sum "$T/s.yaml" | cut -d' ' -f1)" ] \
	&& ok "suite sha256" || not_ok "suite sha256"
"$IOMATRIX" plan "$T/s.yaml" --device d="$T/scratch" --format json >"$T/plan.json" 2>/dev/null ||
	"$IOMATRIX" plan "$T/s.yaml" --format json >"$T/plan.json"
if [ "$(jq -S . "$T/plan.json")" = "$(jq -S . "$set/plan.json")" ]; then ok "plan.json == plan --format json"
else
	# paths differ when plan cannot take --device: compare without them
	[ "$(jq -S 'del(.cells[].path)' "$T/plan.json")" = "$(jq -S 'del(.cells[].path)' "$set/plan.json")" ] \
		&& ok "plan.json == plan --format json (paths aside)" || not_ok "plan.json differs"
fi
c="$set/cells/0001.json"
[ "$(jq '.repetitions | length' "$c")" = 2 ] && ok "2 repetitions" || not_ok "repetitions"
[ "$(jq '.summary.read.iops.n' "$c")" = 2 ] && ok "summary iops over 2 reps" || not_ok "summary: $(jq -c .summary "$c" | head -c 300)"
for k in iops bw_bytes_s lat_mean_ns lat_p50_ns lat_p99_ns lat_max_ns; do
	jq -e ".summary.read.$k | has(\"mean\") and has(\"stddev\") and has(\"ci95\") and has(\"cv\")" "$c" >/dev/null \
		|| not_ok "summary.read.$k lacks STAT keys"
done
ok "summary STAT objects"
# the summary is computed from the repetitions: iops mean, max latency, merged count
jq -e '([.repetitions[] | .read.ios / (.runtime_ns / 1e9)] | add / length) as $m
	| (.summary.read.iops.mean - $m | fabs) <= 1e-6 * $m' "$c" >/dev/null \
	&& ok "summary iops mean = mean of repetition iops" || not_ok "summary iops mean"
jq -e '([.repetitions[].read.lat_ns.max] | max) == .summary.read.lat_max_ns.max
	and ([.repetitions[].read.lat_ns.max] | max) == .summary.lat_ns_merged.read.max' "$c" >/dev/null \
	&& ok "max latency across repetitions" || not_ok "max latency"
jq -e '.summary.lat_ns_merged.read.percentiles["99.000000"] > 0' "$c" >/dev/null \
	&& ok "merged latency percentiles" || not_ok "lat_ns_merged"
jq -e '.host.kernel and .tool.version and .devices[0].fingerprint.kind' "$m" >/dev/null \
	&& ok "host, tool, device fingerprint" || not_ok "fingerprint missing"
ls "$set" | grep -q '\.tmp\.' && not_ok "temporary files left" || ok "no temporary files left"
ls "$T/scratch" | grep -q . && not_ok "scratch files left: $(ls "$T/scratch")" || ok "scratch files removed"
tap_end
