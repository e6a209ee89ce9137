#!/bin/sh
# `mpirun -np 3 iomatrix run SUITE --mpi --aggregate` on one shared file
# (laid out beforehand, as docs/fleet.md says a shared file is; read
# cells never change it):
# each cell starts on every rank at one instant (the barrier over the
# relayed clock offsets) and the set holds the ranks' cells plus an 'all'
# cell whose IOPS is the sum of the ranks' over the common window (within
# 1 %), whose merged histogram counts exactly the ranks' IOs, and whose
# per-interval histograms are the ranks' summed bucket by bucket.
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/mpi_lib.sh"
. "$ROOT/tests/lib_ivhist.sh"
need_cmd jq
mpi_start
head -c 2097152 /dev/urandom >"$T/shared.dat" || fail "cannot write the shared file"
sum0=$(cksum <"$T/shared.dat")
cat >"$T/s.yaml" <<Y
suite: mpi-aggregate
defaults: {engine: psync, direct: false, size: 2MiB, runtime: 300ms, rate_iops: 500}
devices:
  - {name: shared, path: "$T/shared.dat"}
matrix:
  pattern: [randread, read]
Y
mpi_run -np 3 "$MPI_BIN/iomatrix" run "$T/s.yaml" --mpi --aggregate --out "$T/set" >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 0 ] && ok "mpirun exit 0" || not_ok "mpirun exit $rc: $(grep -E "^(iomatrix|[^ ]+:[0-9]+:)" "$T/err" | grep -v warning | tail -4)"
"$MPI_BIN/iomatrix" verify "$T/set" >/dev/null && ok "the set verifies" || not_ok "verify failed"
jq -e '.fleet.mode == "aggregate"' "$T/set/manifest.json" >/dev/null && ok "mode aggregate" || not_ok "mode"
for pat in randread read; do
	dir=read
	# per host: iops and the histogram's count; 'all' first
	jq -r --arg p $pat --arg d $dir 'select(.params.pattern == $p) |
		[.host, .repetitions[0][$d].iops, ([.repetitions[0][$d].hist.buckets[] | .[1]] | add)] | @tsv' \
		"$T"/set/cells/*.json >"$T/$pat.tsv"
	n=$(grep -vc '^all' "$T/$pat.tsv")
	[ "$n" = 3 ] && ok "$pat: a cell per rank kept" || not_ok "$pat: $n rank cells"
	awk -F'\t' '$1 == "all" { a = $2; ac = $3 } $1 != "all" { s += $2; sc += $3 }
		END { r = a / s; if (r < 0.99 || r > 1.01 || sc != ac) { print "all", a, ac, "ranks", s, sc; exit 1 } }' \
		"$T/$pat.tsv" >"$T/why" && ok "$pat: all IOPS = sum of the ranks (1 %), histogram count = their sum" ||
		not_ok "$pat: $(cat "$T/why")"
done
out=$(ivhist_agg_sum "$T/set" 2>&1) && ok "each interval's histogram of 'all' is the ranks' sum ($out)" ||
	not_ok "per-interval histograms: $out"
[ "$(cksum <"$T/shared.dat")" = "$sum0" ] && ok "the shared file is unchanged" || not_ok "the shared file changed"
skew=$(jq -r 'select(.host == "all") | .fleet.start_skew_ns' "$T"/set/cells/*.json | sort -n | tail -1)
[ -n "$skew" ] && ok "start skew recorded ($skew ns)" || not_ok "no start skew"
left=$(mpi_procs)
[ -z "$left" ] && ok "no iomatrix process left" || not_ok "left running: $left"
tap_end
