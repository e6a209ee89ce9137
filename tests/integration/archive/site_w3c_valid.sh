#!/bin/sh
# Every page of a site (index, device pages, suite pages, copied and made
# set reports, hostile names included) passes the W3C Nu HTML checker with
# 0 errors.  Needs java and vnu.jar ($VNU_JAR, or `npm install -g vnu-jar`,
# which .ci/install-deps does in CI); skips with the reason otherwise.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
need_cmd java
jar=${VNU_JAR:-}
if [ -z "$jar" ] && command -v npm >/dev/null 2>&1; then
	jar="$(npm root -g 2>/dev/null)/vnu-jar/build/dist/vnu.jar"
fi
[ -n "$jar" ] && [ -f "$jar" ] || skip "vnu.jar not found (npm install -g vnu-jar, or set VNU_JAR)"
GEN="$ROOT/tests/report/gen_archive.py"
python3 "$GEN" "$T/a" --sets 5 --cells 3 --hosts web1,web2 --step-at 4 --seed 2 || fail "generator failed"
python3 "$GEN" "$T/a" --sets 1 --first 6 --cells 2 --suite "a<b>&\"c'" \
	--names-json '["<i>dev</i> & \"q\""]' --scale-at 6:0.1 || fail "generator failed"
expect_exit 0 "$IOMATRIX" report "$T/a/$(ls "$T/a" | head -n 1)" --format html --charts svg
expect_exit 0 "$IOMATRIX" site "$T/a" -o "$T/site"
find "$T/site" -name '*.html' >"$T/pages"
n=$(wc -l <"$T/pages")
# one short JVM run: the client compiler and the serial collector halve its
# wall and CPU time (measured: 10.8 s -> 4.4 s for 14 pages, same verdicts)
# shellcheck disable=SC2046
timeout 240 java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xss4m -jar "$jar" --errors-only --format gnu \
	$(cat "$T/pages") >"$T/vnu" 2>&1
rc=$?
if [ "$rc" = 0 ] && [ ! -s "$T/vnu" ]; then
	ok "$n pages, 0 errors"
else
	head -n 30 "$T/vnu"
	not_ok "vnu: exit $rc, $(grep -c 'error' "$T/vnu") errors in $n pages"
fi
tap_end
