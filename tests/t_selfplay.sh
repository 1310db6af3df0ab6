#!/usr/bin/env bash
# t_selfplay.sh - `shesh selfplay` as a user runs it: the players by name,
# a remote player behind `shesh serve` (gnubg's external-player protocol),
# and a remote player that goes away in the middle of a run, which must end
# the run with the reason instead of playing on.
set -u
SHESH=${SHESH:-build/shesh}
. tests/lib/check.sh

# Local players: the run prints its summary.
out=$("$SHESH" selfplay --games 20 --seed 2 random pubeval 2> "$dir/err")
rc=$?
n=$fails
[ $rc -eq 0 ] || no "random vs pubeval: exit $rc, $(cat "$dir/err")"
grep -q '^random vs pubeval: 20 games' <<< "$out" || no "random vs pubeval: '$out'"
passed "$n" "random and pubeval play by name"

n=$fails
"$SHESH" selfplay --games 4 nonsense:1 pubeval > /dev/null 2> "$dir/err"
rc=$?
[ $rc -eq 1 ] || no "an unknown engine: exit $rc (want 1)"
grep -q "unknown engine 'nonsense'" "$dir/err" || no "unknown engine: $(cat "$dir/err")"
"$SHESH" selfplay --games 4 default:9 pubeval > /dev/null 2> "$dir/err"
rc=$?
[ $rc -eq 2 ] || no "plies 9: exit $rc (want 2)"
passed "$n" "bad players are refused with the reason"

# The server at 0 plies decides as default:0 does, so duplicate games
# against it come out even.
sock=$dir/s.sock
mkdir "$dir/logs"
"$SHESH" serve --unix "$sock" --plies 0 --log-dir "$dir/logs" 2> "$dir/serve.err" &
bg_pid=$!
for _ in $(seq 1 200); do
    grep -q '^shesh serve: engine' "$dir/serve.err" && break
    sleep 0.05
done
n=$fails
out=$("$SHESH" selfplay --games 10 --seed 3 default "remote:$sock" 2> "$dir/err")
rc=$?
[ $rc -eq 0 ] || no "default vs remote: exit $rc, $(cat "$dir/err")"
grep -q 'A points per game: +0.000 +- 0.000' <<< "$out" || no "default vs remote: '$out'"
passed "$n" "a remote player (shesh serve) plays: duplicate games against default:0 are even"

# The server stops in the middle of a long run: the run ends with the
# reason, exit 1, no summary. The server is stopped once the run's
# connection is there (its transcript, the second, exists) and has played.
n=$fails
"$SHESH" selfplay --games 1000000 --seed 4 pubeval "remote:$sock" > "$dir/out" 2> "$dir/err" &
sp=$!
for _ in $(seq 1 200); do
    [ "$(ls "$dir/logs" | wc -l)" -ge 2 ] && break
    sleep 0.05
done
sleep 0.5
kill -TERM "$bg_pid"
wait "$bg_pid" 2> /dev/null
bg_pid=$sp
for _ in $(seq 1 100); do
    kill -0 "$sp" 2> /dev/null || break
    sleep 0.1
done
if kill -0 "$sp" 2> /dev/null; then
    no "selfplay still runs after its remote player went away"
else
    wait "$sp"
    rc=$?
    bg_pid=
    [ $rc -eq 1 ] || no "remote gone: exit $rc (want 1)"
    grep -q '(disconnected)' "$dir/err" || no "remote gone: stderr '$(cat "$dir/err")'"
    [ -s "$dir/out" ] && no "remote gone: a summary was printed: $(cat "$dir/out")"
fi
passed "$n" "a remote player that goes away ends the run with the reason"

# Nobody listening: the run does not start.
n=$fails
"$SHESH" selfplay --games 2 default "remote:$dir/none.sock" > /dev/null 2> "$dir/err"
rc=$?
[ $rc -eq 1 ] || no "no server: exit $rc (want 1)"
grep -q "none.sock" "$dir/err" || no "no server: $(cat "$dir/err")"
passed "$n" "a remote player nobody answers is reported before any game"

exit $((fails > 0))
