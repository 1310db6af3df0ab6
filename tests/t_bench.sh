# t_bench.sh - `shesh bench`: both signatures are the ones kept in
# tests/bench-signatures.txt, the text and JSON forms agree, and the speed
# figures are there (their values are measured by `make bench`, not tested).
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

if [ "$fails" -ne 0 ]; then
    echo "t_bench.sh: $fails failures"
    exit 1
fi
echo "t_bench.sh: all passed"
