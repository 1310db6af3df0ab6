#!/usr/bin/env bash
# The manual page and the help texts agree with the binary: docs/shesh.1
# renders without a groff warning; every command of `shesh --help` is in its
# SYNOPSIS and has a section; every long option that `shesh CMD --help` or
# `shesh CMD ACTION --help` prints is an option of that section, known to
# the binary and in the command's option tables, and the section, the
# SYNOPSIS and the tables have no option the helps do not name (and the
# check is shown to catch an option taken out of the page or added to it);
# `shesh CMD --help` exits 0 and an unknown command or option exits 2;
# `shesh --version` and the page's title carry the release of
# src/util/version.h; the commands of the page's EXAMPLES run and print what
# is shown there (numbers that vary may differ, but never a 0 for another
# number), and the replay of gnubg's match replays its requests; the `shesh`
# commands of README.md run, its Quick start is the two make commands, and
# it links every document.
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
# after each .TP, when it is an option; and the rules options when the
# section says it takes them ("The rules options are those of shesh rules").
tags() { # FILE COMMAND
    awk -v want="shesh $2" '/^\.S[SH] /{ name = substr($0, 5); gsub(/"/, "", name); on = name == want; next }
                            on && tp { split($0, w, " "); if (w[2] ~ /^--/) print w[2]; tp = 0; next }
                            on && /^\.TP/ { tp = 1 }' "$1"
    if awk -v want="shesh $2" '/^\.S[SH] /{ name = substr($0, 5); gsub(/"/, "", name); on = name == want; next }
                               on' "$1" | tr '\n' ' ' | grep -q 'The rules options are those of'; then
        grep -oE 'X\([A-Z_]+, "[a-z][a-z-]*"' src/cli/rules_cli.c | cut -d'"' -f2 | sed 's/^/--/'
    fi
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

# The long options a help text names: every --word, but for one named after
# another command ('shesh serve --log-dir' in the help of log).
help_options() { # HELP-FILE COMMAND
    tr -s ' \n' '  ' < "$1" | grep -oE -- '(shesh [a-z]+ )?--[a-z][a-z-]*' |
        awk -v cmd="$2" '$1 != "shesh" || $2 == cmd { print $NF }' | sort -u
}

# The long options of a command's getopt_long tables in its source file
# (and the rules options, for a command that merges them in).
source_options() { # COMMAND
    local src=src/cli/cli_$1.c
    grep -oE '\{"[a-z][a-z-]*", (no|required|optional)_argument' "$src" | cut -d'"' -f2
    if grep -q rules_cli_merge "$src"; then
        grep -oE 'X\([A-Z_]+, "[a-z][a-z-]*"' src/cli/rules_cli.c | cut -d'"' -f2
    fi
}

# The SYNOPSIS of a page with its continuation lines joined to their
# command: one "shesh CMD ..." line each.
synopsis_lines() { # PAGE
    section "$1" SYNOPSIS | awk '/^shesh / { split($0, w, " "); c = w[2] }
                                 /^[ \t]/ { $0 = "shesh " c " " $0 } /^shesh / { print }'
}

# Every difference between the help texts, the source's option tables and
# page PAGE (as unroff makes it), one line each; nothing when they agree.
# For each command of `shesh --help`: the long options of `shesh CMD --help`
# and of `shesh CMD ACTION --help` for each action of the SYNOPSIS (id
# decode, id encode, log cat) are options of the page's section and no
# others; the section documents no option those helps do not name; the
# source's option tables hold the options the helps name and no others; the
# binary knows each of them; and the SYNOPSIS names no option the section
# does not document.
check_options() { # PAGE
    local page=$1 cmd action opt
    synopsis_lines "$page" > "$dir/co.synopsis"
    for cmd in "${commands[@]}"; do
        "$SHESH" "$cmd" --help > "$dir/co.help" 2> /dev/null || echo "shesh $cmd --help exits $?"
        [ -s "$dir/co.help" ] || echo "shesh $cmd --help prints nothing on stdout"
        help_options "$dir/co.help" "$cmd" > "$dir/co.all"
        tags "$page" "$cmd" | sort -u > "$dir/co.man"
        grep -q -- '^--help$' "$dir/co.man" || echo "$MANPAGE: the 'shesh $cmd' section has no --help"
        local actions
        actions=$(sed -n "s/^shesh $cmd \([a-z][a-z]*\)\( .*\)\{0,1\}$/\1/p" "$dir/co.synopsis" | sort -u)
        for action in "" $actions; do
            # shellcheck disable=SC2086 # an empty action is no word
            "$SHESH" "$cmd" $action --help > "$dir/co.one" 2> /dev/null ||
                echo "shesh $cmd $action --help exits $?"
            help_options "$dir/co.one" "$cmd" > "$dir/co.oneopts"
            while read -r opt; do
                grep -qx -- "$opt" "$dir/co.man" ||
                    echo "shesh $cmd${action:+ $action} --help prints $opt, not an option of the page's 'shesh $cmd' section"
                # known to the binary: an unknown option is named as such
                # (the option after it stops the command before it acts)
                # shellcheck disable=SC2086
                "$SHESH" "$cmd" $action "$opt=1" --no-such-option-x > /dev/null 2> "$dir/co.err" < /dev/null
                grep -q "unknown option '$opt'" "$dir/co.err" &&
                    echo "shesh $cmd${action:+ $action} --help prints $opt, which shesh $cmd${action:+ $action} does not know"
            done < "$dir/co.oneopts"
            cat "$dir/co.oneopts" >> "$dir/co.all"
        done
        sort -u "$dir/co.all" -o "$dir/co.all"
        while read -r opt; do
            grep -qx -- "$opt" "$dir/co.all" ||
                echo "$MANPAGE documents 'shesh $cmd $opt', which no help of shesh $cmd names"
        done < "$dir/co.man"
        source_options "$cmd" | sed 's/^/--/' | sort -u > "$dir/co.src"
        while read -r opt; do
            grep -qx -- "$opt" "$dir/co.all" ||
                echo "src/cli/cli_$cmd.c has the option $opt, which no help of shesh $cmd names"
        done < "$dir/co.src"
        while read -r opt; do
            grep -qx -- "$opt" "$dir/co.src" ||
                echo "shesh $cmd --help names $opt, which no option table of src/cli/cli_$cmd.c holds"
        done < "$dir/co.all"
        grep "^shesh $cmd " "$dir/co.synopsis" | grep -oE -- '--[a-z][a-z-]*' | sort -u |
            while read -r opt; do
                grep -qx -- "$opt" "$dir/co.man" ||
                    echo "$MANPAGE: the SYNOPSIS names 'shesh $cmd $opt', which its section does not document"
            done
    done
}

f0=$fails
check_options "$dir/page" > "$dir/differences"
while IFS= read -r line; do no "$line"; done < "$dir/differences"
nopts=$(for cmd in "${commands[@]}"; do tags "$dir/page" "$cmd" | sort -u; done | wc -l)
for cmd in "${commands[@]}"; do
    "$SHESH" "$cmd" --no-such-option < /dev/null > "$dir/out" 2> "$dir/err"
    status=$?
    [ "$status" = 2 ] || no "shesh $cmd --no-such-option exits $status, expected 2"
    [ -s "$dir/err" ] || no "shesh $cmd --no-such-option says nothing on stderr"
done
# ...and the check sees a difference: an option taken out of the page, or
# one added to it, is reported.
awk '/^\.S[SH] / { on = $0 == ".SS \"shesh bench\"" } on && /^\.TP/ { tp = NR; next }
     on && tp == NR - 1 && /^\.BI --seconds / { skip = 1; next }
     tp == NR - 1 { print ".TP" } { print }' "$dir/page" > "$dir/page-less"
check_options "$dir/page-less" > "$dir/less"
grep -q -- "shesh bench --help prints --seconds, not an option of the page's" "$dir/less" ||
    no "check_options misses --seconds taken out of the page: $(head -3 "$dir/less")"
sed 's/^\.SS "shesh replay"$/&\n.TP\n.B --no-such-option\nNothing./' "$dir/page" > "$dir/page-more"
check_options "$dir/page-more" > "$dir/more"
grep -q -- "documents 'shesh replay --no-such-option'" "$dir/more" ||
    no "check_options misses an option the page has and shesh does not: $(head -3 "$dir/more")"
# shesh --help's own options are the page's
"$SHESH" --help | sed -n '/^Options:/,/^$/p' | grep -oE -- '--[a-z][a-z-]*' | sort -u |
    while read -r opt; do
        grep -q "^shesh .*$opt" "$dir/synopsis" || echo "shesh --help names $opt; the SYNOPSIS does not"
    done > "$dir/top"
[ "$(wc -l < "$dir/top")" = 0 ] && ! "$SHESH" --help | grep -q '^Options:' &&
    no "shesh --help has no Options: block"
while IFS= read -r line; do no "$line"; done < "$dir/top"
passed "$f0" "the $nopts options of the page's sections are those of the help texts (actions included) and of the source's option tables, and no others; --help exits 0, a bad option 2; an option taken out of the page or added to it is caught"

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
# Numbers that may vary: runs of two or more digits and single digits but 0
# become '#', so that a lone 0 still stands out.
vary_mask() { # FILE...
    sed -i -E -e 's/[0-9]{2,}/#/g' -e 's/[1-9]/#/g' "$@"
}
f0=$fails
printf 'replayed 411 of 411 requests\n' > "$dir/mask.want"
printf 'replayed 0 of 0 requests\n' > "$dir/mask.got"
vary_mask "$dir/mask.want" "$dir/mask.got"
cmp -s "$dir/mask.want" "$dir/mask.got" && no "'numbers vary' takes 'replayed 0 of 0' for 'replayed 411 of 411'"
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
    if grep -q '^shesh replay ' "$cmdfile"; then
        nreplayed=$(sed -n 's/^replayed \([0-9]*\) of \1 requests: every reply the same$/\1/p' "$base.got")
        [ "${nreplayed:-0}" -ge 20 ] ||
            no "example '$(cat "$cmdfile")' replayed too few requests: $(cat "$base.got")"
    fi
    [ -s "$base.want" ] || continue
    if [ -e "$base.vary" ]; then
        vary_mask "$base.want" "$base.got"
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
