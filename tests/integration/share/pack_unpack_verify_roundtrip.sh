#!/bin/sh
# A set travels as one file and comes back intact: a finished run carries
# SHA256SUMS that plain `sha256sum -c` accepts; verify says intact; pack
# gives the same bytes twice (sorted members, mtime 0, owner 0:0, no gzip
# timestamp); unpack into another directory gives a set that verifies and
# is byte for byte the original; a second unpack refuses to overwrite it;
# --with-report carries report/ and its own list.
. "$(dirname "$0")/../../lib.sh"
need_cmd sha256sum
mkdir -p "$T/scratch"
cat >"$T/s.yaml" <<Y
suite: t-pack
defaults: {engine: null, size: 1MiB}
devices:
  - {name: d, path: $T/scratch}
matrix: {pattern: [randread, randwrite], bs: [4k]}
Y
IOMATRIX_RESULTS="$T/results" expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --quiet
set=$(cat "$T/out"); name=$(basename "$set")
[ -f "$set/SHA256SUMS" ] && ok "the finished set has SHA256SUMS" || not_ok "no SHA256SUMS in $set"
if (cd "$set" && sha256sum --quiet -c SHA256SUMS) >"$T/c" 2>&1; then ok "sha256sum -c accepts it"
else not_ok "sha256sum -c: $(cat "$T/c")"; fi
n=$(wc -l <"$set/SHA256SUMS"); nf=$(cd "$set" && find . -type f ! -name SHA256SUMS | wc -l)
[ "$n" = "$nf" ] && ok "it lists every file ($n)" || not_ok "lists $n of $nf files"
sort -c -k2 "$set/SHA256SUMS" 2>/dev/null && ok "sorted by path" || not_ok "not sorted"
expect_exit 0 "$IOMATRIX" verify "$set"
grep -q "intact" "$T/out" && ok "verify: intact" || not_ok "verify said $(cat "$T/out")"
expect_exit 0 "$IOMATRIX" verify "$T/results"
grep -q "$name: intact" "$T/out" && ok "verify DIR checks the sets in it" || not_ok "verify DIR: $(cat "$T/out")"

expect_exit 0 "$IOMATRIX" pack "$set" -o "$T/a.tar.gz"
touch "$set/cells" "$set"   # new mtimes must not change the bytes
expect_exit 0 "$IOMATRIX" pack "$set" -o "$T/b.tar.gz"
cmp -s "$T/a.tar.gz" "$T/b.tar.gz" && ok "the same set packs to the same bytes" || not_ok "packs differ"
gzip -t "$T/a.tar.gz" 2>"$T/gz" && ok "gzip -t: no trailing garbage" || not_ok "gzip -t: $(cat "$T/gz")"
tar tvzf "$T/a.tar.gz" >"$T/list"
if awk '$2 != "0/0" || $1 != "-rw-r--r--" || $4 != "1970-01-01" { bad = 1 } END { exit bad }' "$T/list"
then ok "members: 0/0, 0644, mtime 0"; else not_ok "members: $(head -3 "$T/list")"; fi
tar tzf "$T/a.tar.gz" | LC_ALL=C sort -c && ok "members in byte order" || not_ok "members not sorted"

expect_exit 0 "$IOMATRIX" unpack "$T/a.tar.gz" -o "$T/there"
[ "$(cat "$T/out")" = "$T/there/$name" ] && ok "unpack prints the set's path" || not_ok "printed $(cat "$T/out")"
diff -r "$set" "$T/there/$name" >/dev/null && ok "unpacked set is the original" || not_ok "unpacked set differs"
expect_exit 0 "$IOMATRIX" verify "$T/there/$name"
grep -q intact "$T/out" && ok "the unpacked set verifies" || not_ok "unpacked: $(cat "$T/out")"
ls -A "$T/there" >"$T/ls"
[ "$(cat "$T/ls")" = "$name" ] && ok "nothing else left in DIR" || not_ok "DIR holds $(cat "$T/ls")"
expect_exit 2 "$IOMATRIX" unpack "$T/a.tar.gz" -o "$T/there"
grep -q "exists already" "$T/err" && ok "a second unpack refuses to overwrite" || not_ok "second unpack: $(cat "$T/err")"
# tar.zst when this libarchive writes zstd, else a clear refusal
if "$IOMATRIX" pack "$set" -o "$T/z.tar.zst" >"$T/out" 2>"$T/err"; then
	"$IOMATRIX" pack "$set" -o "$T/z2.tar.zst" >/dev/null 2>&1
	cmp -s "$T/z.tar.zst" "$T/z2.tar.zst" && ok "tar.zst: same bytes twice" || not_ok "tar.zst packs differ"
	expect_exit 0 "$IOMATRIX" unpack "$T/z.tar.zst" -o "$T/zdir"
	diff -r "$set" "$T/zdir/$name" >/dev/null && ok "tar.zst round trip" || not_ok "tar.zst set differs"
else
	grep -q "cannot write zstd" "$T/err" && ok "no zstd in libarchive: said so" || not_ok "zst: $(cat "$T/err")"
fi
# the default DIR is the results directory
mkdir "$T/cwd"
(cd "$T/cwd" && "$IOMATRIX" unpack "$T/a.tar.gz" >/dev/null 2>&1)
[ -f "$T/cwd/results/$name/manifest.json" ] && ok "default DIR: ./results" || not_ok "nothing in ./results"

# --with-report: the report's own list travels too
expect_exit 0 "$IOMATRIX" report "$set" --charts none --format md
if [ -f "$set/report/SHA256SUMS" ] && (cd "$set/report" && sha256sum --quiet -c SHA256SUMS) >/dev/null 2>&1
then ok "report/ has its own SHA256SUMS"; else not_ok "report/SHA256SUMS missing or wrong"; fi
expect_exit 0 "$IOMATRIX" verify "$set"
grep -q intact "$T/out" && ok "a report does not break the set's list" || not_ok "with report: $(cat "$T/out")"
expect_exit 0 "$IOMATRIX" pack "$set" -o "$T/r.tar.gz" --with-report
tar tzf "$T/r.tar.gz" | grep -q "^$name/report/SHA256SUMS$" && ok "--with-report packs report/" || not_ok "no report in the pack"
tar tzf "$T/a.tar.gz" | grep -q "/report/" && not_ok "report/ packed without --with-report" || ok "no report/ without --with-report"
expect_exit 0 "$IOMATRIX" unpack "$T/r.tar.gz" -o "$T/r"
[ -f "$T/r/$name/report/report.md" ] && ok "the report comes back" || not_ok "no report after unpack"
# refusals: an unknown format, a set that fails verification, not a set
expect_exit 2 "$IOMATRIX" pack "$set" -o "$T/x.zip"
[ -e "$T/x.zip" ] && not_ok "x.zip written" || ok "pack -o x.zip: exit 2, nothing written"
echo >>"$set/plan.json"
expect_exit 2 "$IOMATRIX" pack "$set" -o "$T/bad.tar.gz"
grep -q "fails verification (changed plan.json" "$T/err" && [ ! -e "$T/bad.tar.gz" ] \
	&& ok "a set that fails verification is not packed" || not_ok "$(cat "$T/err")"
expect_exit 2 "$IOMATRIX" pack "$T" -o "$T/none.tar.gz"
ok "pack of a directory that is no set: exit 2"
tap_end
