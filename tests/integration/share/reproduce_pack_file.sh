#!/bin/sh
# reproduce FILE: a set mailed as one pack (iomatrix pack) is unpacked into
# the results directory, verified before it is visible, and reproduced; the
# reproduction names the unpacked set and the sha256 of its manifest, which
# is the original's byte for byte.  Given the same pack again, the set is
# already there: exit 2 naming the directory to reproduce instead.
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
need_cmd sha256sum
mkdir -p "$T/a" "$T/b"
cat >"$T/s.yaml" <<EOS
suite: repro-pack
defaults: {engine: "null", size: 1m, requests: 32, repeat: 2}
devices:
  - {name: disk, path: $T/a/f}
matrix: {pattern: [randread], bs: [4k]}
EOS
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/orig_set" --quiet
expect_exit 0 "$IOMATRIX" pack "$T/orig_set" -o "$T/orig.tar.gz"
export IOMATRIX_RESULTS="$T/results"
expect_exit 0 "$IOMATRIX" reproduce "$T/orig.tar.gz" --device disk="$T/b/f" --out "$T/rep" --quiet
[ -f "$T/results/orig_set/manifest.json" ] && grep -q "unpacked '$T/orig.tar.gz' into '$T/results/orig_set'" "$T/err" &&
	ok "the pack is unpacked into the results directory" || not_ok "unpack: $(cat "$T/err")"
cmp -s "$T/orig_set/manifest.json" "$T/results/orig_set/manifest.json" &&
	[ "$(jq -r .reproduces.set "$T/rep/manifest.json")" = orig_set ] &&
	[ "$(jq -r .reproduces.manifest_sha256 "$T/rep/manifest.json")" = \
	  "$(sha256sum "$T/orig_set/manifest.json" | cut -d' ' -f1)" ] &&
	ok "the reproduction names the original by id and manifest sha256" ||
	not_ok "reproduces: $(jq -c .reproduces "$T/rep/manifest.json")"
grep -q "^reproduce: original $T/results/orig_set -> reproduction $T/rep" "$T/err" &&
	ok "judged against the unpacked set" || not_ok "out: $(cat "$T/err")"
expect_exit 2 "$IOMATRIX" reproduce "$T/orig.tar.gz" --device disk="$T/b/f" --out "$T/rep2" --quiet
grep -q "reproduce that set directory instead" "$T/err" && [ ! -e "$T/rep2" ] &&
	ok "the same pack again: exit 2, reproduce the directory" || not_ok "again: $(cat "$T/err")"
tap_end
