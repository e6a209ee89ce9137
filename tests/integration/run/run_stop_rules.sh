#!/bin/sh
# Stop rules count exactly: `requests: N` performs N IOs and N x bs bytes
# (also with iodepth > 1), `io_size: B` moves B bytes in B / bs IOs.
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
mkdir -p "$T/scratch"
cat >"$T/s.yaml" <<'Y'
suite: t-stop
defaults:
  engine: libaio
  direct: true
  size: 4MiB
devices:
  - name: d
    path: /nonexistent
include:
  - {pattern: randread, bs: 4k, iodepth: 8, requests: 1000}
  - {pattern: randwrite, bs: 8k, iodepth: 4, requests: 333}
  - {pattern: read, bs: 16k, iodepth: 2, io_size: 1MiB}
  - {pattern: write, bs: 4k, io_size: 512k}
Y
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --device d="$T/scratch" --out "$T/set" --quiet
check() { # cell dir ios bytes
	f="$T/set/cells/$1.json"
	got=$(jq -r ".repetitions[0].$2 | \"\(.ios) \(.bytes)\"" "$f")
	[ "$got" = "$3 $4" ] && ok "cell $1 $2: $3 IOs, $4 bytes" \
		|| not_ok "cell $1 $2: want '$3 $4' got '$got'"
}
check 0001 read 1000 4096000
check 0002 write 333 2727936
check 0003 read 64 1048576
check 0004 write 128 524288
# no direction that the pattern does not perform
[ "$(jq -r '.repetitions[0].write' "$T/set/cells/0001.json")" = null ] \
	&& ok "randread cell has no write numbers" || not_ok "randread cell has write numbers"
tap_end
