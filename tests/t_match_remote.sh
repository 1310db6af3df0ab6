#!/usr/bin/env bash
# t_match_remote.sh - `shesh match` against a remote player behind
# `shesh serve` (gnubg's external-player protocol on a Unix socket), as a
# user runs it: duplicate games against the same engine in process come out
# even; a server that goes away in the middle of a run is a fault, and when
# it cannot be reached again the run ends with the reason, exit 1, after the
# summary of the pairs finished; a remote player nobody answers is reported
# before any game. (These were the remote tests of `shesh selfplay`.)
set -u
SHESH=${SHESH:-build/shesh}
# shellcheck source=tests/lib/check.sh
. tests/lib/check.sh

# The server at 0 plies decides as shesh:0 does, so duplicate games
# against it come out even, cubeless or with the cube.
sock=$dir/s.sock
mkdir "$dir/logs"
"$SHESH" serve --unix "$sock" --plies 0 --log-dir "$dir/logs" 2> "$dir/serve.err" &
bg_pid=$!
for _ in $(seq 1 200); do
    grep -q '^shesh serve: engine' "$dir/serve.err" && break
    sleep 0.05
done
n=$fails
for cube in --cubeless ""; do
    # shellcheck disable=SC2086 # no option is no word
    out=$("$SHESH" match $cube --games 10 --seed 3 --no-record --quiet shesh "remote=unix:$sock" 2> "$dir/err")
    rc=$?
    [ $rc -eq 0 ] || no "shesh vs remote $cube: exit $rc, $(cat "$dir/err")"
    grep -q '^shesh-0 (A) vs remote (B): 10 games' <<< "$out" || no "shesh vs remote $cube: '$out'"
    grep -q 'A points per game: +0.000 +- 0.000' <<< "$out" || no "shesh vs remote $cube: '$out'"
    grep -q 'forfeits 0$' <<< "$out" || no "shesh vs remote $cube: a forfeit: '$out'"
done
passed "$n" "a remote player (shesh serve) plays: duplicate games against shesh:0 are even, cubeless and cubeful"

# The server stops in the middle of a long run: the game in play is a
# fault (forfeited), the player cannot be connected again (the referee
# retries for 10 s), so the run ends: exit 1, the reason, and the summary
# of the pairs finished before. The server is stopped once the run's
# connection is there (one transcript more than before) and has played.
n=$fails
before=$(find "$dir/logs" -type f | wc -l)
"$SHESH" match --games 1000000 --seed 4 --concurrency 1 --no-record --quiet pubeval \
    "remote=unix:$sock" > "$dir/out" 2> "$dir/err" &
sp=$!
for _ in $(seq 1 200); do
    [ "$(find "$dir/logs" -type f | wc -l)" -gt "$before" ] && break
    sleep 0.05
done
sleep 0.5
kill -TERM "$bg_pid"
wait "$bg_pid" 2> /dev/null
bg_pid=$sp
for _ in $(seq 1 300); do
    kill -0 "$sp" 2> /dev/null || break
    sleep 0.1
done
if kill -0 "$sp" 2> /dev/null; then
    no "shesh match still runs 30 s after its remote player went away"
else
    wait "$sp"
    rc=$?
    bg_pid=
    [ $rc -eq 1 ] || no "remote gone: exit $rc (want 1)"
    grep -q '^shesh match: fault in pair [0-9]*: remote (B) disconnected' "$dir/err" ||
        no "remote gone: no fault reported: $(cat "$dir/err")"
    grep -q '^shesh match: remote: cannot play on after its fault' "$dir/err" ||
        no "remote gone: no reason: $(cat "$dir/err")"
    grep -q '^pubeval (A) vs remote (B): [0-9]* games' "$dir/out" ||
        no "remote gone: no summary: $(cat "$dir/out")"
fi
passed "$n" "a remote player that goes away is a fault, and ends the run with the reason when it stays away"

# Nobody listening: the run does not start.
n=$fails
"$SHESH" match --games 2 --no-record --quiet shesh "unix:$dir/none.sock" > "$dir/out" 2> "$dir/err"
rc=$?
[ $rc -eq 1 ] || no "no server: exit $rc (want 1)"
grep -q "^shesh match: unix-.*none.s.*: .*none.sock" "$dir/err" || no "no server: $(cat "$dir/err")"
passed "$n" "a remote player nobody answers is reported before any game"

exit $((fails > 0))
