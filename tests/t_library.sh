#!/usr/bin/env bash
# The library as a program that embeds it gets it (docs/library.md): `make
# install PREFIX=tmp` installs the binary, man page, static and shared
# library, header and pkg-config file; the example of docs/library.md,
# taken from the page itself so the two cannot drift, compiles with
# pkg-config's flags against the installed copy, linked statically and
# shared, and answers the opening 3-1 with the move `shesh hint` ranks
# first; a bad ID is an error value (a message, exit 1), not a crash; the
# shared library exports the functions of shesh.h and nothing else; DESTDIR
# stages an install whose pkg-config file still names PREFIX; `make
# uninstall` leaves no file behind. Run from the top of the tree.
set -u
SHESH=${SHESH:-build/shesh}
CC=${CC:-cc}
# shellcheck source=tests/lib/check.sh
. "$(dirname "$0")/lib/check.sh"
ok() { echo "ok: $*"; }

build=$(dirname "$SHESH")
# A sanitizer build's library needs the sanitizers in what links it.
san='' ccsan=''
if nm "$build/libshesh.a" 2>/dev/null | grep -q __asan; then
    san=1 ccsan="-fsanitize=address,undefined"
fi
mk() { make -s --no-print-directory BUILD="$build" SAN="$san" "$@" >"$dir/make.out" 2>&1; }

installed="bin/shesh share/man/man1/shesh.1 include/shesh.h lib/libshesh.a lib/libshesh.so.0
           lib/libshesh.so lib/pkgconfig/shesh.pc"
prefix=$dir/usr
if ! mk install PREFIX="$prefix"; then
    no "make install PREFIX=$prefix failed:"; tail -n 10 "$dir/make.out"
fi
f0=$fails
for f in $installed; do
    [ -e "$prefix/$f" ] || no "make install did not install $f"
done
[ "$(readlink "$prefix/lib/libshesh.so")" = libshesh.so.0 ] ||
    no "lib/libshesh.so is not a link to libshesh.so.0"
readelf -d "$prefix/lib/libshesh.so.0" | grep -q 'SONAME.*\[libshesh\.so\.0\]' ||
    no "libshesh.so.0 has no SONAME libshesh.so.0"
passed "$f0" "make install puts $(echo "$installed" | wc -w) files under PREFIX"

# Only shesh_* is exported, and exactly the functions shesh.h declares.
nm -D --defined-only "$prefix/lib/libshesh.so.0" |
    awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' | sort >"$dir/exported"
sed -n 's/^[a-z_ ]*[ *]\(shesh_[a-z_]*\)(.*/\1/p' src/lib/shesh.h | sort >"$dir/declared"
if [ -s "$dir/declared" ] && cmp -s "$dir/exported" "$dir/declared"; then
    ok "the shared library exports the $(wc -l <"$dir/declared") functions of shesh.h, nothing else"
else
    no "exported symbols differ from shesh.h's functions:"; diff "$dir/declared" "$dir/exported"
fi

cflags_clash="-std=c11 -Wall -Wextra -Werror $ccsan"
# The static library defines no global name but shesh.h's functions, so a
# program with a function of the name of one of Shesh's own (buf_init,
# err_set) links it statically and keeps its own.
nm --defined-only "$prefix/lib/libshesh.a" 2>/dev/null |
    awk 'NF == 3 && $2 ~ /^[A-Z]$/ { print $3 }' | sort -u >"$dir/static-globals"
if cmp -s "$dir/static-globals" "$dir/declared"; then
    ok "the static library's only global names are the $(wc -l <"$dir/declared") functions of shesh.h"
else
    no "the static library defines other global names:"
    diff "$dir/declared" "$dir/static-globals" | head -n 5
fi
cat >"$dir/clash.c" <<'EOF2'
#include <stdio.h>
#include <shesh.h>
int buf_init(void);
int buf_init(void) { return 7; }
void err_set(void);
void err_set(void) {}
int main(void)
{
    shesh_error err;
    shesh_engine *e = shesh_engine_new("default", &err);
    if (!e)
        return 1;
    shesh_engine_free(e);
    printf("%d\n", buf_init());
    return 0;
}
EOF2
# shellcheck disable=SC2046,SC2086
if $CC $cflags_clash "$dir/clash.c" -I"$prefix/include" "$prefix/lib/libshesh.a" \
        $(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --static --libs-only-l shesh |
          sed 's/-lshesh//') -o "$dir/clash" 2>"$dir/cc.err" && [ "$("$dir/clash")" = 7 ]; then
    ok "a program with its own buf_init and err_set links the static library and keeps them"
else
    no "a program with its own buf_init and err_set does not link the static library:"
    head -n 5 "$dir/cc.err"
fi

# The example: the first C block of docs/library.md.
awk '/^```c$/ { on = 1; next } on && /^```$/ { exit } on' docs/library.md >"$dir/example.c"
lines=$(wc -l <"$dir/example.c")
if [ "$lines" -ge 10 ] && [ "$lines" -le 25 ]; then
    ok "docs/library.md's example is $lines lines"
else
    no "docs/library.md's example is $lines lines (want about 20)"
fi

export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
cflags="-std=c11 -Wall -Wextra -Werror $ccsan"
want=$("$SHESH" hint --json --max 1 4HPwATDgc/ABMA 31 | sed -n 's/.*"move": "\([^"]*\)".*/\1/p')
[ -n "$want" ] || no "shesh hint gave no move for the opening 31"

# shellcheck disable=SC2046,SC2086
$CC $cflags "$dir/example.c" $(pkg-config --cflags --libs shesh) -o "$dir/ex-shared" \
    2>"$dir/cc.err" ||
    { no "the example does not compile against the shared library:"; cat "$dir/cc.err"; }
# shellcheck disable=SC2046,SC2086
$CC $cflags "$dir/example.c" $(pkg-config --cflags shesh) -Wl,-Bstatic -lshesh -Wl,-Bdynamic \
    $(pkg-config --static --libs-only-L --libs-only-l shesh | sed 's/-lshesh//') \
    -o "$dir/ex-static" 2>"$dir/cc.err" ||
    { no "the example does not compile against the static library:"; cat "$dir/cc.err"; }

for kind in shared static; do
    exe=$dir/ex-$kind
    [ -x "$exe" ] || continue
    f0=$fails
    if readelf -d "$exe" | grep -q 'NEEDED.*libshesh'; then linked=shared; else linked=static; fi
    [ "$linked" = "$kind" ] || no "ex-$kind is linked $linked"
    LD_LIBRARY_PATH=$prefix/lib "$exe" >"$dir/out" 2>"$dir/err"
    rc=$?
    [ "$rc" = 0 ] || no "the $kind example exited $rc: $(cat "$dir/err")"
    got=$(sed -n 's/^31: //p' "$dir/out")
    [ "$got" = "$want" ] || no "the $kind example plays '$got' for 31, shesh hint '$want'"
    grep -qE '^win 0\.[0-9]{3}, cubeful equity [+-][0-9]\.[0-9]{3}$' "$dir/out" ||
        no "the $kind example's evaluation line: $(sed -n 2p "$dir/out")"
    passed "$f0" "the $kind example plays $want for the opening 31, as shesh hint"

    f0=$fails
    LD_LIBRARY_PATH=$prefix/lib "$exe" 'not an id' >"$dir/out" 2>"$dir/err"
    rc=$?
    [ "$rc" = 1 ] || no "the $kind example with a bad ID exited $rc (want 1)"
    grep -q '^shesh: ' "$dir/err" || no "a bad ID printed no error: $(cat "$dir/err")"
    [ -s "$dir/out" ] && no "a bad ID printed an answer: $(cat "$dir/out")"
    passed "$f0" "a bad ID is an error value to the $kind example: $(cat "$dir/err")"
done

# Uninstall leaves nothing but the folders.
f0=$fails
mk uninstall PREFIX="$prefix" || no "make uninstall failed: $(tail -n 5 "$dir/make.out")"
left=$(find "$prefix" ! -type d)
[ -z "$left" ] || no "make uninstall left: $left"
passed "$f0" "make uninstall removes every file it installed"

# DESTDIR: staged under it, the pkg-config file names the final PREFIX.
f0=$fails
stage=$dir/stage
mk install DESTDIR="$stage" PREFIX=/opt/shesh || no "make install DESTDIR failed"
for f in $installed; do
    [ -e "$stage/opt/shesh/$f" ] || no "make install DESTDIR=... did not stage $f"
done
grep -qx 'prefix=/opt/shesh' "$stage/opt/shesh/lib/pkgconfig/shesh.pc" ||
    no "the staged shesh.pc does not say prefix=/opt/shesh"
mk uninstall DESTDIR="$stage" PREFIX=/opt/shesh || no "make uninstall DESTDIR failed"
left=$(find "$stage" ! -type d)
[ -z "$left" ] || no "make uninstall DESTDIR=... left: $left"
passed "$f0" "DESTDIR stages an install for PREFIX=/opt/shesh, and uninstall empties it"

[ "$fails" = 0 ] && echo "t_library.sh: all passed"
exit $((fails > 0))
