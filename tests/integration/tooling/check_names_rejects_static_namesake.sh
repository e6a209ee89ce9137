#!/bin/sh
# tests/check_names.sh: no static function has the name of an exported
# one.  It passes on this build; on a planted tree it refuses
# a static that gcc -O2 inlined (nm does not list it: the source line is
# what finds it, as rset_manifest.c's fleet_host_read was found), one that
# only a macro names (nm finds it), and one in a test program; a static
# whose name no object exports passes.
. "$(dirname "$0")/../../lib.sh"
need_cmd nm
need_cmd cc
: "${BUILD:=$ROOT/build/default}"
[ -d "$BUILD/report" ] || skip "no objects under $BUILD (build first)"
out=$(sh "$ROOT/tests/check_names.sh" "$ROOT" "$BUILD" 2>&1) &&
	ok "this build has no static namesake" || not_ok "this build: $out"

D=$T/tree
mkdir -p "$D/bench/fleet" "$D/bench/resultset" "$D/tests/unit" "$D/build/bench/fleet" "$D/build/bench/resultset"
cat > "$D/bench/fleet/host.c" <<'C'
void fleet_host_read(int *x);
void fleet_host_read(int *x) { (*x)++; }
int fleet_hosts;
int fleet_count(void);
int fleet_count(void) { return fleet_hosts; }
C
# fleet_host_read: static, called once, inlined at -O2; fleet_count:
# static, made by a macro and kept (its address is taken); own_read: a
# static no one exports
cat > "$D/bench/resultset/manifest.c" <<'C'
#define COUNTER(name) static int name(void) { return 7; }
static int fleet_host_read(int v)
{
	return v * 2;
}
COUNTER(fleet_count)
static int own_read(int v) { return v + 1; }
int manifest_read(int v, int (**f)(void));
int manifest_read(int v, int (**f)(void)) { *f = fleet_count; return own_read(fleet_host_read(v)); }
C
printf 'static void fleet_host_read(void) { }\nint main(void) { fleet_host_read(); return 0; }\n' > "$D/tests/unit/test_x.c"
for f in bench/fleet/host.c bench/resultset/manifest.c; do
	cc -O2 -c -o "$D/build/${f%.c}.o" "$D/$f" || fail "cc $f"
done
nm "$D/build/bench/resultset/manifest.o" | grep -q ' fleet_host_read$' &&
	skip "this cc did not inline the static fleet_host_read at -O2"
if sh "$ROOT/tests/check_names.sh" "$D" build > "$T/out" 2>&1; then
	not_ok "static namesakes passed"
else
	said() { grep -q "^check-names: $1: static $2 has the name that $3 exports" "$T/out"; }
	said bench/resultset/manifest.c:2 fleet_host_read bench/fleet/host.c &&
		ok "an inlined static namesake is found in the source" ||
		not_ok "inlined static: $(cat "$T/out")"
	said bench/resultset/manifest.c fleet_count bench/fleet/host.c &&
		ok "a static that a macro makes is found by nm" ||
		not_ok "macro static: $(cat "$T/out")"
	said tests/unit/test_x.c:1 fleet_host_read bench/fleet/host.c &&
		ok "a test program's static namesake is found" ||
		not_ok "test static: $(cat "$T/out")"
	grep -q own_read "$T/out" && not_ok "own_read, exported by no one, was named" ||
		ok "a static whose name no one exports passes"
fi
tap_end
