#!/bin/sh
# O_DIRECT on a filesystem that refuses it is bad input: the exact message,
# exit 2, before any IO.  tmpfs refuses O_DIRECT before Linux 6.6; on newer
# kernels ramfs still does.
. "$(dirname "$0")/../../lib.sh"
need_root
need_cmd dd
mkdir -p "$T/tmpfs"
trap 'umount "$T/tmpfs" 2>/dev/null; rm -rf "$T"' EXIT INT TERM
refuses() { ! dd if=/dev/zero of="$T/tmpfs/probe" bs=4k count=1 oflag=direct 2>/dev/null; }
fs=""
for t in tmpfs ramfs; do
	mount -t $t -o size=16m none "$T/tmpfs" 2>/dev/null || continue
	if refuses; then fs=$t; rm -f "$T/tmpfs/probe"; break; fi
	umount "$T/tmpfs"
done
[ -n "$fs" ] || skip "cannot mount a filesystem that refuses O_DIRECT (tmpfs, ramfs)"
cat >"$T/s.yaml" <<'Y'
suite: t-odirect
defaults: {engine: libaio, direct: true, size: 1MiB}
devices:
  - {name: ram, path: /nonexistent}
include:
  - {pattern: randread, bs: 4k, requests: 10}
Y
expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --device ram="$T/tmpfs" --out "$T/set" --quiet
grep -qF "O_DIRECT is not supported by the filesystem of '$T/tmpfs'; set direct: false or use another path" "$T/err" \
	&& ok "exact O_DIRECT message on $fs" || not_ok "message: $(cat "$T/err")"
[ "$(grep -c 'O_DIRECT' "$T/err")" = 1 ] && ok "said once" || not_ok "said $(grep -c O_DIRECT "$T/err") times"
ls "$T/tmpfs" | grep -q . && not_ok "files left on tmpfs: $(ls "$T/tmpfs")" || ok "nothing left on tmpfs"
tap_end
