#!/bin/sh
# What users met before every command parsed by its option table (issue:
# compare and ten other commands parsed by hand): `compare --threshold=5`
# was refused while `run --scale=0.5` worked, `compare --treshold` got no
# "did you mean", `pack --with-report=x` said "unknown option" instead of
# "takes no value", and a bad word was "unknown format".  Run as users
# run it (the real binary, one command each; parse_only stops each after
# its parse, cli_every_option.sh goes over every option of every table).
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/cwd"
cd "$T/cwd" || fail "no cwd"
export IOMATRIX_RESULTS="$T/results"
parsed() { # WANT CMD...: exit 0 and WANT is what the command parsed
	want=$1; shift
	IOMATRIX_TEST_HOOK=parse_only=1 "$IOMATRIX" "$@" >"$T/out" 2>"$T/err"; rc=$?
	[ $rc = 0 ] && [ "$(cat "$T/out")" = "$want" ] && ok "$* parses" ||
		not_ok "$*: rc=$rc $(cat "$T/out" "$T/err")"
}
refused() { # WANT CMD...: exit 2 with WANT on stderr
	want=$1; shift
	"$IOMATRIX" "$@" >"$T/out" 2>"$T/err"; rc=$?
	[ $rc = 2 ] && grep -qF -- "$want" "$T/err" && ok "$* -> $want" ||
		not_ok "$*: rc=$rc $(cat "$T/err")"
}
parsed "compare --threshold=5 -- old new" compare old new --threshold=5
parsed "compare -o=d --threshold=2.5 --map=a=b -- old new" compare --output=d old new --threshold 2.5% --map=a=b
parsed "history --format=csv -- a" history --format=csv a
parsed "site -o=s --title=T --charts=none --" site --out=s --title=T --charts=none
parsed "import --device=d --bs=16384 -- sysbench x.log" import sysbench x.log --device=d --bs=16k
refused "unknown option '--treshold' (did you mean '--threshold'?); see 'iomatrix compare --help'" \
	compare old new --treshold 5
refused "'--with-report' takes no value; give it alone, without '=x'" pack set -o p --with-report=x
refused "bad --format 'htm': it takes one or more of md html csv json, comma-separated (did you mean 'html'?)" \
	report set --format htm
refused "bad --threads '0': it takes a whole number from 1 to 4096" import sysbench x.log --threads 0
refused "'--map' needs a value: '--map OLD=NEW'; see 'iomatrix compare --help'" compare old new --map
refused "--mode is not an option of 'iomatrix import fio'" import fio x.json --mode rndrd
refused "unknown option '--versoin' (did you mean '--version'?); see 'iomatrix --help'" --versoin
[ -z "$(ls -A "$T/cwd")" ] && [ ! -e "$T/results" ] && ok "nothing written" || not_ok "written: $(ls -A "$T/cwd")"
tap_end
