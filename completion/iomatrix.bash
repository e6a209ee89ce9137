# bash completion for iomatrix: subcommands, their options (read from the
# program's own `iomatrix COMMAND --help`, so they never go stale), suite
# files for the commands that take one, result-set directories for the
# commands that read sets.  Installed to share/bash-completion/completions.
_iomatrix()
{
	local cur prev cmd i
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	cmd=
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	if [[ -z $cmd ]]; then
		COMPREPLY=($(compgen -W "run plan validate import export report compare list history site --help --version" -- "$cur"))
		return
	fi
	case $prev in
	--format)
		case $cmd in
		report) COMPREPLY=($(compgen -W "md html csv json md,html,csv,json" -- "$cur")) ;;
		compare) COMPREPLY=($(compgen -W "md html json md,html,json" -- "$cur")) ;;
		*) COMPREPLY=($(compgen -W "text json" -- "$cur")) ;;
		esac
		return ;;
	--charts) COMPREPLY=($(compgen -W "summary all none svg png summary,png all,png" -- "$cur")); return ;;
	--chart-scale) COMPREPLY=($(compgen -W "auto linear log" -- "$cur")); return ;;
	--progress) COMPREPLY=($(compgen -W "auto tty plain none" -- "$cur")); return ;;
	-o|--out|--output|--resume|--template) COMPREPLY=($(compgen -d -- "$cur")); return ;;
	--scale|--threshold|--title|--device|--baseline|--map|--host|--date|--bs|--threads|--mode) return ;;
	esac
	if [[ $cur == -* ]]; then
		local opts
		opts=$("${COMP_WORDS[0]}" "$cmd" --help 2>/dev/null | sed -n '/^usage:/,/^$/p' |
			grep -o -- '-[-a-z]*[a-z]' | sort -u)
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
		return
	fi
	case $cmd in
	run|plan|validate)
		COMPREPLY=($(compgen -f -X '!*.y*ml' -- "$cur") $(compgen -d -- "$cur")) ;;
	export)
		if [[ $prev == export ]]; then COMPREPLY=($(compgen -W "fio" -- "$cur"))
		else COMPREPLY=($(compgen -f -X '!*.y*ml' -- "$cur") $(compgen -d -- "$cur")); fi ;;
	import)
		if [[ $prev == import ]]; then COMPREPLY=($(compgen -W "fio sysbench csv" -- "$cur"))
		else COMPREPLY=($(compgen -f -- "$cur")); fi ;;
	report|compare|list|history|site)
		COMPREPLY=($(compgen -d -- "$cur")) ;;
	esac
}
complete -o filenames -F _iomatrix iomatrix
