# t_bench.sh - `shesh bench`: both signatures are the ones kept in
# tests/bench-signatures.txt, the text and JSON forms agree, and the speed
# figures are there (their values are measured by `make bench`, not tested);
# tests/tools/bench_moves.sh scores and classes a made-up benchmark right,
# and tests/tools/rollout_choices.sh finds and rolls out where two players
# choose differently on it;
# tests/bench_evals.sh reads gnubg's calibration figure.
set -u
. tests/lib/check.sh
SHESH=${SHESH:-build/shesh}

if ! "$SHESH" bench --json --seconds 0.01 >"$dir/json" 2>"$dir/err"; then
    no "shesh bench --json failed: $(cat "$dir/err")"
fi
"$SHESH" bench --seconds 0.01 >"$dir/text" 2>&1 || no "shesh bench failed: $(cat "$dir/text")"

for key in movegen_signature engine_signature; do
    want=$(sed -n "s/^$key \([0-9a-f]*\)$/\1/p" tests/bench-signatures.txt)
    got=$(sed -n "s/.*\"$key\": \"\([0-9a-f]*\)\".*/\1/p" "$dir/json")
    if [ -z "$want" ]; then
        no "tests/bench-signatures.txt has no $key"
    elif [ "$got" != "$want" ]; then
        no "$key is '$got', tests/bench-signatures.txt says $want (a change of behaviour: say why in the commit that updates it)"
    else
        echo "ok: $key $got"
    fi
done

grep -q "^signature:  $(sed -n 's/^movegen_signature //p' tests/bench-signatures.txt)$" "$dir/text" ||
    no "the text output's move generator signature differs from the JSON one"
grep -q "^engine signature: $(sed -n 's/^engine_signature //p' tests/bench-signatures.txt)$" "$dir/text" ||
    no "the text output's engine signature differs from the JSON one"
for key in move_lists_per_second evals_per_second; do
    grep -qE "\"$key\": [1-9][0-9]*" "$dir/json" || no "no positive $key in: $(cat "$dir/json")"
done

# --positions: the first column of a file (gzip or plain), however long
# its lines (gnubg's vectors run to 16 KB); a bad line is named.
f0=$fails
{ echo "# two positions"; printf '4HPwATDgc/ABMA\t%s\n' "$(head -c 20000 /dev/zero | tr '\0' x)"
  printf '4HPwATDgc/ABMA\tagain\n4PPBBwD/DQAADA\r\n'; } > "$dir/pos"
"$SHESH" bench --positions "$dir/pos" --seconds 0.01 > "$dir/pos.out" 2>&1 ||
    no "bench --positions of long lines: $(cat "$dir/pos.out")"
grep -qE "^positions: +2 " "$dir/pos.out" || no "bench --positions counted otherwise: $(cat "$dir/pos.out")"
printf '4HPwATDgc/ABMA\nnot-an-id\n' > "$dir/pos"
if "$SHESH" bench --positions "$dir/pos" --seconds 0.01 > "$dir/pos.out" 2>&1 ||
    ! grep -qF "pos line 2: a Position ID has 14 characters" "$dir/pos.out"; then
    no "bench --positions with a bad line: $(cat "$dir/pos.out")"
fi
[ "$fails" = "$f0" ] && echo "ok: bench --positions reads long lines and names a bad one"

# tests/tools/bench_moves.sh on a made-up benchmark: an opening (contact),
# a crashed position (9 and 2 checkers piled on the 1- and 2-points and 2
# back: 13 in play, 6 counted) and a race, each with every legal result at
# 0 but one other than Shesh's 0-ply choice at +0.01, in both columns: Shesh
# gives up 10 mEMG a decision, gnubg 0-ply none.
f0=$fails
BM=tests/tools/bench_moves.sh
printf '%s\n' '4HPwATDgc/ABMA 31' '4PPBBwD/DQAADA 21' 'VQEAQFUAAAAAAA 21' > "$dir/bm.rows"
"$SHESH" moves - < "$dir/bm.rows" > "$dir/bm.moves" || no "shesh moves - failed"
"$SHESH" hint --json --max 1 --plies 0 - < "$dir/bm.rows" > "$dir/bm.hint" || no "shesh hint - failed"
python3 - "$dir/bm.moves" "$dir/bm.hint" > "$dir/bm.tsv" <<'PY'
import json, sys
print("#posid\tdice\tresults\tgnubg_0ply")
for m, h in zip(open(sys.argv[1]), open(sys.argv[2])):
    pid, dice, _, pairs = m.rstrip("\n").split("\t")
    ids = [p.split("=")[0] for p in pairs.split(";")]
    chosen = json.loads(h)["moves"][0]["position"]
    better = next(i for i in ids if i != chosen)
    eq = ["0.01" if i == better else "0" for i in ids]
    print("%s\t%s\t%s\t%s" % (pid, dice, ";".join("%s=%s" % p for p in zip(ids, eq)), ",".join(eq)))
PY
gzip "$dir/bm.tsv"
if BENCH_MOVES_PLIES=0 bash "$BM" "$SHESH" "$dir/bm.tsv.gz" > "$dir/bm.out" 2>&1; then
    grep -qE '^Shesh 0-ply +10\.00 \+- 0\.00 +10\.00 \+- 0\.00 +10\.00 \+- 0\.00 +10\.00 \+- 0\.00 ' "$dir/bm.out" ||
        no "bench_moves: Shesh 0-ply should give up 10 mEMG in every class: $(cat "$dir/bm.out")"
    grep -qE '^gnubg 0-ply +0\.00 \+- 0\.00( +0\.00 \+- 0\.00){3}' "$dir/bm.out" ||
        no "bench_moves: gnubg 0-ply should give up nothing: $(cat "$dir/bm.out")"
    grep -qE '^positions +3 +1 +1 +1$' "$dir/bm.out" ||
        no "bench_moves: one position a class expected: $(cat "$dir/bm.out")"
else
    no "bench_moves.sh failed: $(cat "$dir/bm.out")"
fi
out=$(bash "$BM" "$SHESH" "$dir/absent.tsv.gz" 2>&1) || no "bench_moves.sh without its data should exit 0"
case $out in "move quality: skipped, no benchmark at $dir/absent.tsv.gz"*) ;;
    *) no "bench_moves.sh without its data should say it skips: $out" ;; esac
# A chosen result missing from its row fails the run.
gzip -dc "$dir/bm.tsv.gz" | sed "2s/$(head -1 "$dir/bm.hint" | sed 's/.*"position": "\([^"]*\)".*/\1/' |
    sed 's|/|\\/|g')=/AAAAAAAAAAAAAA=/" | gzip > "$dir/bad.tsv.gz"
BENCH_MOVES_PLIES=0 bash "$BM" "$SHESH" "$dir/bad.tsv.gz" > "$dir/bad.out" 2>&1 &&
    no "bench_moves.sh should fail when a chosen result is not in its row"
grep -q 'is not among the row.s results' "$dir/bad.out" || no "bench_moves.sh should say why: $(cat "$dir/bad.out")"
passed "$f0" "bench_moves.sh: losses and classes of a made-up benchmark, the skip without data, a missing result"

# tests/tools/rollout_choices.sh on the same made-up benchmark: gnubg's
# 2 plies (column 3) choose the result at +0.01 in every row, Shesh 0-ply
# its own, so the two differ in all three rows, each pair is rolled out,
# and gnubg's view of B less A is +0.01 a row, in each class one row;
# Shesh against itself differs nowhere.
f0=$fails
RC=tests/tools/rollout_choices.sh
if ROLLOUT_TRIALS=36 ROLLOUT_THREADS=1 bash "$RC" "$SHESH:0" gnubg2 "$dir/bm.tsv.gz" > "$dir/rc.out" 2>&1; then
    grep -q 'on 3 positions: they choose differently in 3$' "$dir/rc.out" ||
        no "rollout_choices: three differing rows expected: $(cat "$dir/rc.out")"
    grep -q '^rolled out: 3 pairs, 36 trials at 0 plies, seed 7,' "$dir/rc.out" ||
        no "rollout_choices: three pairs rolled out expected: $(cat "$dir/rc.out")"
    grep -qE '^  by the rollouts   [+-][0-9]\.[0-9]{4} \+- [0-9]\.[0-9]{4}  \(B better [0-3], worse [0-3];' "$dir/rc.out" ||
        no "rollout_choices: no rollouts line: $(cat "$dir/rc.out")"
    grep -q '^  by gnubg 2-ply    +0.0100 +- 0.0000  (B better 3, worse 0; in all +0.030)$' "$dir/rc.out" ||
        no "rollout_choices: gnubg's view should be +0.01 a row: $(cat "$dir/rc.out")"
    for c in race crashed contact; do
        grep -qE "^  $c +1  [+-][0-9]\.[0-9]{4} \+- 0\.0000  \+0\.0100 \+- 0\.0000$" "$dir/rc.out" ||
            no "rollout_choices: one $c row expected, gnubg's view +0.01: $(cat "$dir/rc.out")"
    done
else
    no "rollout_choices.sh failed: $(cat "$dir/rc.out")"
fi
ROLLOUT_TRIALS=36 bash "$RC" "$SHESH:0" "$SHESH:0" "$dir/bm.tsv.gz" > "$dir/rc.out" 2>&1 ||
    no "rollout_choices.sh of one player twice failed: $(cat "$dir/rc.out")"
grep -q 'they choose differently in 0$' "$dir/rc.out" || no "rollout_choices: one player twice differs: $(cat "$dir/rc.out")"
out=$(bash "$RC" gnubg2 gnubg0 "$dir/absent.tsv.gz" 2>&1) || no "rollout_choices.sh without its data should exit 0"
case $out in "rollout choices: skipped, no benchmark at $dir/absent.tsv.gz"*) ;;
    *) no "rollout_choices.sh without its data should say it skips: $out" ;; esac
bash "$RC" gnubg2 gnubg3 "$dir/bm.tsv.gz" > "$dir/rc.out" 2>&1
[ $? -eq 2 ] || no "rollout_choices.sh should exit 2 for a player it does not know"
grep -q "'gnubg3' is not gnubg2, gnubg0 or SHESH:PLIES" "$dir/rc.out" || no "rollout_choices: say why: $(cat "$dir/rc.out")"
passed "$f0" "rollout_choices.sh: the rows two players choose differently, rolled out, gnubg's view, the skip, a bad player"

# bench_evals.sh reads gnubg's calibration line (a stand-in gnubg here, so
# that no time is spent): the ratio is shesh's figure over it; a gnubg
# that gives no figure fails the run with a message.
f0=$fails
printf '#!/bin/sh\ncat > /dev/null\nprintf "\\nThe number of threads has been set to 1.\\n\\rCalibration result: 1000 static evaluations/second.\\n"\n' > "$dir/fake-gnubg"
chmod +x "$dir/fake-gnubg"
GNUBG=$dir/fake-gnubg BENCH_EVALS_ROUNDS=1 bash tests/bench_evals.sh "$SHESH" > "$dir/be.out" 2>&1 ||
    no "bench_evals.sh with a fake gnubg failed: $(cat "$dir/be.out")"
grep -qE '^round 1: shesh [0-9]+/s, gnubg 1000/s: x[0-9]+\.[0-9]{2}$' "$dir/be.out" ||
    no "bench_evals.sh: no round line: $(cat "$dir/be.out")"
grep -qE '^median: shesh x[0-9]+\.[0-9]{2} ' "$dir/be.out" || no "bench_evals.sh: no median: $(cat "$dir/be.out")"
GNUBG=/bin/true BENCH_EVALS_ROUNDS=1 bash tests/bench_evals.sh "$SHESH" > "$dir/be.out" 2>&1 &&
    no "bench_evals.sh should fail when gnubg gives no figure"
grep -qF 'gnubg gave no calibration figure' "$dir/be.out" || no "bench_evals.sh should say why: $(cat "$dir/be.out")"
passed "$f0" "bench_evals.sh: shesh's figure over gnubg's calibration line; no line, a failure"

if [ "$fails" -ne 0 ]; then
    echo "t_bench.sh: $fails failures"
    exit 1
fi
echo "t_bench.sh: all passed"
