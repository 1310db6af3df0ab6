#!/usr/bin/env bash
# make demo: Shesh (1 ply) plays a pair of 3-point matches against GNU
# Backgammon (0 ply) through `shesh match` (the dice of the first match
# played again with the seats swapped), with the progress line and the
# summary, and keeps the record under records/, which gnubg imports.
set -eu
SHESH=${1:-build/shesh}
mkdir -p records
rec=records/demo-$(date +%Y%m%d-%H%M%S).mat.gz
"$SHESH" match --match-to 3 --matches 2 --seed "$RANDOM" --record "$rec" \
    Shesh=shesh:plies=1 GNUBG=gnubg
echo
echo "The first match, as gnubg imports it:"
"$SHESH" records cat --match 1 "$rec" | sed -n '1,40p'
cat <<TEXT
...
To open a match in GNU Backgammon (it reads plain .mat, one match a file):
    $SHESH records cat --match 1 $rec > demo.mat
    gnubg, then: import mat demo.mat
TEXT
