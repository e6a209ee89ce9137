#!/bin/sh
# Agent replies are untrusted: a script posing as the remote iomatrix sends
# garbage with terminal escapes, a line over 64 MiB, an out-of-protocol
# message, or a pong without its timestamps.  Each time that
# host fails with a clear error (escapes shown as '?'), its cells are
# failed, the good host finishes, the controller exits 1 without a crash,
# and nothing of the reply is executed.
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/fleet_lib.sh"
fleet_start 2
need_cmd jq
mkdir -p "$T/d1" "$T/d2"
cat >"$T/s.yaml" <<Y
suite: fleet-hostile
defaults: {engine: null, size: 1MiB, runtime: 100ms, rate_iops: 5000}
devices:
  - {name: scratch, path: $T/nowhere/}
matrix:
  pattern: [randread, read]
Y
HELLO='{"op":"hello","proto":1,"version":"'$("$IOMATRIX" --version | cut -d' ' -f2)'","schema_version":1}'
# h1 runs the real agent; h2 a hostile one chosen by a file the script reads
cat >"$T/agent.sh" <<W
#!/bin/sh
port=\$(echo "\$SSH_CONNECTION" | cut -d' ' -f4)
[ "\$port" = "$(cat "$T/h1/port")" ] && exec "$IOMATRIX" "\$@"
mode=\$(cat "$T/mode")
case \$mode in
garbage) printf 'garbage \\033[2J\\033[31m \$(touch $T/pwned)\\n' ;;
huge) head -c 68000000 /dev/zero | tr '\\0' 'x' ;;
op) echo '$HELLO'; read -r l; echo '{"op":"rm -rf /","x":"\$(touch $T/pwned)"}' ;;
badpong) echo '$HELLO'; read -r l
	read -r l; echo '{"op":"pong","t0":0,"t1":1,"t2":2}' ;;
hang) IOMATRIX_TEST_HOOK=interval:1:stop "$IOMATRIX" "\$@"
	timeout 30 sh -c 'echo end >"\$1"' _ "$T/hang-end"; exit ;;
esac
sleep 10
W
chmod +x "$T/agent.sh"
for mode in garbage huge op badpong; do
	echo "$mode" >"$T/mode"
	expect_exit 1 "$IOMATRIX" run "$T/s.yaml" --hosts h1,h2 --ssh-config "$SSHCFG" --remote-iomatrix "$T/agent.sh" \
		--device "h1:scratch=$T/d1/" --device "h2:scratch=$T/d2/" --out "$T/set-$mode" --quiet
	grep -q "host 'h2' protocol error" "$T/err" || { not_ok "$mode: no protocol error naming h2: $(head -c 300 "$T/err")"; continue; }
	if grep -q "$(printf '\033')" "$T/err"; then not_ok "$mode: terminal escape passed through"; continue; fi
	S=$T/set-$mode
	jq -e '([.cells[] | select(.host == "h1") | .status] == ["ok","ok"]) and ([.cells[] | select(.host == "h2") | .status] == ["failed","failed"]) and .fleet.hosts[1].status == "failed"' \
		"$S/manifest.json" >/dev/null || { not_ok "$mode: cells $(jq -c '[.cells[] | [.host, .status]]' "$S/manifest.json")"; continue; }
	[ ! -e "$T/pwned" ] || { not_ok "$mode: a reply was executed"; continue; }
	ok "$mode: h2 failed cleanly ($(grep "host 'h2'" "$T/err" | head -n 1 | cut -c1-110))"
done

# an agent that hangs (SIGSTOP) mid-run stops saying "alive": after the
# silence limit its host fails, the other finishes.  The test hook
# (bench/util/testhook.h) stops it one interval into its first cell, so
# the hang is mid-cell on a slow machine too (a sleep raced the start).
mkfifo "$T/hang-end" || fail "mkfifo"
echo hang >"$T/mode"
# (50 ms intervals: the hook fires early in a short cell; h1's two cells
# end long before the 3 s of silence that fail h2)
sed 's/runtime: 100ms/runtime: 400ms, interval: 50ms/' "$T/s.yaml" >"$T/slow.yaml"
IOMATRIX_TEST_HOOK=fleet_silence_ms=3000 expect_exit 1 "$IOMATRIX" run "$T/slow.yaml" --hosts h1,h2 --ssh-config "$SSHCFG" \
	--remote-iomatrix "$T/agent.sh" --device "h1:scratch=$T/d1/" --device "h2:scratch=$T/d2/" --out "$T/set-hang" --quiet
if grep -q "host 'h2' lost: no word from its agent in 3 s" "$T/err" &&
   jq -e '[.cells[] | select(.host == "h1") | .status] == ["ok","ok"]' "$T/set-hang/manifest.json" >/dev/null; then
	ok "hang: h2 failed after 3 s of silence, h1 finished"
else
	not_ok "hang: $(head -c 300 "$T/err")"
fi
for p in $(fleet_agents); do kill -CONT "$p"; done  # let it see its input end
# (its wrapper writes into the FIFO hang-end when the agent has ended)
hook_wait "$T/hang-end" >/dev/null || not_ok "the hung agent did not end once resumed"
[ -z "$(fleet_agents)" ] || not_ok "agents left"
[ -z "$(find "$T/d2" -type f)" ] || not_ok "the hung agent left scratch files once resumed"
tap_end
