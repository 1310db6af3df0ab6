#!/usr/bin/env bash
# t_match_ubgi.sh - `shesh match` against UBGI engines (ubgi:CMD), played by
# tests/tools/fake_ubgi.py: a good engine plays a cubeless run to its
# summary, and two of the same come out even; an engine that answers
# `error`, an illegal move, a pass when a move exists, nothing, or dies
# mid-game forfeits the game (the fault on stderr, the run goes on, exit 0;
# with --on-fault stop exit 1); one that never finishes the handshake ends
# the run before any game (exit 1); a cubeful run with a UBGI player is
# refused (exit 2). Every case ends in
# seconds, and no engine process is left behind: not one that ignores quit
# and SIGTERM, not after a Ctrl-C, not even when the referee itself is
# killed.
set -u
SHESH=${SHESH:-build/shesh}
# shellcheck source=tests/lib/check.sh
. tests/lib/check.sh

# A word on every fake engine's command line, for pgrep to find them by;
# quoted in the command with a blank and a ';', which only the shell's
# reading of CMD keeps inside one argument.
marker=t_match_ubgi_$$
fake() { echo "ubgi:python3 tests/tools/fake_ubgi.py $* --shesh $SHESH --marker '$marker a;b'"; }
leftovers() { # WHAT: no fake engine may still run
    sleep 0.2
    if pgrep -f "$marker" > /dev/null; then
        no "$1: engines left running: $(pgrep -af "$marker")"
        # shellcheck disable=SC2046 # one word per process id
        kill -KILL $(pgrep -f "$marker") 2> /dev/null
    fi
}
start_silent() { # OUT ERR: a referee in the background against an engine
    # that never answers ($ref), returning once the engine runs
    "$SHESH" match --no-record --quiet --games 2 --cubeless --timeout 600 shesh \
        "$(fake silent)" > "$1" 2> "$2" &
    ref=$!
    for _ in $(seq 1 100); do
        pgrep -f "$marker" > /dev/null && break
        sleep 0.05
    done
    sleep 0.5
}
run() { # ARGS...: shesh match, bounded in time; $out, $err, $rc
    out=$(timeout 60 "$SHESH" match --no-record --quiet --seed 5 "$@" 2> "$dir/err")
    rc=$?
    err=$(cat "$dir/err")
}

n=$fails
run --games 4 --cubeless --concurrency 2 shesh:plies=0 "$(fake good)"
[ $rc -eq 0 ] || no "good engine: exit $rc, $err"
grep -q '^shesh-0 (A) vs ubgi-python3-tests-tools-fake_u (B): 4 games' <<< "$out" ||
    no "good engine: summary '$out'"
[ "$(grep -c 'forfeits 0$' <<< "$out")" = 2 ] || no "good engine: a forfeit: '$out' $err"
grep -q 'faults' <<< "$out" && no "good engine: faults: $err"
# A match is refused: UBGI's position command carries no score.
run --match-to 3 --matches 2 --no-cube shesh:plies=0 "ubgi=$(fake good)"
[ $rc -eq 2 ] || no "good engine, match: exit $rc, $err"
grep -q 'speaks UBGI, whose positions carry no match score' <<< "$err" ||
    no "good engine, match: '$err'"
# What the engine was told: the handshake, newgame at each of the 4 games,
# position, dice and go for each move it was asked, quit at the end.
run --games 4 --cubeless --concurrency 1 shesh:plies=0 "$(fake good --log "$dir/said")"
[ $rc -eq 0 ] || no "transcript: exit $rc, $err"
[ "$(head -2 "$dir/said" | tr '\n' ' ')" = "ubgi isready " ] || no "transcript: $(head -3 "$dir/said")"
[ "$(grep -c '^newgame$' "$dir/said")" = 4 ] || no "transcript: not 4 newgames"
[ "$(tail -1 "$dir/said")" = quit ] || no "transcript: the last line is not quit: $(tail -3 "$dir/said")"
gos=$(grep -c '^go chequer$' "$dir/said")
[ "$gos" -gt 10 ] || no "transcript: $gos moves asked"
[ "$(grep -c '^position gnubgid [A-Za-z0-9+/]\{14\}$' "$dir/said")" = "$gos" ] ||
    no "transcript: not one position per go: $(grep '^pos' "$dir/said" | head -3)"
[ "$(grep -c '^dice [1-6] [1-6]$' "$dir/said")" = "$gos" ] ||
    no "transcript: not one dice line per go: $(grep '^dice' "$dir/said" | head -3)"
# Two of the same deterministic engine: duplicate games come out even.
run --games 4 --cubeless --concurrency 2 "one=$(fake good)" "two=$(fake good)"
[ $rc -eq 0 ] || no "good against good: exit $rc, $err"
grep -q 'A points per game: +0.000 +- 0.000' <<< "$out" || no "good against good: '$out'"
leftovers "good engine"
passed "$n" "a good UBGI engine plays a cubeless session, no fault (a match is refused: no score in UBGI's positions); two of them come out even"

# Shesh's own engine against itself through `shesh ubgi` (engine.ply 1 is
# 0 ply, --plies 1 is 1 ply): every decision the same, so the duplicate
# games come out exactly even, and no `shesh ubgi` is left running.
n=$fails
for plies in 0 1; do
    ub="ubgi:$SHESH ubgi --plies $plies"
    run --games 20 --seed 7 --cubeless "shesh:plies=$plies" "$ub"
    [ $rc -eq 0 ] || no "shesh against shesh ubgi at $plies plies: exit $rc, $err"
    grep -q 'A points per game: +0.000 +- 0.000' <<< "$out" ||
        no "shesh against shesh ubgi at $plies plies: '$out'"
    grep -q 'forfeits 0' <<< "$out" || no "shesh ubgi forfeited at $plies plies: '$out'"
done
sleep 0.2
pgrep -f "$SHESH ubgi --plies" > /dev/null && no "shesh ubgi left running: $(pgrep -af "$SHESH ubgi --plies")"
passed "$n" "shesh:plies=N against 'ubgi:shesh ubgi --plies N' (N = 0, 1) scores exactly 0 with duplicate dice"

# Each fault at the third move of the engine's life: the game is forfeited,
# a new engine is started for the next one, and its third move faults too.
# The stubborn engine, deaf to quit, the end of its input and SIGTERM, is
# killed. The timeout (3 s) leaves a fake engine's start (a Python
# interpreter's, over a second on a loaded 2-core machine) time to
# answer its handshake.
n=$fails
limit=3
for c in "error:unreadable answer:'go chequer' answered 'error bad_state" \
    "illegal:illegal answer:bestmove '24/1'" \
    "pass:illegal answer:passed " \
    "silent:timeout:no answer within $limit s" \
    "crash:disconnected:the engine's output ended (exit status 3)" \
    "stubborn:timeout:no answer within $limit s"; do
    mode=${c%%:*} rest=${c#*:}
    kind=${rest%%:*} says=${rest#*:}
    start=$SECONDS
    run --games 2 --cubeless --timeout "$limit" shesh "bad=$(fake "$mode" --after 3)"
    [ $rc -eq 0 ] || no "$mode: exit $rc, $err"
    grep -q 'B: 0 points.*forfeits 2$' <<< "$out" || no "$mode: not two forfeits: '$out' $err"
    grep -q '^  faults: 2 ' <<< "$out" || no "$mode: not two faults: '$out'"
    grep -q "fault in pair 0: bad (B) $kind at .*$says" <<< "$err" || no "$mode: stderr '$err'"
    [ $((SECONDS - start)) -le 25 ] || no "$mode: took $((SECONDS - start)) s"
    leftovers "$mode"
done
passed "$n" "a UBGI engine's error line, illegal move, wrong pass, silence and crash each forfeit the game; one deaf to SIGTERM is killed"

n=$fails
run --games 4 --cubeless --on-fault stop shesh "bad=$(fake crash --after 2)"
[ $rc -eq 1 ] || no "on-fault stop: exit $rc, $err"
grep -q 'stopped at a fault' <<< "$err" || no "on-fault stop: '$err'"
grep -q 'fault in pair 0: bad (B) disconnected' <<< "$err" || no "on-fault stop: '$err'"
leftovers "on-fault stop"
passed "$n" "a UBGI engine's crash with --on-fault stop ends the run, exit 1"

n=$fails
start=$SECONDS
# 5 s, not less: on a loaded machine the fake engine (a Python process)
# took more than 1 s to say its line, and the run ended on silence instead.
run --games 2 --cubeless --timeout 5 shesh "$(fake garbage)"
[ $rc -eq 1 ] || no "garbage handshake: exit $rc, $err"
grep -q "no ubgiok to 'ubgi' within 5 s; the last line was 'hello, I am no UBGI engine'" <<< "$err" ||
    no "garbage handshake: '$err'"
[ -z "$out" ] || no "garbage handshake: played: '$out'"
run --games 2 --cubeless shesh "ubgi:$dir/no-such-engine"
[ $rc -eq 1 ] || no "missing engine: exit $rc, $err"
grep -q "the engine's output ended (exit status 127)" <<< "$err" || no "missing engine: '$err'"
[ $((SECONDS - start)) -le 15 ] || no "handshake failures took $((SECONDS - start)) s"
leftovers "garbage handshake"
passed "$n" "a UBGI engine that fails its handshake or cannot start ends the run before any game, exit 1"

n=$fails
for opts in "--games 2" "--match-to 3 --matches 2"; do
    # shellcheck disable=SC2086 # the options are words
    run $opts shesh "$(fake good)"
    [ $rc -eq 2 ] || no "cubeful $opts: exit $rc"
    grep -q 'speaks UBGI, which cannot answer a double' <<< "$err" || no "cubeful $opts: '$err'"
done
run --games 2 --cubeless shesh "ubgi:"
[ $rc -eq 2 ] || no "ubgi: without a command: exit $rc"
leftovers "refused runs"
passed "$n" "a cubeful run with a UBGI player, or ubgi: without a command, is refused (exit 2)"

# Ctrl-C: the engines are in their own process group, the referee stops
# them: the summary, exit 130, nothing left.
n=$fails
start_silent "$dir/out" "$dir/err"
# The second SIGINT drops the game in flight. Two sent back to back can
# arrive as one (a pending signal is not counted twice), which leaves the
# referee finishing its game against an engine that never answers: send
# them apart, and again until it has gone.
for _ in $(seq 1 50); do
    kill -INT "$ref" 2> /dev/null || break
    sleep 0.2
done
wait "$ref"
rc=$?
[ $rc -eq 130 ] || no "SIGINT: exit $rc, $(cat "$dir/err")"
grep -q '(interrupted)' "$dir/out" || no "SIGINT: no summary: $(cat "$dir/out")"
leftovers "SIGINT"
passed "$n" "SIGINT to the referee stops its UBGI engines: summary, exit 130, no engine left"

# The referee killed outright: its engines must not outlive it.
n=$fails
start_silent /dev/null /dev/null
pgrep -f "$marker" > /dev/null || no "kill -9: no engine was started"
kill -KILL "$ref"
wait "$ref" 2> /dev/null
for _ in $(seq 1 40); do
    pgrep -f "$marker" > /dev/null || break
    sleep 0.05
done
leftovers "the referee killed with SIGKILL"
passed "$n" "a UBGI engine does not outlive a referee killed with SIGKILL"

[ "$fails" = 0 ]
