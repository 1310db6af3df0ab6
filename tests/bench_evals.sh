#!/usr/bin/env bash
# bench_evals.sh - static evaluations per second on one thread: `shesh
# bench`'s figure beside gnubg's own `calibrate`, in the same run, round by
# round, so that the ratio is read off one machine at one time. A step of
# `make bench` (docs/performance.md has the figures).
#
#   bash tests/bench_evals.sh SHESH
#
# Each of BENCH_EVALS_ROUNDS rounds (default 3) runs gnubg 1.07 (GNUBG,
# default /usr/games/gnubg) headless with `set threads 1` and `calibrate
# BENCH_EVALS_CALIBRATE` (default 500: about 10 s), then `shesh bench
# --seconds 3 --json`; it prints both figures and their ratio, then the
# median ratio. The two count different work (gnubg's 250-input network
# over its own positions with its input features; Shesh's network, race
# evaluator and bear-off database over the default bench positions): the
# figure the engine is judged by, not a like-for-like kernel timing.
# Not a test: it asserts nothing about time. It fails (exit 1) only when
# either program gives no figure.
set -u
SHESH=${1:?usage: bench_evals.sh SHESH}
GNUBG=${GNUBG:-/usr/games/gnubg}
ROUNDS=${BENCH_EVALS_ROUNDS:-3}
ITER=${BENCH_EVALS_CALIBRATE:-500}
die() { echo "bench_evals: $*" >&2; exit 1; }
[ -x "$SHESH" ] || die "$SHESH is not an executable"
[ -x "$GNUBG" ] || die "$GNUBG is not an executable (set GNUBG)"
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || die "BENCH_EVALS_ROUNDS must be a positive integer"
[[ $ITER =~ ^[1-9][0-9]*$ ]] || die "BENCH_EVALS_CALIBRATE must be a positive integer"
case $SHESH in /*) ;; *) SHESH=$PWD/$SHESH ;; esac
# shesh bench's default positions are found from the top of the tree.
cd "$(dirname "$0")/.." || die "cannot go to the top of the tree"

# gnubg's figure: its line "Calibration result: N static evaluations/second."
# (after a carriage return) on its standard output; a gnubg that never
# gives it is stopped after 10 minutes.
gnubg_rate() {
    printf 'set threads 1\ncalibrate %s\nquit\ny\n' "$ITER" |
        timeout 600 "$GNUBG" -t -q 2> /dev/null | tr '\r' '\n' |
        sed -n 's/^Calibration result: \([0-9]*\) static.*/\1/p' | head -1
}

shesh_rate() {
    "$SHESH" bench --seconds 3 --json |
        python3 -c 'import json, sys; print(round(json.load(sys.stdin)["evals_per_second"]))'
}

echo "== static evaluations per second, one thread: shesh bench beside gnubg calibrate $ITER"
ratios=()
for r in $(seq 1 "$ROUNDS"); do
    g=$(gnubg_rate)
    [[ $g =~ ^[0-9]+$ ]] || die "gnubg gave no calibration figure"
    s=$(shesh_rate)
    [[ $s =~ ^[0-9]+$ ]] || die "shesh bench gave no figure"
    ratio=$(awk -v s="$s" -v g="$g" 'BEGIN { printf "%.2f", s / g }')
    ratios+=("$ratio")
    printf 'round %d: shesh %s/s, gnubg %s/s: x%s\n' "$r" "$s" "$g" "$ratio"
done
median=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }')
echo "median: shesh x$median gnubg's static evaluations per second"
