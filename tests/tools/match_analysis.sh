#!/usr/bin/env bash
# match_analysis.sh - 7-point matches of Shesh against gnubg 0-ply, each
# analysed by gnubg at 2 plies: the equity each player gives up a decision
# on the same matches (docs/strength.md). From the top of the tree, after
# make:
#
#   tests/tools/match_analysis.sh [DIR]
#
# For each seed, plays MATCHES 7-point matches (duplicate dice: the seats
# swap every other match) of Shesh at PLIES against gnubg at 0 ply as
# `shesh match` starts it, keeping the record in DIR (default
# /tmp/match-analysis; emptied first). Each match is printed as .mat text
# (`shesh records cat --match K`), imported into gnubg, analysed (`analyse
# match`, chequer play and cube at 2 plies) and its statistics shown (`show
# statistics match`), two gnubg processes at a time; DIR/SEED-K.txt keeps
# each analysis. The table sums gnubg's figures over every match: for each
# player the equity given up (EMG; in a match gnubg converts match winning
# chances to money-game equivalents) over its unforced moves, over its
# close or actual cube decisions, and over both, in thousandths a decision
# (gnubg's own "error rate" of a match is the last, per match), and the
# matches each won. Rerunning with the same engine and gnubg gives the
# same matches and the same figures.
#
# Environment: SHESH (build/shesh), GNUBG (/usr/games/gnubg), MATCHES
# (matches a seed, 16), SEEDS ("301 302 303 304"), PLIES (Shesh's depth,
# 2, the server's), JOBS (gnubg analyses at once, 2). REUSE=1 plays
# nothing and analyses the records already in DIR again.
set -euo pipefail
SHESH=${SHESH:-build/shesh}
GNUBG=${GNUBG:-/usr/games/gnubg}
MATCHES=${MATCHES:-16}
SEEDS=${SEEDS:-301 302 303 304}
PLIES=${PLIES:-2}
JOBS=${JOBS:-2}
dir=${1:-/tmp/match-analysis}

die() { echo "match_analysis.sh: $1" >&2; exit 1; }
[ -x "$SHESH" ] || die "no $SHESH (run make first)"
[ -x "$GNUBG" ] || die "no $GNUBG"
[[ $MATCHES =~ ^[1-9][0-9]*$ ]] || die "MATCHES: '$MATCHES' is not a count"
[[ $PLIES =~ ^[0-4]$ ]] || die "PLIES: '$PLIES' is not a depth from 0 to 4"
for seed in $SEEDS; do
    [[ $seed =~ ^[0-9]+$ ]] || die "SEEDS: '$seed' is not a seed"
done

start=$(date +%s)
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
echo "shesh: $("$SHESH" --version) (commit $commit), $PLIES plies; gnubg: $("$GNUBG" --version 2>/dev/null | head -1), 0 ply"
mkdir -p "$dir"
rm -f "$dir"/*.mat "$dir"/*.txt "$dir"/*.cmd
for seed in $SEEDS; do
    if [ "${REUSE:-0}" = 1 ]; then
        [ -r "$dir/$seed.mat.gz" ] || die "REUSE=1 but no $dir/$seed.mat.gz"
    else
        rm -f "$dir/$seed".*
        "$SHESH" match --quiet --match-to 7 --matches "$MATCHES" --seed "$seed" \
            --record "$dir/$seed.mat.gz" "Shesh=shesh:plies=$PLIES" GNUBG=gnubg \
            > "$dir/$seed.summary" || die "shesh match --seed $seed failed"
    fi
    for k in $(seq 1 "$MATCHES"); do
        "$SHESH" records cat --match "$k" "$dir/$seed.mat.gz" > "$dir/$seed-$k.mat" ||
            die "no match $k in $dir/$seed.mat.gz"
        printf '%s\n' "set analysis chequerplay evaluation plies 2" \
            "set analysis cubedecision evaluation plies 2" \
            "import mat $dir/$seed-$k.mat" "analyse match" "show statistics match" \
            > "$dir/$seed-$k.cmd"
    done
done
played=$(date +%s)

# One gnubg a match, JOBS at once.
for seed in $SEEDS; do
    for k in $(seq 1 "$MATCHES"); do
        echo "$dir/$seed-$k"
    done
done | xargs -P "$JOBS" -I{} sh -c '"$1" -t -q < "$2.cmd" > "$2.txt" 2>&1' sh "$GNUBG" {} ||
    die "a gnubg analysis failed"

python3 - "$dir" $SEEDS <<'PY' | tee "$dir/report.txt"
import re, sys

dir, seeds = sys.argv[1], sys.argv[2:]
players = ("Shesh", "GNUBG")
sums = {p: {"moves": 0, "move_emg": 0.0, "cube": 0, "cube_emg": 0.0, "won": 0} for p in players}
analysed = 0
for seed in seeds:
    k = 1
    while True:
        try:
            text = open("%s/%s-%d.txt" % (dir, seed, k)).read()
        except FileNotFoundError:
            break
        # The statistics come in sections; each row has the two players'
        # figures in the order of the header row.
        head = re.search(r"^Player\s+(\S+)\s+(\S+)\s*$", text, re.M)
        if not head or set(head.groups()) != set(players):
            sys.exit("match_analysis: %s-%d: no statistics of %s (see the .txt)" % (seed, k, players))
        order = head.groups()
        def rows(label, section):
            part = text.split(section, 1)[1]
            m = re.search(r"^" + re.escape(label) + r"\s+(\S+)(?:\s+\([^)]*\))?\s+(\S+)", part, re.M)
            if not m:
                sys.exit("match_analysis: %s-%d: no '%s' in %s" % (seed, k, label, section))
            return dict(zip(order, (float(m.group(1).rstrip("%")), float(m.group(2).rstrip("%")))))
        unforced = rows("Unforced moves", "Chequerplay statistics")
        move_emg = rows("Error total EMG (MWC)", "Chequerplay statistics")
        close = rows("Close or actual cube decisions", "Cube statistics")
        cube_emg = rows("Error total EMG (MWC)", "Cube statistics")
        result = rows("Actual result", "Overall statistics")
        for p in players:
            s = sums[p]
            s["moves"] += unforced[p]
            s["move_emg"] += -move_emg[p]
            s["cube"] += close[p]
            s["cube_emg"] += -cube_emg[p]
            s["won"] += result[p] > 0
        analysed += 1
        k += 1

def rate(emg, n):
    return "%.2f" % (1000 * emg / n) if n else "-"

print("matches analysed: %d (seeds %s)" % (analysed, " ".join(seeds)))
print("%-8s %14s %14s %14s %6s" % ("player", "moves", "cube", "overall", "won"))
for p in players:
    s = sums[p]
    print("%-8s %14s %14s %14s %6d" % (
        p, "%s (%d)" % (rate(s["move_emg"], s["moves"]), s["moves"]),
        "%s (%d)" % (rate(s["cube_emg"], s["cube"]), s["cube"]),
        rate(s["move_emg"] + s["cube_emg"], s["moves"] + s["cube"]), s["won"]))
print("mEMG given up a decision as gnubg 2-ply judges it (decisions in brackets)")
PY
end=$(date +%s)
echo "time: $((played - start)) s playing, $((end - played)) s analysing"
