#!/usr/bin/env bash
# t_selfplay.sh - what is left of `shesh selfplay`: --speed times the
# engine's move decisions at 0, 1 and 2 plies, --dump prints positions and
# the engine's moves as TSV for tests/tools/gnubg_judge.py (the same seed,
# the same lines), for each player in process. Games between two players
# moved to `shesh match`: the old form `shesh selfplay PLAYER_A PLAYER_B`
# and its --games and --threads are refused as usage errors (exit 2) that
# name shesh match; remote players and gnubg are refused too.
set -u
SHESH=${SHESH:-build/shesh}
# shellcheck source=tests/lib/check.sh
. tests/lib/check.sh

# --speed: a header and one line per depth.
n=$fails
for engine in "" shesh calibrated pubeval random default:1; do
    # shellcheck disable=SC2086 # no engine is no word
    "$SHESH" selfplay --speed --positions 20 --seed 2 $engine > "$dir/out" 2> "$dir/err"
    rc=$?
    [ $rc -eq 0 ] || no "--speed ${engine:-(default)}: exit $rc, $(cat "$dir/err")"
    grep -q ': move decisions on [0-9]* positions from its own games' "$dir/out" ||
        no "--speed ${engine:-(default)}: no header: $(cat "$dir/out")"
    for plies in 0 1 2; do
        grep -qE "^  $plies-ply: mean [0-9.]+ ms, median [0-9.]+ ms, p99 [0-9.]+ ms, max [0-9.]+ ms$" "$dir/out" ||
            no "--speed ${engine:-(default)}: no $plies-ply line: $(cat "$dir/out")"
    done
done
passed "$n" "--speed times 0, 1 and 2 plies for the default engine, calibrated, pubeval and random"

# --dump: a header, then N lines of 7 tab-separated fields; the same seed
# gives the same lines, another seed other ones.
n=$fails
"$SHESH" selfplay --dump --positions 25 --seed 3 > "$dir/d1" 2> "$dir/err" || no "--dump: exit $?, $(cat "$dir/err")"
"$SHESH" selfplay --dump --positions 25 --seed 3 shesh > "$dir/d2" 2> /dev/null || no "--dump shesh: exit $?"
"$SHESH" selfplay --dump --positions 25 --seed 4 > "$dir/d3" 2> /dev/null || no "--dump --seed 4: exit $?"
[ "$(head -n 1 "$dir/d1")" = "$(printf '#posid\tdice\tmove0\tmove1\tmove2\tchances0\tresults')" ] ||
    no "--dump header: $(head -n 1 "$dir/d1")"
[ "$(tail -n +2 "$dir/d1" | wc -l)" = 25 ] || no "--dump --positions 25: $(tail -n +2 "$dir/d1" | wc -l) lines"
awk -F '\t' 'NR > 1 && (NF != 7 || $2 !~ /^[1-6][1-6]$/ || split($6, c, ",") != 6) { bad++ }
             END { exit bad > 0 }' "$dir/d1" || no "--dump: a line is not 7 fields: $(sed -n 2p "$dir/d1")"
cmp -s "$dir/d1" "$dir/d2" || no "--dump and --dump shesh differ"
cmp -s "$dir/d1" "$dir/d3" && no "--dump --seed 3 and --seed 4 print the same"
passed "$n" "--dump prints a header and one 7-field line per position, the same for the same seed"

# The old form and its options are refused, pointing to shesh match.
n=$fails
for args in "random pubeval" "--games 20 random pubeval" "--threads 2 random pubeval" "shesh" ""; do
    # shellcheck disable=SC2086
    "$SHESH" selfplay $args > "$dir/out" 2> "$dir/err"
    rc=$?
    [ $rc -eq 2 ] || no "selfplay $args: exit $rc (want 2)"
    [ -s "$dir/out" ] && no "selfplay $args: printed on stdout: $(cat "$dir/out")"
    [ "$(tail -n 1 "$dir/err")" = "try 'shesh selfplay --help'" ] || no "selfplay $args: $(cat "$dir/err")"
done
"$SHESH" selfplay random pubeval 2>&1 | grep -q "shesh match PLAYER_A PLAYER_B" ||
    no "the old form does not name shesh match: $("$SHESH" selfplay random pubeval 2>&1)"
"$SHESH" selfplay --help | grep -q "shesh match PLAYER_A PLAYER_B" || no "--help does not name shesh match"
"$SHESH" selfplay --help | grep -q -- "--games" && no "--help still names --games"
passed "$n" "the old form (two players, --games, --threads) exits 2 and names shesh match"

# Players --speed cannot time, and bad ones.
n=$fails
for engine in tcp:localhost:1 unix:/nonexistent.sock gnubg nonsense shesh:9 "random extra"; do
    # shellcheck disable=SC2086
    "$SHESH" selfplay --speed --positions 5 $engine > /dev/null 2> "$dir/err"
    rc=$?
    [ $rc -eq 2 ] || no "--speed $engine: exit $rc (want 2): $(cat "$dir/err")"
done
passed "$n" "--speed refuses remote players, gnubg, unknown engines and a second engine (exit 2)"

exit $((fails > 0))
