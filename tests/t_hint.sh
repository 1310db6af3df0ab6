#!/usr/bin/env bash
# shesh hint through the command line: with a roll, every legal move ranked
# (as many as shesh moves lists, the engine's choice first: 8/5 6/5 for the
# opening 31), each with its chances and equities and the difference to the
# first; without, the cube decision (the opening position is no double, a
# sure gammon is too good to double); the roll of an XGID is used; - reads
# 'ID [DICE]' lines; bad input exits 1 with the rest still answered; bad
# usage exits 2 with one line; the rules options change the cube action; a
# backgammon to save in a race gets its exact chances;
# with the cube the moves are ranked by cubeful equity, without it by
# cubeless; tests/tools/cube_rejudge.py judges its cube actions by the
# equities of a decisions file of tests/tools/cube_agree.sh.
set -u
SHESH=${SHESH:-build/shesh}
# shellcheck source=tests/lib/check.sh
. "$(dirname "$0")/lib/check.sh"

f0=$fails
"$SHESH" hint --json --max 1000 4HPwATDgc/ABMA 31 > "$dir/m.json" || no "hint 31 exits $?"
"$SHESH" moves 4HPwATDgc/ABMA 31 | cut -f2 | sort > "$dir/legal"
python3 - "$dir/m.json" "$dir/legal" <<'PY' || no "hint 31: $(head -c 400 "$dir/m.json")"
import json, sys
j = json.load(open(sys.argv[1]))
legal = open(sys.argv[2]).read().split()
moves = j["moves"]
assert sorted(m["position"] for m in moves) == legal, "not the legal moves"
assert moves[0]["move"] == "8/5 6/5" and moves[0]["diff"] == 0, moves[0]
for m in moves:
    assert m["win"] >= m["win_gammon"] >= m["win_backgammon"] >= 0, m
    assert m["diff"] <= 1e-12 or m is moves[0] or m["plies"] < moves[0]["plies"], m
assert j["dice"] == [3, 1] and j["equity_kind"] == "money", j
PY
"$SHESH" hint --plies 1 --max 3 4HPwATDgc/ABMA --dice 3-1 > "$dir/t.txt" || no "text exits $?"
grep -q '^4HPwATDgc/ABMA 31: money, cube 1 centred, 1 ply$' "$dir/t.txt" || no "text: $(cat "$dir/t.txt")"
[ "$(grep -c '^  *[0-9][0-9]* ' "$dir/t.txt")" = 3 ] || no "--max 3 shows $(grep -c '^  *[0-9][0-9]* ' "$dir/t.txt") moves"
grep -q '^   1 8/5 6/5  *1 ' "$dir/t.txt" || no "1 ply: the first move is not 8/5 6/5: $(cat "$dir/t.txt")"
passed "$f0" "with a roll: every legal move ranked, 8/5 6/5 first for the opening 31, --max, 1 ply"

f0=$fails
"$SHESH" hint --json 4HPwATDgc/ABMA > "$dir/c1.json" || no "cube hint exits $?"
"$SHESH" hint --json AAD8/wEBAAAAAA > "$dir/c2.json" || no "cube hint exits $?"
python3 - "$dir/c1.json" "$dir/c2.json" <<'PY' || no "cube: $(cat "$dir/c1.json" "$dir/c2.json")"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
assert a["action"] == "no double, take" and a["may_double"], a
assert b["action"] == "too good to double, pass" and b["win_gammon"] == 1, b
for j in (a, b):
    for k in ("no_double", "double_take", "double_pass", "cubeless", "win"):
        assert isinstance(j[k], float) or isinstance(j[k], int), (k, j)
PY
"$SHESH" hint 4HPwATDgc/ABMA > "$dir/c.txt" || no "cube text exits $?"
grep -q '^  right action: no double, take$' "$dir/c.txt" || no "cube text: $(cat "$dir/c.txt")"
passed "$f0" "without a roll: the opening is no double, a sure gammon too good to double"

f0=$fails
"$SHESH" hint --json 'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10' > "$dir/x.json" ||
    no "XGID with dice exits $?"
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["dice"]==[5,2] and j["match_to"]==7 and j["equity_kind"]=="match_winning_chance", j' \
    "$dir/x.json" || no "XGID: $(cat "$dir/x.json")"
printf '4HPwATDgc/ABMA 31\n\n# c\n4HPwATDgc/ABMA\nbad 31\n4HPwATDgc/ABMA 77\n4HPwATDgc/ABMA 31 x\n' |
    "$SHESH" hint --json - > "$dir/s.json" 2> "$dir/s.err"
[ $? = 1 ] || no "- with bad lines does not exit 1"
[ "$(grep -c '"moves"' "$dir/s.json")" = 1 ] || no "- answered $(grep -c '"moves"' "$dir/s.json") move hints"
[ "$(grep -c '"action"' "$dir/s.json")" = 1 ] || no "- answered $(grep -c '"action"' "$dir/s.json") cube hints"
[ "$(grep -c '"error"' "$dir/s.json")" = 3 ] || no "- gave $(grep -c '"error"' "$dir/s.json") errors, not 3"
grep -q "bad dice '77'" "$dir/s.err" || no "bad dice: $(cat "$dir/s.err")"
passed "$f0" "an XGID's roll and match are used; - answers good lines and reports bad ones (exit 1)"

f0=$fails
# The rules change the cube action: under Jacoby a sure gammon with the cube
# centred counts single, so it is cashed; without a cube, or with the cube
# at its maximum, there is nothing to decide; deeper the same.
for plies in 0 1; do
    "$SHESH" hint --json --plies $plies --jacoby AAD8/wEBAAAAAA > "$dir/j$plies.json" || no "--jacoby exits $?"
done
"$SHESH" hint --json --no-cube 4HPwATDgc/ABMA > "$dir/n.json" || no "--no-cube exits $?"
"$SHESH" hint --json --max-cube 1 AAD8/wEBAAAAAA > "$dir/m1.json" || no "--max-cube 1 exits $?"
python3 - "$dir/j0.json" "$dir/j1.json" "$dir/n.json" "$dir/m1.json" <<'PY' || no "rules: $(cat "$dir"/j0.json "$dir"/n.json "$dir"/m1.json)"
import json, sys
j0, j1, n, m1 = (json.load(open(f)) for f in sys.argv[1:5])
for j in (j0, j1):
    assert j["action"] == "double, pass" and abs(j["cubeless"] - 1) < 1e-9, j
for j in (n, m1):
    assert not j["may_double"] and j["action"] == "no double (the rules allow none)", j
PY
"$SHESH" hint --no-cube --jacoby 4HPwATDgc/ABMA > "$dir/out" 2> "$dir/err"
[ $? = 2 ] || no "--no-cube --jacoby does not exit 2"
grep -q "Jacoby" "$dir/err" || no "--no-cube --jacoby: $(cat "$dir/err")"
passed "$f0" "rules options: Jacoby cashes a sure gammon, no cube and a cube at its maximum forbid the double, an inconsistent set exits 2"

# A dead cube is named as the reason: 3-point match, the player on roll at
# 2-0 after the Crawford game (2 plus the cube reaches 3); his opponent at
# 0-2 may double.
f0=$fails
dead='XGID=-b----E-C---eE---c-e----B-:0:0:1:00:2:0:0:3:10'
live='XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:2:0:3:10'
out=$("$SHESH" hint -- "$dead") || no "dead cube: exit $?"
grep -qxF "  right action: no double (the cube is dead)" <<< "$out" || no "dead cube: $out"
out=$("$SHESH" hint --json -- "$live") || no "trailer's cube: exit $?"
grep -q '"may_double": true' <<< "$out" || no "trailer's cube: $out"
passed "$f0" "a dead cube (score plus cube reaches the match length) is named as such; the trailer may double"

# A backgammon to save in a race, worked by hand: two checkers on the
# mover's 23-point against four on the other side's 1-point, to play 22.
# The other side is off next roll with a double (1/6); else he needs one
# more. 23/19(2) leaves both a pip from escaping (any roll frees them):
# backgammoned 1/6. 23/15 leaves one 5 pips away that 11, 12 and 13 (5
# rolls in 36) do not free: 1/6 + 5/6 x 5/36. 23/19 23/21 leaves 1 and 3
# pips that 12 does not free: 1/6 + 5/6 x 2/36.
f0=$fails
"$SHESH" hint --json --max 40 DwAAgO2uAQADAA 22 > "$dir/bg.json" || no "backgammon race: exit $?"
python3 - "$dir/bg.json" <<'PY' || no "backgammon race: $(head -c 600 "$dir/bg.json")"
import json, sys
moves = json.load(open(sys.argv[1]))["moves"]
lbg = {m["move"]: m["lose_backgammon"] for m in moves}
near = lambda a, b: abs(a - b) < 1e-6
assert near(moves[0]["lose_backgammon"], 1 / 6), moves[0]
assert near(lbg["23/19(2)"], 1 / 6) and near(lbg["23/15"], 1 / 6 + 5 / 6 * 5 / 36), lbg
assert near(lbg["23/19 23/21 7/5"], 1 / 6 + 5 / 6 * 2 / 36), lbg
PY
passed "$f0" "a backgammon to save in a race: the exact escape chances, the move that frees both checkers first"

# With the cube the moves are ranked by the cubeful equity after them, as
# the engine chooses; without it (--rules nocube) by the cubeless one. In
# DUjguDEOhwlODA to play 31 (an attack: gammons count) the two orders differ
# at 0 and 1 ply: every move valued at the first's depth has a cubeful
# (with the cube) or cubeless (without) difference of at most 0.
f0=$fails
for plies in 0 1 2; do
    "$SHESH" hint --json --max 1000 --plies "$plies" DUjguDEOhwlODA 31 > "$dir/cf$plies.json" ||
        no "cubeful order, $plies plies: exit $?"
    "$SHESH" hint --json --max 1000 --plies "$plies" --rules nocube DUjguDEOhwlODA 31 \
        > "$dir/cl$plies.json" || no "cubeless order, $plies plies: exit $?"
done
python3 - "$dir" <<'PY' || no "cubeful order: $(head -c 600 "$dir/cf0.json")"
import json, sys
first = {}
for plies in (0, 1, 2):
    for kind, key in (("cf", "cubeful"), ("cl", "cubeless")):
        moves = json.load(open(f"{sys.argv[1]}/{kind}{plies}.json"))["moves"]
        top = moves[0]
        for m in moves:
            if m["plies"] == top["plies"]:
                assert m[key] <= top[key] + 1e-12, (plies, key, top, m)
        first[kind, plies] = top["move"]
assert first["cf", 0] == "22/21 17/14*" and first["cl", 0] == "17/16* 17/14*", first
assert first["cf", 1] == "17/16* 17/14*" and first["cl", 1] == "17/16* 17/14*", first
PY
passed "$f0" "with the cube the moves are ranked by cubeful equity (DUjguDEOhwlODA 31), without it by cubeless"

f0=$fails
for args in "" "--plies 7 4HPwATDgc/ABMA" "--dice 9 4HPwATDgc/ABMA" "--max 0 4HPwATDgc/ABMA" \
            "4HPwATDgc/ABMA 31 --dice 31" "- 4HPwATDgc/ABMA" "a b c"; do
    # shellcheck disable=SC2086
    "$SHESH" hint $args > "$dir/out" 2> "$dir/err" < /dev/null
    status=$?
    [ "$status" = 2 ] || no "shesh hint $args exits $status, expected 2"
    [ "$(wc -l < "$dir/err")" -le 2 ] || no "shesh hint $args: more than two lines"
    grep -q "try 'shesh hint --help'" "$dir/err" || no "shesh hint $args: $(cat "$dir/err")"
done
# The operands, 'ID [DICE]' or -, each refusal saying what is wrong.
usage_says hint <<'CASES'
|give an ID (and DICE), or - to read them from standard input
- 4HPwATDgc/ABMA|- reads 'ID [DICE]' lines: no other ID or roll with it
--dice 31 -|- reads 'ID [DICE]' lines: no other ID or roll with it
4HPwATDgc/ABMA 31 6|one ID and its DICE at most
--dice 31 4HPwATDgc/ABMA 31|the roll twice: DICE and --dice
CASES
passed "$f0" "usage errors exit 2 with one line; the operands' refusals say what is wrong"

# tests/tools/cube_rejudge.py judges hint's cube actions by the equities
# of a cube_agree.sh decisions file: the opening position is no double
# where the file's referee doubles (0.3 - 0.1 lost) and a take where it
# takes; a sure gammon is too good to double, as the referee has it, and
# a pass where it takes (-0.5 against -1: 0.5 lost).
f0=$fails
{
    printf '# player\tplay\tdecision\tgnubg-id\tshesh\tgnubg\tnd\tdt\tdp\tloss\tseen\n'
    printf 'shesh 0-ply\tmoney\t%s\t4HPwATDgc/ABMA\tx\tx\t0.1000\t0.3000\t1.0000\t0\t1\n' double take
    printf 'shesh 0-ply\tmoney\t%s\tAAD8/wEBAAAAAA\tx\tx\t1.9000\t0.5000\t1.0000\t0\t1\n' double take
} > "$dir/decisions.tsv"
SHESH=$SHESH python3 tests/tools/cube_rejudge.py "$dir/decisions.tsv" 0 - - > "$dir/rejudge" ||
    no "cube_rejudge exits $?"
grep -q '^the compiled-in network at 0 plies: money 0.70 EMG (doubles 0.20 over 2, takes 0.50 over 2); match 0.00 EMG (doubles 0.00 over 0, takes 0.00 over 0)$' "$dir/rejudge" ||
    no "cube_rejudge: $(cat "$dir/rejudge")"
grep -q 'money: +0.00 +- 0.00 EMG in all, 0 of 2 decisions differ$' "$dir/rejudge" ||
    no "cube_rejudge, the same network twice: $(cat "$dir/rejudge")"
echo 'not a decision' > "$dir/bad.tsv"
SHESH=$SHESH python3 tests/tools/cube_rejudge.py "$dir/bad.tsv" 0 > /dev/null 2> "$dir/err"
status=$?
if [ "$status" != 1 ] || ! grep -q 'line 1: not a line of' "$dir/err"; then
    no "cube_rejudge, a bad file: exit $status, $(cat "$dir/err")"
fi
passed "$f0" "tests/tools/cube_rejudge.py: hint's cube actions judged by a decisions file's equities"

[ "$fails" = 0 ] && echo "t_hint.sh: all passed"
exit $((fails > 0))
