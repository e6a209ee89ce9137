#!/bin/sh
# The SNIA PTS maps (rounds, steady_state, precondition) go through the same
# map walker and the same did-you-mean as every other map of a suite: a map
# past the key cap is one error, not one per key; a misspelt key is
# suggested the same way (a swap of two letters or a case slip is one edit),
# and a repeated error is reported once.
. "$(dirname "$0")/../../lib.sh"
{
	echo "suite: walk"
	echo "devices: [{name: d, path: /tmp}]"
	echo "defaults: {pattern: read, engine: 'null'}"
	echo "matrix: {bs: [4k]}"
	printf 'rounds: {'
	i=0
	while [ $i -lt 70 ]; do printf 'k%d: 1, ' $i; i=$((i + 1)); done
	echo 'max: 3}'
} >"$T/cap.yaml"
"$IOMATRIX" validate "$T/cap.yaml" >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 2 ] && ok "a 71-key 'rounds' map: exit 2" || not_ok "exit $rc: $(cat "$T/err")"
grep -qF "'rounds' has more than 64 keys" "$T/err" && ok "the key cap names the map" \
	|| not_ok "no key-cap message: $(head -3 "$T/err")"
[ "$(grep -c "unknown key" "$T/err")" = 0 ] && ok "no error per key past the cap" \
	|| not_ok "$(grep -c "unknown key" "$T/err") unknown-key errors"

cat >"$T/typo.yaml" <<'YAML'
suite: typo
devices:
  - {name: d, path: /tmp, precondition: {pattern: write, bs: 128k, aomunt: 2x}}
defaults: {pattern: read, engine: "null"}
matrix: {bs: [4k]}
rounds: {mxa: 3, SLOPE: 10%, wnidwo: 2}
YAML
"$IOMATRIX" validate "$T/typo.yaml" >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 2 ] && ok "misspelt PTS keys: exit 2" || not_ok "exit $rc"
chk() { grep -qF -- "$T/typo.yaml:$1" "$T/err" && ok "$2" || not_ok "$2: want '$1' in: $(cat "$T/err")"; }
chk "6:10: unknown key 'mxa' in 'rounds' (did you mean 'max'?)" "a short key: one swap"
chk "6:18: unknown key 'SLOPE' in 'rounds' (did you mean 'slope'?)" "case is no edit"
chk "6:30: unknown key 'wnidwo' in 'rounds' (did you mean 'window'?)" "two swaps are two edits"
chk "3:68: unknown key 'aomunt' in 'precondition' (did you mean 'amount'?)" "precondition: the same rule"
tap_end
