#!/bin/sh
# The BENCH_ONLY words that the Makefile's header, the README and
# docs/bench.md offer are exactly the ones the scripts of `make bench`
# accept, tests/bench/run.sh's header names its own, and every script of
# `make bench` honours BENCH_ONLY
# (given a word that is none of its own, it does nothing and exits 0).
. "$(dirname "$0")/../../lib.sh"
cd "$ROOT" || fail "no root"
words() { tr ' ' '\n' | sed '/^$/d' | sort -u | tr '\n' ' '; }
scripts=$(sed -n '/^bench:/,/^$/p' Makefile | grep -o 'tests/bench/[a-z_]*\.sh' | sort -u)
[ -n "$scripts" ] || fail "no scripts in the Makefile's bench target"
# what the code accepts: the words of each script's BENCH_ONLY case and of
# run.sh's want() calls
code=$(for s in $scripts; do
	grep 'BENCH_ONLY:-' "$s" | grep -o '\*" [a-z]* "\*' | tr -d '*" '
	sed -n 's/.*\bwant \([a-z]*\).*/\1/p' "$s"
done | tr '\n' ' ' | words)
make_words=$(grep -o 'BENCH_ONLY="[^"]*"' Makefile | head -1 | sed 's/.*="\(.*\)"/\1/' | words)
[ "$make_words" = "$code" ] && ok "Makefile: $code" || not_ok "Makefile says '$make_words', the scripts take '$code'"
for doc in README.md docs/bench.md; do
	lists=$(grep -o 'BENCH_ONLY="[^"]*"' "$doc" | sed 's/.*="\(.*\)"/\1/' | sort -u)
	[ -n "$lists" ] || not_ok "$doc names no BENCH_ONLY words"
	echo "$lists" | while read -r line; do
		[ "$(echo "$line" | words)" = "$code" ] || { echo "not ok - $doc says '$line', the scripts take '$code'"; exit 1; }
	done && ok "$doc" || not_ok "$doc's BENCH_ONLY list"
done
own=$(sed -n 's/.*BENCH_ONLY *run only these parts: "\([^"]*\)".*/\1/p' tests/bench/run.sh | words)
runs=$(sed -n 's/.*\bwant \([a-z]*\).*/\1/p' tests/bench/run.sh | words)
[ "$own" = "$runs" ] && ok "run.sh header: $runs" || not_ok "run.sh header '$own', want() takes '$runs'"
printf '#!/bin/sh\necho ran >>"%s/ran"\n' "$T" >"$T/iomatrix"
chmod +x "$T/iomatrix"
for s in $scripts; do
	BENCH_ONLY=no-such-part BARE="$T" timeout 60 sh "$s" "$T/iomatrix" >"$T/out" 2>&1
	rc=$?
	[ $rc = 0 ] && [ ! -e "$T/ran" ] && ok "$s honours BENCH_ONLY" \
		|| not_ok "$s ran with BENCH_ONLY=no-such-part (exit $rc): $(head -3 "$T/out")"
	rm -f "$T/ran"
done
tap_end
