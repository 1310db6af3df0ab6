# t_layers.sh - the layers of src/ (docs/architecture.md) hold: every header
# compiles on its own with only its layer's include paths (so it includes
# nothing from a higher layer), an include of a higher layer's header fails
# to build, no include names a path, and no two modules include each other
# round a cycle. src/lib, the public API, stands aside: it sees util, core
# and engine only, and no layer sees it. Run from the top of the tree.
set -u
. tests/lib/check.sh
ok() { echo "ok: $*"; }

CC=${CC:-cc}
layers="util core engine net play proto cli"
flags="-std=c11 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L -Wall -Werror -fsyntax-only"

# A make of its own, not a part of the make that runs the tests: under
# `make -j2 test` the flags passed down name a jobserver this make cannot
# reach, and it then prints the directory it enters on standard output.
inc_of() { MAKEFLAGS= MAKELEVEL= make -s --no-print-directory print-inc LAYER="$1"; }

# 1. Every header stands alone in its own layer.
n=0
for l in $layers lib; do
    inc=$(inc_of "$l")
    for h in src/"$l"/*.h; do
        [ -e "$h" ] || continue
        if ! echo "#include \"$(basename "$h")\"" |
                $CC $flags $inc -x c - -o /dev/null 2>"$dir/err"; then
            no "$h does not compile with only the include paths of $l/ ($inc):"
            sed 's/^/    /' "$dir/err" | head -n 5
        fi
        n=$((n + 1))
    done
done
ok "$n headers compile alone with their own layer's include paths"

# 2. An upward include fails: each layer's flags, a header of the next layer.
prev=
for l in $layers; do
    if [ -n "$prev" ]; then
        h=$(ls src/"$l"/*.h 2>/dev/null | head -n 1)
        if [ -n "$h" ]; then
            if echo "#include \"$(basename "$h")\"" |
                    $CC $flags $(inc_of "$prev") -x c - -o /dev/null 2>/dev/null; then
                no "a file of $prev/ could include $h (a higher layer)"
            else
                ok "$prev/ cannot include $l/'s $(basename "$h")"
            fi
        fi
    fi
    prev=$l
done

# 2b. The API sees no layer above engine, and no layer sees the API.
if echo '#include "net.h"' | $CC $flags $(inc_of lib) -x c - -o /dev/null 2>/dev/null; then
    no "a file of lib/ could include net/'s net.h (above engine)"
else
    ok "lib/ cannot include net/'s net.h"
fi
for l in $layers; do
    if echo '#include "shesh.h"' | $CC $flags $(inc_of "$l") -x c - -o /dev/null 2>/dev/null; then
        no "a file of $l/ could include lib/'s shesh.h"
    fi
done
ok "no layer can include lib/'s shesh.h"

# 3. Includes name a header, never a path: "../engine/x.h" would walk round
#    the include paths.
if grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*/' src >"$dir/paths"; then
    no "includes with a path:"; sed 's/^/    /' "$dir/paths"
else
    ok "no include names a path"
fi

# 4. No cycle among modules (a module is a .c and its .h): tsort fails on a
#    loop. An edge "a b" means module b includes a header of module a.
for f in src/*/*.[ch] src/main.c; do
    m=$(basename "${f%.*}")
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)\.h".*/\1/p' "$f" |
        while read -r dep; do [ "$dep" != "$m" ] && echo "$dep $m"; done
done | sort -u >"$dir/edges"
if tsort "$dir/edges" >/dev/null 2>"$dir/tsort"; then
    ok "no include cycle among $(tr ' ' '\n' <"$dir/edges" | sort -u | wc -l) modules"
else
    no "include cycle:"; sed 's/^/    /' "$dir/tsort"
fi

[ "$fails" = 0 ] && echo "t_layers.sh: all passed"
exit $((fails > 0))
