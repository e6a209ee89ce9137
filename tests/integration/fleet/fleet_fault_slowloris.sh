#!/bin/sh
# Slowloris: after the handshake h2's agent stops talking properly: it
# trickles one byte at a time and never ends the line, or it says "alive"
# forever and never finishes its cell.  The controller gives a line a
# deadline from its first byte and a cell a deadline from when it was
# sent (short here through the test hook's fleet_line_ms and fleet_cell_ms),
# so h2 fails with the reason and h1 finishes; it never waits forever.
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/fleet_lib.sh"
fleet_start 2
need_cmd jq
need_cmd timeout
mkdir -p "$T/d1" "$T/d2"
cat >"$T/s.yaml" <<Y
suite: fleet-slowloris
defaults: {engine: null, size: 64KiB, requests: 16}
devices:
  - {name: scratch, path: $T/nowhere/}
matrix:
  pattern: [randread, read]
Y
# h2: the real agent until its suite_ok, then only what the mode says
cat >"$T/agent.sh" <<W
#!/bin/sh
port=\$(echo "\$SSH_CONNECTION" | cut -d' ' -f4)
[ "\$port" = "$(cat "$T/h1/port")" ] && exec "$IOMATRIX" "\$@"
"$IOMATRIX" "\$@" | {
	while IFS= read -r l; do
		printf '%s\n' "\$l"
		case \$l in *'"op":"suite_ok"'*) break ;; esac
	done
	case \$(cat "$T/mode") in
	trickle) printf '{"op":'; while printf ' '; do sleep 0.1; done ;;
	alive) while printf '{"op":"alive"}\n'; do sleep 0.1; done ;;
	esac
}
W
chmod +x "$T/agent.sh"
for mode in trickle alive; do
	echo "$mode" >"$T/mode"
	S=$T/set-$mode
	# the timeout is only a net: the deadlines below end it in seconds (2.5 s:
	# at 1.5 s, h1's own two cells over ssh missed it once at load 19).  The
	# trickle is judged by the line's deadline, so there the cell's is longer:
	# both at 2.5 s raced (the cell was sent before the trickle's first byte,
	# and its deadline came first once, at load 3.7)
	cell_ms=2500
	[ "$mode" = trickle ] && cell_ms=10000
	IOMATRIX_TEST_HOOK=fleet_line_ms=2500,fleet_cell_ms=$cell_ms expect_exit 1 timeout -s KILL 30 \
		"$IOMATRIX" run "$T/s.yaml" --hosts h1,h2 --ssh-config "$SSHCFG" --remote-iomatrix "$T/agent.sh" \
		--device "h1:scratch=$T/d1/" --device "h2:scratch=$T/d2/" --out "$S" --quiet
	case $mode in
	trickle) want="host 'h2' lost: its agent began a line and did not end it in 2.5 s" ;;
	alive) want="host 'h2' lost: cell 1 did not finish in 2.5 s" ;;
	esac
	if grep -q "$want" "$T/err" &&
	   jq -e '([.cells[] | select(.host == "h1") | .status] == ["ok","ok"]) and ([.cells[] | select(.host == "h2") | .status] == ["failed","failed"])' \
		"$S/manifest.json" >/dev/null; then
		ok "$mode: h2 failed by its deadline, h1 finished"
	else
		not_ok "$mode: $(head -c 300 "$T/err")"
	fi
done
tap_end
