#!/bin/sh
# Two cells of one device that the workload identity calls one workload
# are reported once, and the report says which was left out and why:
# cells that differ only in seed (not a workload key: the random offsets'
# order, not what is measured) name the key; two cells with every
# parameter equal (a set edited so, or an import of two identical jobs)
# say they repeat.  The silent side, cells that are two workloads, is
# report_workload_identity.sh.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
mkdir -p "$T/d"
cat >"$T/s.yaml" <<EOS
suite: seeds
defaults: {engine: "null", size: 1MiB, runtime: 50ms, bs: 4k, pattern: randread}
devices: [{name: d, path: $T/d}]
matrix: {seed: [1, 2]}
EOS
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/set" --quiet
expect_exit 0 "$IOMATRIX" report "$T/set" -o "$T/r" --charts none --format md
grep -q "cell 2 of device 'd' is the workload of cell 1 (they differ only in seed, which does not make another workload); only the first is reported" "$T/err" &&
	ok "seed only: one workload, the key named" || not_ok "seed: $(cat "$T/err")"
[ "$(grep -c '^### ' "$T/r/report.md")" = 1 ] && ok "one table" || not_ok "tables: $(grep '^### ' "$T/r/report.md")"
# cell 2 given cell 1's seed: every parameter equal
python3 - "$T/set/cells/0002.json" <<'EOP' || fail "edit"
import json, sys
c = json.load(open(sys.argv[1]))
c["params"]["seed"] = 1
json.dump(c, open(sys.argv[1], "w"), indent=1)
EOP
(cd "$T/set" && sha256sum $(cut -c67- SHA256SUMS) >SHA256SUMS.new && mv SHA256SUMS.new SHA256SUMS)
expect_exit 0 "$IOMATRIX" report "$T/set" -o "$T/r2" --charts none --format md
grep -q "cell 2 repeats an earlier cell of device 'd' with the same parameters; only the first is reported" "$T/err" &&
	ok "all equal: a repeat" || not_ok "repeat: $(cat "$T/err")"
tap_end
