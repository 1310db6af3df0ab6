#!/usr/bin/env bash
# rollout_choices.sh - two players' choices of move on the same positions,
# judged by Shesh's own rollouts of the two results wherever they differ.
# gnubg's 2-ply benchmark (tests/tools/bench_moves.sh) cannot tell which of
# two choices is better where its own 2 plies see no further than the
# players do; a rollout plays each result out to the end.
#
#   bash tests/tools/rollout_choices.sh A B [DATA]   (from anywhere)
#
# A and B each choose one result for every row of DATA:
#   gnubg2       the result gnubg 1.07 values best at 2 plies (column 3;
#                of results it values the same, the other player's choice
#                if it is one of them, else the first);
#   gnubg0       the same by gnubg 0-ply's values (column 4);
#   SHESH:PLIES  the first move of `SHESH hint --json --max 1 --plies
#                PLIES --rules nocube` (SHESH a shesh binary).
# DATA is the benchmark (default
# ../shared/positions/benchmark/benchmark2ply-dev.tsv.gz from the top of the
# tree; its README.md describes it). When it is absent the tool says so and
# exits 0.
#
# Each result where A and B differ is rolled out by `ROLLOUT_SHESH rollout
# --cubeless` with the other side on roll, every one on the same dice (the
# same seed), and the mover's cubeless equity is minus the rollout's. The
# table gives, over the rows where they differ, B's equity less A's: the
# mean +- its standard error, how many rows B chose better and worse, and
# gnubg 2-ply's view of the same rows (column 3, B's result less A's),
# overall and by the class of the position (race, crashed, contact, as
# tests/tools/benchmark_classes.py has them).
# Rows where either result ends the game are left out (counted).
#
# Environment: ROLLOUT_SHESH (default build/shesh of the tree), ROLLOUT_TRIALS
# (default 1296), ROLLOUT_PLIES (default 0), ROLLOUT_SEED (default 7),
# ROLLOUT_THREADS (default: the processors). With ROLLOUT_KEEP=DIR the rows,
# choices and rollouts are left in DIR.
# Exit status: 0 done or no data, 1 a failure, 2 usage.
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
die() { echo "rollout_choices: $1" >&2; exit "${2:-1}"; }

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    die "usage: rollout_choices.sh A B [DATA] (A, B: gnubg2, gnubg0 or SHESH:PLIES)" 2
fi
A=$1 B=$2
DATA=${3:-$top/../shared/positions/benchmark/benchmark2ply-dev.tsv.gz}
RS=${ROLLOUT_SHESH:-$top/build/shesh}
TRIALS=${ROLLOUT_TRIALS:-1296}
PLIES=${ROLLOUT_PLIES:-0}
SEED=${ROLLOUT_SEED:-7}
THREADS=${ROLLOUT_THREADS:-$(nproc)}

check_player() {
    case $1 in
    gnubg2 | gnubg0) ;;
    *:[0-4]) [ -x "${1%:*}" ] || die "${1%:*} is not an executable" 2 ;;
    *) die "'$1' is not gnubg2, gnubg0 or SHESH:PLIES (PLIES 0 to 4)" 2 ;;
    esac
}
check_player "$A"
check_player "$B"
[ -x "$RS" ] || die "ROLLOUT_SHESH: $RS is not an executable" 2
if [ ! -r "$DATA" ]; then
    echo "rollout choices: skipped, no benchmark at $DATA (give its path as the third argument)"
    exit 0
fi

if [ -n "${ROLLOUT_KEEP:-}" ]; then
    dir=$ROLLOUT_KEEP
    mkdir -p "$dir" || die "cannot make $dir"
else
    dir=$(mktemp -d)
    trap 'rm -rf "$dir"' EXIT
fi

gzip -dc "$DATA" > "$dir/data.tsv" || die "cannot read $DATA"
grep -v '^#' "$dir/data.tsv" | cut -f1,2 | tr '\t' ' ' > "$dir/rows"
[ -s "$dir/rows" ] || die "$DATA has no rows"

# Each Shesh player's first move for every row.
for who in A B; do
    spec=${!who}
    case $spec in
    gnubg2 | gnubg0) : > "$dir/hint$who" ;;
    *)
        "${spec%:*}" hint --json --max 1 --plies "${spec##*:}" --rules nocube - \
            < "$dir/rows" > "$dir/hint$who" ||
            die "$spec refused a row: $(grep -m1 '"error"' "$dir/hint$who")"
        ;;
    esac
done

# The rows where the two differ, and their results seen by the other side
# (shesh id encode with the two sides exchanged).
python3 - "$top/tests/tools" "$dir" "$A" "$B" "$RS" <<'PY' || exit 1
import json, subprocess, sys

sys.dont_write_bytecode = True  # no __pycache__ in the tree
sys.path.insert(0, sys.argv[1])
from benchmark_classes import klass

d, specs, rs = sys.argv[2], sys.argv[3:5], sys.argv[5]
rows = []
for line in open(d + "/data.tsv"):
    if line.startswith("#") or not line.strip():
        continue
    f = line.rstrip("\n").split("\t")
    res = [r.split("=") for r in f[2].split(";")]
    rows.append((f[0], f[1], [r[0] for r in res], [float(r[1]) for r in res],
                 [float(x) for x in f[3].split(",")]))

hints = {}
for who in "AB":
    hints[who] = [json.loads(l) for l in open(d + "/hint" + who)]

def shesh_choice(who, i):
    h = hints[who][i]
    if "error" in h or not h.get("moves"):
        sys.exit("rollout_choices: no move for %s %s" % rows[i][:2])
    return h["moves"][0]["position"]

def gnubg_choice(spec, i, other):
    ids, eq2, eq0 = rows[i][2], rows[i][3], rows[i][4]
    eq = eq2 if spec == "gnubg2" else eq0
    best = [r for r, v in zip(ids, eq) if v == max(eq)]
    return other if other in best else best[0]

choice = {"A": [], "B": []}
for i in range(len(rows)):
    sa = None if specs[0].startswith("gnubg") else shesh_choice("A", i)
    sb = None if specs[1].startswith("gnubg") else shesh_choice("B", i)
    a = sa if sa else gnubg_choice(specs[0], i, sb)
    b = sb if sb else gnubg_choice(specs[1], i, a)
    if a not in rows[i][2] or b not in rows[i][2]:
        sys.exit("rollout_choices: a choice for %s %s is not among its results" % rows[i][:2])
    choice["A"].append(a)
    choice["B"].append(b)

differ = [i for i in range(len(rows)) if choice["A"][i] != choice["B"][i]]
ids = [choice[w][i] for i in differ for w in "AB"] + [rows[i][0] for i in differ]
boards = subprocess.run([rs, "id", "decode", "--json", "-"], input="".join(x + "\n" for x in ids),
                        capture_output=True, text=True, check=True).stdout.splitlines()
classes = [klass(json.loads(b)) for b in boards[2 * len(differ):]]
swapped, kept, over = [], [], 0
for k, i in enumerate(differ):
    pair = [json.loads(boards[2 * k]), json.loads(boards[2 * k + 1])]
    if any(sum(b["player"]) == 0 for b in pair):
        over += 1
        continue
    for b in pair:
        enc = subprocess.run([rs, "id", "encode", "--json", "--player",
                              ",".join(map(str, b["opponent"])), "--opponent",
                              ",".join(map(str, b["player"]))],
                             capture_output=True, text=True, check=True).stdout
        swapped.append(json.loads(enc)["position_id"])
    kept.append((i, classes[k]))
with open(d + "/differ.tsv", "w") as out:
    for i, c in kept:
        ids, eq2 = rows[i][2], rows[i][3]
        ga, gb = eq2[ids.index(choice["A"][i])], eq2[ids.index(choice["B"][i])]
        out.write("%s\t%s\t%s\t%s\t%.6f\t%s\n" % (rows[i][0], rows[i][1], choice["A"][i],
                                                 choice["B"][i], gb - ga, c))
with open(d + "/rollout.in", "w") as out:
    out.write("".join(x + "\n" for x in swapped))
with open(d + "/counts", "w") as out:
    out.write("%d %d %d\n" % (len(rows), len(differ), over))
PY

start=$(date +%s)
if [ -s "$dir/rollout.in" ]; then
    "$RS" rollout --cubeless --json --quiet --trials "$TRIALS" --plies "$PLIES" --seed "$SEED" \
        --threads "$THREADS" - < "$dir/rollout.in" > "$dir/rollout.json" ||
        die "the rollouts failed: $(grep -m1 '"error"' "$dir/rollout.json")"
else
    : > "$dir/rollout.json"
fi
secs=$(( $(date +%s) - start ))

python3 - "$top/tests/tools" "$dir" "$A" "$B" "$TRIALS" "$PLIES" "$SEED" "$secs" <<'PY'
import json, sys

sys.dont_write_bytecode = True  # no __pycache__ in the tree
sys.path.insert(0, sys.argv[1])
from benchmark_classes import CLASSES
from mean_se import mean_se

d, a, b, trials, plies, seed, secs = sys.argv[2:9]
n, differ, over = map(int, open(d + "/counts").read().split())
rows = [l.rstrip("\n").split("\t") for l in open(d + "/differ.tsv")]
ro = [json.loads(l) for l in open(d + "/rollout.json")]
if len(ro) != 2 * len(rows):
    sys.exit("rollout_choices: %d rollouts for %d rows" % (len(ro), len(rows)))

diff = [ro[2 * k]["cubeless"] - ro[2 * k + 1]["cubeless"] for k in range(len(rows))]
gdiff = [float(r[4]) for r in rows]
m, se = mean_se(diff)
gm, gse = mean_se(gdiff)
print("%s against %s on %d positions: they choose differently in %d" % (b, a, n, differ))
if over:
    print("left out: %d where a result ends the game" % over)
print("rolled out: %d pairs, %s trials at %s plies, seed %s, %s s" % (len(rows), trials, plies, seed, secs))
print("B less A, the mover's cubeless equity a differing choice:")
print("  by the rollouts   %+.4f +- %.4f  (B better %d, worse %d; in all %+.3f)"
      % (m, se, sum(x > 0 for x in diff), sum(x < 0 for x in diff), sum(diff)))
print("  by gnubg 2-ply    %+.4f +- %.4f  (B better %d, worse %d; in all %+.3f)"
      % (gm, gse, sum(x > 0 for x in gdiff), sum(x < 0 for x in gdiff), sum(gdiff)))
print("by class of the position: rows, by the rollouts, by gnubg 2-ply")
for c in CLASSES:
    ks = [k for k, r in enumerate(rows) if r[5] == c]
    m, se = mean_se([diff[k] for k in ks])
    gm, gse = mean_se([gdiff[k] for k in ks])
    print("  %-8s %5d  %+.4f +- %.4f  %+.4f +- %.4f" % (c, len(ks), m, se, gm, gse))
PY
