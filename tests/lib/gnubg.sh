# tests/lib/gnubg.sh - drive GNU Backgammon headless as the referee of games
# against an external player (sourced by the interop tests and the demo).

GNUBG=${GNUBG:-/usr/games/gnubg}

# A TCP port that nothing listens on (from a base derived from the pid).
free_port() {
    local p=$(( 20000 + ($$ * 7 + ${1:-0} * 101) % 30000 ))
    while (exec 3<>/dev/tcp/127.0.0.1/$p) 2>/dev/null; do p=$((p + 1)); done
    echo $p
}

# Waits until ADDR (host:port or a Unix socket path) accepts connections.
wait_listening() {
    local addr=$1 i
    for i in $(seq 1 100); do
        if [[ $addr == *:* ]]; then
            (exec 3<>/dev/tcp/${addr%:*}/${addr##*:}) 2>/dev/null && return 0
        else
            [ -S "$addr" ] && return 0
        fi
        sleep 0.05
    done
    echo "nothing listens on $addr" >&2
    return 1
}

# gnubg_match ADDR LENGTH SEED LOG [MATFILE]: gnubg (seat 0, 0-ply) plays a
# LENGTH-point match against the external player at ADDR (seat 1, "shesh").
gnubg_match() {
    local addr=$1 len=$2 seed=$3 log=$4 mat=${5:-}
    {
        echo "set rng mersenne"
        echo "set seed $seed"
        echo "set defaultnames gnubg shesh"
        echo "set player 0 gnubg"
        echo "set player 0 chequerplay evaluation plies 0"
        echo "set player 0 cubedecision evaluation plies 0"
        echo "set player 1 external $addr"
        echo "new match $len"
        echo "show score"
        [ -n "$mat" ] && echo "export match mat $mat"
        echo "quit"
    } | timeout 600 "$GNUBG" -t -q > "$log" 2>&1
}

# gnubg_money ADDR GAMES SEED LOG: a cubeful money session of GAMES games.
gnubg_money() {
    local addr=$1 games=$2 seed=$3 log=$4 i
    {
        echo "set rng mersenne"
        echo "set seed $seed"
        echo "set player 0 name gnubg"
        echo "set player 1 name shesh"
        echo "set player 0 gnubg"
        echo "set player 0 chequerplay evaluation plies 0"
        echo "set player 0 cubedecision evaluation plies 0"
        echo "set player 1 external $addr"
        echo "set automatic game off"
        # After the external player answers a beaver, gnubg 1.07 leaves the
        # game waiting until `play` (outside a game, `play` only says so).
        echo "new session"; echo "play"; echo "play"
        for i in $(seq 2 "$games"); do echo "new game"; echo "play"; echo "play"; done
        echo "show score"
        echo "quit"
    } | timeout 600 "$GNUBG" -t -q > "$log" 2>&1
}
