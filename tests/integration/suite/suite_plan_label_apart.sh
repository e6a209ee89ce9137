#!/bin/sh
# Cells that share a label are told apart in `plan`: a rate
# matrix, a data matrix and a matrix of an io_uring option all derive
# "RND4K Q32T1", and the plan says what separates each from its label's
# other cells beyond its columns (the workload identity, suite/workload.h);
# where the columns tell them apart (engine, pattern) no column is added.
. "$(dirname "$0")/../../lib.sh"
mk() { # $1 name, $2 pattern, $3 matrix
	cat >"$T/$1.yaml" <<YAML
suite: $1
defaults: {engine: libaio, size: 4MiB, runtime: 100ms, pattern: $2, bs: 4k, iodepth: 32}
devices: [{name: d, path: $T/d}]
matrix: {$3}
YAML
	expect_exit 0 "$IOMATRIX" plan "$T/$1.yaml"
	cp "$T/out" "$T/$1.plan"
}
row() { grep -E "^ +$2 +d +RND4K Q32T1 " "$T/$1.plan"; }
mk rate randread "rate_iops: [200, 1000]"
row rate 1 | grep -q ' rate_iops 200$' && row rate 2 | grep -q ' rate_iops 1000$' \
	&& ok "rate matrix: each row names its rate" || not_ok "rate: $(cat "$T/rate.plan")"
mk data randwrite "data: [random, 'compressible:30', 'compressible:70']"
row data 2 | grep -q ' data compressible:30$' && row data 3 | grep -q ' data compressible:70$' \
	&& row data 1 | grep -q ' data random$' && ok "data matrix: each row names its data" \
	|| not_ok "data: $(cat "$T/data.plan")"
mk uring randread "engine: [io_uring], fixedbufs: [false, true]"
row uring 1 | grep -q ' fixedbufs false$' && row uring 2 | grep -q ' fixedbufs true$' \
	&& ok "an engine's option: each row names it" || not_ok "uring: $(cat "$T/uring.plan")"
# the engine, the pattern, the block size: their columns say them
mk engine randread "engine: [libaio, io_uring], pattern: [randread, randwrite]"
grep -q 'apart from' "$T/engine.plan" && not_ok "what the columns show is said again" \
	|| ok "no column where the columns tell the cells apart"
tap_end
