#!/bin/sh
# Offsets are reproducible: the same seed gives the same sequence, another
# seed a different one; sequential IO is contiguous.  Uses the runner's
# IOMATRIX_TRACE=FILE (one line per issued IO: "job dir offset len file";
# completions and submits have lines of their own, filtered out here).
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/scratch"
mk() { # file seed pattern
	cat >"$1" <<Y
suite: t-trace
defaults:
  engine: psync
  direct: false
  size: 2MiB
  seed: $2
devices:
  - name: d
    path: /nonexistent
include:
  - {pattern: $3, bs: 4k, requests: 300}
Y
}
run() { # suite trace out
	IOMATRIX_TRACE="$2" "$IOMATRIX" run "$1" --device d="$T/scratch" --out "$3" --quiet >/dev/null 2>"$T/err" \
		|| { cat "$T/err" >&2; fail "run $1 failed"; }
	[ -s "$2" ] || skip "IOMATRIX_TRACE wrote nothing: the runner has no trace"
	grep -E '^[0-9]+ (read|write) ' "$2" >"$2.io" && mv "$2.io" "$2"
	cut -d' ' -f3 "$2" >"$2.off"
}
mk "$T/a.yaml" 42 randread; mk "$T/b.yaml" 43 randread; mk "$T/c.yaml" 1 read
run "$T/a.yaml" "$T/t1" "$T/s1"
run "$T/a.yaml" "$T/t2" "$T/s2"
run "$T/b.yaml" "$T/t3" "$T/s3"
run "$T/c.yaml" "$T/t4" "$T/s4"
[ "$(wc -l <"$T/t1.off")" -ge 300 ] && ok "trace has every IO" || not_ok "trace has $(wc -l <"$T/t1.off") lines"
cmp -s "$T/t1.off" "$T/t2.off" && ok "same seed, same offsets" || not_ok "same seed gave different offsets"
cmp -s "$T/t1.off" "$T/t3.off" && not_ok "another seed gave the same offsets" || ok "another seed, other offsets"
[ "$(sort -u "$T/t1.off" | wc -l)" -gt 100 ] && ok "random offsets spread" || not_ok "random offsets do not spread"
awk '{ if ($3 % 4096) bad=1 } END { exit bad }' "$T/t1" && ok "random offsets aligned to bs" || not_ok "unaligned offset"
awk 'NR > 1 && $3 != prev + plen { bad=1 } { prev=$3; plen=$4 } END { exit bad }' "$T/t4" \
	&& ok "sequential IO is contiguous" || not_ok "sequential IO has gaps: $(head -3 "$T/t4")"
tap_end
