#!/bin/sh
# --out names a new set directory: a non-empty directory that is not a
# set is refused with exit 2 and left alone, and --resume's temp cleanup
# removes only iomatrix's own temp names (thesis.tmp.docx survives, as
# does a file reached through a planted SET/cells link).
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/scratch" "$T/docs"
cat >"$T/s.yaml" <<'Y'
suite: t-out
defaults: {engine: psync, direct: false, size: 64KiB}
devices:
  - {name: d, path: /nonexistent}
include:
  - {pattern: randread, bs: 4k, requests: 8}
  - {pattern: read, bs: 4k, requests: 8}
Y
printf 'my thesis\n' >"$T/docs/thesis.tmp.docx"
expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --device d="$T/scratch" --out "$T/docs" --quiet
grep -q "not empty and is not a result set" "$T/err" && ok "--out into a non-empty directory refused" || not_ok "message: $(cat "$T/err")"
[ "$(ls "$T/docs")" = thesis.tmp.docx ] && [ "$(cat "$T/docs/thesis.tmp.docx")" = "my thesis" ] &&
	ok "the directory is left as it was" || not_ok "docs changed: $(ls -a "$T/docs")"

expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --device d="$T/scratch" --out "$T/set" --quiet
printf 'my thesis\n' >"$T/set/thesis.tmp.docx"
printf 'x\n' >"$T/set/.iomatrix-tmp.AAAAAAAAAAAA"
printf 'x\n' >"$T/set/manifest.json.tmp.4242"
printf 'x\n' >"$T/set/cells/0001.json.tmp.17"
expect_exit 0 "$IOMATRIX" run --resume "$T/set" --quiet
[ "$(cat "$T/set/thesis.tmp.docx")" = "my thesis" ] && ok "resume keeps thesis.tmp.docx" || not_ok "thesis.tmp.docx removed"
left=$(ls -a "$T/set" "$T/set/cells" | grep -c 'iomatrix-tmp\|\.tmp\.[0-9]')
[ "$left" = 0 ] && ok "iomatrix's own temp files removed" || not_ok "$left temp files left"

mkdir "$T/elsewhere"; printf 'x\n' >"$T/elsewhere/.iomatrix-tmp.BBBBBBBBBBBB"
mv "$T/set/cells" "$T/set/cells.real"; ln -s "$T/elsewhere" "$T/set/cells"
expect_exit 2 "$IOMATRIX" run --resume "$T/set" --quiet
[ -e "$T/elsewhere/.iomatrix-tmp.BBBBBBBBBBBB" ] && ok "nothing removed through a SET/cells link" || not_ok "removed through the link"
grep -q "symbolic link" "$T/err" && ok "resume refuses a set whose cells/ is a link" || not_ok "message: $(cat "$T/err")"
tap_end
