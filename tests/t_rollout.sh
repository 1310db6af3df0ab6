#!/usr/bin/env bash
# shesh rollout through the command line: the text and the JSON keys; the
# same seed gives the same bytes for any --threads; shards merged give the
# bytes of one run (text and JSON), and a merge refuses a shard twice, a
# shard missing and shards of another run; on a race the bear-off database
# knows exactly, the rollout agrees with the exact value within a few
# standard errors with and without variance reduction, and variance
# reduction's error is far smaller; a truncated rollout stops early (and a
# truncation no game reaches changes nothing); a roller who doubles his
# opponent out is worth the whole cube cubeful, more than cubeless; match
# play gives match winning chances; a roll's moves are ranked by the
# rollout; bad input is refused (exit 1 for an item, 2 for usage), -
# reads one item a line; Ctrl-C stops and prints what was done, marked
# interrupted, with exit 130.
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

OPENING=4HPwATDgc/ABMA
RACE=1AAAACsAAAAAAA   # 2 on the 4, 5 and 6 points each against 3, 4, 5, 5
DOUBLE_OUT=2A4AANgGAAAAAA # a race the roller wins 83 %: double, pass
R="$SHESH rollout --quiet"

f0=$fails
$R --trials 72 --json $OPENING > "$dir/p.json" || no "rollout exits $?"
check_json "$dir/p.json" '
keys = {"input", "plies", "engine", "network", "match_to", "cube", "cube_owner", "equity_kind", "rules", "mode", "trials",
        "seed", "truncate", "variance_reduction", "interrupted", "win", "win_gammon",
        "win_backgammon", "lose_gammon", "lose_backgammon", "cubeless", "cubeful", "se", "sums"}
assert set(e) == keys, set(e) ^ keys
assert e["mode"] == "cubeful" and e["trials"] == 72 and e["sums"]["trials"] == 72, e
assert e["variance_reduction"] is True and e["interrupted"] is False, e
assert 0.3 < e["win"] < 0.7 and abs(e["cubeless"]) < 0.5, e
assert set(e["se"]) | {"trials"} == set(e["sums"]) and all(v > 0 for v in e["se"].values()), e
s = e["sums"]["win"]
assert isinstance(s[0], str) and abs(int(s[0]) * 1e-9 / 72 - e["win"]) < 1e-9, e
' || no "the JSON of a position: $(cut -c1-300 "$dir/p.json")"
$R --trials 36 $OPENING > "$dir/p.txt" || no "text: exit $?"
grep -q "^$OPENING: money, cube 1 centred$" "$dir/p.txt" || no "text: $(cat "$dir/p.txt")"
grep -q '^  rollout: 36 trials, 0 plies, cubeful, variance reduction, seed 1$' "$dir/p.txt" ||
    no "text: $(cat "$dir/p.txt")"
grep -qE '^  mean +0\.[0-9]{4} .* [+-][0-9]\.[0-9]{4} +[+-][0-9]\.[0-9]{4}$' "$dir/p.txt" ||
    no "text: $(cat "$dir/p.txt")"
grep -qE '^  se  ' "$dir/p.txt" || no "text: $(cat "$dir/p.txt")"
passed "$f0" "a position's rollout: text and JSON keys, means and errors, exact sums"

# With the luck taken out a mean can stray past a chance's bounds: these
# 144 trials (seed 1) sum the roller's backgammons below 0 (should another
# network not stray here, another seed will). The chances are printed
# within their bounds, the equity and the sums as measured.
f0=$fails
$R --trials 144 --cubeless --json $OPENING > "$dir/b.json" || no "bounds: exit $?"
check_json "$dir/b.json" '
s = e["sums"]
assert int(s["win_backgammon"][0]) < 0, s  # the case this is about
c = [e[k] for k in ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")]
assert all(0 <= v <= 1 for v in c) and c[2] <= c[1] <= c[0] and c[4] <= c[3] <= 1 - c[0], c
assert e["win_backgammon"] == 0, e
assert abs(int(s["cubeless"][0]) * 1e-9 / 144 - e["cubeless"]) < 1e-9, e
' || no "chances in their bounds: $(cut -c1-400 "$dir/b.json")"
$R --trials 144 --cubeless $OPENING > "$dir/b.txt" || no "bounds, text: exit $?"
grep -qE '^  mean +0\.[0-9]{4}  0\.[0-9]{4}  0\.0000  0\.[0-9]{4}  0\.[0-9]{4} ' "$dir/b.txt" ||
    no "bounds, text: $(cat "$dir/b.txt")"
passed "$f0" "a rollout's chances within their bounds, its equity as measured"

f0=$fails
$R --trials 45 --truncate 12 --json --threads 1 $OPENING 31 > "$dir/t1.json" || no "threads 1: exit $?"
$R --trials 45 --truncate 12 --json --threads 3 $OPENING 31 > "$dir/t3.json" || no "threads 3: exit $?"
cmp -s "$dir/t1.json" "$dir/t3.json" || no "--threads 1 and 3 differ"
$R --trials 45 --truncate 12 --json --threads 3 --seed 2 $OPENING 31 > "$dir/t3s2.json"
cmp -s "$dir/t1.json" "$dir/t3s2.json" && no "--seed 2 gives the bytes of seed 1"
passed "$f0" "the same seed gives the same bytes on 1 and 3 threads, another seed others"

f0=$fails
for k in 1 2 3; do
    $R --trials 45 --truncate 12 --json --shard $k/3 $OPENING 31 > "$dir/s$k.json" ||
        no "shard $k: exit $?"
done
"$SHESH" rollout merge --json "$dir/s2.json" "$dir/s3.json" "$dir/s1.json" > "$dir/m.json" ||
    no "merge exits $?"
cmp -s "$dir/m.json" "$dir/t1.json" || no "the merged shards differ from one run: $(diff "$dir/m.json" "$dir/t1.json" | head -c 300)"
"$SHESH" rollout merge "$dir/s1.json" "$dir/s2.json" "$dir/s3.json" > "$dir/m.txt" || no "merge text: $?"
$R --trials 45 --truncate 12 $OPENING 31 > "$dir/one.txt"
cmp -s "$dir/m.txt" "$dir/one.txt" || no "merged text differs: $(diff "$dir/m.txt" "$dir/one.txt")"
grep -q '"shard": \[2, 3\]' "$dir/s2.json" || no "a shard does not say which it is"
check_json "$dir/s2.json" 'assert e["moves"][0]["sums"]["trials"] == 15, e' || no "shard 2 of 3 plays 15 of 45"
"$SHESH" rollout merge "$dir/s1.json" "$dir/s1.json" "$dir/s3.json" > /dev/null 2> "$dir/err"
[ $? = 1 ] || no "a shard twice: not exit 1"
grep -q 'the same shard twice' "$dir/err" || no "a shard twice: $(cat "$dir/err")"
"$SHESH" rollout merge "$dir/s1.json" "$dir/s2.json" > /dev/null 2> "$dir/err"
[ $? = 1 ] || no "a shard missing: not exit 1"
$R --trials 45 --truncate 12 --json --shard 1/3 --seed 9 $OPENING 31 > "$dir/o1.json"
"$SHESH" rollout merge "$dir/o1.json" "$dir/s2.json" "$dir/s3.json" > /dev/null 2> "$dir/err"
[ $? = 1 ] || no "another seed: not exit 1"
grep -q 'not the same settings' "$dir/err" || no "another seed: $(cat "$dir/err")"
passed "$f0" "3 shards merged in any order give one run's bytes (JSON and text); a shard twice, one missing, another seed are refused"

f0=$fails
"$SHESH" eval --json $RACE > "$dir/exact.json"
$R --cubeless --trials 1296 --json $RACE > "$dir/vr.json" || no "race VR: exit $?"
$R --cubeless --trials 1296 --json --no-vr $RACE > "$dir/novr.json" || no "race no VR: exit $?"
python3 - "$dir/exact.json" "$dir/vr.json" "$dir/novr.json" <<'PY' || no "the exact race: $(cat "$dir/exact.json" "$dir/vr.json" | cut -c1-400)"
import json, sys
exact, vr, novr = (json.loads(open(f).readline()) for f in sys.argv[1:])
# The database's value is exact for play that minimises each side's
# expected rolls; the rollout's players maximise their chances, a few
# thousandths apart at most: VR, whose error is now a few 1e-5, sees it.
for r in (vr, novr):
    for k in ("win", "cubeless"):
        slack = 0.002 if k == "win" else 0.004
        assert abs(r[k] - exact[k]) < 4 * r["se"][k] + slack, (k, r[k], r["se"][k], exact[k])
assert vr["se"]["win"] * 3 < novr["se"]["win"], (vr["se"], novr["se"])
assert vr["se"]["cubeless"] * 3 < novr["se"]["cubeless"], (vr["se"], novr["se"])
PY
passed "$f0" "a bear-off race: with and without variance reduction within 4 SE (and the database's few thousandths) of its value; VR's error 3 times smaller or better"

f0=$fails
$R --trials 36 --json $OPENING > "$dir/full.json"
$R --trials 36 --json --truncate 10000 $OPENING > "$dir/never.json"
python3 - "$dir/full.json" "$dir/never.json" <<'PY' || no "a truncation no game reaches changed the sums"
import json, sys
a, b = (json.loads(open(f).readline()) for f in sys.argv[1:])
assert b["truncate"] == 10000 and a["truncate"] == 0
assert a["sums"] == b["sums"]
PY
$R --trials 36 --json --truncate 2 $OPENING > "$dir/two.json"
check_json "$dir/two.json" '
assert e["truncate"] == 2 and e["sums"]["trials"] == 36, e
assert 0.35 < e["win"] < 0.7 and e["se"]["win"] < 0.02, e
' || no "truncated after 2 turns: $(cut -c1-300 "$dir/two.json")"
passed "$f0" "truncated after 2 turns: close to the evaluation with a small error; a truncation no game reaches changes nothing"

f0=$fails
$R --trials 72 --json $DOUBLE_OUT > "$dir/cf.json"
$R --trials 72 --json --cubeless $DOUBLE_OUT > "$dir/cl.json"
python3 - "$dir/cf.json" "$dir/cl.json" <<'PY' || no "cubeful and cubeless: $(cat "$dir/cf.json" "$dir/cl.json" | cut -c1-400)"
import json, sys
cf, cl = (json.loads(open(f).readline()) for f in sys.argv[1:])
assert cf["cubeful"] == 1 and cf["se"]["cubeful"] == 0, cf   # doubled out at once
assert cl["mode"] == "cubeless" and "cubeful" not in cl and "cubeful" not in cl["sums"], cl
assert 0.55 < cl["cubeless"] < 0.75, cl
assert cf["cubeful"] > cl["cubeless"] + 0.2, (cf, cl)
PY
$R --trials 36 --json 'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10' --truncate 6 --moves 3 > "$dir/mt.json" ||
    no "match: exit $?"
check_json "$dir/mt.json" '
assert e["equity_kind"] == "match_winning_chance" and e["match_to"] == 7 and e["score"] == [0, 0], e
assert e["dice"] == [5, 2] and len(e["moves"]) == 3, e
c = [m["cubeful"] for m in e["moves"]]
assert c == sorted(c, reverse=True) and all(0 < x < 1 for x in c), c
assert sorted(m["rank"] for m in e["moves"]) == [1, 2, 3] and e["moves"][0]["diff"] == 0, e
' || no "match play moves: $(cut -c1-300 "$dir/mt.json")"
passed "$f0" "doubled out: cubeful +1 above cubeless; a match's moves ranked by match winning chance"

f0=$fails
"$SHESH" rollout --trials 36 $OPENING bad:x > "$dir/out" 2> "$dir/err"
[ $? = 1 ] || no "bad dice: not exit 1"
grep -q "^shesh rollout: $OPENING: bad dice" "$dir/err" || no "bad dice: $(cat "$dir/err")"
"$SHESH" rollout --trials 36 'XGID=-b----E-C---eE---c-e----B-:0:0:1:D:0:0:0:7:10' > /dev/null 2> "$dir/err"
[ $? = 1 ] || no "a pending double: not exit 1"
grep -q "double waits" "$dir/err" || no "a pending double: $(cat "$dir/err")"
printf '%s 31\n\n# note\nbad\n%s\n%s 31 x\n' $OPENING $RACE $OPENING |
    $R --trials 36 --truncate 4 --json - > "$dir/b.json" 2> "$dir/b.err"
[ $? = 1 ] || no "- with bad lines does not exit 1"
[ "$(grep -c '"mode"' "$dir/b.json")" = 2 ] || no "- answered $(grep -c '"mode"' "$dir/b.json") items, not 2"
[ "$(grep -c '"error"' "$dir/b.json")" = 2 ] || no "- gave $(grep -c '"error"' "$dir/b.json") errors, not 2"
for args in "" "--trials 0 $OPENING" "--plies 9 $OPENING" "--shard 3/2 $OPENING" "--shard x $OPENING" \
    "--seed -1 $OPENING" "--moves 0 $OPENING" "--bogus $OPENING" "- x" "$OPENING 31 x"; do
    # shellcheck disable=SC2086
    "$SHESH" rollout $args > "$dir/out" 2> "$dir/err" < /dev/null
    status=$?
    [ "$status" = 2 ] || no "shesh rollout $args exits $status, expected 2"
    [ "$(wc -l < "$dir/err")" -le 2 ] || no "shesh rollout $args: more than two lines"
    grep -q "try 'shesh rollout --help'" "$dir/err" || no "shesh rollout $args: $(cat "$dir/err")"
done
usage_says rollout <<CASES
|give an ID (and DICE), or - to read them from standard input
- $OPENING|- reads 'ID [DICE]' lines: no other ID or roll with it
$OPENING 31 6|one ID and its DICE at most
CASES
echo '{"input": 1}' > "$dir/junk.json"
for f in /nonexistent "$dir/junk.json" "$dir/err"; do
    "$SHESH" rollout merge "$f" > /dev/null 2> "$dir/err2"
    [ $? = 1 ] || no "merge of $f: not exit 1"
    grep -q '^shesh rollout merge: ' "$dir/err2" || no "merge of $f: $(cat "$dir/err2")"
done
passed "$f0" "bad items exit 1 and the others are answered; usage errors exit 2 with one line; a bad merge file exits 1"

f0=$fails
"$SHESH" rollout --trials 100000000 --json $OPENING > "$dir/int.json" 2> /dev/null &
pid=$!
sleep 2
kill -INT $pid
wait $pid
status=$?
[ "$status" = 130 ] || no "interrupted: exit $status, not 130"
check_json "$dir/int.json" '
assert e["interrupted"] is True and 0 < e["sums"]["trials"] < e["trials"], e
' || no "interrupted: $(cut -c1-300 "$dir/int.json")"
passed "$f0" "Ctrl-C prints the trials done, marked interrupted, and exits 130"

f0=$fails
# The rules score the games: all 15 in the other side's home board against
# his last checker on the ace point is a sure backgammon, 3 points, or 2 with
# backgammons off; the JSON names the rules, and merge refuses shards of
# other rules.
L=AQAAAADg/w8AAA
"$SHESH" rollout --json --quiet --cubeless --trials 36 "$L" > "$dir/bg.json" || no "sure backgammon exits $?"
"$SHESH" rollout --json --quiet --cubeless --trials 36 --no-backgammons "$L" > "$dir/nobg.json" ||
    no "--no-backgammons exits $?"
python3 - "$dir/bg.json" "$dir/nobg.json" <<'PY' || no "rules: $(cut -c1-300 "$dir/bg.json" "$dir/nobg.json")"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
assert abs(a["cubeless"] + 3) < 1e-9 and abs(b["cubeless"] + 2) < 1e-9, (a["cubeless"], b["cubeless"])
assert "backgammons 3" in a["rules"] and "backgammons 3" not in b["rules"], (a["rules"], b["rules"])
PY
"$SHESH" rollout --json --quiet --trials 72 --shard 1/2 4HPwATDgc/ABMA > "$dir/r1.json"
"$SHESH" rollout --json --quiet --trials 72 --shard 2/2 --star-mars 4HPwATDgc/ABMA > "$dir/r2.json"
"$SHESH" rollout merge "$dir/r1.json" "$dir/r2.json" > /dev/null 2> "$dir/rm.err"
[ $? = 1 ] || no "shards of other rules merged"
grep -q "not the same rules" "$dir/rm.err" || no "other rules: $(cat "$dir/rm.err")"
passed "$f0" "the rules options score the games (a sure backgammon 3, or 2 with backgammons off); shards of other rules are not merged"

[ "$fails" = 0 ] && echo "t_rollout.sh: all passed"
exit $((fails > 0))
