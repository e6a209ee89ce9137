#!/bin/sh
# SIGINT at random moments (while a cell file is being written, and while
# the manifest is, which happens when the set is made, resumed and finished)
# over runs of many tiny cells of the model engine (it sleeps until each
# request is due; the null engine busy-spins through runtime, 3 s of CPU
# for nothing this test looks at), sometimes twice in a row: whatever is on disk is always readable JSON, a
# set is never left 'running' by a clean stop, and --resume completes it.
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
mkdir -p "$T/scratch"
cat >"$T/s.yaml" <<'Y'
suite: t-storm
defaults: {engine: model, model_latency: 1ms, size: 1MiB, runtime: 5ms}
devices:
  - {name: d, path: /nonexistent}
matrix:
  pattern: [randread, randwrite, read, write, randrw, readwrite]
  bs: [4k, 8k, 16k, 32k, 64k]
Y
rand() { # 0..$1-1
	od -An -N2 -tu2 /dev/urandom | awk -v m="$1" '{ print $1 % m }'
}
runs=${STORM_RUNS:-12}
bad=0; interrupted=0; resumed=0
i=0
while [ $i -lt $runs ]; do
	i=$((i + 1))
	set="$T/set$i"
	"$IOMATRIX" run "$T/s.yaml" --device d="$T/scratch" --out "$set" --quiet >/dev/null 2>"$T/err$i" &
	pid=$!
	sleep "0.$(printf '%03d' "$(rand 400)")"
	kill -INT $pid 2>/dev/null
	[ $((i % 2)) = 0 ] && { sleep "0.00$(rand 10)"; kill -INT $pid 2>/dev/null; }
	wait $pid; rc=$?
	case $rc in
	0|130) ;;
	*) bad=1; not_ok "run $i: exit $rc: $(tail -n 2 "$T/err$i")"; continue ;;
	esac
	[ -d "$set" ] || continue # stopped before the set existed
	m="$set/manifest.json"
	if [ -f "$m" ]; then
		jq empty "$m" 2>/dev/null || { bad=1; not_ok "run $i: manifest unreadable"; continue; }
	else
		continue # stopped while the set directory was being made
	fi
	st=$(jq -r .status "$m")
	if [ $rc = 130 ] && [ "$st" != interrupted ]; then
		bad=1; not_ok "run $i: exit 130 but status '$st'"
	fi
	[ "$st" = interrupted ] && interrupted=$((interrupted + 1))
	# one jq over every cell file (a jq per file cost most of this test's
	# CPU); file by file only to name the one it could not read
	if ls "$set"/cells/*.json >/dev/null 2>&1 && ! jq empty "$set"/cells/*.json 2>/dev/null; then
		for f in "$set"/cells/*.json; do
			jq empty "$f" 2>/dev/null || { bad=1; not_ok "run $i: '$f' unreadable"; }
		done
	fi
	for f in $(jq -r '.cells[].file' "$m"); do
		[ -f "$set/$f" ] || { bad=1; not_ok "run $i: indexed '$f' missing"; }
	done
	if [ "$st" != complete ]; then
		if "$IOMATRIX" run --resume "$set" --quiet >/dev/null 2>"$T/rerr"; then
			[ "$(jq -r .status "$m")" = complete ] && [ "$(jq '.cells | length' "$m")" = 30 ] \
				&& resumed=$((resumed + 1)) \
				|| { bad=1; not_ok "run $i: resume did not complete the set"; }
		else
			bad=1; not_ok "run $i: resume failed: $(tail -n 2 "$T/rerr")"
		fi
	fi
done
[ $bad = 0 ] && [ $interrupted -gt 0 ] && ok "$runs runs interrupted at random: every set readable ($interrupted interrupted, $resumed resumed to complete)" \
	|| not_ok "no run was interrupted, nothing checked (bad=$bad)"
[ -z "$(ls "$T/scratch")" ] && ok "no scratch files left" || not_ok "scratch: $(ls "$T/scratch")"
tap_end
