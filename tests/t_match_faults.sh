#!/usr/bin/env bash
# shesh match against a misbehaving player (tests/tools/fake_player.py in
# front of a real shesh serve): an illegal move, garbage, silence past
# --timeout and a disconnect each forfeit that game at the cube's value,
# are reported with the position's GNUBG-ID, and the player is reconnected
# for the next game, so the run plays every game; --on-fault stop ends the
# run with exit 1 and keeps the pairs before the fault; a beaver where the
# rules allow none is taken and counted, not a fault; and through a
# well-behaved server the remote engine scores exactly 0 against the same
# engine in process.
set -u
SHESH=${SHESH:-build/shesh}
FAKE=tests/tools/fake_player.py
# shellcheck source=tests/lib/check.sh
. "$(dirname "$0")/lib/check.sh"
fakes=()
stop_all() {
    local p
    for p in "${fakes[@]}"; do kill "$p" 2> /dev/null; done
    cleanup
}
trap stop_all EXIT

json() { # FILE EXPR: a Python expression over the JSON object j
    python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

"$SHESH" serve --unix "$dir/b.sock" --plies 0 --threads 2 2> "$dir/serve.err" &
bg_pid=$!
for _ in $(seq 1 200); do
    grep -q '^shesh serve: engine' "$dir/serve.err" && break
    sleep 0.05
done
grep -q '^shesh serve: engine' "$dir/serve.err" || { no "the backend did not start"; exit 1; }

# start_fake NAME ARGS...: sets $fake and $addr.
start_fake() {
    local name=$1 i
    shift
    python3 -S "$FAKE" --backend "unix:$dir/b.sock" --listen "unix:$dir/$name.sock" "$@" \
        > "$dir/$name.out" 2> "$dir/$name.err" &
    fake=$!
    fakes+=("$fake")
    addr=
    for i in $(seq 1 200); do
        addr=$(head -n 1 "$dir/$name.out" 2> /dev/null)
        [ -n "$addr" ] && return
        sleep 0.05
    done
    no "$name: the fake player printed no address"
}

# --- a well-behaved server: the same engine, exactly 0 ------------------------
f0=$fails
"$SHESH" match --games 10 --seed 3 --concurrency 2 --json --quiet --no-record \
    shesh "unix:$dir/b.sock" > "$dir/same.json" 2> "$dir/same.err" || no "shesh vs its server exits $?"
[ "$(json "$dir/same.json" 'float(j["ppg"])')" = 0.0 ] ||
    no "shesh vs shesh serve: ppg $(json "$dir/same.json" 'j["ppg"]'): $(cat "$dir/same.err")"
[ "$(json "$dir/same.json" 'j["faults"]')" = 0 ] || no "shesh vs shesh serve: faults"
passed "$f0" "shesh in process against shesh serve (the same engine): 10 games, exactly 0.00 ppg"

# --- each fault: a forfeit, reported, reconnected, the run goes on ------------
for fault in illegal garbage silence disconnect; do
    f0=$fails
    start_fake "$fault" --fault "$fault" --after 3 --once
    "$SHESH" match --games 6 --seed 2 --concurrency 1 --timeout 1 --json --quiet \
        --record "$dir/$fault.mat.gz" shesh "bad=$addr" > "$dir/$fault.json" 2> "$dir/$fault.err"
    status=$?
    [ "$status" = 0 ] || no "$fault: exit $status: $(tail -n 2 "$dir/$fault.err")"
    [ "$(json "$dir/$fault.json" 'j["games"]')" = 6 ] || no "$fault: not every game played"
    [ "$(json "$dir/$fault.json" 'j["forfeits"]')" = "[0, 1]" ] ||
        no "$fault: forfeits $(json "$dir/$fault.json" 'j["forfeits"]'), expected [0, 1]"
    [ "$(json "$dir/$fault.json" 'j["faults"]')" = 1 ] || no "$fault: faults not 1"
    grep -qE "^shesh match: fault in pair 0: bad \(B\) [a-z ]+ at [A-Za-z0-9+/]{14}:[A-Za-z0-9+/]{12}: " \
        "$dir/$fault.err" || no "$fault: the report: $(cat "$dir/$fault.err")"
    # The record says so, and the forfeit scored the cube's value.
    python3 - "$dir/$fault.jsonl.gz" <<'EOF' || no "$fault: the record of the forfeit"
import gzip, json, sys
games = [json.loads(l) for l in gzip.open(sys.argv[1], "rt")]
f = [g for g in games if g["end"] == "forfeit"]
assert len(f) == 1 and f[0]["winner"] == 0 and f[0]["points"] == f[0]["cube"], f
assert f[0]["fault"]["player"] == 1 and f[0]["events"][-1]["action"] == "forfeit", f
EOF
    kill "$fake"
    passed "$f0" "$fault at the third answer: B forfeits that game at the cube's value, reported, reconnected, 6 games played"
done
grep -q 'timeout' "$dir/silence.err" || no "silence: the report does not say timeout"
grep -q 'disconnected' "$dir/disconnect.err" || no "disconnect: the report does not say disconnected"
grep -q 'illegal' "$dir/illegal.err" || no "illegal: the report does not say illegal"
grep -q 'unreadable' "$dir/garbage.err" || no "garbage: the report does not say unreadable"

# --- --on-fault stop -----------------------------------------------------------
f0=$fails
start_fake stop --fault garbage --after 250 --every
"$SHESH" match --games 20 --seed 2 --concurrency 1 --json --quiet --on-fault stop \
    --record "$dir/stop.mat.gz" shesh "bad=$addr" > "$dir/stop.json" 2> "$dir/stop.err"
status=$?
[ "$status" = 1 ] || no "--on-fault stop: exit $status, expected 1"
grep -q 'stopped at a fault' "$dir/stop.err" || no "--on-fault stop: $(cat "$dir/stop.err")"
g=$(json "$dir/stop.json" 'j["games"]')
[ "$(json "$dir/stop.json" 'j["forfeits"]')" = "[0, 0]" ] || no "--on-fault stop counted the forfeit"
r=$("$SHESH" records cat "$dir/stop.mat.gz" | grep -c '^ Game ')
[ "$g" -gt 0 ] && [ "$g" -lt 20 ] && [ "$g" = "$r" ] || no "--on-fault stop: $g games counted, $r recorded"
kill "$fake"
passed "$f0" "--on-fault stop: exit 1 at the fault, the $g games of the pairs before it counted and recorded"

# --- a beaver the rules do not allow is a take ------------------------------------
f0=$fails
start_fake beaver --fault beaver --after 1
"$SHESH" match --games 20 --seed 5 --concurrency 1 --json --quiet --no-record \
    shesh "b=$addr" > "$dir/beaver.json" 2> "$dir/beaver.err" || no "beaver: exit $?"
[ "$(json "$dir/beaver.json" 'j["faults"]')" = 0 ] || no "beaver: counted as a fault"
n=$(json "$dir/beaver.json" 'j["cube"]["beavers_as_takes"][1]')
[ "$n" -gt 0 ] || no "beaver: no beaver counted as a take ($(cat "$dir/beaver.json"))"
[ "$(json "$dir/beaver.json" 'j["cube"]["beavers"][1]')" = 0 ] || no "beaver: a beaver was played"
kill "$fake"
passed "$f0" "beavers answered where the rules allow none: $n taken and counted, no fault"

# --- raccoons: two players who beaver every double, under gnubg's rules ----
f0=$fails
start_fake rac1 --fault beaver --after 1
a1=$addr
start_fake rac2 --fault beaver --after 1
"$SHESH" match --games 20 --seed 5 --concurrency 1 --json --quiet --rules gnubg \
    --record "$dir/rac.mat.gz" "x=$a1" "y=$addr" > "$dir/rac.json" 2> "$dir/rac.err" ||
    no "raccoons: exit $?: $(cat "$dir/rac.err")"
python3 - "$dir/rac.json" "$dir/rac.jsonl.gz" <<'EOF2' || no "raccoons: $(cat "$dir/rac.json")"
import gzip, json, sys
j = json.load(open(sys.argv[1]))
c = j["cube"]
assert j["faults"] == 0, j
assert sum(c["beavers"]) > 0 and sum(c["raccoons"]) > 0, c
# gnubg's rules allow three in a row: a fourth is taken, never played.
for l in gzip.open(sys.argv[2], "rt"):
    g = json.loads(l)
    run = 0
    for e in g["events"]:
        run = run + 1 if e["action"] in ("beaver", "raccoon") else (run if e["action"] == "take" else 0)
        assert run <= 3, g["events"]
    # a game's value is the cube's times its kind, whatever the animals did
    assert g["points"] % g["cube"] == 0, g
EOF2
kill "$fake"
passed "$f0" "players who beaver every double: $(json "$dir/rac.json" 'sum(j["cube"]["raccoons"])') raccoons, never more than three in a row"

[ "$fails" = 0 ] && echo "t_match_faults.sh: all passed"
exit $((fails > 0))
