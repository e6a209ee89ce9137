#!/bin/sh
# `make` on a machine without the build dependencies says which Debian
# packages are missing and prints the one apt-get line (before compiling),
# instead of "cjson/cJSON.h: No such file or directory".
. "$(dirname "$0")/../../lib.sh"
cd "$ROOT" || fail "no root"
# a pkg-config that knows no library
printf '#!/bin/sh\n[ "$1" = --version ] && { echo 0.29; exit 0; }\nexit 1\n' >"$T/pkg-config"
chmod +x "$T/pkg-config"
PKG_CONFIG="$T/pkg-config" expect_exit 1 sh .ci/check-build-deps
grep -q 'missing packages: libyaml-dev libcjson-dev libblkid-dev libarchive-dev libsqlite3-dev' "$T/err" && ok "names the missing packages" \
	|| not_ok "$(cat "$T/err")"
grep -q '^  sudo apt-get install -y libyaml-dev libcjson-dev libblkid-dev libarchive-dev libsqlite3-dev$' "$T/err" && ok "one apt-get line" \
	|| not_ok "apt line: $(cat "$T/err")"
# the Makefile runs the check before any compile
PKG_CONFIG="$T/pkg-config" expect_exit 2 make -s -C "$ROOT" BUILD="$T/build" iomatrix
grep -q 'cJSON.h' "$T/err" && not_ok "compiler error instead of the package list" || ok "no compiler error"
grep -q 'sudo apt-get install' "$T/err" && ok "make prints the apt-get line" || not_ok "make: $(tail -3 "$T/err")"
[ -d "$T/build/bench" ] && not_ok "compiled before checking" || ok "nothing compiled"
# with everything installed the check is silent and succeeds
expect_exit 0 sh .ci/check-build-deps
[ -s "$T/err" ] && not_ok "noise when all is installed" || ok "silent when all is there"
tap_end
