#!/usr/bin/env bash
# shesh match, through the command line a user types: identical players
# score exactly 0 with duplicate dice under the default rules and every
# variant; results and records do not depend on --concurrency; a cubeful
# money session and a 5-point match against gnubg's external server (0 ply)
# with no forfeit, their records imported by the real gnubg with the same
# games and points; rule variants seen in seeded games; a record cut by
# kill -9 still imports; Ctrl-C prints the summary so far; the SPRT stops a
# run; bad usage exits 2 with one line.
set -u
SHESH=${SHESH:-build/shesh}
# shellcheck source=tests/lib/gnubg.sh
. "$(dirname "$0")/lib/gnubg.sh"
# shellcheck source=tests/lib/check.sh
. "$(dirname "$0")/lib/check.sh"

[ -x "$GNUBG" ] || { echo "FAIL: no gnubg at $GNUBG (make test installs it)"; exit 1; }

# json_field FILE KEY: the raw JSON value of a top-level key (numbers and
# [a, b] pairs: what the tests read).
json_field() {
    python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))[sys.argv[2]]; print(json.dumps(v))' "$1" "$2"
}

# --- identical players score 0 -------------------------------------------
f0=$fails
variants=("" "--rules cafe" "--rules gnubg" "--jacoby --beavers 2" "--auto-doubles 3 --beavers 1"
          "--no-backgammons --star-mars" "--no-cube" "--cubeless" "--max-cube 4"
          "--match-to 5 --matches 4" "--match-to 7 --matches 2 --holland"
          "--rules cafe --match-to 3 --matches 4 --no-crawford"
          "--closed-out no-roll --backgammon-zone home" "--match-to 5 --matches 2 --closed-out no-roll")
for v in "${variants[@]}"; do
    games="--games 40"
    [[ $v == *match-to* ]] && games=
    # shellcheck disable=SC2086
    "$SHESH" match $games $v --seed 7 --no-record --json --quiet shesh shesh > "$dir/same.json" \
        2> "$dir/same.err" || { no "shesh vs shesh $v exits $?: $(cat "$dir/same.err")"; continue; }
    ppg=$(json_field "$dir/same.json" ppg)
    [ "$ppg" = 0.0 ] || [ "$ppg" = 0 ] || no "shesh vs shesh ${v:-(default rules)}: ppg $ppg, expected 0"
done
passed "$f0" "identical players score exactly 0.00 ppg under ${#variants[@]} sets of rules"

# --- concurrency changes nothing -----------------------------------------
f0=$fails
for c in 1 3; do
    "$SHESH" match --games 60 --seed 5 --concurrency $c --quiet --json --record "$dir/c$c.mat.gz" \
        shesh random > "$dir/c$c.json" 2> "$dir/c$c.err" || no "--concurrency $c exits $?"
done
for k in ppg points wins gammons cube; do
    [ "$(json_field "$dir/c1.json" $k)" = "$(json_field "$dir/c3.json" $k)" ] ||
        no "--concurrency 1 and 3 differ in $k"
done
cmp -s "$dir/c1.mat.gz" "$dir/c3.mat.gz" || no "--concurrency 1 and 3 wrote different .mat.gz"
cmp -s "$dir/c1.jsonl.gz" "$dir/c3.jsonl.gz" || no "--concurrency 1 and 3 wrote different .jsonl.gz"
crc=$(json_field "$dir/c1.json" records | python3 -c 'import json,sys; print(json.load(sys.stdin)["mat_crc32"])')
want=$(python3 -c 'import zlib,sys; print("%08x" % zlib.crc32(open(sys.argv[1],"rb").read()))' "$dir/c1.mat.gz")
[ "$crc" = "$want" ] || no "the summary's CRC-32 $crc is not the file's $want"
passed "$f0" "--concurrency 1 and 3: the same figures, the same records byte for byte, CRC $crc"

# gnubg_import MATFILE LOG [SET-COMMANDS...]
gnubg_import() {
    local mat=$1 log=$2
    shift 2
    { printf '%s\n' "$@"; echo "import mat $mat"; echo "show score"; echo "quit"; } |
        timeout 300 "$GNUBG" -t -q > "$log" 2>&1
}
COMPLAINTS="warning|invalid|unrecognised|illegal|not a valid|error|doesn't follow"

# --- against gnubg, and gnubg imports the records --------------------------
f0=$fails
"$SHESH" match --games 50 --seed 3 --quiet --json --timeout 60 --record "$dir/money.mat.gz" \
    shesh gnubg > "$dir/money.json" 2> "$dir/money.err" ||
    no "shesh vs gnubg money exits $?: $(tail -n 3 "$dir/money.err")"
[ "$(json_field "$dir/money.json" forfeits)" = "[0, 0]" ] ||
    no "money vs gnubg: forfeits $(json_field "$dir/money.json" forfeits): $(cat "$dir/money.err")"
[ "$(json_field "$dir/money.json" games)" = 50 ] || no "money vs gnubg: not 50 games"
read -r pa pb < <(json_field "$dir/money.json" points | tr -d '[],')
"$SHESH" records cat "$dir/money.mat.gz" > "$dir/money.mat" || no "records cat money exits $?"
gnubg_import "$dir/money.mat" "$dir/money.log" "set jacoby off" "set beavers 0"
got=$(grep -o 'The score (after .*' "$dir/money.log" | tail -n 1)
[[ $got == "The score (after 50 games) is: shesh-0 $pa, gnubg-0 $pb (money session"* ]] ||
    no "gnubg imports the money record as '$got', shesh counted 50 games $pa-$pb"
grep -iE "$COMPLAINTS" "$dir/money.log" | head -n 2 | while read -r l; do no "gnubg: $l"; done
passed "$f0" "50 cubeful money games against gnubg 0-ply, no forfeit; gnubg imports them: $got"

f0=$fails
"$SHESH" match --match-to 5 --matches 2 --seed 2 --quiet --json --timeout 60 \
    --record "$dir/m5.mat.gz" shesh gnubg > "$dir/m5.json" 2> "$dir/m5.err" ||
    no "shesh vs gnubg 5-point match exits $?: $(tail -n 3 "$dir/m5.err")"
[ "$(json_field "$dir/m5.json" forfeits)" = "[0, 0]" ] || no "5-point match vs gnubg: forfeits"
for k in 1 2; do
    "$SHESH" records cat --match $k "$dir/m5.mat.gz" > "$dir/m5-$k.mat" || no "records cat --match $k"
    # The final score the record gives: the last game's start plus its win.
    want=$(python3 - "$dir/m5.jsonl.gz" $((k - 1)) <<'EOF'
import gzip, json, sys
games = [json.loads(l) for l in gzip.open(sys.argv[1], "rt")]
half = [g for g in games if g["half"] == int(sys.argv[2])]
last = half[-1]
s = last["score"][:]
s[last["winner"]] += last["points"]
print("%d games: shesh-0 %d, gnubg-0 %d" % (len(half), s[0], s[1]))
EOF
)
    gnubg_import "$dir/m5-$k.mat" "$dir/m5-$k.log"
    got=$(grep -o 'The score (after .*' "$dir/m5-$k.log" | tail -n 1)
    n=${want%% games*}
    rest=${want#*games: }
    s=s; [ "$n" = 1 ] && s=
    [[ $got == "The score (after $n game$s) is: $rest (match to 5 points"* ]] ||
        no "gnubg imports match $k as '$got', the record says $want"
done
passed "$f0" "two 5-point matches against gnubg 0-ply, no forfeit; gnubg imports each with its final score"

# --- rule variants in seeded games -----------------------------------------
# kinds FILE: "kind points cube end" of every game of a .jsonl.gz.
kinds() {
    python3 - "$1" <<'EOF'
import gzip, json, sys
for l in gzip.open(sys.argv[1], "rt"):
    g = json.loads(l)
    ev = [e["action"] for e in g["events"]]
    print(g["kind"].replace(" ", "_"), g["points"], g["cube"], g["end"],
          ev.count("beaver"), ev.count("raccoon"), ev.count("opening"))
EOF
}
f0=$fails
"$SHESH" match --games 200 --seed 1 --star-mars --cubeless --quiet --record "$dir/star.mat.gz" \
    shesh random > /dev/null 2>&1 || no "star mars run failed"
kinds "$dir/star.jsonl.gz" > "$dir/star.k"
grep -q '^star_mars 4 1 over' "$dir/star.k" || no "no star mars scored 4 in 200 games against random"
"$SHESH" match --games 200 --seed 1 --no-backgammons --cubeless --quiet --record "$dir/nobg.mat.gz" \
    --json shesh random > "$dir/nobg.json" 2>&1 || no "no-backgammons run failed"
kinds "$dir/nobg.jsonl.gz" > "$dir/nobg.k"
grep -q '^backgammon 2 1 over' "$dir/nobg.k" || no "no backgammon scored 2 with --no-backgammons"
grep -q '^backgammon 3' "$dir/nobg.k" && no "a backgammon scored 3 with --no-backgammons"
[ "$(json_field "$dir/nobg.json" backgammons)" = "[0, 0]" ] ||
    no "--no-backgammons: the summary counts backgammons"
"$SHESH" match --games 100 --seed 1 --auto-doubles 2 --quiet --record "$dir/auto.mat.gz" \
    shesh random > /dev/null 2>&1 || no "automatic doubles run failed"
kinds "$dir/auto.jsonl.gz" > "$dir/auto.k"
awk '$7 > 1' "$dir/auto.k" | grep -q . || no "no opening tie in 100 games"
# The cube kept at 1 (--max-cube 1), so that no game turns it.
"$SHESH" match --games 100 --seed 1 --jacoby --max-cube 1 --quiet --record "$dir/jac.mat.gz" \
    random random > /dev/null 2>&1 || no "Jacoby run failed"
kinds "$dir/jac.jsonl.gz" > "$dir/jac.k"
grep -qE '^(back)?gammon 1 1 over' "$dir/jac.k" ||
    no "no gammon or backgammon scored 1 at a centred cube under Jacoby"
grep -qE '^(back)?gammon [2-9]' "$dir/jac.k" && no "a gammon at a centred cube scored more than 1 under Jacoby"
# The cafe rules in matches: the opening's winner rolls again (a double
# may come), and later games start with the previous winner on roll.
"$SHESH" match --rules cafe --match-to 3 --matches 40 --seed 3 --quiet --record "$dir/cafe.mat.gz" \
    shesh pubeval > /dev/null 2>&1 || no "cafe run failed"
python3 - "$dir/cafe.jsonl.gz" <<'EOF' || no "the cafe rules were not followed"
import gzip, json, sys
games = [json.loads(l) for l in gzip.open(sys.argv[1], "rt")]
reroll_double = winner_started = 0
prev = None
for g in games:
    ev = g["events"]
    if g["game"] == 1:
        op = [e for e in ev if e["action"] == "opening"]
        a, b = op[-1]["dice"]
        first = ev[len(op)]
        # the higher die's owner rolls again: his roll, not the opening dice
        assert first["action"] == "roll" and first["player"] == (0 if a > b else 1), ev[:4]
        reroll_double += first["dice"][0] == first["dice"][1]
    else:
        assert not any(e["action"] == "opening" for e in ev), ev[:3]
        first = next(e for e in ev if "player" in e)
        assert first["player"] == prev["winner"], (prev["winner"], ev[:3])
        winner_started += 1
    prev = g
assert reroll_double > 0 and winner_started > 0, (reroll_double, winner_started)
EOF
# Automatic doubles: an opening tie doubles the cube (up to the limit).
awk '$7 >= 2 && $3 < 2' "$dir/auto.k" | grep -q . && no "an opening tie did not double the cube"
# Holland: after the Crawford game the trailer does not double in his
# first two turns.
"$SHESH" match --match-to 5 --matches 6 --holland --seed 3 --quiet --record "$dir/hol.mat.gz" \
    shesh pubeval > /dev/null 2>&1 || no "Holland run failed"
python3 - "$dir/hol.jsonl.gz" <<'EOF' || no "a Holland double came too early"
import gzip, json, sys
for l in gzip.open(sys.argv[1], "rt"):
    g = json.loads(l)
    s = g["score"]
    # post-Crawford: the leader at 4 (match point), the trailer below
    if max(s) != 4 or min(s) == 4:
        continue
    trailer = s.index(min(s))
    turns = 0
    for e in g["events"]:
        if e.get("player") == trailer and e["action"] in ("move", "pass", "closed out"):
            turns += 1
        if e.get("player") == trailer and e["action"] == "double":
            assert turns >= 2, (turns, g["events"][:8])
EOF
passed "$f0" "seeded games: a star mars scores 4, backgammons off score 2, opening ties double the cube, Jacoby, the cafe opening and winner starting, Holland"

# --- a record cut by kill -9 imports its finished games --------------------
f0=$fails
"$SHESH" match --games 100000 --seed 9 --quiet --record "$dir/cut.mat.gz" shesh pubeval \
    > /dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do
    [ -s "$dir/cut.mat.gz" ] && [ "$(stat -c %s "$dir/cut.mat.gz")" -gt 20000 ] && break
    sleep 0.05
done
kill -9 $pid
wait $pid 2> /dev/null
"$SHESH" records cat "$dir/cut.mat.gz" > "$dir/cut.mat" 2> "$dir/cut.err" ||
    no "records cat of a killed run exits $?"
n=$(grep -c '^ Game ' "$dir/cut.mat")
[ "$n" -gt 0 ] || no "a killed run's record holds no game"
gnubg_import "$dir/cut.mat" "$dir/cut.log" "set jacoby off" "set beavers 0"
got=$(grep -o 'The score (after .*' "$dir/cut.log" | tail -n 1)
[[ $got == "The score (after $n games)"* ]] || no "gnubg imports the killed run's record as '$got', $n games"
passed "$f0" "a run killed by kill -9: its record imports its $n finished games"

# --- --resume after kill -9 ends as one run did ------------------------------
f0=$fails
"$SHESH" match --games 300 --seed 11 --quiet --json --record "$dir/whole.mat.gz" shesh pubeval \
    > "$dir/whole.json" 2>&1 || no "the uninterrupted run failed"
"$SHESH" match --games 300 --seed 11 --quiet --record "$dir/res.mat.gz" shesh pubeval \
    > /dev/null 2>&1 &
pid=$!
for _ in $(seq 400); do
    [ "$(stat -c %s "$dir/res.jsonl.gz" 2> /dev/null || echo 0)" -gt 30000 ] && break
    sleep 0.02
done
kill -9 $pid
wait $pid 2> /dev/null
cut=$("$SHESH" records stats --json "$dir/res.mat.gz" 2> /dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["games"])')
"$SHESH" match --games 300 --seed 11 --quiet --json --record "$dir/res.mat.gz" --resume \
    shesh pubeval > "$dir/res.json" 2> "$dir/res.err" || no "--resume exits $?: $(cat "$dir/res.err")"
cmp -s "$dir/whole.mat.gz" "$dir/res.mat.gz" || no "--resume: the .mat.gz differs from one run's"
cmp -s "$dir/whole.jsonl.gz" "$dir/res.jsonl.gz" || no "--resume: the .jsonl.gz differs from one run's"
for k in games ppg se points wins cube; do
    [ "$(json_field "$dir/whole.json" $k)" = "$(json_field "$dir/res.json" $k)" ] ||
        no "--resume: $k differs from one run's"
done
"$SHESH" match --games 300 --seed 12 --quiet --record "$dir/res.mat.gz" --resume shesh pubeval \
    > /dev/null 2> "$dir/res2.err" && no "--resume with another seed was accepted"
grep -q 'not this one' "$dir/res2.err" || no "--resume with another seed: $(cat "$dir/res2.err")"
passed "$f0" "killed after ${cut:-?} games, --resume ends with one run's figures and records byte for byte"

# --- shards merged equal one run; records stats recomputes a run -------------
f0=$fails
for spec in "--games 60" "--match-to 3 --matches 6"; do
    rm -f "$dir"/sh[123].*
    # shellcheck disable=SC2086
    "$SHESH" match $spec --seed 8 --quiet --json --no-record shesh pubeval > "$dir/one.json" 2>&1 ||
        no "$spec: the whole run failed"
    parts=()
    rm -f "$dir"/sh?.mat.gz "$dir"/sh?.jsonl.gz # the last spec's: a record is never overwritten
    for k in 1 2 3; do
        # shellcheck disable=SC2086
        "$SHESH" match $spec --seed 8 --quiet --json --shard $k/3 --record "$dir/sh$k.mat.gz" \
            shesh pubeval > "$dir/sh$k.json" 2>&1 || no "$spec: shard $k failed"
        parts+=("$dir/sh$k.json")
    done
    "$SHESH" stats merge --json "${parts[@]}" > "$dir/merged.json" || no "$spec: stats merge exits $?"
    "$SHESH" stats merge --json "$dir/sh1.jsonl.gz" "$dir/sh2.mat.gz" "$dir/sh3.json" \
        > "$dir/merged2.json" || no "$spec: stats merge of records exits $?"
    "$SHESH" records stats --json "$dir/sh1.mat.gz" > "$dir/rs.json" || no "$spec: records stats exits $?"
    for k in games pairs ppg se ci95 points wins gammons backgammons forfeits cube resignations seats matches; do
        for m in merged merged2; do
            [ "$(json_field "$dir/one.json" $k 2>&1)" = "$(json_field "$dir/$m.json" $k 2>&1)" ] ||
                no "$spec: $m differs from one run in $k"
        done
        [ "$(json_field "$dir/sh1.json" $k 2>&1)" = "$(json_field "$dir/rs.json" $k 2>&1)" ] ||
            no "$spec: records stats differs from the shard's summary in $k"
    done
done
"$SHESH" stats merge "$dir/sh1.json" "$dir/sh1.json" > /dev/null 2> "$dir/twice.err" &&
    no "a shard given twice was merged"
grep -q 'given twice' "$dir/twice.err" || no "a shard twice: $(cat "$dir/twice.err")"
"$SHESH" stats merge "$dir/sh1.json" "$dir/whole.json" > /dev/null 2> "$dir/other.err" &&
    no "shards of two runs were merged"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["shard"]=[7, 3]; print(json.dumps(d))' \
    "$dir/sh1.json" > "$dir/bad-shard.json"
"$SHESH" stats merge "$dir/bad-shard.json" > /dev/null 2> "$dir/bad-shard.err" &&
    no "a summary of shard 7/3 was merged"
grep -q '"shard" is not K/N' "$dir/bad-shard.err" || no "shard 7/3: $(cat "$dir/bad-shard.err")"
passed "$f0" "three shards merged (summaries or records) give one run's figures, money and matches; records stats agrees"

# --- Ctrl-C prints the summary so far ---------------------------------------
f0=$fails
"$SHESH" match --games 400000 --seed 4 --json --record "$dir/int.mat.gz" shesh pubeval \
    > "$dir/int.json" 2> "$dir/int.err" &
pid=$!
for _ in $(seq 200); do
    [ -s "$dir/int.jsonl.gz" ] && [ "$(stat -c %s "$dir/int.jsonl.gz")" -gt 20000 ] && break
    sleep 0.05
done
kill -INT $pid
wait $pid
status=$?
[ "$status" = 130 ] || no "an interrupted run exits $status, expected 130"
[ "$(json_field "$dir/int.json" interrupted)" = true ] || no "an interrupted run's summary"
"$SHESH" stats merge --json "$dir/int.json" > "$dir/int-merged.json" || no "stats merge of int.json"
[ "$(json_field "$dir/int-merged.json" interrupted)" = true ] || no "merged, the run is not interrupted"
g=$(json_field "$dir/int.json" games)
r=$("$SHESH" records cat "$dir/int.mat.gz" 2> /dev/null | grep -c '^ Game ')
[ "$g" -gt 0 ] && [ "$g" = "$r" ] || no "interrupted: the summary counts $g games, the record $r"
passed "$f0" "SIGINT: exit 130, the summary of $g games, as many in the record"

# --- the SPRT stops a run ---------------------------------------------------
f0=$fails
"$SHESH" match --games 100000 --seed 1 --sprt 0,0.5 --json --no-record --quiet shesh random \
    > "$dir/sprt.json" 2> "$dir/sprt.err" || no "the SPRT run exits $?"
python3 - "$dir/sprt.json" <<'EOF' || no "the SPRT did not decide H1 early: $(cat "$dir/sprt.json")"
import json, sys
j = json.load(open(sys.argv[1]))
s = j["sprt"]
assert s["decision"] == "H1" and j["games"] < 100000 and s["llr"] >= s["bounds"][1], j
EOF
passed "$f0" "--sprt 0,0.5: shesh against random accepts H1 after $(json_field "$dir/sprt.json" games) games"

# --- usage -------------------------------------------------------------------
f0=$fails
for args in "" "shesh" "--games 3 shesh shesh" "--games x shesh shesh" "bogus shesh" \
            "--match-to 5 --games 10 shesh shesh" "--matches 4 shesh shesh" \
            "--on-fault maybe shesh shesh" "--sprt 1,0 shesh shesh" "shesh:plies=9 shesh" \
            "a=b=c shesh" "my name=shesh shesh" "--concurrency 0 shesh shesh" \
            "--match-to 5 --cubeless shesh shesh" "--record x --no-record shesh shesh"; do
    # shellcheck disable=SC2086
    "$SHESH" match $args > "$dir/out" 2> "$dir/err"
    status=$?
    [ "$status" = 2 ] || no "shesh match $args exits $status, expected 2"
    [ "$(wc -l < "$dir/err")" -le 2 ] || no "shesh match $args: more than two lines of error"
    grep -q "try 'shesh match --help'" "$dir/err" || no "shesh match $args: $(cat "$dir/err")"
done
"$SHESH" match --games 2 --no-record shesh tcp:127.0.0.1:1 > "$dir/out" 2> "$dir/err"
[ $? = 1 ] || no "an unreachable player does not exit 1"
grep -q 'shesh match: tcp-127.0.0.1-1' "$dir/err" || no "an unreachable player: $(cat "$dir/err")"
passed "$f0" "usage errors exit 2 with one line; an unreachable player exits 1"

[ "$fails" = 0 ] && echo "t_match.sh: all passed"
exit $((fails > 0))
