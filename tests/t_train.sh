#!/usr/bin/env bash
# `shesh train` checkpoints and resumes: a run of 300 games writes the very
# file (byte for byte) that a run stopped at 150 by --stop-after and resumed
# writes, and so does a run stopped by SIGINT wherever it falls; the
# checkpoint is gone once the run is done. A damaged, truncated, foreign or
# forged checkpoint, and one made with other options, is refused with exit 1
# and a message naming what is wrong, and left as it was. The result is a
# network file (shesh weights reads it) named by --id or the file name;
# --from FILE trains on from a network file, and a checkpoint resumes only
# from the network it started from; --labels trains by epochs on shesh
# label's labels, nearer them, resuming only on the same labels; --rank
# also trains the pairs of results of one roll it finds among them,
# resuming only with the same weight; --features
# makes a network that reads the hand-made features, resuming only as one;
# --race a race network from shesh label --race's labels, refusing other
# labels, a contact network to start from and a contact checkpoint.
# Bad option values are refused with exit 2 naming the option.
set -u
SHESH=${SHESH:-build/shesh}
case $SHESH in /*) ;; *) SHESH=$PWD/$SHESH ;; esac
# shellcheck source=tests/lib/check.sh
. "$(dirname "$0")/lib/check.sh"

# Runs shesh train in directory $dir/$1 with the other arguments; status in
# $status, stderr in $dir/err.
train() { # SUBDIR ARGS...
    local sub=$1; shift
    mkdir -p "$dir/$sub"
    (cd "$dir/$sub" && "$SHESH" train "$@" > "$dir/out" 2> "$dir/err" < /dev/null)
    status=$?
}

expect() { # WANT-STATUS STDERR-NEEDLE SUBDIR ARGS...
    local want=$1 needle=$2; shift 2
    train "$@"
    [ "$status" = "$want" ] || no "train ${*:2}: exit $status, expected $want ($(head -c 300 "$dir/err"))"
    grep -qF -- "$needle" "$dir/err" || no "train ${*:2}: stderr lacks '$needle': $(head -c 300 "$dir/err")"
}

OPTS=(--games 300 --seed 7 --check-every 100)

# ---- 1. stopped at 150 and resumed = never stopped ---------------------------
f0=$fails
train full "${OPTS[@]}" --out w.snn
[ "$status" = 0 ] || no "a run of 300 games exits $status: $(head -c 300 "$dir/err")"
[ -s "$dir/full/w.snn" ] || no "a run of 300 games writes no w.snn"
[ -e "$dir/full/w.snn.ckpt" ] && no "a finished run leaves its checkpoint w.snn.ckpt"
"$SHESH" weights "$dir/full/w.snn" > "$dir/show" 2>&1 || no "shesh weights refuses w.snn: $(cat "$dir/show")"
grep -qF "network w, inputs raw-198" "$dir/show" || no "w.snn is not network 'w': $(cat "$dir/show")"
grep -qF "wrote w.snn: network w, fnv64" "$dir/err" || no "the end message does not name the file: $(cat "$dir/err")"

expect 0 "--resume" split "${OPTS[@]}" --stop-after 150 --out w.snn
grep -qF "stopped after 150 of 300 games" "$dir/err" || no "the stop message does not say 150 of 300: $(cat "$dir/err")"
[ -s "$dir/split/w.snn.ckpt" ] || no "--stop-after 150 writes no checkpoint w.snn.ckpt"
[ -e "$dir/split/w.snn" ] && no "--stop-after 150 writes w.snn before the end"
for tmp in "$dir"/split/*.tmp; do
    [ -e "$tmp" ] && no "a temporary file is left behind: $tmp"
done
cp "$dir/split/w.snn.ckpt" "$dir/half.ckpt"
expect 0 "resuming" split "${OPTS[@]}" --out w.snn --resume
cmp -s "$dir/full/w.snn" "$dir/split/w.snn" ||
    no "300 games stopped at 150 and resumed differ from 300 in one go: $(diff "$dir/full/w.snn" "$dir/split/w.snn" | head -c 300)"
[ -e "$dir/split/w.snn.ckpt" ] && no "a resumed run leaves its checkpoint once done"
# --check-every only says when to report and checkpoint: another is fine.
cp "$dir/half.ckpt" "$dir/split/w.snn.ckpt"
rm -f "$dir/split/w.snn"
expect 0 "resuming" split --games 300 --seed 7 --check-every 1000 --out w.snn --resume
cmp -s "$dir/full/w.snn" "$dir/split/w.snn" || no "resumed with another --check-every, the network differs"
passed "$f0" "300 games = 150, stop, resume 150 (byte for byte, twice); checkpoint removed at the end"

# ---- 2. SIGINT: finish the game, checkpoint, exit 0, resume to the same ----------
f0=$fails
SIG=(--games 1000 --seed 3 --check-every 100000)
train sigfull "${SIG[@]}" --out w.snn
[ "$status" = 0 ] || no "a run of 1000 games exits $status"
mkdir -p "$dir/sig"
(cd "$dir/sig" && exec "$SHESH" train "${SIG[@]}" --out w.snn > /dev/null 2> "$dir/sig.err" < /dev/null) &
bg_pid=$!
# Signal it once it holds SIGINT blocked (it does so while training): the
# signal mask of /proc tells, no clock involved.
for _ in $(seq 1 2000); do
    blk=$(sed -n 's/^SigBlk:[[:space:]]*//p' "/proc/$bg_pid/status" 2> /dev/null)
    [ -n "$blk" ] && (((16#$blk >> 1) & 1)) && break
    [ -e "/proc/$bg_pid" ] || break
    sleep 0.01
done
kill -INT "$bg_pid"
wait "$bg_pid"
status=$?
bg_pid=
if [ -e "$dir/sig/w.snn" ]; then
    echo "skip: the run of 1000 games ended before SIGINT reached it"
else
    [ "$status" = 0 ] || no "SIGINT: exit $status, expected 0 ($(head -c 300 "$dir/sig.err"))"
    grep -qF -- "--resume" "$dir/sig.err" || no "SIGINT: the message does not say how to resume: $(cat "$dir/sig.err")"
    [ -s "$dir/sig/w.snn.ckpt" ] || no "SIGINT: no checkpoint written"
    expect 0 "resuming" sig "${SIG[@]}" --out w.snn --resume
    cmp -s "$dir/sigfull/w.snn" "$dir/sig/w.snn" ||
        no "1000 games interrupted by SIGINT ($(head -1 "$dir/sig.err")) and resumed differ from 1000 in one go"
fi
passed "$f0" "SIGINT: checkpoint, exit 0, resumed to the same network"

# ---- 3. checkpoints refused --------------------------------------------------
f0=$fails
ck=$dir/bad/w.snn.ckpt
mkdir -p "$dir/bad"
refused() { # NEEDLE ARGS... : resuming $ck is refused with exit 1, $ck unchanged
    local needle=$1; shift
    cp "$ck" "$dir/before"
    expect 1 "$needle" bad "$@" --out w.snn --resume
    cmp -s "$ck" "$dir/before" || no "a refused checkpoint was changed ($needle)"
    [ -e "$dir/bad/w.snn" ] && no "a refused resume wrote w.snn ($needle)"
}
cp "$dir/half.ckpt" "$ck"
refused "--games 300, not --games 400" --games 400 --seed 7
refused "--seed 7, not --seed 8" --games 300 --seed 8
refused "--rate 0.1, not --rate 0.2" --games 300 --seed 7 --rate 0.2
refused "--final-rate 0.02, not --final-rate 0.01" --games 300 --seed 7 --final-rate 0.01
refused "started from random weights" --games 300 --seed 7 --from-default
refused "started from random weights" --games 300 --seed 7 --from "$dir/full/w.snn"
refused "--games 300, not --games 200000" --seed 7
# damaged: one byte of the weights flipped, cut short, emptied, foreign
python3 - "$dir/half.ckpt" "$ck" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
data[len(data) // 2] ^= 0x10
open(sys.argv[2], "wb").write(data)
PY
refused "damaged" --games 300 --seed 7
head -c 5000 "$dir/half.ckpt" > "$ck"
refused "damaged" --games 300 --seed 7
: > "$ck"
refused "not a checkpoint" --games 300 --seed 7
printf 'hello\n' > "$ck"
refused "not a checkpoint" --games 300 --seed 7
# forged with a good CRC: another --games, a NaN weight, done beyond games,
# another network size
forge() { # PYTHON-EXPR over header bytes h and weights bytes w
    python3 - "$dir/half.ckpt" "$ck" "$1" <<'PY'
import sys, zlib
data = open(sys.argv[1], "rb").read()[:-15]
at = data.index(b"\nweights ") + 1
at = data.index(b"\n", at) + 1
h, w = data[:at], bytearray(data[at:])
exec(sys.argv[3])
body = bytes(h) + bytes(w)
open(sys.argv[2], "wb").write(body + b"crc32 %08x\n" % zlib.crc32(body))
PY
}
forge 'h = h.replace(b"games 300", b"games 400")'
refused "--games 400, not --games 300" --games 300 --seed 7
forge 'w[40:44] = b"\x00\x00\xc0\x7f"'
refused "not a finite number" --games 300 --seed 7
forge 'h = h.replace(b"done 150", b"done 301")'
refused "malformed" --games 300 --seed 7
forge 'h = h.replace(b"net 198 ", b"net 197 ")'
refused "inputs" --games 300 --seed 7
forge 'h = h.replace(b"seed 7", b"seed 7x")'
refused "malformed" --games 300 --seed 7
rm -f "$ck"
expect 1 "cannot open" bad --games 300 --seed 7 --out w.snn --resume
head -c 16777217 /dev/zero > "$ck"
expect 1 "is too big to be a checkpoint of shesh train" bad --games 300 --seed 7 --out w.snn --resume
rm -f "$ck"
# a checkpoint is never overwritten by a fresh start
cp "$dir/half.ckpt" "$ck"
expect 1 "--resume" bad "${OPTS[@]}" --out w.snn
cmp -s "$ck" "$dir/half.ckpt" || no "a fresh start changed an existing checkpoint"
# a checkpoint of the format before network files
printf 'shesh-train-checkpoint 1\nnet 198 128 5\n' > "$ck"
refused "an older shesh (format 1)" --games 300 --seed 7
printf 'shesh-train-checkpoint 2\nnet 198 128 5\n' > "$ck"
refused "an older shesh (format 2)" --games 300 --seed 7
passed "$f0" "damaged, truncated, foreign, forged and mismatched checkpoints refused with exit 1"

# ---- 3b. starting from a network file ------------------------------------------
f0=$fails
FROM=(--games 200 --seed 9 --check-every 100)
train from "${FROM[@]}" --from "$dir/full/w.snn" --id td-x --out next.snn
[ "$status" = 0 ] || no "--from w.snn: exit $status ($(head -c 300 "$dir/err"))"
"$SHESH" weights "$dir/from/next.snn" > "$dir/show" 2>&1 || no "the --from network is refused: $(cat "$dir/show")"
grep -qF "network td-x," "$dir/show" || no "--id td-x is not the network's id: $(cat "$dir/show")"
grep -qF -- "--from $dir/full/w.snn --id td-x --out next.snn" "$dir/err" ||
    no "the command printed at the end lacks --from: $(cat "$dir/err")"
cmp -s "$dir/from/next.snn" "$dir/full/w.snn" && no "200 games from w.snn left the network as it was"
# stopped and resumed from the same file: the same network; from another: refused
expect 0 "--resume" fromsplit "${FROM[@]}" --stop-after 100 --from "$dir/full/w.snn" --id td-x --out next.snn
cp "$dir/fromsplit/next.snn.ckpt" "$dir/from.ckpt"
expect 1 "and this run from a network" fromsplit "${FROM[@]}" --from "$dir/sigfull/w.snn" --id td-x --out next.snn --resume
expect 1 "and this run from random weights" fromsplit "${FROM[@]}" --id td-x --out next.snn --resume
expect 0 "resuming" fromsplit "${FROM[@]}" --from "$dir/full/w.snn" --id td-x --out next.snn --resume
cmp -s "$dir/from/next.snn" "$dir/fromsplit/next.snn" || no "--from: stopped at 100 and resumed differs"
# a bad --from file: exit 1, naming it; nothing written
printf 'not a network\n' > "$dir/junk.snn"
expect 1 "--from: $dir/junk.snn: not a network file" fromjunk "${FROM[@]}" --from "$dir/junk.snn" --out n.snn
expect 1 "--from: cannot open $dir/none.snn" fromjunk "${FROM[@]}" --from "$dir/none.snn" --out n.snn
[ -e "$dir/fromjunk/n.snn" ] || [ -e "$dir/fromjunk/n.snn.ckpt" ] && no "a refused --from wrote a file"
passed "$f0" "--from FILE and --id: trained on from the file, resumed only from the same file"

# ---- 3c. supervised on labels ---------------------------------------------------
f0=$fails
mkdir -p "$dir/sup"
"$SHESH" label --positions 30 --trials 8 --truncate 2 --seed 4 --out "$dir/labels.gz" 2> /dev/null ||
    no "shesh label failed"
SUP=(--labels "$dir/labels.gz" --epochs 6 --rate 0.05 --final-rate 0.01 --from-default --check-every 60)
train sup "${SUP[@]}" --out s.snn
[ "$status" = 0 ] || no "--labels: exit $status ($(head -c 300 "$dir/err"))"
grep -qF "180 steps" "$dir/err" || no "--labels: 30 labels x 6 epochs are not 180 steps: $(cat "$dir/err")"
mae() { "$SHESH" weights --labels "$dir/labels.gz" --json "$@" | python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["mean_abs_error"][0])'; }
before=$(mae) after=$(mae "$dir/sup/s.snn")
python3 -c "import sys; sys.exit(not float('$after') < 0.9 * float('$before'))" ||
    no "six epochs on the labels did not bring the network nearer them ($before -> $after)"
expect 0 "--resume" supsplit "${SUP[@]}" --stop-after 70 --out s.snn
grep -qF "stopped after 70 of 180 steps" "$dir/err" || no "--labels --stop-after 70: $(cat "$dir/err")"
cp "$dir/supsplit/s.snn.ckpt" "$dir/sup.ckpt"
expect 0 "resuming" supsplit "${SUP[@]}" --out s.snn --resume
cmp -s "$dir/sup/s.snn" "$dir/supsplit/s.snn" || no "--labels: stopped at 70 and resumed differs"
"$SHESH" label --positions 30 --trials 8 --truncate 2 --seed 5 --out "$dir/other.gz" 2> /dev/null
cp "$dir/sup.ckpt" "$dir/supsplit/s.snn.ckpt"
expect 1 "on other labels" supsplit --labels "$dir/other.gz" --epochs 6 --rate 0.05 --final-rate 0.01 \
    --from-default --out s.snn --resume
expect 1 "by TD self-play" supsplit --games 180 --rate 0.05 --final-rate 0.01 --from-default --out s.snn --resume
printf 'no labels here\n' > "$dir/junk.txt"
expect 1 "--labels: $dir/junk.txt line 1: not a label" supjunk --labels "$dir/junk.txt" --out s.snn
# Without --check-every, a report a pass: 20,500 labels, 2 passes, reports
# at 20,500 and 41,000 steps (the TD default of 20,000 would make three).
"$SHESH" label --positions 20500 --trials 0 --seed 4 --out "$dir/many.gz" 2> /dev/null ||
    no "shesh label --trials 0 failed"
train supdef --labels "$dir/many.gz" --epochs 2 --from-default --out s.snn
reports=$(grep -E '^[0-9]+ steps,' "$dir/err" | cut -d' ' -f1 | tr '\n' ' ')
[ "$status" = 0 ] && [ "$reports" = "20500 41000 " ] ||
    no "--labels without --check-every: exit $status, reports at steps '$reports', not a pass apart"
passed "$f0" "--labels: supervised epochs bring the network nearer the labels, resume to the same, refuse other labels, report once a pass"

# ---- 3c'. --rank: pairs of results of one roll ------------------------------------
f0=$fails
"$SHESH" label --positions 60 --moves 6 --trials 0 --seed 4 --out "$dir/moves.gz" 2> /dev/null ||
    no "shesh label --moves failed"
RANK=(--labels "$dir/moves.gz" --epochs 4 --rate 0.05 --final-rate 0.01 --from-default --check-every 60)
expect 0 "pairs of results of one roll" rank "${RANK[@]}" --rank 2 --out r.snn
pairs=$(sed -n 's/^shesh train: \([0-9]*\) pairs of results of one roll.*/\1/p' "$dir/err")
# 60 results of at most 6 moves a roll: at most 5 pairs in each group of 6.
[ -n "$pairs" ] && [ "$pairs" -ge 30 ] && [ "$pairs" -le 50 ] ||
    no "--rank: '$pairs' pairs among 60 results of 10 rolls ($(head -c 300 "$dir/err"))"
grep -qF -- "--rank 2 --from-default" "$dir/err" || no "the command printed at the end lacks --rank: $(cat "$dir/err")"
train norank "${RANK[@]}" --out r.snn
cmp -s "$dir/rank/r.snn" "$dir/norank/r.snn" && no "--rank 2 trained the same network as no --rank"
expect 0 "0 pairs of results" rankplay --labels "$dir/labels.gz" --epochs 1 --from-default --rank 2 --out r.snn
expect 0 "--resume" ranksplit "${RANK[@]}" --rank 2 --stop-after 100 --out r.snn
cp "$dir/ranksplit/r.snn.ckpt" "$dir/rank.ckpt"
expect 1 "was made with --rank 2, this run with --rank 3" ranksplit "${RANK[@]}" --rank 3 --out r.snn --resume
expect 1 "was made with --rank 2, this run with no --rank" ranksplit "${RANK[@]}" --out r.snn --resume
expect 0 "resuming" ranksplit "${RANK[@]}" --rank 2 --out r.snn --resume
cmp -s "$dir/rank/r.snn" "$dir/ranksplit/r.snn" || no "--rank: stopped at 100 and resumed differs"
mkdir -p "$dir/norank2"
cp "$dir/sup.ckpt" "$dir/norank2/s.snn.ckpt"
expect 1 "was made with no --rank, this run with --rank 2" norank2 "${SUP[@]}" --rank 2 --out s.snn --resume
expect 2 "--rank trains on pairs of labels" rankgames --games 10 --rank 2 --out r.snn
expect 2 "--rank" rankzero "${RANK[@]}" --rank 0 --out r.snn
passed "$f0" "--rank: pairs of results of one roll found, trained, named in the command, resumed to the same, other --rank refused"

# ---- 3d. a network that reads the features -------------------------------------
f0=$fails
FEAT=(--labels "$dir/labels.gz" --epochs 6 --rate 0.2 --final-rate 0.05 --from "$dir/full/w.snn" --features --check-every 60)
train feat "${FEAT[@]}" --out f.snn
[ "$status" = 0 ] || no "--features: exit $status ($(head -c 300 "$dir/err"))"
grep -qF -- "--from $dir/full/w.snn --features --id f --out f.snn" "$dir/err" ||
    no "the command printed at the end lacks --features: $(cat "$dir/err")"
"$SHESH" weights "$dir/feat/f.snn" > "$dir/show" 2>&1 || no "the --features network is refused: $(cat "$dir/show")"
grep -qF "inputs features-218" "$dir/show" || no "--features: the network does not read the features: $(cat "$dir/show")"
"$SHESH" weights "$dir/full/w.snn" | grep -qF "inputs raw-198" || no "the TD network reads more than the points"
before=$(mae "$dir/full/w.snn") after=$(mae "$dir/feat/f.snn")
python3 -c "import sys; sys.exit(not float('$after') < 0.9 * float('$before'))" ||
    no "--features: six epochs did not bring the network nearer the labels ($before -> $after)"
expect 0 "--resume" featsplit "${FEAT[@]}" --stop-after 70 --out f.snn
cp "$dir/featsplit/f.snn.ckpt" "$dir/feat.ckpt"
expect 1 "holds a network of 218 inputs" featsplit --labels "$dir/labels.gz" --epochs 6 --rate 0.2 \
    --final-rate 0.05 --from "$dir/full/w.snn" --out f.snn --resume
cp "$dir/feat.ckpt" "$dir/featsplit/f.snn.ckpt"
expect 0 "resuming" featsplit "${FEAT[@]}" --out f.snn --resume
cmp -s "$dir/feat/f.snn" "$dir/featsplit/f.snn" || no "--features: stopped at 70 and resumed differs"
# from random weights, and on from a network that has them already
train featrand --games 20 --seed 3 --features --out r.snn
"$SHESH" weights "$dir/featrand/r.snn" 2>&1 | grep -qF "inputs features-218" || no "--features from random weights: no features"
train featon --games 20 --seed 3 --from "$dir/feat/f.snn" --out g.snn
"$SHESH" weights "$dir/featon/g.snn" 2>&1 | grep -qF "inputs features-218" || no "trained on from a features network, the features are gone"
passed "$f0" "--features: the network reads the features, nears the labels, resumes to the same; a raw run refuses its checkpoint"

# ---- 3d'. a network that reads all eighteen features ------------------------------
f0=$fails
ALL=(--labels "$dir/labels.gz" --epochs 6 --rate 0.05 --final-rate 0.01 --from "$dir/feat/f.snn" --all-features --check-every 60)
train all "${ALL[@]}" --out a.snn
[ "$status" = 0 ] || no "--all-features: exit $status ($(head -c 300 "$dir/err"))"
grep -qF -- "--from $dir/feat/f.snn --all-features --id a --out a.snn" "$dir/err" ||
    no "the command printed at the end lacks --all-features: $(cat "$dir/err")"
"$SHESH" weights "$dir/all/a.snn" 2>&1 | grep -qF "inputs features-234" || no "--all-features: not features-234"
# widened from the ten-feature network, it starts out valuing as that one
train allsame --labels "$dir/labels.gz" --epochs 1 --rate 0.000000001 --final-rate 0.000000001 \
    --from "$dir/feat/f.snn" --all-features --out s.snn
b=$("$SHESH" eval --weights "$dir/feat/f.snn" --json 4HPwATDgc/ABMA | python3 -c 'import json,sys; print(round(json.load(sys.stdin)["cubeless"], 4))')
a=$("$SHESH" eval --weights "$dir/allsame/s.snn" --json 4HPwATDgc/ABMA | python3 -c 'import json,sys; print(round(json.load(sys.stdin)["cubeless"], 4))')
[ -n "$a" ] && [ "$a" = "$b" ] || no "--all-features from a ten-feature network: equity $a, not $b, after a near-zero rate"
expect 0 "--resume" allsplit "${ALL[@]}" --stop-after 70 --out a.snn
expect 1 "holds a network of 234 inputs" allsplit --labels "$dir/labels.gz" --epochs 6 --rate 0.05 \
    --final-rate 0.01 --from "$dir/feat/f.snn" --features --out a.snn --resume
expect 0 "resuming" allsplit "${ALL[@]}" --out a.snn --resume
cmp -s "$dir/all/a.snn" "$dir/allsplit/a.snn" || no "--all-features: stopped at 70 and resumed differs"
expect 2 "choose one" allboth --games 10 --features --all-features --out x.snn
passed "$f0" "--all-features: features-234, widened from ten features to the same values, resumes to the same"

# ---- 3e. a race network ----------------------------------------------------------
f0=$fails
"$SHESH" label --race --positions 40 --trials 8 --truncate 0 --seed 4 --out "$dir/race.gz" 2> /dev/null ||
    no "shesh label --race failed"
RACE=(--labels "$dir/race.gz" --epochs 6 --rate 0.05 --final-rate 0.01 --race --check-every 60)
train race "${RACE[@]}" --out r.snn
[ "$status" = 0 ] || no "--race: exit $status ($(head -c 300 "$dir/err"))"
grep -qF -- "--race --id r --out r.snn" "$dir/err" || no "the command printed at the end lacks --race: $(cat "$dir/err")"
grep -qF "ppg against pubeval" "$dir/err" && no "--race plays games against pubeval: $(cat "$dir/err")"
"$SHESH" weights "$dir/race/r.snn" > "$dir/show" 2>&1 || no "the race network is refused: $(cat "$dir/show")"
grep -qF "inputs race-198" "$dir/show" || no "--race: not a race network: $(cat "$dir/show")"
grep -qF "  race: win " "$dir/show" || no "shesh weights shows a race network on the opening: $(cat "$dir/show")"
# trained on from it (a race network without --race), 30 more epochs: nearer the labels
train raceon --labels "$dir/race.gz" --epochs 30 --rate 0.05 --final-rate 0.01 --from "$dir/race/r.snn" --out r2.snn
[ "$status" = 0 ] || no "--from a race network: exit $status ($(head -c 300 "$dir/err"))"
"$SHESH" weights "$dir/raceon/r2.snn" 2>&1 | grep -qF "inputs race-198" || no "trained on from a race network, not a race network"
racemae() { "$SHESH" weights --labels "$dir/race.gz" --json "$@" | python3 -c 'import json,sys; print(json.load(sys.stdin)["mean_abs_error"][0])'; }
before=$(racemae "$dir/race/r.snn") after=$(racemae "$dir/raceon/r2.snn")
python3 -c "import sys; sys.exit(not float('$after') < 0.9 * float('$before'))" ||
    no "--race: 30 more epochs did not bring the network nearer the labels ($before -> $after)"
# with the race features; stopped and resumed: the same network
train racefeat "${RACE[@]}" --features --out f.snn
"$SHESH" weights "$dir/racefeat/f.snn" 2>&1 | grep -qF "inputs race-218" || no "--race --features: not race-218"
expect 0 "--resume" racesplit "${RACE[@]}" --features --stop-after 70 --out f.snn
cp "$dir/racesplit/f.snn.ckpt" "$dir/race.ckpt"
expect 0 "resuming" racesplit "${RACE[@]}" --features --out f.snn --resume
cmp -s "$dir/racefeat/f.snn" "$dir/racesplit/f.snn" || no "--race: stopped at 70 and resumed differs"
# with the race model's features too (race-234): stopped and resumed, the same;
# shesh weights, the engine and training from it read it
train racemodel "${RACE[@]}" --all-features --out m.snn
"$SHESH" weights "$dir/racemodel/m.snn" > "$dir/show" 2>&1 || no "the race-234 network is refused: $(cat "$dir/show")"
grep -qF "inputs race-234" "$dir/show" || no "--race --all-features: not race-234: $(cat "$dir/show")"
expect 0 "--resume" racemsplit "${RACE[@]}" --all-features --stop-after 70 --out m.snn
expect 0 "resuming" racemsplit "${RACE[@]}" --all-features --out m.snn --resume
cmp -s "$dir/racemodel/m.snn" "$dir/racemsplit/m.snn" || no "--race --all-features: stopped at 70 and resumed differs"
before=$(racemae "$dir/racemodel/m.snn")
train racemon --labels "$dir/race.gz" --epochs 30 --rate 0.05 --final-rate 0.01 --from "$dir/racemodel/m.snn" --out m2.snn
after=$(racemae "$dir/racemon/m2.snn")
python3 -c "import sys; sys.exit(0 if $after < $before else 1)" ||
    no "race-234: 30 more epochs did not bring the network nearer the labels ($before -> $after)"
# --all-features goes on from a race-234 network, and refuses to widen a race-218 one
expect 0 "m3.snn" racemon2 --labels "$dir/race.gz" --epochs 2 --from "$dir/racemodel/m.snn" --all-features --out m3.snn
expect 1 "is a race network of race-218; one of race-234 is trained from random weights" racemwiden \
    --labels "$dir/race.gz" --epochs 2 --from "$dir/racefeat/f.snn" --all-features --out x.snn
# a race checkpoint resumed as a contact run, and the other way round
cp "$dir/race.ckpt" "$dir/racesplit/f.snn.ckpt"
expect 1 "trains a race network, and this run a contact one" racesplit --labels "$dir/race.gz" --epochs 6 \
    --rate 0.05 --final-rate 0.01 --features --out f.snn --resume
CONTACT_ON_RACE=(--labels "$dir/race.gz" --epochs 6 --rate 0.05 --final-rate 0.01 --features)
expect 0 "--resume" racecontact "${CONTACT_ON_RACE[@]}" --stop-after 70 --out c.snn
expect 1 "trains a contact network, and this run a race one" racecontact "${CONTACT_ON_RACE[@]}" --race \
    --out c.snn --resume
# the wrong labels, the wrong network, no labels
expect 1 "--labels: label 1 is a contact position, not a race for a race network" racebad \
    --labels "$dir/labels.gz" --race --out x.snn
expect 1 "--race: $dir/full/w.snn is a contact network" racebad --labels "$dir/race.gz" --race \
    --from "$dir/full/w.snn" --out x.snn
expect 1 "--labels: label 1 is a contact position" racebad --labels "$dir/labels.gz" --from "$dir/race/r.snn" --out x.snn
expect 1 "is a race network: train it on --labels" racebad --games 10 --from "$dir/race/r.snn" --out x.snn
[ -e "$dir/racebad/x.snn" ] || [ -e "$dir/racebad/x.snn.ckpt" ] && no "a refused race run wrote a file"
# the engine plays races with it, and contact as before
RACE_ID=$(zcat "$dir/race.gz" | awk -F'\t' 'NR == 2 {print $2}')
"$SHESH" eval --json "$RACE_ID" > "$dir/e0" && "$SHESH" eval --json --weights "$dir/race/r.snn" "$RACE_ID" > "$dir/e1" ||
    no "eval --weights RACE-NET: exit $?"
cmp -s "$dir/e0" "$dir/e1" && no "eval --weights RACE-NET values a race as the race model does"
"$SHESH" eval --json 4HPwATDgc/ABMA > "$dir/e0" && "$SHESH" eval --json --weights "$dir/race/r.snn" 4HPwATDgc/ABMA > "$dir/e1"
cmp -s "$dir/e0" "$dir/e1" || no "eval --weights RACE-NET values the opening otherwise"
"$SHESH" hint --weights "$dir/race/r.snn" "$RACE_ID" 31 > /dev/null || no "hint --weights RACE-NET: exit $?"
# the engine is named by its networks: CONTACT+RACE, then +CUBE where a
# cube network is compiled in (a race file leaves it in place)
contact=$("$SHESH" weights --json | python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["id"])')
cube=$("$SHESH" weights --json | python3 -c 'import json,sys; print("".join("+" + n["id"] for n in map(json.loads, sys.stdin) if n["input"] == "compiled-in cube"))')
"$SHESH" rollout --weights "$dir/race/r.snn" --trials 8 --truncate 2 --threads 1 --quiet --json "$RACE_ID" > "$dir/ro" ||
    no "rollout --weights RACE-NET: exit $?"
grep -qF "\"engine\": \"$contact+r$cube\"" "$dir/ro" || no "rollout --weights RACE-NET does not name $contact+r$cube: $(head -c 300 "$dir/ro")"
passed "$f0" "--race: a race network from race labels (race-198, race-218, race-234), trained on, resumed to the same; wrong labels, networks and checkpoints refused; the engine values races with it"

# ---- 4. bad option values ----------------------------------------------------
f0=$fails
usage_error() { # NEEDLE ARGS...
    local needle=$1; shift
    expect 2 "$needle" opts "$@"
    [ -e "$dir/opts/w.snn" ] || [ -e "$dir/opts/w.snn.ckpt" ] && no "train $*: wrote a file"
}
usage_error "--games: '10x'" --games 10x --out w.snn
usage_error "--games: '0'" --games 0 --out w.snn
usage_error "--games: '-5'" --games -5 --out w.snn
usage_error "--games: ' 10'" --games ' 10' --out w.snn
usage_error "--seed: 'abc'" --seed abc --out w.snn
usage_error "--seed: '-1'" --seed -1 --out w.snn
usage_error "--seed: '99999999999999999999'" --seed 99999999999999999999 --out w.snn
usage_error "--rate: 'nan'" --rate nan --out w.snn
usage_error "--rate: '0'" --rate 0 --out w.snn
usage_error "--final-rate: '0.1x'" --final-rate 0.1x --out w.snn
usage_error "--check-every: '1.5'" --check-every 1.5 --out w.snn
usage_error "--stop-after: ''" --stop-after '' --out w.snn
usage_error "--out FILE is required" --games 10
usage_error "--out needs a value" --games 10 --out
usage_error "unknown option '--gamez'" --gamez 10 --out w.snn
usage_error "--from-default and --from: choose one" --from-default --from x.snn --out w.snn
usage_error "--id 'a b': expected 1 to 31" --id 'a b' --out w.snn
usage_error "--id '': expected 1 to 31" --id '' --out w.snn
usage_error "makes no network id" --out 'my net.snn'
usage_error "makes no network id" --out dir/
usage_error "--games is for TD self-play; with --labels give --epochs" --labels x.gz --games 10 --out w.snn
usage_error "--epochs needs --labels FILE" --epochs 3 --out w.snn
usage_error "--epochs: '0'" --labels x.gz --epochs 0 --out w.snn
usage_error "--race trains on labels: give --labels FILE" --race --out w.snn
usage_error "--race and --from-default" --race --labels x.gz --from-default --out w.snn
passed "$f0" "bad option values refused with exit 2, naming the option"

if [ "$fails" -ne 0 ]; then
    echo "t_train.sh: $fails failures"
    exit 1
fi
echo "t_train.sh: all passed"
