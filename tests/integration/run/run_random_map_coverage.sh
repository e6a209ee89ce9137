#!/bin/sh
# Random offsets as fio makes them: by default every block of
# the file once per pass (the random map), also when the jobs share the
# pass; norandommap draws with repeats (1 - 1/e of the blocks in a pass's
# worth of IOs); randrepeat replays a repetition's offsets, off it does
# not; zipf crowds onto hot blocks; zoned_abs keeps to its zone; and
# `export fio` writes the keys as fio options that fio parses.  Counted
# through IOMATRIX_TRACE ("job dir offset len file" per issued IO).
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/scratch"
mk() { # name requests jobs repeat extra-key-line
	cat >"$T/$1.yaml" <<Y
suite: t-rmap
defaults:
  engine: psync
  direct: false
  size: 4MiB
  bs: 4k
  requests: $2
  jobs: $3
  repeat: $4
$5
devices:
  - name: d
    path: /nonexistent
matrix:
  pattern: [randread]
Y
}
run() { # name -> $T/name.off: offsets of the issued IOs
	rm -rf "$T/$1.trace" "$T/$1.out"
	IOMATRIX_TRACE="$T/$1.trace" "$IOMATRIX" run "$T/$1.yaml" --device d="$T/scratch" \
		--out "$T/$1.out" --quiet >/dev/null 2>"$T/err" || { cat "$T/err" >&2; fail "run $1 failed"; }
	grep -E '^[0-9]+ read ' "$T/$1.trace" | cut -d' ' -f3 >"$T/$1.off"
}
distinct() { sort -u "$T/$1.off" | wc -l; }

mk map 1024 1 1 ""
run map
n=$(distinct map)
[ "$n" = 1024 ] && ok "1024 random reads of 1024 blocks touch all 1024" || not_ok "map: $n distinct blocks of 1024"

mk nomap 1024 1 1 "  norandommap: true"
run nomap
n=$(distinct nomap)
[ "$n" -ge 600 ] && [ "$n" -le 700 ] && ok "norandommap touches $n (1 - 1/e: ~647)" || not_ok "norandommap: $n distinct"

mk jobs 1024 4 1 ""
run jobs
n=$(distinct jobs)
[ "$n" = 1024 ] && ok "4 jobs share the pass: all 1024 blocks once" || not_ok "4 jobs: $n distinct blocks"

mk twice 2048 1 1 ""
run twice
bad=$(sort "$T/twice.off" | uniq -c | awk '$1 != 2' | wc -l)
[ "$bad" = 0 ] && [ "$(wc -l <"$T/twice.off")" = 2048 ] && ok "two passes: every block exactly twice" \
	|| not_ok "two passes: $bad blocks not read twice"
head -n 1024 "$T/twice.off" >"$T/p1"; tail -n 1024 "$T/twice.off" >"$T/p2"
cmp -s "$T/p1" "$T/p2" && not_ok "the second pass repeats the first's order" || ok "each pass has its own order"

mk rep 256 1 2 ""
run rep
head -n 256 "$T/rep.off" >"$T/r1"; tail -n 256 "$T/rep.off" >"$T/r2"
cmp -s "$T/r1" "$T/r2" && ok "randrepeat (default): repetition 2 replays repetition 1" || not_ok "randrepeat: repetitions differ"
grep -q "\"randrepeat\":[[:space:]]*true" "$T"/rep.out/cells/0001.json && ok "the cell records randrepeat" || not_ok "randrepeat not in the cell"
mk norep 256 1 2 "  randrepeat: false"
run norep
head -n 256 "$T/norep.off" >"$T/r1"; tail -n 256 "$T/norep.off" >"$T/r2"
cmp -s "$T/r1" "$T/r2" && not_ok "randrepeat false: repetitions still replay" || ok "randrepeat false: each repetition its own offsets"
run norep
head -n 256 "$T/norep.off" | cmp -s - "$T/r1" && ok "randrepeat false is still reproducible run to run" || not_ok "randrepeat false differs between runs"

mk zipf 1024 1 1 "  random_distribution: zipf:1.2"
run zipf
n=$(distinct zipf)
top=$(sort "$T/zipf.off" | uniq -c | sort -rn | head -n 1 | awk '{print $1}')
[ "$n" -lt 600 ] && [ "$top" -ge 50 ] && ok "zipf:1.2 crowds onto hot blocks ($n distinct, hottest $top times)" \
	|| not_ok "zipf:1.2: $n distinct, hottest $top"
mk zone 512 1 1 "  random_distribution: zoned_abs:100/1m"
run zone
awk '$1 >= 1048576 { bad = 1 } END { exit bad }' "$T/zone.off" && ok "zoned_abs:100/1m stays in the first MiB" \
	|| not_ok "zoned_abs: an offset past 1 MiB"

# export of the 4-job cell: fio's maps are per job, and the job says so
"$IOMATRIX" export fio "$T/jobs.yaml" --device d="$T/scratch" -o "$T/fio4" >/dev/null 2>"$T/err" || fail "export: $(cat "$T/err")"
grep -q '^; NOT THE SAME: random map' "$T"/fio4/*.fio && ok "export of 4 jobs says fio's maps are per job" \
	|| not_ok "export of 4 jobs: no NOT THE SAME for the map"
# export: fio's option names, and fio accepts the job
mk exp 1024 1 1 "  norandommap: true
  random_distribution: zipf:1.2
  randrepeat: false"
"$IOMATRIX" export fio "$T/exp.yaml" --device d="$T/scratch" -o "$T/fio" >/dev/null 2>"$T/err" || fail "export: $(cat "$T/err")"
job=$(ls "$T"/fio/*.fio | head -n 1)
grep -qx 'norandommap=1' "$job" && grep -qx 'random_distribution=zipf:1.2' "$job" && grep -qx 'randrepeat=0' "$job" \
	&& ok "export writes norandommap, random_distribution and randrepeat" || not_ok "export: $(grep -E 'rand' "$job")"
if command -v fio >/dev/null 2>&1; then
	fio --parse-only "$job" >"$T/fio.out" 2>&1 && ok "fio --parse-only accepts the job" || not_ok "fio: $(head -n 3 "$T/fio.out")"
else
	ok "# skip fio --parse-only: fio not installed"
fi
tap_end
