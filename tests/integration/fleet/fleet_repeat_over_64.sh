#!/bin/sh
# A cell with more repetitions than the controller once had room for
# (64 + cells): repeat 70 and 200 through a real fleet run, survey and
# aggregate, finish with every repetition's start recorded; and an agent
# whose rep numbers are out of range (past the cell's repeat, zero, not
# the repetition it was told to start) fails with a protocol error
# instead of writing past the controller's table.
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/fleet_lib.sh"
fleet_start 2
need_cmd jq
mkdir -p "$T/d1" "$T/d2"
suite() { # repeat
	cat >"$T/s$1.yaml" <<Y
suite: fleet-repeat-$1
defaults: {engine: null, size: 64KiB, requests: 4, repeat: $1}
devices:
  - {name: scratch, path: $T/nowhere/}
matrix:
  pattern: [randread]
Y
}
for rep in 70 200; do
	suite $rep
	for mode in survey aggregate; do
		flag=; [ $mode = aggregate ] && flag=--aggregate
		S=$T/set-$rep-$mode
		if "$IOMATRIX" run "$T/s$rep.yaml" --hosts h1,h2 $flag --ssh-config "$SSHCFG" --remote-iomatrix "$IOMATRIX" \
			--device "h1:scratch=$T/d1/" --device "h2:scratch=$T/d2/" --out "$S" --quiet >"$T/out" 2>"$T/err" &&
		   jq -e --argjson n $rep '.status == "complete" and ([.cells[] | .status] | all(. == "ok"))' "$S/manifest.json" >/dev/null &&
		   [ "$(jq -s --argjson n $rep '[.[] | select(.host != "all") | (.starts | length) == $n and ([.starts[].start_ns] | length) == $n] | all' "$S"/cells/*.json)" = true ]; then
			ok "repeat $rep $mode: complete, $rep starts per host cell"
		else
			not_ok "repeat $rep $mode: $(head -c 400 "$T/err")"
		fi
	done
done

# h2's agent is real, but a filter changes the rep numbers of its replies
suite 3
cat >"$T/agent.sh" <<W
#!/bin/sh
port=\$(echo "\$SSH_CONNECTION" | cut -d' ' -f4)
[ "\$port" = "$(cat "$T/h1/port")" ] && exec "$IOMATRIX" "\$@"
"$IOMATRIX" "\$@" | sed -u "\$(cat "$T/mode")"
W
chmod +x "$T/agent.sh"
for mode in 's/"op":"rep_done","id":1,"rep":1,/"op":"rep_done","id":1,"rep":99999,/' \
	    's/"op":"rep_done","id":1,"rep":1,/"op":"rep_done","id":1,"rep":0,/' \
	    's/"op":"rep_done","id":1,"rep":1,/"op":"rep_done","id":1,"rep":3,/' \
	    's/"op":"ready","id":1,"rep":2}/"op":"ready","id":1,"rep":9000000}/'; do
	echo "$mode" >"$T/mode"
	for flag in "" --aggregate; do
		S=$T/set-hostile-$(echo "$mode$flag" | cksum | cut -d' ' -f1)
		expect_exit 1 "$IOMATRIX" run "$T/s3.yaml" --hosts h1,h2 $flag --ssh-config "$SSHCFG" --remote-iomatrix "$T/agent.sh" \
			--device "h1:scratch=$T/d1/" --device "h2:scratch=$T/d2/" --out "$S" --quiet
		if grep -q "host 'h2' protocol error: unexpected \(rep_done\|ready\)" "$T/err" &&
		   jq -e '[.cells[] | select(.host == "h2") | .status] == ["failed"]' "$S/manifest.json" >/dev/null; then
			ok "rep out of range ($mode $flag): h2 failed with a protocol error"
		else
			not_ok "rep out of range ($mode $flag): $(head -c 300 "$T/err")"
		fi
	done
done
tap_end
