#!/bin/sh
# run, import, unpack and reproduce add the set they make to the archive's
# index when it has one, so a query right after sees it and history takes
# it from the index; an archive without an index gets none (nothing is
# made behind the user's back), and one whose index is not this archive's
# gets a warning, an unchanged exit code and an untouched index.
. "$(dirname "$0")/../../lib.sh"
export IOMATRIX_RESULTS="$T/res"
mkdir -p "$T/res" "$T/d"
q() { "$IOMATRIX" query "$1" --format csv 2>"$T/qerr" | tail -n +2; }
cat >"$T/s.yaml" <<Y
suite: hooks
defaults: {engine: model, model_latency: 100us, size: 4MiB, runtime: 100ms}
devices:
  - {name: m, path: $T/d/}
matrix: {pattern: [randread]}
Y
# no index: none made
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --quiet --out "$T/res/first"
[ ! -e "$T/res/index.sqlite" ] && ok "no index, none made by run" || not_ok "run made an index"
expect_exit 0 "$IOMATRIX" index
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --quiet --out "$T/res/second"
[ "$(q "SELECT verified FROM sets WHERE path = 'second'")" = intact ] && ok "run: its set is in the index" ||
	not_ok "run: $(cat "$T/qerr")"
expect_exit 0 "$IOMATRIX" import fio "$ROOT/tests/data/fio/randread-4k-qd16.json" --device nvme
imp=$(basename "$(cat "$T/out")")
[ "$(q "SELECT source FROM sets WHERE path = '$imp'")" = fio ] && ok "import: its set is in the index" ||
	not_ok "import: $(cat "$T/qerr")"
expect_exit 0 "$IOMATRIX" pack "$T/res/second" -o "$T/second.tar.gz"
mkdir -p "$T/res/sub"
expect_exit 0 "$IOMATRIX" unpack "$T/second.tar.gz" -o "$T/res/sub"
[ "$(q "SELECT count(*) FROM sets WHERE path = 'sub/second'")" = 1 ] &&
	ok "unpack (into a folder of the archive): its set is in the index as sub/second" || not_ok "unpack: $(cat "$T/qerr")"
expect_exit 0 "$IOMATRIX" reproduce "$T/res/second" --device m="$T/d/" --quiet
rep=$(basename "$(head -n 1 "$T/out")")
[ "$(q "SELECT r.original FROM reproductions r JOIN sets s USING (set_id) WHERE s.path = '$rep'")" = second ] &&
	ok "reproduce: its set is in the index, with the set it reproduces" || not_ok "reproduce: $rep $(cat "$T/qerr")"
# everything is current: history reads every set from the index
expect_exit 0 "$IOMATRIX" site "$T/res" -o "$T/site" --charts none
grep -q "5 sets (0 read afresh)" "$T/out" && ok "the site reads all 5 sets from the index" || not_ok "$(cat "$T/out")"
# an index that is not this archive's: a warning, the exit code and the file unchanged
cp -a "$T/res" "$T/other"
sum=$(sha256sum <"$T/other/index.sqlite")
IOMATRIX_RESULTS="$T/other" expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --quiet --out "$T/other/third"
grep -q "warning: .*index.sqlite' not updated: it was made for another archive or machine; 'iomatrix index" "$T/err" &&
	ok "a copied archive's index: the run warns and exits 0" || not_ok "$(cat "$T/err")"
[ "$(sha256sum <"$T/other/index.sqlite")" = "$sum" ] && [ ! -s "$T/other/index.sqlite-wal" ] &&
	ok "and leaves that index as it was" || not_ok "index changed"
tap_end
