#!/bin/sh
# --device NAME=PATH and --scale act on plan/validate/export the same way;
# bad uses of them, and of --format, exit 2 with a message on stderr;
# validate --help and plan --help print the key reference.
. "$(dirname "$0")/../../lib.sh"
cd "$ROOT" || fail "no root"
Q=suites/quick.yaml

expect_exit 0 "$IOMATRIX" plan $Q --format json --device scratch=/srv/x
grep -q '"path":[[:space:]]*"/srv/x"' "$T/out" && ok "--device overrides the path" || not_ok "--device"
"$IOMATRIX" plan $Q --device nosuch=/x >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 2 ] && grep -q "no device 'nosuch' (it has: scratch)" "$T/err" && ok "unknown --device name" || not_ok "unknown device rc=$rc $(cat "$T/err")"
"$IOMATRIX" plan $Q --device scratch >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 2 ] && grep -q "bad --device 'scratch': it takes NAME=PATH" "$T/err" && ok "--device without =PATH" || not_ok "--device syntax rc=$rc $(cat "$T/err")"

expect_exit 0 "$IOMATRIX" plan $Q --format json --scale 0.5
grep -q '"size_bytes":[[:space:]]*134217728' "$T/out" && grep -q '"runtime_ns":[[:space:]]*1500000000' "$T/out" \
	&& ok "--scale 0.5 halves size and runtime" || not_ok "--scale"
grep -q '"ramp_ns":[[:space:]]*250000000' "$T/out" && ok "--scale halves ramp too" || not_ok "ramp not scaled"
expect_exit 0 "$IOMATRIX" plan $Q --format json --scale 0.000001
grep -q '"size_bytes":[[:space:]]*1048576,' "$T/out" && ok "--scale never goes below bs" || not_ok "scale floor: $(grep size_bytes "$T/out" | head -n 1)"
"$IOMATRIX" plan $Q --scale -1 >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 2 ] && grep -q "scale" "$T/err" && ok "negative --scale refused" || not_ok "scale -1 rc=$rc"
"$IOMATRIX" plan $Q --format yaml >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 2 ] && grep -q "bad --format 'yaml': it takes one of: text json" "$T/err" && ok "bad --format" || not_ok "format rc=$rc $(cat "$T/err")"
"$IOMATRIX" plan $Q --bogus >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 2 ] && grep -q "unknown option '--bogus'" "$T/err" && ok "unknown option" || not_ok "option rc=$rc"
"$IOMATRIX" validate >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 2 ] && ok "validate without files exits 2" || not_ok "validate no args rc=$rc"
"$IOMATRIX" export csv $Q >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 2 ] && grep -q "unknown format 'csv'" "$T/err" && ok "export: unknown format" || not_ok "export csv rc=$rc"

for c in validate plan; do
	expect_exit 0 "$IOMATRIX" $c --help
	grep -q '^usage: iomatrix '$c "$T/out" && grep -q 'iodepth .*1\.\.1024' "$T/out" && grep -q 'rwmixread' "$T/out" \
		&& ok "$c --help has the key reference" || not_ok "$c --help"
done
expect_exit 0 "$IOMATRIX" export --help
grep -q '^usage: iomatrix export fio' "$T/out" && ok "export --help" || not_ok "export --help"
tap_end
