#!/bin/sh
# Test runner: every unit-test program (cmocka, TAP output) and every
# integration script in tests/integration/ (exit 0 pass, 77 skip, other fail;
# a script may also print TAP "ok"/"not ok" lines for several cases).
# Each program gets a timeout.  Ends with one line: N passed, N failed.
#
# env: IOMATRIX (binary under test), BUILD (build dir with tests/test_*),
#      TESTS (optional glob filter, e.g. TESTS=suite)
set -u
cd "$(dirname "$0")/.."
: "${IOMATRIX:=$PWD/iomatrix}"
: "${BUILD:=$PWD/build/default}"
: "${TESTS:=}"
export IOMATRIX
TIMEOUT=${TEST_TIMEOUT:-300}
pass=0; fail=0; skip=0; failed_names=""
log=$(mktemp -d /tmp/iomatrix-tests.XXXXXX)

count_tap() { # file -> sets tp tf
	tp=$(grep -c '^ok ' "$1" || true)
	tf=$(grep -c '^not ok ' "$1" || true)
}

run_one() { # name cmd...
	name=$1; shift
	case "$name" in *"$TESTS"*) ;; *) return ;; esac
	out="$log/$(echo "$name" | tr '/' '_').log"
	CMOCKA_MESSAGE_OUTPUT=TAP timeout -k 5 "$TIMEOUT" "$@" >"$out" 2>&1
	rc=$?
	count_tap "$out"
	if [ "$rc" = 77 ]; then
		skip=$((skip + 1))
		echo "SKIP $name: $(tail -n 1 "$out")"
		return
	fi
	if [ "$tp" -gt 0 ] || [ "$tf" -gt 0 ]; then
		pass=$((pass + tp)); fail=$((fail + tf))
		if [ "$rc" != 0 ] && [ "$tf" = 0 ]; then
			fail=$((fail + 1))
		fi
	elif [ "$rc" = 0 ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
	fi
	if [ "$rc" != 0 ] || [ "$tf" -gt 0 ]; then
		[ "$rc" = 124 ] && echo "TIMEOUT after ${TIMEOUT}s" >>"$out"
		failed_names="$failed_names $name"
		echo "FAIL $name (exit $rc)"
		sed 's/^/    /' "$out" | grep -v '^    ok ' | tail -n 40
	else
		echo "PASS $name"
	fi
}

for t in "$BUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	run_one "unit/$(basename "$t")" "$t"
done
for t in tests/integration/*.sh; do
	[ -f "$t" ] || continue
	run_one "integration/$(basename "$t" .sh)" sh "$t"
done

rm -rf "$log"
[ -n "$failed_names" ] && echo "failed:$failed_names"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
