#!/bin/sh
# A received set supplies the workload and nothing
# else.  Each case edits the set's suite.yaml as anyone can, then makes the
# manifest's suite sha256 and SHA256SUMS consistent again:
# - a device 'x' only the suite names (not the manifest), at a directory
#   the set chose: reproduce asked only for the manifest's 'd' and then
#   ran 'x' there too (rc 0); now exit 2 naming x, nothing written there,
#   and mapped with --device x=PATH it runs on the user's path;
# - hosts: [attacker.example.com, root@db1]: reproduce started ssh with
#   the user's keys (a fake ssh in PATH records it); now the hosts are
#   ignored with a note, the cells run here, and no ssh starts;
# - keep_files: true (where files stay is not the set's to decide):
#   refused with exit 2;
# - drop_caches: true (as root: sync and drop the whole machine's page
#   cache every repetition) is refused with exit 2 unless the command line
#   says --drop-caches; with it the drop reaches the runner (seen in the
#   test's own /proc, IOMATRIX_TEST_HOOK proc=DIR);
# - mapped as asked, the same set reproduces (rc 0).
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/../../repro_lib.sh"
need_cmd jq
need_cmd sha256sum
mkdir -p "$T/a" "$T/mine" "$T/victim" "$T/bin"
cat >"$T/s.yaml" <<EOS
suite: repro-data
defaults: {engine: "null", size: 1m, requests: 16}
devices:
  - {name: d, path: $T/a}
matrix: {pattern: [randwrite], bs: [4k]}
EOS
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/orig" --quiet
export IOMATRIX_RESULTS="$T/results"

forge extra "suite: repro-data
defaults: {engine: \"null\", size: 1m, requests: 16}
devices:
  - {name: d, path: $T/a}
  - {name: x, path: $T/victim}
matrix: {pattern: [randwrite], bs: [4k]}"
expect_exit 2 "$IOMATRIX" reproduce "$T/extra" --device d="$T/mine" --out "$T/new1" --quiet
grep -q "names device 'x', which its manifest does not list.*--device x=PATH" "$T/err" &&
	ok "a device only the suite names: exit 2, named" || not_ok "extra device: $(cat "$T/err")"
[ -z "$(ls -A "$T/victim")" ] && [ ! -e "$T/new1" ] && ok "nothing written at the set's path, no set" ||
	not_ok "victim: $(ls -A "$T/victim"); new: $(ls "$T/new1" 2>&1)"
mkdir "$T/minex"
expect_exit 0 "$IOMATRIX" reproduce "$T/extra" --device d="$T/mine" --device x="$T/minex" \
	--out "$T/new1" --quiet
[ -z "$(ls -A "$T/victim")" ] && [ "$(jq -r '.devices[] | select(.name == "x") | .path' \
	"$T/new1/manifest.json")" = "$T/minex" ] &&
	ok "mapped as the message says, x runs on the user's path, not the set's" ||
	not_ok "x mapped: $(cat "$T/err"); victim: $(ls -A "$T/victim")"

cat >"$T/bin/ssh" <<EOS
#!/bin/sh
echo "ssh \$*" >>"$T/ssh.log"
exit 255
EOS
chmod +x "$T/bin/ssh"
forge hosts "suite: repro-data
hosts: [attacker.example.com, root@db1]
defaults: {engine: \"null\", size: 1m, requests: 16}
devices:
  - {name: d, path: $T/a}
matrix: {pattern: [randwrite], bs: [4k]}"
expect_exit 0 env PATH="$T/bin:$PATH" "$IOMATRIX" reproduce "$T/hosts" --device d="$T/mine" \
	--out "$T/new2" --quiet
[ ! -e "$T/ssh.log" ] && ok "hosts: from the set: no ssh started" || not_ok "ssh ran: $(cat "$T/ssh.log")"
grep -q "names hosts (attacker.example.com, root@db1); a received set chooses no host: ignored" "$T/err" &&
	[ "$(jq -r .status "$T/new2/manifest.json")" = complete ] &&
	ok "the hosts ignored with a note, the cells ran here" || not_ok "hosts: $(cat "$T/err")"

forge keep "suite: repro-data
defaults: {engine: \"null\", size: 1m, requests: 16, keep_files: true}
devices:
  - {name: d, path: $T/a}
matrix: {pattern: [randwrite], bs: [4k]}"
expect_exit 2 "$IOMATRIX" reproduce "$T/keep" --device d="$T/mine" --out "$T/new3" --quiet
grep -q "'keep_files: true'.*not the set's to decide" "$T/err" && [ ! -e "$T/new3" ] &&
	ok "keep_files: true from a received set: exit 2" || not_ok "keep_files: $(cat "$T/err")"

forge drop "suite: repro-data
defaults: {engine: \"null\", size: 1m, requests: 16, drop_caches: true, repeat: 2}
devices:
  - {name: d, path: $T/a}
matrix: {pattern: [randwrite], bs: [4k]}"
mkdir -p "$T/proc/sys/vm"
: >"$T/proc/sys/vm/drop_caches"
export IOMATRIX_TEST_HOOK="proc=$T/proc"
expect_exit 2 "$IOMATRIX" reproduce "$T/drop" --device d="$T/mine" --out "$T/new5" --quiet
grep -q "'drop_caches: true' (cell 1, RND4K Q1T1).*add --drop-caches" "$T/err" && [ ! -e "$T/new5" ] &&
	[ ! -s "$T/proc/sys/vm/drop_caches" ] &&
	ok "drop_caches: true from a received set: exit 2, nothing dropped" || not_ok "drop: $(cat "$T/err")"
expect_exit 0 "$IOMATRIX" reproduce "$T/drop" --device d="$T/mine" --out "$T/new5" --quiet --drop-caches
if [ "$(id -u)" = 0 ]; then
	[ "$(cat "$T/proc/sys/vm/drop_caches")" = "$(printf '3\n3')" ] &&
		ok "--drop-caches: the set's drop_caches runs, once per repetition" ||
		not_ok "--drop-caches: '$(cat "$T/proc/sys/vm/drop_caches")' $(cat "$T/err")"
else
	jq -e '.repetitions[0].warnings // .warnings | tostring | test("drop_caches skipped: not root")' \
		"$T/new5/cells/0001.json" >/dev/null &&
		ok "--drop-caches: the set's drop_caches reaches the runner (not root: skipped)" ||
		not_ok "--drop-caches: $(cat "$T/err")"
fi
unset IOMATRIX_TEST_HOOK

expect_exit 0 "$IOMATRIX" reproduce "$T/orig" --device d="$T/mine" --out "$T/new4" --quiet
[ "$(jq -r .status "$T/new4/manifest.json")" = complete ] && ok "the genuine set reproduces" ||
	not_ok "$(cat "$T/err")"
tap_end
