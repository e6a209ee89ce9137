#!/bin/sh
# fleet --resume goes through plain resume's checks: a manifest scale of
# 1e308 (or 0, or a string) and a suite.yaml that is a link are refused
# with exit 2 and nothing run; a cell file missing from the set is run
# again although the index says ok; and the agent itself refuses a
# suite message whose scale is out of range.
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/fleet_lib.sh"
need_cmd jq
fleet_start 1
mkdir -p "$T/d1"
cat >"$T/s.yaml" <<Y
suite: fleet-resume-checks
defaults: {engine: null, size: 64KiB, requests: 8}
devices:
  - {name: scratch, path: $T/d1/}
matrix:
  pattern: [randread, read]
Y
S=$T/set
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --hosts h1 --ssh-config "$SSHCFG" --remote-iomatrix "$IOMATRIX" --out "$S" --quiet
rm "$S/cells/0002.json"   # one cell left to run
cp -a "$S" "$T/pristine"
resume() { # case
	rm -rf "$S"; cp -a "$T/pristine" "$S"
	case $1 in
	scale*) v=${1#scale=}; jq --argjson v "$v" '.scale = $v' "$S/manifest.json" >"$T/m" && cat "$T/m" >"$S/manifest.json" ;;
	link) cp "$S/suite.yaml" "$T/elsewhere.yaml"; rm "$S/suite.yaml"; ln -s "$T/elsewhere.yaml" "$S/suite.yaml" ;;
	esac
	"$IOMATRIX" run --resume "$S" --ssh-config "$SSHCFG" --remote-iomatrix "$IOMATRIX" --quiet >"$T/out" 2>"$T/err"
}
for c in scale=1e308 scale=0 'scale="x"' link; do
	resume "$c"; rc=$?
	case $c in link) want="is not a regular file (a symbolic link)" ;; *) want="'scale' is not a factor in (0, 1e6]" ;; esac
	if [ $rc = 2 ] && grep -qF "$want" "$T/err" && [ ! -e "$S/cells/0002.json" ]; then
		ok "resume with $c: exit 2, nothing run"
	else
		not_ok "resume with $c: exit $rc, $(head -c 300 "$T/err")"
	fi
done
# a good resume still works and runs the missing cell
resume none; rc=$?
[ $rc = 0 ] && [ -e "$S/cells/0002.json" ] && ok "plain fleet resume runs the missing cell" || not_ok "plain resume: exit $rc $(head -c 300 "$T/err")"
# the agent refuses an out-of-range scale in its suite message
HELLO='{"op":"hello","proto":1,"version":"'$("$IOMATRIX" --version | cut -d' ' -f2)'","schema_version":1}'
for sc in 1e308 0 -1; do
	jq -cn --rawfile t "$T/s.yaml" --argjson sc "$sc" '{op: "suite", text: $t, file: "suite.yaml", devices: [], scale: $sc}' >"$T/msg"
	rm -f "$T/in"; mkfifo "$T/in"
	timeout -s KILL 20 "$IOMATRIX" agent <"$T/in" >"$T/o" 2>/dev/null &
	pid=$!
	exec 3>"$T/in"
	echo "$HELLO" >&3; cat "$T/msg" >&3
	wait $pid
	exec 3>&-
	if jq -e -s 'map(select(.op == "error"))[0] | .kind == "input" and (.message | contains("scale"))' "$T/o" >/dev/null; then
		ok "agent refuses scale $sc"
	else
		not_ok "agent with scale $sc: $(head -c 300 "$T/o")"
	fi
done
tap_end
