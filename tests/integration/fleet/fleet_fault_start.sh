#!/bin/sh
# Faults found before any IO, each exit 2 with the host named, no set:
# an unreachable host (ssh's own message), a missing remote binary, an
# agent of another version (a wrapper script as --remote-iomatrix), a host
# name ssh would take as an option.  --skip-unreachable runs on the rest
# and records the skipped host in the manifest.
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/fleet_lib.sh"
fleet_start 2
need_cmd jq
mkdir -p "$T/d"
cat >>"$SSHCFG" <<C
Host hdead
  HostName 127.0.0.1
  Port 1
  ConnectTimeout 3
C
cat >"$T/s.yaml" <<Y
suite: fleet-start
defaults: {engine: null, size: 1MiB, runtime: 100ms}
devices:
  - {name: scratch, path: $T/d/}
matrix:
  pattern: [randread, read]
Y
R="run $T/s.yaml --ssh-config $SSHCFG --quiet"
IOMATRIX_RESULTS=$T/results
export IOMATRIX_RESULTS

# shellcheck disable=SC2086
expect_exit 2 "$IOMATRIX" $R --hosts h1,hdead --remote-iomatrix "$IOMATRIX"
grep -q "host 'hdead': unreachable: ssh: connect to host 127.0.0.1 port 1" "$T/err" ||
	fail "unreachable: want ssh's message with the host: $(cat "$T/err")"
[ ! -d "$T/results" ] || fail "a set was made although nothing ran"
ok "unreachable host: exit 2, ssh's message, no set"

# shellcheck disable=SC2086
expect_exit 0 "$IOMATRIX" $R --hosts h1,hdead --skip-unreachable --remote-iomatrix "$IOMATRIX"
S=$(cat "$T/out")
jq -e '.status == "complete" and ([.fleet.hosts[] | [.name, .status]] == [["h1","done"],["hdead","skipped"]]) and (.fleet.hosts[1].error | test("Connection refused"))' \
	"$S/manifest.json" >/dev/null || fail "skipped host not recorded: $(jq -c .fleet.hosts "$S/manifest.json")"
[ "$(jq '[.cells[] | select(.host == "h1" and .status == "ok")] | length' "$S/manifest.json")" = 2 ] || fail "h1 did not run"
ok "--skip-unreachable: ran on h1, hdead recorded as skipped"

# shellcheck disable=SC2086
expect_exit 2 "$IOMATRIX" $R --hosts h1,h2 --remote-iomatrix /nonexistent/iomatrix
grep -q "host 'h1': remote iomatrix '/nonexistent/iomatrix' not found" "$T/err" &&
grep -q "host 'h2': remote iomatrix" "$T/err" || fail "missing binary: $(cat "$T/err")"
ok "missing remote binary: named per host"

cat >"$T/old-iomatrix" <<W
#!/bin/sh
# an agent that says it is another version, then waits
echo '{"op":"hello","proto":1,"version":"0.0.9","schema_version":1,"hostname":"old"}'
read -r line
W
chmod +x "$T/old-iomatrix"
# shellcheck disable=SC2086
expect_exit 2 "$IOMATRIX" $R --hosts h1,h2 --remote-iomatrix "$T/old-iomatrix"
grep -q "host 'h1': version mismatch: its agent is iomatrix 0.0.9 .*this controller is iomatrix $("$IOMATRIX" --version | cut -d' ' -f2)" "$T/err" ||
	fail "version mismatch: $(cat "$T/err")"
[ "$(find "$T/d" -type f | wc -l)" = 0 ] || fail "IO happened before the versions were checked"
ok "version mismatch: both versions and the host named, before any IO"

# shellcheck disable=SC2086
expect_exit 2 "$IOMATRIX" $R --hosts h1,-oProxyCommand=touch\ "$T/pwned" --remote-iomatrix "$IOMATRIX"
grep -q "starts with '-'" "$T/err" || fail "option-like host: $(cat "$T/err")"
[ ! -e "$T/pwned" ] || fail "a host name ran a command"
# shellcheck disable=SC2086
expect_exit 2 "$IOMATRIX" $R --hosts h1 --remote-iomatrix "iomatrix; touch $T/pwned"
[ ! -e "$T/pwned" ] || fail "--remote-iomatrix reached a shell"
ok "host names and remote paths never reach a shell or ssh's options"

# --parallel 1: one host at a time, the set still complete
# shellcheck disable=SC2086
expect_exit 0 "$IOMATRIX" $R --hosts h1,h2 --parallel 1 --remote-iomatrix "$IOMATRIX"
S=$(cat "$T/out")
jq -e '.status == "complete" and ([.cells[] | select(.status == "ok")] | length) == 4' "$S/manifest.json" >/dev/null ||
	fail "--parallel 1: $(jq -c '[.status, [.cells[] | .status]]' "$S/manifest.json")"
# h2 started only after h1 had finished all its cells
last_h1=$(jq -s '[.[] | select(.host == "h1") | .finished_at] | max' "$S"/cells/*.json)
first_h2=$(jq -s '[.[] | select(.host == "h2") | .started_at] | min' "$S"/cells/*.json)
[ "$(jq -n --argjson a "$last_h1" --argjson b "$first_h2" '$a <= $b')" = true ] || fail "--parallel 1 overlapped: h1 until $last_h1, h2 from $first_h2"
ok "--parallel 1 drives one host at a time"
[ -z "$(fleet_agents)" ] || fail "agents left"
tap_end
