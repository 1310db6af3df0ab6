#!/usr/bin/env bash
# gnubg as the referee: a 5-point match and a 3-game cubeful money session
# against `shesh serve`, over TCP and over a Unix socket. Each must be played
# to the end with no Error or Warning from gnubg, and the server must still be
# serving afterwards and exit cleanly on SIGTERM. Then one money game with
# Shesh as player 0, as docs/serve.md tells a player to set it up, and the
# guide's way on after the server is restarted in the middle of a session.
set -u
. "$(dirname "$0")/lib/gnubg.sh"
SHESH=${SHESH:-build/shesh}
dir=$(mktemp -d)
sock=$dir/shesh.sock
fail=0

# Port 0: the server takes a free port itself and prints it (a port chosen
# here first could be taken by another program before the server binds it).
"$SHESH" serve --listen 127.0.0.1:0 --unix "$sock" --log-dir "$dir/logs" \
    2> "$dir/serve.err" &
pid=$!
trap 'kill $pid 2>/dev/null; rm -rf "$dir"' EXIT
port=""
for _ in $(seq 1 200); do
    port=$(grep -oE 'listening on 127\.0\.0\.1:[0-9]+' "$dir/serve.err" | grep -oE '[0-9]+$')
    [ -n "$port" ] && break
    sleep 0.05
done
[ -n "$port" ] && wait_listening "127.0.0.1:$port" && wait_listening "$sock" ||
    { cat "$dir/serve.err"; exit 1; }

check_clean() { # LOG WHAT
    if grep -qiE 'error|warning|refused|illegal' "$1"; then
        echo "FAIL: $2: gnubg complained:"; grep -iE 'error|warning|refused|illegal' "$1" | head -5
        fail=1
    fi
}

for addr in "127.0.0.1:$port" "$sock"; do
    kind=tcp; [[ $addr == *:* ]] || kind=unix
    gnubg_match "$addr" 5 11 "$dir/match-$kind.log" "$dir/match-$kind.mat"
    if grep -qE 'has won the match' "$dir/match-$kind.log"; then
        echo "ok: 5-point match over $kind: $(grep -oE 'The score .*' "$dir/match-$kind.log" | tail -1)"
    else
        echo "FAIL: 5-point match over $kind did not reach the end"; tail -5 "$dir/match-$kind.log"; fail=1
    fi
    check_clean "$dir/match-$kind.log" "match over $kind"

    gnubg_money "$addr" 3 5 "$dir/money-$kind.log"
    if grep -qE 'after 3 games' "$dir/money-$kind.log"; then
        echo "ok: 3-game money session over $kind: $(grep -oE 'The score .*' "$dir/money-$kind.log" | tail -1)"
    else
        echo "FAIL: money session over $kind did not reach 3 games"; tail -5 "$dir/money-$kind.log"; fail=1
    fi
    check_clean "$dir/money-$kind.log" "money session over $kind"
done

# The player's guide (docs/serve.md, "Playing with gnubg"), as gnubg 1.07
# behaves: with nothing listening, `set player 0 external` says "Connection
# refused" and the seat stays gnubg's own player; `set player 0 name shesh`
# names Shesh's seat in what gnubg prints (a session keeps the name), gnubg
# asks Shesh for player 0's moves under that name, and prints a "moves" line
# only for its own player's moves.
dead=$(free_port 3)
touch "$dir/guide.start"
{
    echo "set rng mersenne"
    echo "set seed 3"
    echo "set player 0 external 127.0.0.1:$dead"
    echo "show player"
    echo "set player 0 external 127.0.0.1:$port"
    echo "set player 0 name shesh"
    echo "set player 1 name gnubg"
    echo "set player 1 gnubg"
    echo "set player 1 chequerplay evaluation plies 0"
    echo "set player 1 cubedecision evaluation plies 0"
    echo "set automatic game off"
    echo "new session"; echo "play"; echo "play"
    echo "show score"
    echo "quit"
} | timeout 600 "$GNUBG" -t -q > "$dir/guide.log" 2>&1
guide_ok=1
guide_fail() { echo "FAIL: guide: $1"; fail=1; guide_ok=0; }
grep -qxF "127.0.0.1:$dead: Connection refused" "$dir/guide.log" ||
    guide_fail "no '127.0.0.1:$dead: Connection refused' with nothing listening"
grep -A2 '^Player 0:' "$dir/guide.log" | head -3 | grep -qx '  Type: gnubg:' ||
    guide_fail "after Connection refused, show player does not say 'Type: gnubg:' for player 0"
grep -q '^shesh rolls [1-6], gnubg rolls [1-6]\.' "$dir/guide.log" || guide_fail "no 'shesh rolls N, gnubg rolls M.'"
grep -q 'O: shesh$' "$dir/guide.log" || guide_fail "the board does not say 'O: shesh'"
grep -q 'O: gnubg$' "$dir/guide.log" && guide_fail "the board says 'O: gnubg' after set player 0 name shesh"
grep -q '^The score (after 1 game) is: shesh [0-9]*, gnubg [0-9]*' "$dir/guide.log" ||
    guide_fail "the game did not end with a score naming shesh"
grep -q '^gnubg moves ' "$dir/guide.log" || guide_fail "no 'gnubg moves ...' line for gnubg's own moves"
grep -q 'shesh moves' "$dir/guide.log" && guide_fail "a 'shesh moves' line: the guide says gnubg shows Shesh's moves only on the board"
nreq=0
for _ in $(seq 1 50); do
    nreq=$(find "$dir/logs" -name '*.gz' -newer "$dir/guide.start" -exec zcat {} + 2> /dev/null |
           grep -c ' req board:shesh:gnubg:')
    [ "$nreq" -gt 0 ] && break
    sleep 0.1
done
[ "$nreq" -gt 0 ] || guide_fail "Shesh got no board for player 0 named shesh"
complaints=$(grep -vxF "127.0.0.1:$dead: Connection refused" "$dir/guide.log" | grep -iE 'error|warning|refused|illegal' | head -5)
[ -z "$complaints" ] || guide_fail "gnubg complained: $complaints"
[ "$guide_ok" = 1 ] && echo "ok: the guide's gnubg: Connection refused keeps gnubg's player; shesh named in a session, $nreq requests"

# After a server restart gnubg stops at "External connection closed.";
# `play` alone cannot go on ("writing to external connection: Broken pipe"),
# and `set player 0 external` again, then `play`, finishes the game. gnubg
# reads its commands from a FIFO, so that the server is restarted between
# two games of one session.
restart_serve() { # PORT: a server of its own on 127.0.0.1:PORT (0: any port)
    : > "$dir/restart-serve.err"
    "$SHESH" serve --listen "127.0.0.1:$1" 2> "$dir/restart-serve.err" &
    rpid=$!
    for _ in $(seq 1 200); do
        grep -q 'listening on' "$dir/restart-serve.err" && return 0
        sleep 0.05
    done
    return 1
}
wait_restart_log() { # TEXT: until gnubg has printed TEXT, 120 s at most
    for _ in $(seq 1 1200); do
        grep -qF "$1" "$dir/restart.log" && return 0
        sleep 0.1
    done
    echo "FAIL: restart: gnubg never printed '$1':"; tail -5 "$dir/restart.log"; fail=1
    return 1
}
rpid='' gpid=''
trap 'kill $pid $rpid $gpid 2>/dev/null; rm -rf "$dir"' EXIT
if restart_serve 0; then
    rport=$(grep -oE 'listening on 127\.0\.0\.1:[0-9]+' "$dir/restart-serve.err" | grep -oE '[0-9]+$')
    mkfifo "$dir/restart.in"
    timeout 600 "$GNUBG" -t -q < "$dir/restart.in" > "$dir/restart.log" 2>&1 &
    gpid=$!
    exec 4> "$dir/restart.in"
    printf '%s\n' "set rng mersenne" "set seed 5" "set player 0 external 127.0.0.1:$rport" \
        "set player 0 name shesh" "set player 1 name gnubg" "set player 1 gnubg" \
        "set player 1 chequerplay evaluation plies 0" "set player 1 cubedecision evaluation plies 0" \
        "set automatic game off" "new session" "play" "play" >&4
    if wait_restart_log "(after 1 game)"; then
        kill $rpid; wait $rpid
        if restart_serve "$rport"; then
            echo "new game" >&4
            wait_restart_log "External connection closed." &&
                echo "play" >&4 && wait_restart_log "writing to external connection: Broken pipe" &&
                printf '%s\n' "set player 0 external 127.0.0.1:$rport" "play" "play" >&4 &&
                wait_restart_log "(after 2 games)" &&
                echo "ok: after a server restart: External connection closed., then set player 0 external and play finish the game"
        else
            echo "FAIL: restart: no server on 127.0.0.1:$rport again"; cat "$dir/restart-serve.err"; fail=1
        fi
    fi
    echo "quit" >&4
    exec 4>&-
    wait $gpid
    kill $rpid 2> /dev/null; wait $rpid
else
    echo "FAIL: restart: the server did not start"; cat "$dir/restart-serve.err"; fail=1
fi

# Still alive and serving after all of that.
if ! kill -0 $pid 2>/dev/null; then echo "FAIL: server died"; cat "$dir/serve.err"; fail=1; fi
reply=$(printf 'version\n' | timeout 5 bash -c "exec 3<>/dev/tcp/127.0.0.1/$port; cat >&3; head -1 <&3")
[ "$reply" = "Interface: 2" ] || { echo "FAIL: version after the games: '$reply'"; fail=1; }

kill -TERM $pid; wait $pid; rc=$?
[ $rc -eq 0 ] || { echo "FAIL: exit status $rc after SIGTERM"; fail=1; }
[ -e "$sock" ] && { echo "FAIL: Unix socket file left behind"; fail=1; }
ls "$dir"/logs/*.gz > /dev/null 2>&1 || { echo "FAIL: no transcripts in --log-dir"; fail=1; }
exit $fail
