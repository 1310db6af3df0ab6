#!/usr/bin/env bash
# bench_match.sh - games per second of `shesh match` and the bytes per game
# of its records, in the same run: random against random (what the referee
# itself costs), Shesh 0-ply against pubeval in process, Shesh 0-ply
# against gnubg 0-ply cubeful (gnubg's external server, one per concurrent
# game), and gnubg against gnubg through the referee (gnubg's own cost). The
# third step of `make bench`; the machine is shared and noisy: compare the
# figures of one run with each other.
#
#   bash tests/bench_match.sh SHESH
#
# Environment: BENCH_MATCH_GAMES (in-process runs, default 4000),
# BENCH_MATCH_GNUBG_GAMES (runs with gnubg, default 400).
set -eu
SHESH=${1:-build/shesh}
GAMES=${BENCH_MATCH_GAMES:-4000}
GNUBG_GAMES=${BENCH_MATCH_GNUBG_GAMES:-400}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# run NAME GAMES A B: one run, cubeful money, default concurrency (the
# cores); prints its figures.
run() {
    local name=$1 games=$2 a=$3 b=$4
    "$SHESH" match --games "$games" --seed 1 --quiet --json --record "$dir/$name.mat.gz" \
        "$a" "$b" > "$dir/$name.json"
    python3 - "$dir/$name.json" "$dir/$name.mat.gz" "$dir/$name.jsonl.gz" "$name" <<'PY'
import json, os, sys
j = json.load(open(sys.argv[1]))
g = j["games"]
mat, jsonl = (os.path.getsize(p) / g for p in sys.argv[2:4])
print("%-22s %6d games  %8.1f games/s  %5d threads  mat.gz %4.0f B/game  jsonl.gz %5.0f B/game"
      % (sys.argv[4], g, j["games_per_second"], j["concurrency"], mat, jsonl))
PY
}

echo "shesh match: cubeful money games, seed 1, games per second (wall time of the games, gnubg's start included, the engine's not)"
run random-random "$GAMES" random random
run shesh0-pubeval "$GAMES" shesh pubeval
run shesh0-gnubg0 "$GNUBG_GAMES" shesh gnubg
run gnubg0-gnubg0 "$GNUBG_GAMES" gnubg gnubg
