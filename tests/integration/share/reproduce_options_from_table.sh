#!/bin/sh
# reproduce and run parse their options by their tables (optspec_parse,
# util/optspec.h), the options they share (--device, --out, --scale,
# --yes-destroy-data, --quiet, --progress) from one table (suite/suite_cli.h
# run_shared_opts; reproduce --progress was "unknown option"): a
# misspelt option, a missing or empty value, a value given to a flag, a bad
# word and a bad --device each exit 2 with a message that names the fix,
# before anything is read or written; reproduce --help lists every option
# of the table, run's shared ones included.
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/cwd"
export IOMATRIX_RESULTS="$T/results"
bad() { # WANT CMD... : exit 2, WANT in stderr, nothing written
	want=$1; shift
	(cd "$T/cwd" && "$IOMATRIX" "$@" >"$T/out" 2>"$T/err"); rc=$?
	[ $rc = 2 ] && grep -qF -- "$want" "$T/err" && [ -z "$(ls -A "$T/cwd")" ] &&
		[ ! -e "$T/results" ] && ok "$* -> $want" || not_ok "$*: rc=$rc $(cat "$T/err")"
}
bad "unknown option '--tolerence' (did you mean '--tolerance'?); see 'iomatrix reproduce --help'" \
	reproduce set --tolerence 5
bad "unknown option '--devise' (did you mean '--device'?); see 'iomatrix reproduce --help'" \
	reproduce set --devise a=b
bad "unknown option '--scael' (did you mean '--scale'?); see 'iomatrix run --help'" \
	run s.yaml --scael 0.1
bad "'--tolerance' needs a value: '--tolerance PCT'; see 'iomatrix reproduce --help'" \
	reproduce set --tolerance
bad "'--out' needs a value: '--out DIR'" reproduce set --out=
bad "'--scale' needs a value: '--scale F'" reproduce set -q --scale
bad "'--quiet' takes no value; give it alone, without '=yes'" reproduce set --quiet=yes
bad "'--fail-if-not-reproduced' takes no value" reproduce set --fail-if-not-reproduced=1
bad "bad --device 'ssd': it takes NAME=PATH" reproduce set --device ssd
bad "bad --device 'ssd': it takes NAME=PATH" run s.yaml --device ssd
bad "bad --tolerance 'ten': it takes a percentage above 0 and below 1000 (5 or 5%)" \
	reproduce set --tolerance ten
bad "bad --tolerance '0': it takes a percentage above 0 and below 1000 (5 or 5%)" \
	reproduce set --tolerance=0
bad "bad --progress 'fast': it takes one of: auto tty plain none" run s.yaml --progress fast
bad "bad --progress 'fast': it takes one of: auto tty plain none" reproduce set --progress fast
bad "reproduce takes SET|FILE; 'b' is one too many" reproduce a b
bad "missing SET|FILE; see 'iomatrix reproduce --help'" reproduce --quiet

expect_exit 0 "$IOMATRIX" reproduce --help
usage=$(sed -n '/^usage:/,/^$/p' "$T/out")
body=$(sed '1,/^$/d' "$T/out")
for o in --device --out --scale --yes-destroy-data --quiet --progress --tolerance --fail-if-not-reproduced; do
	echo "$usage" | grep -q -- "\[$o[] ]" && echo "$body" | grep -q -- "^  $o" &&
		ok "reproduce --help: $o in the usage and described" || not_ok "reproduce --help lacks $o"
done
# the shared rows are one table: run's usage shows them too
expect_exit 0 "$IOMATRIX" run --help
for o in --device --out --scale --yes-destroy-data --quiet --progress; do
	grep -q -- "\[$o[] ]" "$T/out" && ok "run --help: $o" || not_ok "run --help lacks $o"
done
# reproduce hands --progress on to run
cat >"$T/s.yaml" <<EOS
suite: progress
defaults: {engine: psync, direct: false, size: 1MiB, runtime: 50ms}
devices:
  - {name: ssd, path: $T/d}
matrix: {pattern: [randread], bs: [4k]}
EOS
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/orig" --progress none
expect_exit 0 "$IOMATRIX" reproduce "$T/orig" --device "ssd=$T/d2" --out "$T/again" --progress plain
grep -q "unknown option" "$T/err" && not_ok "reproduce --progress: $(cat "$T/err")" || ok "reproduce --progress plain runs"
grep -q "^cell 1/1 .*done\|^cell 1/1" "$T/err" && ok "run's progress line reaches stderr" || not_ok "progress: $(cat "$T/err")"
tap_end
