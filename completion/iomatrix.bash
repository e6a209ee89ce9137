# bash completion for iomatrix.  What to offer comes from the program
# itself, `iomatrix --complete -- WORD...` (bench/util/optspec.h), which
# answers from the same option tables that make each command's usage and
# `iomatrix --help`, so the three cannot drift apart: candidate words one
# per line, or @dir / @file / @suite to complete a path.  Installed to
# share/bash-completion/completions.
_iomatrix()
{
	local cur out
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	out=$("${COMP_WORDS[0]}" --complete -- "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null) || return
	case $out in
	@dir) COMPREPLY=($(compgen -d -- "$cur")) ;;
	@file) COMPREPLY=($(compgen -f -- "$cur")) ;;
	@suite) COMPREPLY=($(compgen -f -X '!*.y*ml' -- "$cur") $(compgen -d -- "$cur")) ;;
	*) COMPREPLY=($(compgen -W "$out" -- "$cur")) ;;
	esac
}
complete -o filenames -F _iomatrix iomatrix
