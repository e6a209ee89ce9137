#!/bin/sh
# tests/check_cycles.sh: no call cycle spans more than three files or crosses
# a folder, and calls point down the layers.  It passes on this build, and
# on small planted trees it allows a two-file cycle inside one folder,
# refuses one across two folders, one of four files in one folder and a
# call from a lower room up into a higher one, and does not count a table
# of function pointers (data) as a call.
. "$(dirname "$0")/../../lib.sh"
need_cmd nm
need_cmd cc
: "${BUILD:=$ROOT/build/default}"
[ -d "$BUILD/report" ] || skip "no objects under $BUILD (build first)"
out=$(sh "$ROOT/tests/check_cycles.sh" "$ROOT" "$BUILD" 2>&1) &&
	ok "this build has no long or cross-folder cycle" ||
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

tree two
unit bench/util/a.c a b
unit bench/util/b.c b a
check && ok "a two-file cycle in one folder is allowed" ||
	not_ok "two-file cycle refused: $(cat "$T/out")"

tree cross
unit report/model/m.c m r
unit report/render/r.c r m
if check; then not_ok "a cycle across model/ and render/ passed"
elif grep -q 'call cycle of 2 files in 2 folder' "$T/out"; then ok "a cross-folder cycle is refused"
else not_ok "cross-folder: unexpected message: $(cat "$T/out")"; fi

tree four
unit report/model/p.c p q
unit report/model/q.c q s
unit report/model/s.c s u
unit report/model/u.c u p
if check; then not_ok "a four-file cycle passed"
elif grep -q 'call cycle of 4 files' "$T/out"; then ok "a four-file cycle is refused"
else not_ok "four files: unexpected message: $(cat "$T/out")"; fi

tree up
unit report/model/m.c m r
unit report/render/r.c r
if check; then not_ok "a call from model/ up into render/ passed"
elif grep -q 'report/model/m.c (layer 7) calls into report/render/r.c (layer 8): calls must point down' "$T/out"
then ok "an upward call without a cycle is refused"
else not_ok "upward call: unexpected message: $(cat "$T/out")"; fi

# the section table: the model iterates a table that a higher file fills
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
mkdir -p "$D/build/report/model"
cc -c -o "$D/build/report/model/t.o" "$D/report/model/t.c" &&
	cc -c -o "$D/build/report/h.o" "$D/report/h.c" || fail "cc table"
check && ok "a function-pointer table is not a call" ||
	not_ok "table counted as a call: $(cat "$T/out")"
tap_end
