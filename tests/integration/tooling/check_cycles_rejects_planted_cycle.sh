#!/bin/sh
# tests/check_cycles.sh: no cycle of references between files, calls or
# data, of any size, and references point down the layers.  It passes on
# this build, and on small planted trees it refuses a two-file cycle inside
# one folder, one across two folders, one of four files in one folder, a
# call from a lower room up into a higher one, and the two shapes of a
# table that closes a cycle: a low room iterating a table a higher file
# fills (report_sections[] before it was passed to report_load), and a
# table in a low room pointing up at a higher room's functions.
. "$(dirname "$0")/../../lib.sh"
need_cmd nm
need_cmd cc
: "${BUILD:=$ROOT/build/default}"
[ -d "$BUILD/report" ] || skip "no objects under $BUILD (build first)"
out=$(sh "$ROOT/tests/check_cycles.sh" "$ROOT" "$BUILD" 2>&1) &&
	ok "this build has no cycle and no upward reference" ||
	not_ok "this build: $out"

tree() { # name: a fresh tree $T/NAME with bench/ and report/
	D=$T/$1; rm -rf "$D"; mkdir -p "$D/bench/util" "$D/report/model" "$D/report/render"
}
unit() { # file "calls..." "defines": a .c file whose function calls others
	f=$1; fn=$2; shift 2
	{ for c in "$@"; do echo "void $c(void);"; done
	  echo "void $fn(void);"; echo "void $fn(void) {"
	  for c in "$@"; do echo "	$c();"; done; echo "}"; } > "$D/$f"
	mkdir -p "$D/build/$(dirname "$f")"
	cc -c -o "$D/build/${f%.c}.o" "$D/$f" || fail "cc $f"
}
check() { sh "$ROOT/tests/check_cycles.sh" "$D" build > "$T/out" 2>&1; }
# refused WHAT UPWARD: the planted tree fails, saying the upward reference
# UPWARD and a cycle of two files in two folders
refused() {
	if check; then not_ok "$1: passed"
	elif grep -qF "$2: references must point down" "$T/out" &&
		grep -q 'reference cycle of 2 files in 2 folder(s): ' "$T/out"
	then ok "$1 is an upward reference and a cycle"
	else not_ok "$1: unexpected message: $(cat "$T/out")"; fi
}
cc2() { # SRC1 SRC2 (under $D): objects under $D/build
	for f in "$@"; do
		mkdir -p "$D/build/$(dirname "$f")"
		cc -c -o "$D/build/${f%.c}.o" "$D/$f" || fail "cc $f"
	done
}

tree two
unit bench/util/a.c a b
unit bench/util/b.c b a
if check; then not_ok "a two-file cycle in one folder passed"
elif grep -q 'reference cycle of 2 files in 1 folder' "$T/out"; then ok "a two-file cycle in one folder is refused"
else not_ok "two files: unexpected message: $(cat "$T/out")"; fi

tree cross
unit report/model/m.c m r
unit report/render/r.c r m
if check; then not_ok "a cycle across model/ and render/ passed"
elif grep -q 'reference cycle of 2 files in 2 folder' "$T/out"; then ok "a cross-folder cycle is refused"
else not_ok "cross-folder: unexpected message: $(cat "$T/out")"; fi

tree four
unit report/model/p.c p q
unit report/model/q.c q s
unit report/model/s.c s u
unit report/model/u.c u p
if check; then not_ok "a four-file cycle passed"
elif grep -q 'reference cycle of 4 files' "$T/out"; then ok "a four-file cycle is refused"
else not_ok "four files: unexpected message: $(cat "$T/out")"; fi

tree up
unit report/model/m.c m r
unit report/render/r.c r
if check; then not_ok "a call from model/ up into render/ passed"
elif grep -q 'report/model/m.c (layer 7) refers to report/render/r.c (layer 8): references must point down' "$T/out"
then ok "an upward call without a cycle is refused"
else not_ok "upward call: unexpected message: $(cat "$T/out")"; fi

# the section table as it was: the model iterates a table that a file
# above it fills, and that file calls the model
tree table
cat > "$D/report/model/t.c" <<'C'
extern void (*const hooks[])(void);
void model_run(void);
void model_run(void) { for (int i = 0; hooks[i]; i++) hooks[i](); }
C
cat > "$D/report/h.c" <<'C'
void model_run(void);
void hook(void);
void hook(void) { }
void cmd(void);
void cmd(void) { model_run(); }
void (*const hooks[])(void) = { hook, 0 };
C
cc2 report/model/t.c report/h.c
refused "a table filled above the room that iterates it" \
	"report/model/t.c (layer 7) refers to report/h.c (layer 13)"

# a table in a low room pointing up: util/ holds the pointers to a
# function of stats/, which calls back into util/
tree lowtable
mkdir -p "$D/bench/stats"
cat > "$D/bench/util/tab.c" <<'C'
void stats_hook(void);
void util_base(void);
void util_base(void) { }
void (*const util_hooks[])(void) = { stats_hook, 0 };
C
cat > "$D/bench/stats/s.c" <<'C'
void util_base(void);
void stats_hook(void);
void stats_hook(void) { util_base(); }
C
cc2 bench/util/tab.c bench/stats/s.c
refused "a table in a low room pointing up" \
	"bench/util/tab.c (layer 0) refers to bench/stats/s.c (layer 1)"

# data alone (no function pointer): util/ reads a table of numbers stats/
# defines, and stats/ calls util/
tree data
mkdir -p "$D/bench/stats"
cat > "$D/bench/util/u.c" <<'C'
extern const int stats_limits[];
int util_limit(int i);
int util_limit(int i) { return stats_limits[i]; }
C
cat > "$D/bench/stats/d.c" <<'C'
int util_limit(int i);
const int stats_limits[] = { 1, 2 };
int stats_first(void);
int stats_first(void) { return util_limit(0); }
C
cc2 bench/util/u.c bench/stats/d.c
refused "a table of numbers read below the file that defines it" \
	"bench/util/u.c (layer 0) refers to bench/stats/d.c (layer 1)"
tap_end
