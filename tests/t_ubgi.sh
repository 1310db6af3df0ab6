#!/usr/bin/env bash
# `shesh ubgi` through a pipe: --help and usage errors, the session of
# docs/ubgi-engine.md answered line for line, the engine's moves legal
# (each found by `shesh moves --match`, its result the bestmoveid) in
# opening, hitting, entering, bearing-off and no-move positions and at two
# depths, bad bytes and an over-long line answered and skipped, an answer
# flushed before the input ends, exit 0 at quit and at EOF, and chequer
# moves by the cubeless equity until the cube is in play.
set -u
SHESH=${SHESH:-build/shesh}
# shellcheck source=tests/lib/check.sh
. "$(dirname "$0")/lib/check.sh"

# ---- usage -----------------------------------------------------------------
f0=$fails
"$SHESH" ubgi --help > "$dir/out" 2>&1 || no "ubgi --help exits $?"
grep -q '^usage: shesh ubgi' "$dir/out" || no "ubgi --help prints no usage"
"$SHESH" ubgi --frobnicate < /dev/null > /dev/null 2>&1
[ $? = 2 ] || no "an unknown option does not exit 2"
"$SHESH" ubgi extra < /dev/null > /dev/null 2>&1
[ $? = 2 ] || no "an argument does not exit 2"
"$SHESH" ubgi --plies 5 < /dev/null > /dev/null 2> "$dir/err"
[ $? = 2 ] || no "--plies 5 does not exit 2"
[ "$(tail -n 1 "$dir/err")" = "try 'shesh ubgi --help'" ] || no "--plies 5: $(cat "$dir/err")"
# --plies counts as Shesh does; engine.ply counts the root.
printf 'get engine.ply\nkeys\n' | "$SHESH" ubgi --pl=3 > "$dir/out"
[ "$(head -n 1 "$dir/out")" = "value engine.ply 4" ] || no "--plies 3: $(cat "$dir/out")"
grep -q '^key engine.ply int 1..5 4 ' "$dir/out" || no "--plies 3 is not the key's default: $(cat "$dir/out")"
passed "$f0" "--help, an unknown option, an argument, --plies out of range; --plies N is engine.ply N + 1"

# ---- the documented session --------------------------------------------------
f0=$fails
awk '/^## A session/ { on = 1 } on && /^```/ { if (block) exit; block = 1; next } block' \
    docs/ubgi-engine.md > "$dir/session"
grep '^> ' "$dir/session" | cut -c3- > "$dir/in"
grep '^< ' "$dir/session" | cut -c3- > "$dir/want"
[ "$(wc -l < "$dir/in")" -ge 10 ] || no "docs/ubgi-engine.md: no session found"
"$SHESH" ubgi < "$dir/in" > "$dir/got" 2> "$dir/err" || no "the session exits $?"
diff "$dir/want" "$dir/got" > "$dir/diff" || no "the session of docs/ubgi-engine.md differs: $(cat "$dir/diff")"
passed "$f0" "the session of docs/ubgi-engine.md, answer for answer"

# ---- the cube in play or not -------------------------------------------------
# DUjguDEOhwlODA to play 31: by the cubeless equity 17/14 17/16, by the
# cubeful one 22/21 17/14 (tests/t_hint.sh). A chequer question alone is a
# cubeless game's; once the runner asks about the cube or sets it, the
# moves go by the cube until the next newsession.
f0=$fails
printf '%s\n' ubgi 'position gnubgid DUjguDEOhwlODA' 'dice 3 1' 'go chequer' 'go cube' \
    'go chequer' 'newsession type money' 'position gnubgid DUjguDEOhwlODA' 'dice 3 1' \
    'go chequer' 'setcube value 2 owner p1' 'go chequer' quit |
    "$SHESH" ubgi | grep '^best' > "$dir/cube" || no "the cube session exits $?"
printf '%s\n' 'bestmove 17/14 17/16' 'bestcube double' 'bestmove 17/14 22/21' \
    'bestmove 17/14 17/16' 'bestmove 17/14 22/21' > "$dir/cube.want"
diff "$dir/cube.want" "$dir/cube" > "$dir/diff" || no "the cube in play: $(cat "$dir/diff")"
passed "$f0" "a chequer move by the cubeless equity until the cube is in play (go cube, setcube), then by the cubeful one"

# ---- the moves are legal -----------------------------------------------------
# ID D1 D2: the opening, a hit, entering from the bar, bearing off, no move.
positions="4HPwATDgc/ABMA 3 1
4HPwATDgc/ABMA 6 6
4HPwATDgc/ABMA 6 5
4HPwATDgc/ABMA 2 1
n/MCEQD/TQAASQ 6 5
n/MCEQD/TQAASQ 6 6
n/MCEQD/TQAASQ 6 4
n/MCEQD/TQAASQ 5 5
XwJkEQffBwAAAA 6 6
XwJkEQffBwAAAA 6 4
XwJkEQffBwAAAA 1 2"
# ...and positions of random play from gnubg's vectors.
more=$(zcat positions/gnubg-1.07/moves.tsv.gz 2> /dev/null | awk -F'\t' '$5 == "random-play" && NR % 97 == 0 {
           print $1, substr($2, 1, 1), substr($2, 2, 1) }' | head -n 12)
f0=$fails
n=0 passes=0
# One engine a depth answers them all: two lines a position.
for plies in 0 1; do
    while read -r id d1 d2; do
        [ -n "$id" ] && printf 'position gnubgid %s\ndice %s %s\ngo\ngo role chequer\n' "$id" "$d1" "$d2"
    done <<< "$positions
$more" | "$SHESH" ubgi --plies $plies > "$dir/answers" 2> "$dir/err"
    exec 3< "$dir/answers"
    while read -r id d1 d2; do
        [ -n "$id" ] || continue
        IFS= read -r a1 <&3 || a1=
        IFS= read -r a2 <&3 || a2=
        move=${a1#bestmove }
        rid=${a2#bestmoveid }
        n=$((n + 1))
        if [ "$move" = "$a1" ] || [ "$rid" = "$a2" ]; then
            no "$id $d1$d2 at $plies plies: answered '$a1' and '$a2'"
            continue
        fi
        "$SHESH" moves "$id" "$d1$d2" > "$dir/legal"
        if [ "$move" = pass ]; then
            passes=$((passes + 1))
            [ -s "$dir/legal" ] && no "$id $d1$d2: bestmove pass, but shesh moves lists moves"
            [ "$rid" = "$id" ] || no "$id $d1$d2: a pass gives bestmoveid $rid"
            continue
        fi
        echo "$move" | grep -qE '^((bar|[0-9]+)/(off|[0-9]+))( (bar|[0-9]+)/(off|[0-9]+)){0,3}$' ||
            no "$id $d1$d2: '$move' is not UBGI notation"
        "$SHESH" moves "$id" "$d1$d2" --match "$move" > "$dir/match" 2> "$dir/err" ||
            no "$id $d1$d2: '$move' is not a legal move ($(cat "$dir/err"))"
        [ "$(cut -f2 "$dir/match")" = "$rid" ] ||
            no "$id $d1$d2: '$move' results in $(cut -f2 "$dir/match"), bestmoveid says $rid"
        grep -qF "	$rid" "$dir/legal" || no "$id $d1$d2: bestmoveid $rid is not among shesh moves"
    done <<< "$positions
$more"
    IFS= read -r extra <&3 && no "at $plies plies, more answers than asked: '$extra'"
    exec 3<&-
done
[ "$n" -ge 40 ] || no "only $n moves checked"
[ "$passes" -ge 2 ] || no "no pass checked"
passed "$f0" "$n moves at 0 and 1 plies legal by shesh moves, bestmoveid their result, $passes passes"

# An XGID and a GNUBG-ID with their own roll.
f0=$fails
printf 'position xgid XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10\ngo\nposition gnubgid 4HPwATDgc/ABMA:cIkFAAAAAAAA\ngo\n' |
    "$SHESH" ubgi > "$dir/got"
[ "$(grep -c '^bestmove 8/5 6/5$' "$dir/got")" = 2 ] || no "XGID and GNUBG-ID with 3-1: $(cat "$dir/got")"
passed "$f0" "an XGID and a GNUBG-ID bring their roll"

# ---- bad input: answered, skipped, and the engine goes on --------------------
f0=$fails
{
    printf 'isr\0eady\n'
    printf 'dice 3\0011\n'
    head -c 5000 /dev/zero | tr '\0' x
    printf '\nisready\n'
    printf 'go\n'
    printf 'position gnubgid 4HPwATDgc/ABMA\ngo\n'
    printf '\n   \nfoo bar\nquit\nisready\n'
} | "$SHESH" ubgi > "$dir/got" 2> "$dir/err"
status=$?
cat > "$dir/want" << 'END'
error bad_command byte 0x00 at column 4 is not text
error bad_command byte 0x01 at column 7 is not text
error bad_command the line is longer than 4096 bytes
readyok
error bad_state no position: send position first
error bad_state no dice: send dice first
error bad_command unknown command 'foo'
END
[ "$status" = 0 ] || no "bad input: exit $status"
diff "$dir/want" "$dir/got" > "$dir/diff" || no "bad input answered: $(cat "$dir/diff")"
passed "$f0" "a NUL, a control byte, a 5000-byte line, go out of state: one error each; nothing after quit"

# ---- flushed answers, EOF ----------------------------------------------------
f0=$fails
coproc UBGI { "$SHESH" ubgi; }
bg_pid=$UBGI_PID
echo isready >&"${UBGI[1]}"
IFS= read -r -t 20 line <&"${UBGI[0]}" || line="(nothing in 20 s)"
[ "$line" = readyok ] || no "isready before the end of the input: '$line'"
ubgi_in=${UBGI[1]}
exec {ubgi_in}>&-
wait "$bg_pid"
status=$?
bg_pid=
[ "$status" = 0 ] || no "EOF: exit $status"
printf 'isready' | "$SHESH" ubgi > "$dir/got" || no "a last line without a newline: exit $?"
[ "$(cat "$dir/got")" = readyok ] || no "a last line without a newline: '$(cat "$dir/got")'"
passed "$f0" "an answer flushed while the input is open; EOF ends with 0, a last line without newline answered"

[ "$fails" = 0 ] && echo "t_ubgi.sh: all passed"
exit $((fails > 0))
