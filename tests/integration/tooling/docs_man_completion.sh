#!/bin/sh
# The manual page (built from the --help texts) passes `man --warnings`
# and has a section per command; `make install` installs it and the bash
# completion, which completes subcommands, every option of every command
# (each one in the command's usage, its section of the page, and accepted
# by the command) and suite files.
. "$(dirname "$0")/../../lib.sh"
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

# the binary under test and the page made above are installed as they are:
# tests run in parallel, and a relink here would pull the binary from under
# the others (-o: never remake them).  The Makefile's target is the name
# "iomatrix", which -o "$IOMATRIX" (a path) did not name: after a commit
# since the build (a new .git-commit-stamp), this test recompiled
# version.o, relinked iomatrix and the MPI helper (mpicc) and copied them
# over ./iomatrix while the suite ran (34 s of CPU, 295 s here)
inst() { make -s -C "$ROOT" install PREFIX=/usr DESTDIR="$T/root" BUILD="$BIN" MAN="$T/iomatrix.1" \
	-o iomatrix -o "$IOMATRIX" -o "$T/iomatrix.1" "$@"; }
would=$(inst -n | grep -e '^cc ' -e mpicc -e 'iomatrix\.tmp')
if [ -n "$would" ]; then
	not_ok "make install would build: $(echo "$would" | head -c 300)"
else
	ok "make install builds nothing"
	expect_exit 0 inst
fi
[ -s "$T/root/usr/share/man/man1/iomatrix.1" ] && ok "make install: man page" || not_ok "man page not installed"
[ -s "$T/root/usr/share/bash-completion/completions/iomatrix" ] && ok "make install: completion" \
	|| not_ok "completion not installed"

comp() { # words... -> COMPREPLY, one per line
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _iomatrix; printf "%s\n" "${COMPREPLY[@]}"' \
		_ "$ROOT/completion/iomatrix.bash" "$@"
}
comp "$IOMATRIX" rep | grep -qx report && ok "completes subcommands" || not_ok "subcommands"
# Every option of every command, three ways: the options in the command's
# usage (--help) are all in its section of the manual page and all offered
# by the completion, and each one the completion offers is one the command
# accepts (no "unknown option").  Holds however usage and completion are
# made (from --help, or both from one option table).
man_section() { # CMD -> that command's section of the page, roff escapes undone
	awk -v h=".SS \"iomatrix $1\"" '$0 == h { on = 1; next } /^\.S[HS] / { on = 0 } on' "$T/iomatrix.1" |
		sed 's/\\-/-/g'
}
accepted=" "
accepts() { # CMD OPT: the command does not call OPT unknown (import and
	# export take their kind first; import's options differ by kind), run in
	# an empty directory with an empty results root: nothing of the
	# repository is read or written.  Once per CMD OPT: the usage and the
	# completion name the same options.
	case $accepted in *" $1:$2 "*) return 0 ;; esac
	case $1 in
	import) kinds="fio sysbench csv" ;; export) kinds=fio ;; *) kinds="" ;;
	esac
	for k in ${kinds:--}; do
		[ "$k" = - ] && k=""
		# shellcheck disable=SC2086
		err=$(cd "$T/cwd" && IOMATRIX_RESULTS="$T/cwd/results" "$IOMATRIX" "$1" $k "$2" \
			</dev/null 2>&1 >/dev/null)
		case $err in *"unknown option"*) ;; *) accepted="$accepted$1:$2 "; return 0 ;; esac
	done
	return 1
}
nl='
'
mkdir -p "$T/cwd/results"
cmds=$("$IOMATRIX" --help | sed -n 's/^  iomatrix \([a-z][a-z]*\) .*/\1/p' | uniq)
[ "$(echo "$cmds" | wc -l)" -ge 10 ] && ok "$(echo "$cmds" | wc -l) commands in iomatrix --help" \
	|| not_ok "commands: $cmds"
nopts=0
for c in $cmds; do
	opts=$("$IOMATRIX" "$c" --help 2>/dev/null | sed -n '/^usage:/,/^$/p' |
		grep -o -- '\(^\|[[ |]\)-[-a-zA-Z][-a-z]*' | sed 's/^[[ |]//' | sort -u)
	man=$(man_section "$c")
	[ -n "$man" ] || { not_ok "$c: no section in the page"; continue; }
	compl=$(comp "$IOMATRIX" "$c" -)
	bad=""
	# (matched in the shell, not a grep per option: the page names OPT
	# followed by no letter or '-', the completion offers it as a line)
	for o in $opts; do
		nopts=$((nopts + 1))
		accepts "$c" "$o" || bad="$bad $o(not accepted)"
		case "$man " in *"$o"[!a-z-]*) ;; *) bad="$bad $o(not in the page)" ;; esac
		case "$nl$compl$nl" in *"$nl$o$nl"*) ;; *) bad="$bad $o(not completed)" ;; esac
	done
	for o in $compl; do
		accepts "$c" "$o" || bad="$bad $o(completed, not accepted)"
	done
	[ -z "$bad" ] && ok "$c: $(echo $opts | wc -w) options in usage, page and completion" \
		|| not_ok "$c:$bad"
done
[ "$nopts" -ge 40 ] && ok "$nopts options checked" || not_ok "only $nopts options found in the usages"
(cd "$ROOT" && comp "$IOMATRIX" run suites/qu) | grep -qx suites/quick.yaml && ok "completes suite files" \
	|| not_ok "suite files"
tap_end
