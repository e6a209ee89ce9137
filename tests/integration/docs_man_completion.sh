#!/bin/sh
# The manual page (built from the --help texts) passes `man --warnings`
# and has a section per command; `make install` installs it and the bash
# completion, which completes subcommands, a command's options (from its
# own --help) and suite files.
. "$(dirname "$0")/../lib.sh"
need_cmd man
need_cmd bash
cd "$ROOT" || fail "no root"
BIN=$(dirname "$IOMATRIX")
sh man/mkman.sh "$IOMATRIX" 0.0 >"$T/iomatrix.1" || fail "mkman failed"
man --warnings -l "$T/iomatrix.1" >"$T/man.txt" 2>"$T/man.err"
[ -s "$T/man.err" ] && not_ok "man warnings: $(head -3 "$T/man.err")" || ok "man --warnings is silent"
for c in run plan validate import export report compare list history site; do
	grep -q "^ *iomatrix $c\$" "$T/man.txt" || grep -q "^   iomatrix $c" "$T/man.txt" \
		|| { not_ok "no section for $c"; continue; }
done
grep -q -- '--chart-scale' "$T/man.txt" && grep -q -- '--progress' "$T/man.txt" \
	&& ok "options of every command are in the page" || not_ok "options missing"

expect_exit 0 make -s -C "$ROOT" install PREFIX=/usr DESTDIR="$T/root"
[ -s "$T/root/usr/share/man/man1/iomatrix.1" ] && ok "make install: man page" || not_ok "man page not installed"
[ -s "$T/root/usr/share/bash-completion/completions/iomatrix" ] && ok "make install: completion" \
	|| not_ok "completion not installed"

comp() { # words... -> COMPREPLY, one per line
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _iomatrix; printf "%s\n" "${COMPREPLY[@]}"' \
		_ "$ROOT/completion/iomatrix.bash" "$@"
}
comp "$IOMATRIX" rep | grep -qx report && ok "completes subcommands" || not_ok "subcommands"
comp "$IOMATRIX" report --ch | grep -qx -- --chart-scale && ok "completes report options" || not_ok "options"
comp "$IOMATRIX" run --prog | grep -qx -- --progress && ok "completes run options" || not_ok "run options"
(cd "$ROOT" && comp "$IOMATRIX" run suites/qu) | grep -qx suites/quick.yaml && ok "completes suite files" \
	|| not_ok "suite files"
tap_end
