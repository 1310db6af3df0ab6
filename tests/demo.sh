#!/usr/bin/env bash
# make demo: gnubg (0-ply) plays a 3-point match against `shesh serve`, and the
# result and the match record are shown.
set -eu
. "$(dirname "$0")/lib/gnubg.sh"
SHESH=${1:-build/shesh}
dir=$(mktemp -d)
port=$(free_port 3)
"$SHESH" serve --listen "127.0.0.1:$port" &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$dir"' EXIT
wait_listening "127.0.0.1:$port"
echo "shesh serve listens on 127.0.0.1:$port; gnubg plays a 3-point match against it..."
gnubg_match "127.0.0.1:$port" 3 "$RANDOM" "$dir/match.log" "$dir/match.mat"
cat "$dir/match.mat"
echo
grep -oE 'The score .*' "$dir/match.log" | tail -1
grep -oE '[a-z]+ has won the match' "$dir/match.log" | tail -1
