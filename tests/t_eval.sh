#!/usr/bin/env bash
# shesh eval: the five chances and the equities of a position for the
# player to act, through the command line: the opening position is about
# even, a position the player on roll wins with his next roll is a sure
# gammon, the chances hold together (a gammon is a win, a backgammon a
# gammon), a GNUBG-ID and an XGID bring their match and cube, deeper plies
# answer too; bad IDs are refused with exit 1 while the others are still
# answered, - reads one ID a line (a NUL byte or an over-long line is an
# error of that line), and bad usage exits 2 with one line.
set -u
SHESH=${SHESH:-build/shesh}
# shellcheck source=tests/lib/check.sh
. "$(dirname "$0")/lib/check.sh"

check_json() { # FILE PYTHON-ASSERTIONS over e (one object a line)
    python3 - "$1" "$2" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    exec(sys.argv[2])
PY
}

f0=$fails
"$SHESH" eval --json 4HPwATDgc/ABMA AAD8/wEBAAAAAA > "$dir/a.json" || no "eval exits $?"
check_json "$dir/a.json" '
assert e["win"] >= e["win_gammon"] >= e["win_backgammon"] >= 0, e
assert 1 - e["win"] >= e["lose_gammon"] >= e["lose_backgammon"] >= 0, e
assert e["equity_kind"] == "money" and e["cube"] == 1 and e["cube_owner"] == "centred", e
if e["input"] == "4HPwATDgc/ABMA":
    assert 0.45 < e["win"] < 0.55 and abs(e["cubeless"]) < 0.1, e
else:
    assert e["win"] == 1 and e["win_gammon"] == 1 and e["cubeless"] >= 2, e
' || no "the chances of the opening and of a sure gammon: $(cat "$dir/a.json")"
passed "$f0" "the opening position is about even, a position won next roll is a sure gammon"

f0=$fails
"$SHESH" eval --json --plies 1 4HPwATDgc/ABMA:cIkqAAAAAAAA \
    'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10' > "$dir/m.json" || no "match IDs: exit $?"
check_json "$dir/m.json" '
assert e["equity_kind"] == "match_winning_chance" and e["match_to"] > 0 and e["plies"] == 1, e
assert 0 < e["cubeless"] < 1 and 0 < e["cubeful"] < 1, e
' || no "match play: $(cat "$dir/m.json")"
"$SHESH" eval 4HPwATDgc/ABMA > "$dir/t.txt" || no "text: exit $?"
grep -q '^4HPwATDgc/ABMA: money, cube 1 centred, 0 plies$' "$dir/t.txt" || no "text: $(cat "$dir/t.txt")"
grep -q '^  equity: cubeless [+-]0\.[0-9]*, cubeful [+-]0\.[0-9]*$' "$dir/t.txt" || no "text: $(cat "$dir/t.txt")"
passed "$f0" "GNUBG-IDs and XGIDs bring match and cube (match winning chances), 1 ply, the text form"

f0=$fails
"$SHESH" eval 4HPwATDgc/ABMA bad 'XGID=-b----E-C---eE---c-e----B-:0:0:1:D:0:0:0:7:10' \
    > "$dir/b.out" 2> "$dir/b.err"
[ $? = 1 ] || no "a bad ID does not exit 1"
grep -c '^4HPwATDgc/ABMA: money' "$dir/b.out" | grep -qx 1 || no "the good ID was not answered"
grep -q "^shesh eval: bad: " "$dir/b.err" || no "bad ID: $(cat "$dir/b.err")"
grep -q "double waits" "$dir/b.err" || no "a pending double: $(cat "$dir/b.err")"
printf '4HPwATDgc/ABMA\n\n# note\nbad\n4HPw\0ATDgc/ABMA\n%0600d\n  AAD8/wEBAAAAAA  \n' 0 |
    "$SHESH" eval --json - > "$dir/s.json" 2> "$dir/s.err"
[ $? = 1 ] || no "- with bad lines does not exit 1"
[ "$(grep -c '"win"' "$dir/s.json")" = 2 ] || no "- answered $(grep -c '"win"' "$dir/s.json") positions, not 2"
[ "$(grep -c '"error"' "$dir/s.json")" = 3 ] || no "- gave $(grep -c '"error"' "$dir/s.json") errors, not 3"
grep -q 'line 5: a NUL byte' "$dir/s.err" || no "a NUL byte: $(cat "$dir/s.err")"
grep -q 'line 6: longer than the longest line (512 bytes at most)' "$dir/s.err" || no "a long line: $(cat "$dir/s.err")"
passed "$f0" "bad IDs exit 1 and the others are answered; - skips blanks and comments, refuses NUL and long lines"

f0=$fails
# What a win is worth under the rules: with backgammons off the cubeless
# equity loses the backgammon chances (win less lose); star mars adds its
# share of them (src/engine/cube.h), the home-board zone takes its share off.
# The position: the player on roll has two checkers left, on his 1-point,
# the other side two on the bar and none off, so that every roll ends the
# game in a backgammon; at 1 ply the chances are exact, whatever the
# network.
P=4HPwAWADAAAAAA
for opt in "" --no-backgammons --star-mars "--backgammon-zone home"; do
    # shellcheck disable=SC2086
    "$SHESH" eval --json --plies 1 $opt $P || no "eval $opt exits $?"
done > "$dir/r.json"
share() { sed -n "s/^#define CUBE_BG_SHARE_$1 //p" src/engine/cube.h; }
python3 - "$dir/r.json" "$(share STAR_MARS)" "$(share BAR_ONLY)" <<'PY' || no "rules: $(cat "$dir/r.json")"
import json, sys
std, off, star, zone = (json.loads(l) for l in open(sys.argv[1]))
star_share, bar_share = float(sys.argv[2]), float(sys.argv[3])
bg = std["win_backgammon"] - std["lose_backgammon"]
assert bg > 0.05, std
assert abs(std["cubeless"] - off["cubeless"] - bg) < 1e-9, (std, off)
assert abs(star["cubeless"] - std["cubeless"] - star_share * bg) < 1e-9, (std, star)
assert abs(std["cubeless"] - zone["cubeless"] - bar_share * bg) < 1e-9, (std, zone)
assert off["cubeful"] < std["cubeful"], (std, off)
PY
passed "$f0" "rules options: backgammons off, star mars and the home-board zone change the equities by the backgammon chances"

f0=$fails
for args in "" "--plies 9 4HPwATDgc/ABMA" "--plies x 4HPwATDgc/ABMA" "--bogus 4HPwATDgc/ABMA" "- x"; do
    # shellcheck disable=SC2086
    "$SHESH" eval $args > "$dir/out" 2> "$dir/err" < /dev/null
    status=$?
    [ "$status" = 2 ] || no "shesh eval $args exits $status, expected 2"
    [ "$(wc -l < "$dir/err")" -le 2 ] || no "shesh eval $args: more than two lines"
    grep -q "try 'shesh eval --help'" "$dir/err" || no "shesh eval $args: $(cat "$dir/err")"
done
passed "$f0" "usage errors exit 2 with one line"

[ "$fails" = 0 ] && echo "t_eval.sh: all passed"
exit $((fails > 0))
