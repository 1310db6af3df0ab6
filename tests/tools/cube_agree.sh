#!/usr/bin/env bash
# cube_agree.sh - Shesh's cube decisions against gnubg 2-ply on positions
# from real play (docs/strength.md). From the top of the tree, after make:
#
#   tests/tools/cube_agree.sh [DIR]
#
# Plays, with fixed seeds, Shesh (1 ply) against gnubg (0 ply) in cubeful
# money games and in 7-point matches, keeps the records in DIR (default
# /tmp/cube-agree; emptied first), then runs tests/tools/cube_agree.py under
# gnubg's Python: it replays the records, collects every cube and take
# decision, asks gnubg 2-ply and `shesh hint` at 0, 1 and 2 plies, and prints
# the table (also kept in DIR/report.txt). Every decision, with gnubg's
# equities and the loss, goes to DIR/decisions.tsv. Rerunning with the same engine and the same gnubg gives
# the same games and the same figures.
#
# Environment: SHESH (build/shesh), GNUBG (/usr/games/gnubg), GAMES (money
# games, 200), MATCHES (7-point matches, 20), SEED (11), PLIES (0,1,2).
# REUSE=1 plays nothing and judges the records already in DIR: a changed
# engine judged on the very positions of an earlier run (keep its DIR).
set -euo pipefail
SHESH=${SHESH:-build/shesh}
GNUBG=${GNUBG:-/usr/games/gnubg}
GAMES=${GAMES:-200}
MATCHES=${MATCHES:-20}
SEED=${SEED:-11}
PLIES=${PLIES:-0,1,2}
dir=${1:-/tmp/cube-agree}
here=$(cd "$(dirname "$0")" && pwd)

[ -x "$SHESH" ] || { echo "cube_agree.sh: no $SHESH (run make first)" >&2; exit 1; }
[ -x "$GNUBG" ] || { echo "cube_agree.sh: no $GNUBG" >&2; exit 1; }
start=$(date +%s)
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
echo "shesh: $("$SHESH" --version) (commit $commit); gnubg: $("$GNUBG" --version 2>/dev/null | head -1)"
if [ "${REUSE:-0}" = 1 ]; then
    for f in "$dir/money.jsonl.gz" "$dir/match.jsonl.gz"; do
        [ -r "$f" ] || { echo "cube_agree.sh: REUSE=1 but no $f" >&2; exit 1; }
    done
    echo "games: the records in $dir, played before"
    rm -f "$dir"/decisions.tsv "$dir"/report.txt
else
    mkdir -p "$dir"
    rm -f "$dir"/money.* "$dir"/match.* "$dir"/decisions.tsv "$dir"/report.txt
    echo "games: $GAMES money games and $MATCHES 7-point matches, seed $SEED, Shesh 1-ply against gnubg 0-ply"
    "$SHESH" match --quiet --games "$GAMES" --seed "$SEED" --record "$dir/money.mat.gz" \
        Shesh=shesh:plies=1 gnubg=gnubg > "$dir/money.summary"
    "$SHESH" match --quiet --match-to 7 --matches "$MATCHES" --seed "$SEED" \
        --record "$dir/match.mat.gz" Shesh=shesh:plies=1 gnubg=gnubg > "$dir/match.summary"
fi
head -q -n 2 "$dir/money.summary" "$dir/match.summary" 2> /dev/null || true
played=$(date +%s)

status=0
PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}" \
    CUBE_AGREE_RUNS="$dir/money.jsonl.gz $dir/match.jsonl.gz" CUBE_AGREE_SHESH="$SHESH" \
    CUBE_AGREE_PLIES="$PLIES" CUBE_AGREE_OUT="$dir/decisions.tsv" \
    "$GNUBG" -t -q -p "$here/cube_agree.py" > "$dir/report.txt" || status=$?
sed -n '/^records:/,$p' "$dir/report.txt"
[ "$status" = 0 ] || { echo "cube_agree.sh: gnubg exited $status" >&2; exit 1; }
end=$(date +%s)
echo "time: $((played - start)) s playing, $((end - played)) s judging"
