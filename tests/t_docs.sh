#!/usr/bin/env bash
# The manual page and the help texts agree with the binary: docs/shesh.1
# renders without a groff warning; every command of `shesh --help` is in its
# SYNOPSIS and has a section; every long option that `shesh CMD --help`
# prints is an option of that section, and the section documents no option
# the help does not know; `shesh CMD --help` exits 0 and an unknown command
# or option exits 2; `shesh --version` and the page's title carry the
# release of src/util/version.h; the commands of the page's EXAMPLES run and
# print what is shown there; the `shesh` commands of README.md run, its
# Quick start is the two make commands, and it links every document.
# MANPAGE=file checks another page (to see this test fail on a broken one).
set -u
SHESH=${SHESH:-build/shesh}
GNUBG=${GNUBG:-/usr/games/gnubg}
MANPAGE=${MANPAGE:-docs/shesh.1}
# shellcheck source=tests/lib/gnubg.sh
. "$(dirname "$0")/lib/gnubg.sh"
# shellcheck source=tests/lib/check.sh
. "$(dirname "$0")/lib/check.sh"

# The page's source as text: the escapes it uses turned into the characters
# they print, font changes dropped, comments kept (EXAMPLES reads them).
unroff() {
    sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e "s/\\\\(aq/'/g" -e 's/\\(dq/"/g' \
        -e 's/\\&//g' -e 's/\\e/\\/g' "$1"
}

# Lines of section NAME (from its .SH line to the next .SH).
section() { # FILE NAME
    awk -v want="$2" '/^\.SH /{ name = substr($0, 5); gsub(/"/, "", name); on = name == want; next }
                      on' "$1"
}

# The option tags of one command's subsection: the first word of the line
# after each .TP, when it is an option.
tags() { # FILE COMMAND
    awk -v want="shesh $2" '/^\.S[SH] /{ name = substr($0, 5); gsub(/"/, "", name); on = name == want; next }
                            on && tp { split($0, w, " "); if (w[2] ~ /^--/) print w[2]; tp = 0; next }
                            on && /^\.TP/ { tp = 1 }' "$1"
}

[ -r "$MANPAGE" ] || { echo "FAIL: no $MANPAGE"; exit 1; }
unroff "$MANPAGE" > "$dir/page"

# ---- 1. it renders without warnings ----------------------------------------
f0=$fails
if command -v groff > /dev/null; then
    groff -man -Tutf8 -ww -z "$MANPAGE" > "$dir/groff" 2>&1 || no "groff failed on $MANPAGE"
    [ -s "$dir/groff" ] && no "groff warns about $MANPAGE: $(head -5 "$dir/groff")"
    passed "$f0" "$MANPAGE renders with no groff warning"
else
    echo "skip: groff is not installed (apt-get install groff-base), $MANPAGE not rendered"
fi

# ---- 2. commands: SYNOPSIS, a section each, --help, bad options -------------
f0=$fails
"$SHESH" --help > "$dir/help" 2> "$dir/err" || no "shesh --help exits $?"
mapfile -t commands < <(sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p' "$dir/help")
[ "${#commands[@]}" -ge 8 ] || no "shesh --help lists ${#commands[@]} commands, expected 8 or more"
section "$dir/page" SYNOPSIS > "$dir/synopsis"
for cmd in "${commands[@]}"; do
    grep -q "^shesh $cmd\( \|$\)" "$dir/synopsis" || no "$MANPAGE: SYNOPSIS has no 'shesh $cmd'"
    grep -qx "\.SS \"shesh $cmd\"" "$dir/page" || no "$MANPAGE: no section .SS \"shesh $cmd\""
done
# ...and no section for a command the binary does not have.
while read -r cmd; do
    printf '%s\n' "${commands[@]}" | grep -qx "$cmd" ||
        no "$MANPAGE describes 'shesh $cmd', which shesh --help does not list"
done < <(sed -n 's/^\.SS "shesh \([a-z-]*\)"$/\1/p' "$dir/page")
passed "$f0" "the ${#commands[@]} commands of shesh --help are in the SYNOPSIS, each with a section"

f0=$fails
nopts=0
for cmd in "${commands[@]}"; do
    "$SHESH" "$cmd" --help > "$dir/cmdhelp" 2> "$dir/err"
    status=$?
    [ "$status" = 0 ] || no "shesh $cmd --help exits $status"
    [ -s "$dir/cmdhelp" ] || no "shesh $cmd --help prints nothing on stdout"
    # An option named after another command ('shesh serve --log-dir' in the
    # help of log) is that command's.
    tr -s ' \n' '  ' < "$dir/cmdhelp" | grep -oE -- '(shesh [a-z]+ )?--[a-z][a-z-]*' |
        awk -v cmd="$cmd" '$1 != "shesh" || $2 == cmd { print $NF }' | sort -u > "$dir/helpopts"
    tags "$dir/page" "$cmd" | sort -u > "$dir/manopts"
    while read -r opt; do
        grep -qx -- "$opt" "$dir/manopts" ||
            no "shesh $cmd --help prints $opt, not an option of the page's 'shesh $cmd' section"
        nopts=$((nopts + 1))
    done < "$dir/helpopts"
    while read -r opt; do
        [ "$opt" = --help ] || grep -qx -- "$opt" "$dir/helpopts" ||
            no "$MANPAGE documents 'shesh $cmd $opt', which shesh $cmd --help does not know"
    done < "$dir/manopts"
    "$SHESH" "$cmd" --no-such-option > "$dir/out" 2> "$dir/err" < /dev/null
    status=$?
    [ "$status" = 2 ] || no "shesh $cmd --no-such-option exits $status, expected 2"
    [ -s "$dir/err" ] || no "shesh $cmd --no-such-option says nothing on stderr"
done
passed "$f0" "$nopts long options of the ${#commands[@]} help texts are options of their sections; --help exits 0, a bad option 2"

f0=$fails
"$SHESH" no-such-command > "$dir/out" 2> "$dir/err"
status=$?
[ "$status" = 2 ] || no "an unknown command exits $status, expected 2"
[ -s "$dir/out" ] && no "an unknown command prints on stdout"
grep -q "no-such-command" "$dir/err" || no "an unknown command is not named on stderr"
"$SHESH" > /dev/null 2>&1
status=$?
[ "$status" = 2 ] || no "shesh without a command exits $status, expected 2"
passed "$f0" "an unknown command, and none, exit 2"

# ---- 3. the release ---------------------------------------------------------
f0=$fails
version=$(sed -n 's/^#define SHESH_VERSION "\(.*\)"$/\1/p' src/util/version.h)
[ -n "$version" ] || no "no SHESH_VERSION in src/util/version.h"
got=$("$SHESH" --version)
[ "$got" = "shesh $version" ] || no "shesh --version says '$got', src/util/version.h '$version'"
grep -q "^\.TH SHESH 1 .*\"shesh $version\"" "$MANPAGE" ||
    no "$MANPAGE: the .TH line does not name shesh $version"
passed "$f0" "shesh --version and the page's title say $version"

# ---- 4. EXAMPLES, as printed ------------------------------------------------
# Each "$ " line is run by bash from the top of the tree, with shesh being
# $SHESH, the address 127.0.0.1:10000 a free port and /tmp/shesh-logs a
# fresh directory. It must exit 0 and print the lines shown after it (with
# any run of digits equal to any other in a block marked "numbers vary").
# A command ending in '&' is a server: it runs until the end, and the next
# command waits until it listens.
f0=$fails
port=$(free_port 7)
shesh_abs=$(cd "$(dirname "$SHESH")" && pwd)/$(basename "$SHESH")
section "$dir/page" EXAMPLES | awk -v out="$dir/ex" '
    /^\.\\" t_docs: numbers vary/ { vary = 1; next }
    /^\.EX/ { inex = 1; next }
    /^\.EE/ { inex = 0; vary = 0; next }
    !inex { next }
    /^\$ / { n++; f = sprintf("%s.%02d", out, n); print substr($0, 3) > (f ".cmd")
             printf "" > (f ".want"); if (vary) print "" > (f ".vary"); next }
    n { print > (f ".want") }'
nex=0
for cmdfile in "$dir"/ex.*.cmd; do
    [ -e "$cmdfile" ] || { no "no '\$ ' commands in the EXAMPLES of $MANPAGE"; break; }
    base=${cmdfile%.cmd}
    cmd=$(sed -e "s#^shesh #$shesh_abs #" -e "s#| shesh #| $shesh_abs #g" \
              -e "s#127\.0\.0\.1:10000#127.0.0.1:$port#g" -e "s#/tmp/shesh-logs#$dir/logs#g" \
              -e "s#/usr/games/gnubg#$GNUBG#g" "$cmdfile")
    if grep -q gnubg "$cmdfile" && [ ! -x "$GNUBG" ]; then
        echo "skip: $GNUBG is not installed: $(cat "$cmdfile")"
        continue
    fi
    nex=$((nex + 1))
    if [[ $cmd == *"&" ]]; then
        : > "$dir/server.err"
        bash -c "exec ${cmd%&}" > /dev/null 2> "$dir/server.err" &
        bg_pid=$!
        for _ in $(seq 1 200); do
            grep -q 'listening on' "$dir/server.err" && break
            sleep 0.05
        done
        grep -q 'listening on' "$dir/server.err" ||
            no "example '$(cat "$cmdfile")' does not listen: $(head -c 300 "$dir/server.err")"
        continue
    fi
    timeout 300 bash -c "$cmd" > "$base.got" 2> "$base.err" < /dev/null
    status=$?
    [ "$status" = 0 ] || no "example '$(cat "$cmdfile")' exits $status: $(head -c 300 "$base.err")"
    [ -s "$base.want" ] || continue
    if [ -e "$base.vary" ]; then
        sed -i -E 's/[0-9]+/#/g' "$base.want" "$base.got"
    fi
    cmp -s "$base.want" "$base.got" ||
        no "example '$(cat "$cmdfile")' prints something else: $(diff "$base.want" "$base.got" | head -6) $(head -c 300 "$base.err")"
done
[ -n "$bg_pid" ] && kill "$bg_pid" && wait "$bg_pid" 2> /dev/null
bg_pid=
[ "$nex" -ge 6 ] || no "only $nex examples ran"
passed "$f0" "the $nex commands of EXAMPLES run as printed"

# ---- 5. README.md -----------------------------------------------------------
# Every "$ " line that runs build/shesh (with its continuation lines) must succeed and
# print something; the Quick start block holds exactly make demo and make test.
f0=$fails
nreadme=0
while IFS= read -r cmd; do
    nreadme=$((nreadme + 1))
    bash -c "${cmd//build\/shesh/$shesh_abs}" > "$dir/out" 2> "$dir/err"
    status=$?
    [ "$status" = 0 ] || no "README.md: '$cmd' exits $status: $(head -c 200 "$dir/err")"
    [ -s "$dir/out" ] || no "README.md: '$cmd' prints nothing"
done < <(awk '/^```/ { inblock = !inblock; next }
              inblock && /^\$ / && /build\/shesh / { cmd = substr($0, 3); more = /\\$/
                                               if (!more) print cmd; next }
              more { sub(/^ +/, " "); cmd = substr(cmd, 1, length(cmd) - 1) $0; more = /\\$/
                     if (!more) print cmd }' README.md | sed 's/  *#.*$//')
[ "$nreadme" -ge 5 ] || no "only $nreadme shesh commands found in README.md"
quick=$(awk '/^## Quick start/ { on = 1; next } /^## / { on = 0 }
             on && /^```/ { inblock = !inblock; next } on && inblock' README.md |
        sed 's/ *#.*$//')
[ "$quick" = "$(printf 'make demo\nmake test')" ] ||
    no "README.md: the Quick start block is not exactly 'make demo' and 'make test': $quick"
ndocs=0
for doc in docs/*.md proto/README.md docs/shesh.1; do
    ndocs=$((ndocs + 1))
    grep -qF "]($doc)" README.md || no "README.md has no link to $doc"
done
passed "$f0" "the $nreadme shesh commands of README.md run; Quick start is make demo, make test; README links the $ndocs documents"

if [ "$fails" -ne 0 ]; then
    echo "t_docs.sh: $fails failures"
    exit 1
fi
echo "t_docs.sh: all passed"
