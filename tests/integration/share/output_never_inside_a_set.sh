#!/bin/sh
# No command writes inside a result set: a set holds what its run wrote
# (SHA256SUMS), and a report, a pack, an unpacked or reproduced set or a
# new run below it makes the set fail verify.  pack had the rule for its
# own set only; 'reproduce SET --out SET/inner' and 'unpack -o
# OTHER/cells' were accepted and the sets then failed verify.  Every
# command's output inside any set, however spelled (a subdirectory, '..',
# a link into it, the default results directory), exits 2 with nothing
# written; a set's own report/ and compare/ stay allowed; both sets still
# verify.
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/scratch"
cat >"$T/s.yaml" <<Y
suite: t-inside
defaults: {engine: null, size: 1MiB, requests: 64}
devices:
  - {name: d, path: $T/scratch}
matrix: {pattern: [randread], bs: [4k]}
Y
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --quiet --out "$T/SET"
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --quiet --out "$T/OTHER"
expect_exit 0 "$IOMATRIX" pack "$T/OTHER" -o "$T/other.tar.gz"
ln -s "$T/SET/cells" "$T/link"
mkdir -p "$T/arch" && cp -r "$T/OTHER" "$T/arch/"
refused() {  # refused WHAT CMD...: exit 2, the rule named
	what=$1; shift
	expect_exit 2 "$@"
	grep -q "is inside the set '.*', a result set" "$T/err" && ok "$what: refused" ||
		not_ok "$what: $(cat "$T/err")"
}
refused "run --out SET/inner" "$IOMATRIX" run "$T/s.yaml" --quiet --out "$T/SET/inner"
refused "run, results directory in a set" env IOMATRIX_RESULTS="$T/SET/cells/r" \
	"$IOMATRIX" run "$T/s.yaml" --quiet
refused "reproduce SET --out SET/inner" "$IOMATRIX" reproduce "$T/SET" --device d="$T/scratch" \
	--out "$T/SET/inner" --quiet
refused "reproduce PACK into a set's results" env IOMATRIX_RESULTS="$T/OTHER/results" \
	"$IOMATRIX" reproduce "$T/other.tar.gz" --device d="$T/scratch" --quiet
refused "unpack -o OTHER/cells" "$IOMATRIX" unpack "$T/other.tar.gz" -o "$T/OTHER/cells"
refused "unpack -o OTHER" "$IOMATRIX" unpack "$T/other.tar.gz" -o "$T/OTHER"
refused "pack -o OTHER/x.tar.gz" "$IOMATRIX" pack "$T/SET" -o "$T/OTHER/x.tar.gz"
refused "pack -o link/../x (a link into the set)" "$IOMATRIX" pack "$T/OTHER" -o "$T/link/../x.tar.gz"
refused "import -o SET/imp" "$IOMATRIX" import fio "$ROOT/tests/data/fio/randread-4k-qd16.json" \
	-o "$T/SET/imp"
refused "report -o OTHER/rep" "$IOMATRIX" report "$T/SET" -o "$T/OTHER/rep" --charts none
refused "report -o SET" "$IOMATRIX" report "$T/SET" -o "$T/SET" --charts none
refused "report -o SET/report/sub" "$IOMATRIX" report "$T/SET" -o "$T/SET/report/sub" --charts none
refused "report -o link/x" "$IOMATRIX" report "$T/SET" -o "$T/link/x" --charts none
refused "compare -o SET/cmp" "$IOMATRIX" compare "$T/SET" "$T/OTHER" -o "$T/SET/cmp"
refused "compare -o SET/report" "$IOMATRIX" compare "$T/SET" "$T/OTHER" -o "$T/SET/report"
refused "site -o SET/site" "$IOMATRIX" site "$T/arch" -o "$T/SET/site" --charts none
refused "export -o SET/cells/../exp" "$IOMATRIX" export fio "$T/s.yaml" -o "$T/SET/cells/../exp"
for s in SET OTHER; do
	expect_exit 0 "$IOMATRIX" verify "$T/$s"
	grep -q "^$T/$s: intact (4 files)" "$T/out" && ! grep -q FAILED "$T/out" &&
		ok "$s still verifies, nothing was written into it" || not_ok "$s: $(cat "$T/out")"
done
# a set's own derived directories stay the commands' to write
expect_exit 0 "$IOMATRIX" report "$T/SET" -o "$T/SET/report" --charts none
expect_exit 0 "$IOMATRIX" compare "$T/SET" "$T/OTHER" -o "$T/OTHER/compare"
expect_exit 0 "$IOMATRIX" verify "$T/SET" "$T/OTHER"
[ "$(grep -c "^$T/[A-Z]*: intact (4 files)" "$T/out")" = 2 ] && ! grep -q FAILED "$T/out" &&
	ok "report -o SET/report and compare -o OTHER/compare: written, both sets verify" ||
	not_ok "derived: $(cat "$T/out")"
# beside a set: written
expect_exit 0 "$IOMATRIX" unpack "$T/other.tar.gz" -o "$T/beside"
expect_exit 0 "$IOMATRIX" report "$T/SET" -o "$T/rep" --charts none
ok "outputs beside the sets: written"
tap_end
