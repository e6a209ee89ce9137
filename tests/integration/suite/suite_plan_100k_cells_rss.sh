#!/bin/sh
# plan of a 100,000-cell suite peaks at no more than 64 MiB of RSS:
# a plan holds every cell (struct cell, cell.h), so this is the
# size of a cell times 100,000 plus the suite; at 1,120 bytes a cell it
# was 124 MiB.  A measured size, not a time.  The JSON plan streams the
# same cells (make bench's scale rows measure both formats); text alone
# keeps this test's CPU low.  A sanitizer build's allocator is skipped.
. "$(dirname "$0")/../../lib.sh"
LIMIT_KIB=$((64 * 1024))
ldd "$IOMATRIX" 2>/dev/null | grep -q 'lib[at]san\|libubsan' &&
	skip "a sanitizer build: its allocator's RSS is not the program's"
# rss CMD...: CMD's stdout in $T/plan; prints its peak RSS in KiB
if [ -x /usr/bin/time ]; then
	rss() { /usr/bin/time -f %M -o "$T/rss" "$@" >"$T/plan" 2>"$T/err" && cat "$T/rss"; }
elif command -v python3 >/dev/null 2>&1; then
	rss() {
		python3 - "$T/plan" "$@" 2>"$T/err" <<'PY'
import resource, subprocess, sys
with open(sys.argv[1], "w") as out:
    r = subprocess.run(sys.argv[2:], stdout=out)
if r.returncode:
    sys.exit(1)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PY
	}
else
	skip "neither /usr/bin/time nor python3 to read a peak RSS"
fi

mkdir -p "$T/dev"
awk -v dev="$T/dev/" 'BEGIN {
	print "suite: scale100k"
	print "defaults: {engine: null, requests: 10, direct: false, size: 1m, bs: 4k}"
	print "devices: [{name: d, path: " dev "}]"
	print "matrix:"
	print "  pattern: [randread]"
	printf "  seed: ["
	for (i = 1; i <= 100000; i++) printf "%s%d", (i > 1 ? ", " : ""), i
	print "]"
}' >"$T/s.yaml"

kib=$(rss "$IOMATRIX" plan "$T/s.yaml") || fail "plan failed: $(tail -n 3 "$T/err")"
# the plan is all there: 100,000 cells, the last one seed 100000
cells=$(grep -c ' randread ' "$T/plan")
[ "$cells" = 100000 ] || fail "plan printed $cells cells, want 100000"
echo "plan, 100,000 cells: peak RSS $kib KiB (limit $LIMIT_KIB KiB)"
[ "$kib" -le "$LIMIT_KIB" ] || fail "plan of 100,000 cells peaked at $kib KiB, over $LIMIT_KIB KiB (64 MiB)"
