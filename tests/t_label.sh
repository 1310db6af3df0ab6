#!/usr/bin/env bash
# `shesh label`: the same options give the same file, byte for byte; the
# shards of a run merge into exactly the labels of the whole run; a run
# killed (kill -9) or stopped (SIGINT, exit 130) and resumed writes the
# very file an uninterrupted run writes, and a resume with other options
# is refused; merge refuses missing, repeated, incomplete and foreign
# shards; the labels are chances in order near the engine's own
# evaluation, and with --integers its very values (a header of their
# own); `shesh weights --labels` judges networks by them, and by
# their choice among the results of each roll of a --moves file; --from
# labels the positions of a file as the run that found them did. Bad
# options exit 2 naming the option.
set -u
SHESH=${SHESH:-build/shesh}
case $SHESH in /*) ;; *) SHESH=$PWD/$SHESH ;; esac
# shellcheck source=tests/lib/check.sh
. "$(dirname "$0")/lib/check.sh"
cd "$dir" || exit 1

RUN=(--positions 12 --trials 12 --truncate 4 --seed 3)
expect() { # STATUS NEEDLE ARGS...
    local want=$1 needle=$2; shift 2
    "$SHESH" label "$@" > out 2> err < /dev/null
    local status=$?
    [ "$status" = "$want" ] || no "label $*: exit $status, expected $want ($(head -c 300 err))"
    grep -qF -- "$needle" err || no "label $*: stderr lacks '$needle': $(head -c 300 err)"
}

# ---- 1. deterministic; shards merge to the whole ------------------------------
f0=$fails
expect 0 "12 labels written to a.gz" "${RUN[@]}" --out a.gz
expect 0 "12 labels written to b.gz" "${RUN[@]}" --out b.gz
cmp -s a.gz b.gz || no "two runs with the same options differ"
# The engine: the contact network's id and hash, or with a race or cube
# network compiled in CONTACT+RACE+CUBE and FNV-1a of the hashes' hex
# digits, in that order.
net=$("$SHESH" weights --json | python3 -c '
import json, sys
nets = [json.loads(l) for l in sys.stdin]
if len(nets) == 1:
    print("engine=%s network=%s" % (nets[0]["id"], nets[0]["fnv64"]))
else:
    h = 0xcbf29ce484222325
    for b in "".join(n["fnv64"] for n in nets).encode():
        h = ((h ^ b) * 0x100000001b3) % 2**64
    print("engine=%s network=%016x" % ("+".join(n["id"] for n in nets), h))')
[ "$(zcat a.gz | head -1)" = "# shesh-label 1 positions=12 seed=3 every=5 trials=12 truncate=4 plies=0 $net shard=1/1" ] ||
    no "the header: $(zcat a.gz | head -1)"
for k in 1 2 3; do expect 0 "4 labels written" "${RUN[@]}" --shard "$k/3" --out "s$k.gz"; done
"$SHESH" label merge s3.gz s1.gz s2.gz > merged 2> err || no "merge: exit $? ($(cat err))"
diff <(zcat a.gz | tail -n +2) <(tail -n +2 merged) > /dev/null || no "the merged shards are not the whole run's labels"
[ "$(head -1 merged)" = "$(zcat a.gz | head -1 | sed 's/ shard=1\/1$//')" ] || no "merge's header: $(head -1 merged)"
passed "$f0" "the same options, the same file; 3 shards merge into the whole run"

# ---- 2. the labels ---------------------------------------------------------------
f0=$fails
zcat a.gz | tail -n +2 | cut -f2 > ids
"$SHESH" eval --json - < ids > evals || no "eval of the labelled positions failed"
python3 - a.gz evals <<'PY' || no "the labels are not chances near the evaluation"
import gzip, json, sys
labels = [l.rstrip("\n").split("\t") for l in gzip.open(sys.argv[1], "rt") if not l.startswith("#")]
evals = [json.loads(l) for l in open(sys.argv[2])]
assert [int(l[0]) for l in labels] == list(range(12)), [l[0] for l in labels]
diff = 0
for l, e in zip(labels, evals):
    w, wg, wbg, lg, lbg = map(float, l[2].split())
    assert 0 <= wbg <= wg <= w <= 1 and 0 <= lbg <= lg <= 1 - w + 1e-9, l
    eq, se = map(float, l[3].split())
    # The equity is as measured, the chances clamped to chances (a mean with
    # the luck taken out may stray a little below 0): the two agree to
    # within what the clamp moved.
    assert abs(eq - (2 * w - 1 + wg - lg + wbg - lbg)) < 2e-3 and 0 <= se < 0.2, l
    diff += abs(w - e["win"])
assert diff / len(labels) < 0.08, diff / len(labels)
PY
"$SHESH" weights --labels a.gz > j 2> err || no "weights --labels: exit $? ($(cat err))"
grep -qE "against 12 labels: equity 0\.[0-9]{4}" j || no "weights --labels: $(cat j)"
"$SHESH" weights --labels merged > /dev/null 2>&1 || no "weights --labels reads a merged (plain) file"
printf '0\tnot-an-id\t1 2 3 4 5\t0 0\n' > junk
"$SHESH" weights --labels junk > /dev/null 2> err
status=$?
if [ $status != 1 ] || ! grep -qF "junk line 1: not a label" err; then
    no "weights --labels junk: exit $status ($(cat err))"
fi
# A line cut short by a NUL byte, or too long to be one label, is refused
# whole, naming its line; a gzip file cut short says so.
{ zcat a.gz | head -3; printf '1\t4HPwATDgc/ABMA\0\t0.5\n'; } > nul
{ zcat a.gz | head -2; head -c 600 /dev/zero | tr '\0' 7; echo; } > long
zcat a.gz | gzip -c | head -c 200 > cut.gz
for bad in "nul line 4: holds a NUL byte" "long line 3: longer than 512 characters" \
    "cut.gz: unexpected end of file"; do
    "$SHESH" weights --labels "${bad%%[ :]*}" > /dev/null 2> err
    status=$?
    if [ $status != 1 ] || ! grep -qF -- "$bad" err; then
        no "weights --labels ${bad%%[ :]*}: exit $status, expected 1 and '$bad' ($(cat err))"
    fi
done
# Lines ending in CR LF read as the same labels.
zcat a.gz | sed 's/$/\r/' > crlf
"$SHESH" weights --labels crlf > jcr 2> err || no "weights --labels of CR LF lines: exit $? ($(cat err))"
cmp -s j jcr || no "CR LF labels judged otherwise: $(cat jcr)"
passed "$f0" "labels are ordered chances near the evaluation; weights --labels judges by them"

# ---- 2b. search labels (--trials 0): the engine's own P-ply evaluation ---------------
f0=$fails
expect 0 "12 labels written to e.gz" --positions 12 --trials 0 --plies 1 --seed 3 --out e.gz
zcat e.gz | tail -n +2 | cut -f2 > eids
cmp -s ids eids || no "a search-labelled run found other positions than a rolled-out one"
zcat e.gz | head -1 | grep -qF " trials=0 truncate=0 plies=1 " || no "search labels' header: $(zcat e.gz | head -1)"
expect 0 "0 labels written to e.gz" --positions 12 --trials 0 --plies 1 --seed 3 --truncate 7 --out e.gz --resume
"$SHESH" eval --json --plies 1 - < eids > e1 || no "eval --plies 1 of the labelled positions failed"
python3 - e.gz e1 <<'PY' || no "the search labels are not the 1-ply evaluations"
import gzip, json, sys
labels = [l.rstrip("\n").split("\t") for l in gzip.open(sys.argv[1], "rt") if not l.startswith("#")]
evals = [json.loads(l) for l in open(sys.argv[2])]
assert len(labels) == 12 == len(evals)
keys = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
# Labels are the network's float evaluation, `shesh eval` its first layer
# in integers (engine.h): a thousandth apart or so.
for l, e in zip(labels, evals):
    got = list(map(float, l[2].split()))
    for g, k in zip(got, keys):
        assert abs(g - e[k]) < 5e-3, (l, k, e[k])
    eq, se = map(float, l[3].split())
    assert abs(eq - e["cubeless"]) < 1e-2 and se == 0, l
PY
passed "$f0" "--trials 0 labels the same positions by the engine's own evaluation at --plies"

# ---- 2b'. --integers: the first layer in integers, as the engine plays ----------
f0=$fails
expect 0 "12 labels written to ei.gz" --positions 12 --trials 0 --plies 1 --seed 3 --integers --out ei.gz
zcat ei.gz | head -1 | grep -qF " plies=1 values=integers engine=" || no "--integers header: $(zcat ei.gz | head -1)"
expect 1 "e.gz was made by another run" --positions 12 --trials 0 --plies 1 --seed 3 --integers --out e.gz --resume
expect 1 "ei.gz was made by another run" --positions 12 --trials 0 --plies 1 --seed 3 --out ei.gz --resume
expect 0 "0 labels written to ei.gz" --positions 12 --trials 0 --plies 1 --seed 3 --integers --out ei.gz --resume
zcat ei.gz | tail -n +2 | cut -f2 > eiids
"$SHESH" eval --json --plies 1 - < eiids > ei1 || no "eval --plies 1 of the --integers positions failed"
python3 - ei.gz ei1 e.gz e1 <<'PY' || no "--integers labels are not shesh eval's values, or the default's are"
import gzip, json, sys
keys = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
def off(labels_path, evals_path):
    """The largest difference between a label and shesh eval's value."""
    labels = [l.rstrip("\n").split("\t") for l in gzip.open(labels_path, "rt") if not l.startswith("#")]
    evals = [json.loads(l) for l in open(evals_path)]
    assert len(labels) == 12 == len(evals)
    most = 0.0
    for l, e in zip(labels, evals):
        got = list(map(float, l[2].split())) + [float(l[3].split()[0])]
        want = [e[k] for k in keys] + [e["cubeless"]]
        most = max(most, max(abs(g - w) for g, w in zip(got, want)))
    return most
# six decimals written: the same values to the rounding
assert off(sys.argv[1], sys.argv[2]) < 6e-7, off(sys.argv[1], sys.argv[2])
# the default values in floats, a little way from the engine's integers
assert off(sys.argv[3], sys.argv[4]) > 1e-5, off(sys.argv[3], sys.argv[4])
PY
passed "$f0" "--integers labels are the engine's own values (shesh eval's), in a header of their own"

# ---- 2c. --moves: the results of the best moves for a roll, the other side on roll ----
f0=$fails
expect 0 "12 labels written to m.gz" --positions 12 --trials 0 --plies 0 --seed 3 --moves 3 --out m.gz
zcat m.gz | head -1 | grep -qF " plies=0 moves=3 engine=" || no "--moves header: $(zcat m.gz | head -1)"
zcat m.gz | tail -n +2 | cut -f2 > mids
# The first position the run without --moves takes is the first --moves
# expands: its first labels are the results of its 3 best moves for some
# roll (shesh hint's order), seen from the other side.
first=$(head -1 ids)
for d in 11 12 13 14 15 16 22 23 24 25 26 33 34 35 36 44 45 46 55 56 66; do
    "$SHESH" hint --json --max 3 "$first" "$d" || no "hint $first $d failed"
done > mhints
python3 - mids mhints <<'PY' || no "--moves labels are not the results of the best moves for a roll"
import base64, json, sys
def slots(pid):
    bits = int.from_bytes(base64.b64decode(pid + "=="), "little")
    out, n = [], 0
    while len(out) < 50:
        if bits & 1:
            n += 1
        else:
            out.append(n)
            n = 0
        bits >>= 1
    return out
def encode(counts):
    bits, at = 0, 0
    for c in counts:
        bits |= ((1 << c) - 1) << at
        at += c + 1
    return base64.b64encode(bits.to_bytes(10, "little")).decode()[:14]
def swapped(pid):
    s = slots(pid)
    return encode(s[25:] + s[:25])
mids = [l.strip() for l in open(sys.argv[1])]
assert len(mids) == 12 and len(set(mids)) == 12, mids
rolls = [[swapped(m["position"]) for m in json.loads(l)["moves"]] for l in open(sys.argv[2])]
assert any(r and mids[:len(r)] == r for r in rolls), (mids[:3], rolls)
PY
"$SHESH" eval --json - < mids > mevals || no "eval of the --moves positions failed"
python3 - m.gz mevals <<'PY' || no "--moves labels at --trials 0 --plies 0 are not the evaluations"
import gzip, json, sys
labels = [l.rstrip("\n").split("\t") for l in gzip.open(sys.argv[1], "rt") if not l.startswith("#")]
evals = [json.loads(l) for l in open(sys.argv[2])]
# Labels are the network's float evaluation, `shesh eval` its first layer
# in integers (engine.h): a thousandth apart or so.
for l, e in zip(labels, evals):
    assert abs(float(l[2].split()[0]) - e["win"]) < 5e-3, (l, e["win"])
PY
for k in 1 2; do
    expect 0 "6 labels written" --positions 12 --trials 0 --plies 0 --seed 3 --moves 3 --shard "$k/2" --out "ms$k.gz"
done
"$SHESH" label merge ms1.gz ms2.gz > mmerged 2> err || no "merge of --moves shards: exit $? ($(cat err))"
diff <(zcat m.gz | tail -n +2) <(tail -n +2 mmerged) > /dev/null || no "the --moves shards merged are not the whole run"
# weights --labels: how the network chooses among each roll's results. The
# labels are the compiled-in network's own evaluations: it gives up
# nothing; with the result it likes best labelled 0.2 worse in one roll
# (0.1 more to win for the player on roll), it gives up what that costs.
"$SHESH" weights --labels m.gz --json > mw 2> err || no "weights --labels m.gz: exit $? ($(cat err))"
zcat m.gz | python3 -c '
import sys
lines = sys.stdin.read().splitlines()
print(lines[0])
rows = [l.split("\t") for l in lines[1:]]
eq = lambda ch: 2 * ch[0] - 1 + ch[1] + ch[2] - ch[3] - ch[4]
chances = [[float(x) for x in r[2].split()] for r in rows]
first = min(range(3), key=lambda i: eq(chances[i]))
chances[first][0] += 0.1
loss = eq(chances[first]) - min(eq(chances[i]) for i in range(3))
for r, ch in zip(rows, chances):
    r[2] = " ".join("%.6f" % x for x in ch)
    print("\t".join(r))
print("%.6f" % loss, file=sys.stderr)
' > mworse 2> mloss
"$SHESH" weights --labels mworse --json > mw2 2> err || no "weights --labels mworse: exit $? ($(cat err))"
python3 - mw mw2 "$(cat mloss)" <<'PY' || no "weights --labels: the choice among each roll's results: $(cat mw mw2)"
import json, sys
own, worse = (json.loads(open(f).readline()) for f in sys.argv[1:3])
loss = float(sys.argv[3])
assert own["choice_rolls"] == 4 and worse["choice_rolls"] == 4, (own, worse)
assert own["choice_loss"] == 0, own
assert 0.05 < loss and abs(worse["choice_loss"] - loss / 4) < 1e-5, (worse, loss)
PY
"$SHESH" weights --labels m.gz > mtext 2> err
grep -qF "choosing among the results of 4 rolls: 0.00 thousandths" mtext || no "weights --labels text: $(cat mtext)"
"$SHESH" weights --labels a.gz --json | grep -qF '"choice_rolls": 0' || no "weights --labels: rolls found among positions of play"
expect 2 "--moves" --moves 0 --out x.gz
expect 2 "--moves" --moves 33 --out x.gz
passed "$f0" "--moves labels the results of the K best moves for a roll, the other side on roll"

# ---- 2d. --race: races a model values, not contact positions nor bear-offs ----------
f0=$fails
expect 0 "12 labels written to r.gz" --race --positions 12 --trials 12 --truncate 0 --seed 3 --out r.gz
zcat r.gz | head -1 | grep -qF " plies=0 phase=race engine=" || no "--race header: $(zcat r.gz | head -1)"
zcat r.gz | tail -n +2 | cut -f2 > rids
"$SHESH" id decode --json - < rids > rboards || no "decoding the --race positions failed"
python3 - rboards <<'PY' || no "--race labels are not races with a checker outside home"
import json, sys
boards = [json.loads(l) for l in open(sys.argv[1])]
assert len(boards) == 12, len(boards)
for b in boards:
    # index i is point i + 1 from each side's own home, 24 the bar
    top = [max([i + 1 for i, c in enumerate(s) if c] or [0]) for s in (b["player"], b["opponent"])]
    assert sum(top) <= 24, ("contact", b)  # each side's rear checker past the other's
    assert max(top) > 6, ("every checker home", b)
PY
for k in 1 2; do
    expect 0 "6 labels written" --race --positions 12 --trials 12 --truncate 0 --seed 3 --shard "$k/2" --out "rs$k.gz"
done
"$SHESH" label merge rs1.gz rs2.gz > rmerged 2> err || no "merge of --race shards: exit $? ($(cat err))"
diff <(zcat r.gz | tail -n +2) <(tail -n +2 rmerged) > /dev/null || no "the --race shards merged are not the whole run"
expect 0 "0 labels written to r.gz" --race --positions 12 --trials 12 --truncate 0 --seed 3 --out r.gz --resume
expect 1 "r.gz was made by another run" --positions 12 --trials 12 --truncate 0 --seed 3 --out r.gz --resume
# `shesh weights --labels` judges each network by the labels of its kind.
{ zcat a.gz | tail -n +2 | head -3; zcat r.gz | tail -n +2 | head -2; } > mixed
"$SHESH" weights --labels mixed > j 2> err || no "weights --labels mixed: exit $? ($(cat err))"
grep -qE "^  against 3 labels \(of 5: the contact positions\): equity" j || no "contact network on mixed labels: $(cat j)"
if [ "$("$SHESH" weights --json | wc -l)" = 2 ]; then # a race network compiled in
    grep -qE "^  against 2 labels \(of 5: the races with a checker outside home\): equity" j ||
        no "race network on mixed labels: $(cat j)"
    "$SHESH" weights --json --labels a.gz | tail -1 | grep -qF '"labels": 0, "choice_rolls": 0}' ||
        no "race network on contact labels: $("$SHESH" weights --json --labels a.gz)"
fi
passed "$f0" "--race labels races with a checker outside home; shards merge; resumes only as --race; weights --labels judges each network by its kind"

# ---- 2e. --disagree: only positions whose 0- and 1-ply equities differ ------------
f0=$fails
expect 0 "8 positions found" --positions 8 --trials 0 --plies 0 --seed 3 --disagree 0.08 --out d.gz
grep -qF "8 labels written to d.gz" err || no "--disagree: $(cat err)"
zcat d.gz | head -1 | grep -qF " plies=0 disagree=0.08 engine=" || no "--disagree header: $(zcat d.gz | head -1)"
# The positions are those of the run without it whose equities at 0 and 1
# ply differ by 0.08 or more, all of them and in order.
expect 0 "200 labels written" --positions 200 --trials 0 --plies 0 --seed 3 --out all.gz
zcat all.gz | tail -n +2 | cut -f2 > allids
"$SHESH" eval --json --plies 0 - < allids > all0 || no "eval at 0 ply failed"
"$SHESH" eval --json --plies 1 - < allids > all1 || no "eval at 1 ply failed"
python3 - d.gz allids all0 all1 <<'PY' || no "--disagree did not take exactly the positions whose depths disagree"
import gzip, json, sys
picked = [l.split("\t")[1] for l in gzip.open(sys.argv[1], "rt").read().splitlines()[1:]]
ids = open(sys.argv[2]).read().split()
e0 = [json.loads(l)["cubeless"] for l in open(sys.argv[3])]
e1 = [json.loads(l)["cubeless"] for l in open(sys.argv[4])]
# shesh label compares the depths in floats, shesh eval's first layer is
# in integers (engine.h): a position within 0.01 of the threshold may go
# either way, every other one must be where the threshold puts it.
at = {i: k for k, i in enumerate(ids)}
gap = {i: abs(a - b) for i, a, b in zip(ids, e0, e1)}
assert len(picked) == 8 and all(i in at for i in picked), picked
assert [at[i] for i in picked] == sorted(at[i] for i in picked), picked
assert all(gap[i] > 0.07 for i in picked), [(i, gap[i]) for i in picked]
sure = [i for i in ids[:at[picked[-1]] + 1] if gap[i] >= 0.09]
assert all(i in picked for i in sure), (picked, sure)
assert len(sure) >= 5, sure  # the test has teeth: most of the 8 are sure
PY
for k in 1 2; do
    expect 0 "4 labels written" --positions 8 --trials 0 --plies 0 --seed 3 --disagree 0.08 --shard "$k/2" --out "ds$k.gz"
done
"$SHESH" label merge ds1.gz ds2.gz > dmerged 2> err || no "merge of --disagree shards: exit $? ($(cat err))"
diff <(zcat d.gz | tail -n +2) <(tail -n +2 dmerged) > /dev/null || no "the --disagree shards merged are not the whole run"
expect 0 "0 labels written to d.gz" --positions 8 --trials 0 --plies 0 --seed 3 --disagree 0.080 --out d.gz --resume
expect 1 "d.gz was made by another run" --positions 8 --trials 0 --plies 0 --seed 3 --disagree 0.1 --out d.gz --resume
# A threshold no position reaches is said so, not searched for forever.
expect 1 "give a smaller --disagree" --positions 8 --trials 0 --seed 3 --disagree 3 --out far.gz
[ ! -e far.gz ] || no "a refused --disagree run left its file behind"
expect 2 "--disagree" --disagree 3.5 --out x.gz
expect 2 "--disagree" --disagree -0.1 --out x.gz
expect 2 "--disagree" --disagree x --out x.gz
passed "$f0" "--disagree takes exactly the positions whose 0- and 1-ply equities differ that much; shards merge; an unreachable one is refused"

# ---- 2f. --window: only positions the player on roll wins LO to HI -----------------
f0=$fails
W=(--positions 10 --trials 0 --plies 0 --seed 3 --integers)
expect 0 "10 positions found" "${W[@]}" --window 0.62,0.88 --out w.gz
zcat w.gz | head -1 | grep -qF " plies=0 window=0.62,0.88 values=integers engine=" ||
    no "--window header: $(zcat w.gz | head -1)"
# With --integers the label run and shesh eval value alike: the positions
# are exactly those of the run without it whose 0-ply win chance is in the
# window, all of them up to the last taken, in order.
expect 0 "200 labels written" --positions 200 --trials 0 --plies 0 --seed 3 --integers --out wall.gz
zcat wall.gz | tail -n +2 | cut -f2 > wallids
"$SHESH" eval --json --plies 0 - < wallids > wall0 || no "eval at 0 ply failed"
python3 - w.gz wallids wall0 <<'PY' || no "--window did not take exactly the positions in the window"
import gzip, json, sys
picked = [l.split("\t")[1] for l in gzip.open(sys.argv[1], "rt").read().splitlines()[1:]]
ids = open(sys.argv[2]).read().split()
win = [json.loads(l)["win"] for l in open(sys.argv[3])]
at = {i: k for k, i in enumerate(ids)}
assert len(picked) == 10 and all(i in at for i in picked), picked
inside = [i for i, w in zip(ids, win) if 0.62 <= w <= 0.88]
assert picked == inside[:10], (picked, inside[:10])
assert len(inside) < len(ids) / 2, len(inside)  # the window leaves most positions out
PY
for k in 1 2; do
    expect 0 "5 labels written" "${W[@]}" --window 0.62,0.88 --shard "$k/2" --out "ws$k.gz"
done
"$SHESH" label merge ws1.gz ws2.gz > wmerged 2> err || no "merge of --window shards: exit $? ($(cat err))"
diff <(zcat w.gz | tail -n +2) <(tail -n +2 wmerged) > /dev/null || no "the --window shards merged are not the whole run"
expect 0 "0 labels written to w.gz" "${W[@]}" --window 0.620,0.88 --out w.gz --resume
expect 1 "w.gz was made by another run" "${W[@]}" --window 0.6,0.88 --out w.gz --resume
expect 1 "w.gz was made by another run" "${W[@]}" --out w.gz --resume
# With --disagree as well both must hold.
expect 0 "4 positions found" "${W[@]}" --positions 4 --window 0.5,1 --disagree 0.08 --out wd.gz
zcat wd.gz | head -1 | grep -qF " disagree=0.08 window=0.5,1 values=" || no "--window with --disagree header: $(zcat wd.gz | head -1)"
zcat wd.gz | tail -n +2 | cut -f2 > wdids
"$SHESH" eval --json --plies 0 - < wdids > wd0 || no "eval at 0 ply failed"
"$SHESH" eval --json --plies 1 - < wdids > wd1 || no "eval at 1 ply failed"
python3 - wd0 wd1 <<'PY' || no "--window with --disagree took a position that fails one of them"
import json, sys
e0 = [json.loads(l) for l in open(sys.argv[1])]
e1 = [json.loads(l) for l in open(sys.argv[2])]
assert len(e0) == 4
assert all(a["win"] >= 0.5 and abs(a["cubeless"] - b["cubeless"]) >= 0.08 for a, b in zip(e0, e1)), e0
PY
expect 1 "winning 0.9999 to 1 at 0 ply: give a wider --window" "${W[@]}" --window 0.9999,1 --out far.gz
expect 1 "give a wider --window or a smaller --disagree" "${W[@]}" --window 0.9999,1 --disagree 0.5 --out far.gz
[ ! -e far.gz ] || no "a refused --window run left its file behind"
expect 2 "--window's LO (0.9) must be below its HI (0.3)" --window 0.9,0.3 --out x.gz
expect 2 "--window wants LO,HI" --window 0.9 --out x.gz
expect 2 "--window's HI" --window 0.2,1.5 --out x.gz
expect 2 "--window's LO" --window -0.1,0.5 --out x.gz
expect 2 "--window's LO" --window ,0.5 --out x.gz
passed "$f0" "--window takes exactly the positions whose player on roll wins LO to HI at 0 ply; shards merge; with --disagree both hold; an unreachable or malformed one is refused"

# ---- 2g. --from: the positions of a file ---------------------------------------------
f0=$fails
F=(--trials 12 --truncate 4 --seed 3)
# A run's own file labelled again with its seed and settings: its very
# labels (a label's dice come from the seed and its index alone), under a
# header that names the positions' hash instead of --every.
expect 0 "12 labels written to fa.gz" "${F[@]}" --from a.gz --out fa.gz
diff <(zcat a.gz | tail -n +2) <(zcat fa.gz | tail -n +2) > /dev/null ||
    no "--from a run's file: not the run's labels"
zcat fa.gz | head -1 | grep -qE '^# shesh-label 1 positions=12 seed=3 from=[0-9a-f]{16} trials=12 truncate=4 plies=0 engine=' ||
    no "--from header: $(zcat fa.gz | head -1)"
# The same positions as Position IDs (the rest of a line, comments and
# blank lines skipped), or as the plain merge of the run's shards: the
# same file, byte for byte.
{ echo "# the positions of a.gz"; echo; zcat a.gz | tail -n +2 | cut -f2 | sed 's/$/ anything after the ID/'; } > fids
expect 0 "12 labels written to fi.gz" "${F[@]}" --from fids --out fi.gz
cmp -s <(zcat fa.gz) <(zcat fi.gz) || no "--from a list of IDs differs from --from the label file"
expect 0 "12 labels written to fm.gz" "${F[@]}" --from merged --out fm.gz
cmp -s <(zcat fa.gz) <(zcat fm.gz) || no "--from the merge differs from --from the label file"
# Shards of it merge to the whole; a resume on another list is refused.
for k in 1 2; do expect 0 "6 labels written" "${F[@]}" --from fids --shard "$k/2" --out "fs$k.gz"; done
"$SHESH" label merge fs2.gz fs1.gz > fmerged 2> err || no "merge of --from shards: exit $? ($(cat err))"
diff <(zcat fa.gz | tail -n +2) <(tail -n +2 fmerged) > /dev/null || no "the --from shards merged are not the whole run"
head -5 fids > fids5
expect 1 "fi.gz was made by another run" "${F[@]}" --from fids5 --out fi.gz --resume
expect 0 "0 labels written to fi.gz" "${F[@]}" --from fids --out fi.gz --resume
# Bad files stop the run before it starts, naming the line; the options
# that choose among the engine's games do not go with it.
printf '4HPwATDgc/ABMA\nnot-an-id\n' > fbad
expect 1 "fbad line 2: neither a Position ID nor a label" "${F[@]}" --from fbad --out x.gz
printf '0\t4HPwATDgc/ABMA\t0.5 0.1\n' > fbadlabel
expect 1 "fbadlabel line 1: neither a Position ID nor a label" "${F[@]}" --from fbadlabel --out x.gz
printf '4HPwATDgc/ABMA\nAAAAAAAAAAAAAA\n' > fover
expect 1 "fover line 2: the game is over in this position" "${F[@]}" --from fover --out x.gz
printf '4HPwATDgc/ABMA\n4HPwATDgc/ABMA\0\n' > fnul
expect 1 "fnul line 2: holds a NUL byte" "${F[@]}" --from fnul --out x.gz
printf '# none\n\n' > fnone
expect 1 "fnone holds no position" "${F[@]}" --from fnone --out x.gz
expect 1 "cannot open no-such-file" "${F[@]}" --from no-such-file --out x.gz
[ ! -e x.gz ] || no "a refused --from run left its file behind"
for opt in "--positions 5" "--every 2" "--moves 3" "--disagree 0.1" "--window 0.6,0.9" "--race"; do
    # shellcheck disable=SC2086 # the option and its value are two words
    expect 2 "${opt%% *} chooses among the engine's games: not with --from" --from fids $opt --out x.gz
done
passed "$f0" "--from labels a file's positions (a label file, its merge or IDs) as the run that found them did; shards merge; bad files and options refused"

# ---- 3. resuming -------------------------------------------------------------------
f0=$fails
BIG=(--positions 40 --trials 24 --truncate 6 --seed 5)
"$SHESH" label "${BIG[@]}" --out whole.gz 2> /dev/null || no "the 40-label run failed"
"$SHESH" label "${BIG[@]}" --out k.gz 2> /dev/null &
bg_pid=$!
for _ in $(seq 1 400); do
    [ "$(zcat k.gz 2> /dev/null | wc -l)" -ge 4 ] && break
    sleep 0.02
done
kill -9 "$bg_pid"
wait "$bg_pid" 2> /dev/null
bg_pid=
n=$(zcat k.gz 2> /dev/null | wc -l)
[ "$n" -lt 41 ] || echo "skip: the run ended before kill -9 reached it"
expect 1 "exists: add --resume" "${BIG[@]}" --out k.gz
expect 0 "labels written to k.gz" "${BIG[@]}" --out k.gz --resume
cmp -s whole.gz k.gz || no "killed after $n lines and resumed, the file differs from an uninterrupted run"
# a member cut short at the end is dropped and written again
head -c $(($(stat -c %s whole.gz) - 9)) whole.gz > cut.gz
expect 0 "1 labels written to cut.gz" "${BIG[@]}" --out cut.gz --resume
cmp -s whole.gz cut.gz || no "a file cut inside its last label, resumed, differs"
expect 0 "0 labels written" "${BIG[@]}" --out cut.gz --resume
# killed just after its header: resumed, the header is not written twice
python3 -c 'import gzip, sys; h = gzip.open(sys.argv[1], "rt").readline(); open(sys.argv[2], "wb").write(gzip.compress(h.encode(), mtime=0))' whole.gz head.gz
expect 0 "40 labels written to head.gz" "${BIG[@]}" --out head.gz --resume
# (its header member was written here, not by shesh: compare what they hold)
cmp -s <(zcat whole.gz) <(zcat head.gz) ||
    no "a file of its header alone, resumed, differs from the uninterrupted run ($(zcat head.gz | grep -c '^#') headers)"
# SIGINT: exit 130, then resumed to the same
"$SHESH" label "${BIG[@]}" --out i.gz 2> ierr &
bg_pid=$!
for _ in $(seq 1 400); do
    [ "$(zcat i.gz 2> /dev/null | wc -l)" -ge 4 ] && break
    sleep 0.02
done
kill -INT "$bg_pid"
wait "$bg_pid"
status=$?
bg_pid=
if [ "$status" = 0 ]; then
    echo "skip: the run ended before SIGINT reached it"
else
    [ "$status" = 130 ] || no "SIGINT: exit $status, expected 130"
    grep -qF "go on with --resume" ierr || no "SIGINT: $(cat ierr)"
fi
expect 0 "labels written to i.gz" "${BIG[@]}" --out i.gz --resume
cmp -s whole.gz i.gz || no "stopped by SIGINT and resumed, the file differs"
# other options, another file, or damage: refused, the file left as it is
cp whole.gz keep.gz
expect 1 "made by another run" --positions 40 --trials 25 --truncate 6 --seed 5 --out whole.gz --resume
expect 1 "made by another run" "${BIG[@]}" --shard 1/2 --out whole.gz --resume
cmp -s whole.gz keep.gz || no "a refused resume changed the file"
printf 'plain text\n' > plain.gz
expect 1 "plain.gz" "${BIG[@]}" --out plain.gz --resume
# A rollout's equity, the luck taken out, may stray past 3 (a sure
# backgammon came out at 3.000712): such a file resumes and reads; past 6
# it is damaged. Its first three labels, the third's equity changed.
stray() { # EQUITY FILE
    python3 - "$1" whole.gz "$2" <<'PY'
import gzip, sys
eq, src, dst = sys.argv[1:]
lines = gzip.open(src, "rt").read().splitlines(True)[:4]
f = lines[3].split("\t")
f[3] = eq + " " + f[3].split(" ")[1]
lines[3] = "\t".join(f)
open(dst, "wb").write(b"".join(gzip.compress(l.encode(), mtime=0) for l in lines))
PY
}
stray 3.000712 past.gz
expect 0 "37 labels written to past.gz" "${BIG[@]}" --out past.gz --resume
cmp -s <(zcat whole.gz | sed 4d) <(zcat past.gz | sed 4d) ||
    no "resumed after a label of equity 3.000712, the file differs from the uninterrupted run"
"$SHESH" weights --labels past.gz > wout 2> werr || no "weights --labels refused an equity of 3.000712: $(cat werr)"
grep -qF "against 40 labels" wout || no "weights --labels did not judge all 40 labels: $(cat wout werr)"
stray 6.5 far.gz
expect 1 "far.gz is damaged: label 2 is not where it should be" "${BIG[@]}" --out far.gz --resume
passed "$f0" "kill -9, a cut member and SIGINT resume to the uninterrupted file; other runs refused; equities past 3 read, past 6 refused"

# ---- 4. merge refusals ----------------------------------------------------------------
f0=$fails
merge_refused() { # NEEDLE FILES...
    local needle=$1; shift
    "$SHESH" label merge "$@" > out 2> err
    local status=$?
    [ "$status" = 1 ] || no "merge $*: exit $status, expected 1"
    grep -qF -- "$needle" err || no "merge $*: stderr lacks '$needle': $(cat err)"
}
merge_refused "give each shard of the run once" s1.gz s2.gz
merge_refused "give each shard of the run once" s1.gz s1.gz s2.gz
"$SHESH" label --positions 12 --trials 12 --truncate 4 --seed 4 --shard 2/3 --out o2.gz 2> /dev/null
merge_refused "not from the same run" s1.gz o2.gz s3.gz
zcat s2.gz | head -3 | gzip > short.gz
merge_refused "stops before label" s1.gz short.gz s3.gz
merge_refused "plain.gz" s1.gz plain.gz s3.gz
zcat s1.gz | tail -n +2 | gzip > headless.gz
merge_refused "not a file of shesh label" headless.gz s2.gz s3.gz
"$SHESH" label merge > /dev/null 2>&1
[ $? = 2 ] || no "merge without files: not exit 2"
passed "$f0" "merge refuses missing, repeated, foreign and incomplete shards"

# ---- 5. bad options ---------------------------------------------------------------------
f0=$fails
expect 2 "--out FILE is required" --positions 3
expect 2 "--positions: '0'" --positions 0 --out x.gz
expect 2 "--trials: '1x'" --trials 1x --out x.gz
expect 2 "--trials: '-1'" --trials -1 --out x.gz
expect 2 "--every: '0'" --every 0 --out x.gz
expect 2 "--plies: '5'" --plies 5 --out x.gz
expect 2 "--shard" --shard 3/2 --out x.gz
expect 1 "cut.snn" --weights cut.snn --out x.gz
[ -e x.gz ] && no "a refused run left x.gz"
passed "$f0" "bad options exit 2 naming the option; a bad network file exits 1"

if [ "$fails" -ne 0 ]; then
    echo "t_label.sh: $fails failures"
    exit 1
fi
echo "t_label.sh: all passed"
