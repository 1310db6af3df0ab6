#!/usr/bin/env bash
# bench_moves.sh - move quality on gnubg's 2-ply benchmark, by position
# class: the equity Shesh gives up per decision, as gnubg 1.07 at 2 plies
# values the results, beside what gnubg 0-ply gives up. The last part of
# `make bench` (docs/strength.md has the figures).
#
#   bash tests/tools/bench_moves.sh [SHESH [DATA]]   (from anywhere)
#
# SHESH is the shesh binary (default build/shesh of the tree). DATA is the
# benchmark, a .tsv.gz of positions with a roll and every legal result
# valued by gnubg 2-ply (column 3) and gnubg 0-ply (column 4); its
# README.md beside it describes it. Default:
# ../shared/positions/benchmark/benchmark2ply-dev.tsv.gz from the top of the
# tree. It is a yardstick kept outside the repository: when it is absent the
# tool says so and exits 0.
#
# For each depth, every row goes through one `shesh hint --json --max 1
# --plies N --rules nocube -` process (the judge's values are cubeless: with
# the cube the engine would rank the moves by their cubeful equity); its
# first move's "position" is the result, seen by
# the mover, as the file names results. A decision's loss is the best 2-ply
# equity of the row minus the 2-ply equity of the result chosen; gnubg
# 0-ply's choice is the result with the best column-4 equity. The table
# gives the mean loss in thousandths of a point (mEMG) per decision, +- its
# standard error, overall and per class, the seconds each depth took
# (shesh's start included), and the number of positions per class.
#
# Classes, by the position before the move (boards from `shesh id decode
# --json -`): race, crashed and contact, as tests/tools/benchmark_classes.py
# defines them.
#
# Environment: BENCH_MOVES_PLIES (Shesh's depths, default "0 1 2");
# BENCH_MOVES_WEIGHTS, a network file for Shesh to play with (hint
# --weights; default the one compiled in).
# Exit status: 0 done or no data, 1 a failure (shesh refusing a row, or a
# chosen result missing from the row's results), 2 usage.
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
SHESH=${1:-$top/build/shesh}
DATA=${2:-$top/../shared/positions/benchmark/benchmark2ply-dev.tsv.gz}
PLIES=${BENCH_MOVES_PLIES:-0 1 2}

die() { echo "bench_moves: $1" >&2; exit "${2:-1}"; }

[ -x "$SHESH" ] || die "$SHESH is not an executable" 2
for p in $PLIES; do
    [[ $p =~ ^[0-4]$ ]] || die "BENCH_MOVES_PLIES: '$p' is not a depth from 0 to 4" 2
done
if [ ! -r "$DATA" ]; then
    echo "move quality: skipped, no benchmark at $DATA (give its path: bash tests/tools/bench_moves.sh SHESH DATA)"
    exit 0
fi

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

gzip -dc "$DATA" > "$dir/data.tsv" || die "cannot read $DATA"
grep -v '^#' "$dir/data.tsv" | cut -f1,2 | tr '\t' ' ' > "$dir/rows"
[ -s "$dir/rows" ] || die "$DATA has no rows"
cut -d' ' -f1 "$dir/rows" | "$SHESH" id decode --json - > "$dir/boards" ||
    die "shesh id decode refused a position of $DATA"

times=""
for p in $PLIES; do
    start=$(date +%s%N)
    "$SHESH" hint --json --max 1 --plies "$p" --rules nocube ${BENCH_MOVES_WEIGHTS:+--weights "$BENCH_MOVES_WEIGHTS"} - \
        < "$dir/rows" > "$dir/hint$p" ||
        die "shesh hint --plies $p refused a row: $(grep -m1 '"error"' "$dir/hint$p")"
    times="$times $p=$(( ($(date +%s%N) - start) / 1000000 ))"
done

# shellcheck disable=SC2086 # the depths, one argument each
python3 - "$top/tests/tools" "$dir/data.tsv" "$dir/boards" "$DATA" "$times" $PLIES <<'PY'
import json, os, sys

sys.dont_write_bytecode = True  # no __pycache__ in the tree
sys.path.insert(0, sys.argv[1])
from benchmark_classes import CLASSES, klass
from mean_se import mean_se

data, boards, name, times = sys.argv[2:6]
plies = sys.argv[6:]
secs = dict(t.split("=") for t in times.split())

rows = []
for line in open(data):
    if line.startswith("#") or not line.strip():
        continue
    f = line.rstrip("\n").split("\t")
    res = [r.split("=") for r in f[2].split(";")]
    ids = [r[0] for r in res]
    eq2 = [float(r[1]) for r in res]
    eq0 = [float(x) for x in f[3].split(",")]
    if len(eq0) != len(ids):
        sys.exit("bench_moves: %s %s: %d results, %d 0-ply equities" % (f[0], f[1], len(ids), len(eq0)))
    rows.append((f[0], f[1], dict(zip(ids, eq2)), max(eq2), ids[eq0.index(max(eq0))]))

cls = []
for line, row in zip(open(boards), rows):
    b = json.loads(line)
    if b.get("position_id") != row[0]:
        sys.exit("bench_moves: id decode answered %s for %s" % (b.get("position_id"), row[0]))
    cls.append(klass(b))
if len(cls) != len(rows):
    sys.exit("bench_moves: id decode answered %d of %d positions" % (len(cls), len(rows)))

def stats(losses):
    out = {}
    for c in ("overall",) + CLASSES:
        xs = [l for l, k in zip(losses, cls) if c == "overall" or k == c]
        m, se = mean_se(xs)
        out[c] = (1000 * m, 1000 * se) if xs else None
    return out

table = []
for p in plies:
    losses = []
    with open(os.path.join(os.path.dirname(data), "hint" + p)) as fh:
        answers = [json.loads(l) for l in fh]
    if len(answers) != len(rows):
        sys.exit("bench_moves: hint --plies %s answered %d of %d rows" % (p, len(answers), len(rows)))
    for a, (pid, dice, eq2, best, _) in zip(answers, rows):
        if a.get("input") != pid or not a.get("moves"):
            sys.exit("bench_moves: hint --plies %s: no move for %s %s: %s" % (p, pid, dice, a))
        got = a["moves"][0]["position"]
        if got not in eq2:
            sys.exit("bench_moves: hint --plies %s: %s %s: result %s (%s) is not among the row's results"
                     % (p, pid, dice, got, a["moves"][0]["move"]))
        losses.append(best - eq2[got])
    table.append(("Shesh %s-ply" % p, stats(losses), "%.0f s" % (int(secs[p]) / 1000)))
table.append(("gnubg 0-ply", stats([best - eq2[g0] for _, _, eq2, best, g0 in rows]), ""))

counts = {c: cls.count(c) for c in CLASSES}
print("move quality on %s (%d positions): mEMG given up a decision,"
      % (os.path.basename(name), len(rows)))
print("+- 1 SE, as gnubg 2-ply values the results; Shesh plays `shesh hint --plies N --rules nocube`")
cell = lambda s: "%6.2f +-%5.2f" % s if s else "%14s" % "-"
print("%-12s %14s %14s %14s %14s  %s" % ("", "overall", "race", "crashed", "contact", "time"))
for who, s, t in table:
    print(("%-12s %s %s %s %s  %s" % (who, cell(s["overall"]), cell(s["race"]), cell(s["crashed"]),
                                      cell(s["contact"]), t)).rstrip())
print("%-12s %14d %14d %14d %14d" % ("positions", len(rows), counts["race"], counts["crashed"],
                                     counts["contact"]))
PY
