#!/bin/sh
# tests/check_cycles.sh: no cycle of rooms (a .c with its .h), of includes
# and references (calls and data) in one graph, of any size, and
# references point down the layers.  It passes on this build (whose
# objects include cmd/mpi's when mpicc is there), and on small planted
# trees it refuses a two-file cycle inside one folder, one across two
# folders, one of four files in one folder, a call from a lower room up
# into a higher one, the two shapes of a table that closes a cycle: a low
# room iterating a table a higher file fills (report_sections[] before it
# was passed to report_load), and a table in a low room pointing up at a
# higher room's functions.  And the three blind spots of the checker before
# it read rooms (each planted case passed it): a cycle in cmd/mpi, whose
# files had no objects; a loop of one include and one call
# (launch_exec.c took a macro from run_fleet.h while run_fleet.c called
# it); a loop of includes between two rooms, X.c including Y.h while Y.c
# includes X.h.  And a folder face, a header that a lower file includes
# while the .c of its name calls that file, is refused even where a list
# beside the tree names it (tests/check_cycles.faces exempted 14 such
# headers until the code was redone).
. "$(dirname "$0")/../../lib.sh"
need_cmd nm
need_cmd cc
: "${BUILD:=$ROOT/build/default}"
[ -d "$BUILD/report" ] || skip "no objects under $BUILD (build first)"
# without mpicc the build has no cmd/mpi objects, and says so
nompi=""
[ -f "$BUILD/iomatrix-mpi" ] || nompi=cmd/mpi
# shellcheck disable=SC2086
out=$(sh "$ROOT/tests/check_cycles.sh" "$ROOT" "$BUILD" $nompi 2>&1) &&
	ok "this build has no cycle and no upward reference: $out" ||
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
		grep -q 'reference cycle of 2 rooms in 2 folder(s): ' "$T/out"
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
elif grep -q 'reference cycle of 2 rooms in 1 folder' "$T/out"; then ok "a two-file cycle in one folder is refused"
else not_ok "two files: unexpected message: $(cat "$T/out")"; fi

tree cross
unit report/model/m.c m r
unit report/render/r.c r m
if check; then not_ok "a cycle across model/ and render/ passed"
elif grep -q 'reference cycle of 2 rooms in 2 folder' "$T/out"; then ok "a cross-folder cycle is refused"
else not_ok "cross-folder: unexpected message: $(cat "$T/out")"; fi

tree four
unit report/model/p.c p q
unit report/model/q.c q s
unit report/model/s.c s u
unit report/model/u.c u p
if check; then not_ok "a four-file cycle passed"
elif grep -q 'reference cycle of 4 rooms' "$T/out"; then ok "a four-file cycle is refused"
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
# cmd/mpi: two files that call each other, built as the Makefile built
# them before, into no object (the objects elsewhere are there)
tree mpi
mkdir -p "$D/cmd/mpi"
unit bench/util/u.c util_base
unit cmd/mpi/a.c mpi_a mpi_b
unit cmd/mpi/b.c mpi_b mpi_a
rm -f "$D"/build/cmd/mpi/*.o
if check; then not_ok "a cycle in cmd/mpi without its objects passed"
elif grep -q 'cmd/mpi/a.c has no object under build' "$T/out" &&
	grep -q 'cmd/mpi/b.c has no object under build' "$T/out"
then ok "cmd/mpi files without objects are refused"
else not_ok "cmd/mpi: unexpected message: $(cat "$T/out")"; fi
# with their objects the cycle is found; told the folder is not built,
# the check passes and says what it did not read
cc2 cmd/mpi/a.c cmd/mpi/b.c
if check; then not_ok "the cycle in cmd/mpi passed"
elif grep -q 'reference cycle of 2 rooms in 1 folder(s): cmd/mpi/' "$T/out"; then ok "a cycle in cmd/mpi is refused"
else not_ok "cmd/mpi objects: unexpected message: $(cat "$T/out")"; fi
rm -f "$D"/build/cmd/mpi/*.o
if sh "$ROOT/tests/check_cycles.sh" "$D" build cmd/mpi > "$T/out" 2>&1 &&
	grep -q 'cmd/mpi not built, its references unread' "$T/out"
then ok "a build without mpicc passes and names what it left out"
else not_ok "cmd/mpi left out: $(cat "$T/out")"; fi

# one include and one call: a.c takes a macro from b.h, b.c calls a.c
# (launch_exec.c and run_fleet.c)
tree mixed
printf '#define B_NAME "b"\nvoid b_run(void);\n' > "$D/bench/util/b.h"
cat > "$D/bench/util/a.c" <<'C'
#include "b.h"
const char *a_name(void);
const char *a_name(void) { return B_NAME; }
C
cat > "$D/bench/util/b.c" <<'C'
#include "b.h"
const char *a_name(void);
void b_run(void) { (void)a_name(); }
C
cc2 bench/util/a.c bench/util/b.c
if check; then not_ok "a loop of one include and one call passed"
elif grep -q 'include and reference cycle of 2 rooms in 1 folder(s): ' "$T/out" &&
	grep -q 'bench/util/b.c calls a_name of bench/util/a.c' "$T/out" &&
	grep -q 'bench/util/a.c includes b.h' "$T/out"
then ok "a loop of one include and one call is refused, its two edges named"
else not_ok "include and call: unexpected message: $(cat "$T/out")"; fi
# the shape of a folder face (b.h, which a.c includes, is the header of
# b.c, which calls a.c): a list naming b.h where the faces file was
# exempts nothing
mkdir -p "$D/tests"
echo "bench/util/b.h" > "$D/tests/check_cycles.faces"
if check; then not_ok "a folder face listed in tests/check_cycles.faces passed"
elif grep -q 'include and reference cycle of 2 rooms in 1 folder(s): ' "$T/out"
then ok "a folder face is a loop like any other, listed or not"
else not_ok "listed face: unexpected message: $(cat "$T/out")"; fi

# includes alone, through the rooms: x.c includes y.h, y.c includes x.h
tree rooms
printf '#define X_MAX 4\n' > "$D/report/model/x.h"
printf '#define Y_MAX 8\n' > "$D/report/model/y.h"
printf '#include "y.h"\nint x_max(void);\nint x_max(void) { return Y_MAX; }\n' > "$D/report/model/x.c"
printf '#include "x.h"\nint y_max(void);\nint y_max(void) { return X_MAX; }\n' > "$D/report/model/y.c"
cc2 report/model/x.c report/model/y.c
if check; then not_ok "x.c -> y.h, y.c -> x.h passed"
elif grep -q 'include cycle of 2 rooms in 1 folder(s): report/model/[xy].\[ch\] report/model/[xy].\[ch\]' "$T/out"
then ok "two rooms that include each other's header are refused"
else not_ok "rooms: unexpected message: $(cat "$T/out")"; fi
tap_end
