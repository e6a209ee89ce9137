#!/bin/sh
# `make CFLAGS=-O0` (a debug build) still compiles with -Wall -Wextra: the
# warnings are in the Makefile's override line, not in the CFLAGS default
# that a command-line CFLAGS replaces.
. "$(dirname "$0")/../../lib.sh"
need_cmd make
cmd=$(make -n -B -C "$ROOT" CFLAGS=-O0 BUILD="$T/build" "$T/build/bench/util/units.o" 2>/dev/null |
	grep -- ' -c .*units\.c')
[ -n "$cmd" ] || fail "make -n printed no compile line for units.c"
echo "$cmd" | grep -q -- ' -O0 ' && ok "CFLAGS=-O0 is used" || not_ok "no -O0: $cmd"
echo "$cmd" | grep -q -- ' -Wall ' && ok "-Wall kept" || not_ok "no -Wall: $cmd"
echo "$cmd" | grep -q -- ' -Wextra ' && ok "-Wextra kept" || not_ok "no -Wextra: $cmd"
tap_end
