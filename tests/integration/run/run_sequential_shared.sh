#!/bin/sh
# sequential_shared: the jobs of a sequential cell take turns on one
# stream over the file set, as sysbench's seqrd/seqwr/seqrewr do (one
# position for all threads, file after file), instead of each its own
# slice.  Checked in IOMATRIX_TRACE ("job dir offset len file"), on 4 jobs
# x 2 files of 64 KiB (32 blocks), only with what no thread schedule can
# change: with the key, 24 requests are the first 24 blocks of the set (16
# of file 0, 8 of file 1), each once, whichever jobs issue them, and one
# pass has every job issue IO; without it, one pass gives job i exactly
# its slice, blocks 8i..8i+7.  Then the fio export says fio cannot, and
# the report's Method names the order only where a cell set it.
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/d"
mk() { # name key-line
	cat >"$T/$1.yaml" <<Y
suite: t-seqshared
defaults:
  engine: psync
  direct: false
  size: 64k
  bs: 4k
  files: 2
  jobs: 4
$2
devices:
  - name: d
    path: /nonexistent
matrix:
  pattern: [read]
Y
}
run() { # name
	rm -rf "$T/$1.out"
	IOMATRIX_TRACE="$T/$1.tr" "$IOMATRIX" run "$T/$1.yaml" --device d="$T/d" \
		--out "$T/$1.out" --quiet >/dev/null 2>"$T/err" || fail "run $1: $(cat "$T/err")"
	[ -s "$T/$1.tr" ] || skip "IOMATRIX_TRACE wrote nothing: the runner has no trace"
	# "file:offset" of every issued IO, and the jobs that issued one
	grep -E '^[0-9]+ (read|write) ' "$T/$1.tr" | awk '{ print $5 ":" $3 }' | sort >"$T/$1.blk"
	grep -E '^[0-9]+ (read|write) ' "$T/$1.tr" | cut -d' ' -f1 | sort -u | wc -l | tr -d ' ' >"$T/$1.jobs"
	# "job set-block" of every IO (file 1's blocks follow file 0's 16)
	grep -E '^[0-9]+ (read|write) ' "$T/$1.tr" | awk '{ print $1, $5 * 16 + $3 / 4096 }' >"$T/$1.jb"
}
mk shared "  sequential_shared: true
  requests: 24"
run shared
awk -F: '{ print $1 ":" $2 }' <<E | sort >"$T/want"
$(i=0; while [ $i -lt 16 ]; do echo "0:$((i * 4096))"; i=$((i + 1)); done
  i=0; while [ $i -lt 8 ]; do echo "1:$((i * 4096))"; i=$((i + 1)); done)
E
cmp -s "$T/shared.blk" "$T/want" \
	&& ok "one stream: 24 requests are the first 24 blocks of the set, each once, file 0 then file 1" \
	|| not_ok "shared stream touched: $(tr '\n' ' ' <"$T/shared.blk")"
mk pass "  sequential_shared: true"
run pass
[ "$(cat "$T/pass.jobs")" = 4 ] && [ "$(awk '{ print $2 }' "$T/pass.jb" | sort -n | uniq | wc -l)" = 32 ] \
	&& [ "$(wc -l <"$T/pass.jb")" = 32 ] && ok "one pass: every job took turns, every block once" \
	|| not_ok "one shared pass: $(cat "$T/pass.jobs") jobs, blocks $(awk '{ print $2 }' "$T/pass.jb" | tr '\n' ' ')"

mk slices ""
run slices
# without the key, job i reads exactly blocks 8i..8i+7 of the 32-block set
awk '{ if (int($2 / 8) != $1) bad = 1; n++ } END { exit bad || n != 32 }' "$T/slices.jb" \
	&& ok "without it each job reads its own slice, job i blocks 8i..8i+7" \
	|| not_ok "slices: $(tr '\n' ' ' <"$T/slices.jb")"

"$IOMATRIX" export fio "$T/shared.yaml" --device d="$T/d" -o "$T/fio" >/dev/null 2>"$T/err" \
	|| fail "export: $(cat "$T/err")"
job=$(ls "$T"/fio/*.fio | head -n 1)
grep -q '^; NOT THE SAME: sequential_shared' "$job" && ok "export says fio has no shared stream" \
	|| not_ok "export: $(head -n 20 "$job")"
if command -v fio >/dev/null 2>&1; then
	fio --parse-only "$job" >"$T/parse.log" 2>&1 && ok "fio --parse-only accepts the job" \
		|| not_ok "fio: $(head -n 3 "$T/parse.log")"
fi
"$IOMATRIX" plan "$T/shared.yaml" --format json >"$T/plan.json" 2>"$T/err" || fail "plan: $(cat "$T/err")"
grep -q '"sequential_shared":[[:space:]]*true' "$T/plan.json" && ok "plan.json records sequential_shared" \
	|| not_ok "plan.json: no sequential_shared"
# the report's Method says it where a cell sets it, and only there
"$IOMATRIX" report "$T/shared.out" -o "$T/rs" --charts none --format md >/dev/null 2>"$T/err" \
	|| fail "report: $(cat "$T/err")"
grep -q '^| sequential order | one stream, the jobs take turns (sysbench) |' "$T/rs/report.md" \
	&& ok "report Method: sequential order, one stream" \
	|| not_ok "report Method: $(grep -i 'sequential' "$T/rs/report.md")"
"$IOMATRIX" report "$T/slices.out" -o "$T/rn" --charts none --format md >/dev/null 2>"$T/err" \
	|| fail "report: $(cat "$T/err")"
grep -q 'sequential order' "$T/rn/report.md" && not_ok "a set without the key has a sequential order line" \
	|| ok "no sequential order line where no cell sets it"
tap_end
