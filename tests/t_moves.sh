#!/usr/bin/env bash
# `shesh moves`: the three spellings of a roll, the three kinds of ID, every
# row of moves.tsv.gz answered through stdin and compared with gnubg's
# columns, single requests compared with their rows, JSON that parses, and
# the exit status of each kind of error.
set -u
SHESH=${SHESH:-build/shesh}
VECTORS=positions/gnubg-1.07/moves.tsv.gz
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0

no() { echo "FAIL: $*"; fail=1; }

expect_status() { # WANT DESCRIPTION ARGS... (stdin from /dev/null)
    local want=$1 what=$2; shift 2
    "$SHESH" moves "$@" > "$dir/out" 2> "$dir/err" < /dev/null
    local got=$?
    [ "$got" = "$want" ] || no "$what: exit $got, expected $want ($(head -c 200 "$dir/err"))"
}

# Usage and help.
expect_status 0 "--help" --help
grep -q 'usage: shesh moves' "$dir/out" || no "--help prints no usage"
expect_status 2 "no argument"
expect_status 2 "unknown option" --frobnicate 4HPwATDgc/ABMA 31
expect_status 2 "too many arguments" 4HPwATDgc/ABMA 3 1 2
expect_status 2 "'-' with more arguments" - 31

# Opening 3-1: 16 moves, sorted by result ID, 8/5 6/5 among them.
expect_status 0 "opening 3-1" 4HPwATDgc/ABMA 31
cp "$dir/out" "$dir/open31"
[ "$(wc -l < "$dir/open31")" = 16 ] || no "opening 3-1: $(wc -l < "$dir/open31") lines, not 16"
grep -qxP '8/5 6/5\t4HPwATCwZ/ABMA' "$dir/open31" || no "opening 3-1 lacks '8/5 6/5<tab>4HPwATCwZ/ABMA'"
cut -f2 "$dir/open31" | LC_ALL=C sort -c 2> /dev/null || no "opening 3-1 is not sorted by result ID"
for dice in 3-1 13 1-3 "3 1"; do
    # shellcheck disable=SC2086 # "3 1" is meant to be two arguments
    expect_status 0 "dice '$dice'" 4HPwATDgc/ABMA $dice
    cmp -s "$dir/out" "$dir/open31" || no "dice '$dice' do not list what 31 lists"
done

# The same request as a GNUBG-ID carrying the roll, and as an XGID.
expect_status 0 "GNUBG-ID with its roll" 4HPwATDgc/ABMA:cIkFAAAAAAAA
cmp -s "$dir/out" "$dir/open31" || no "GNUBG-ID with 3-1 does not list what 31 lists"
expect_status 0 "XGID with its roll" 'XGID=-b----E-C---eE---c-e----B-:0:0:-1:31:0:0:0:0:10'
cmp -s "$dir/out" "$dir/open31" || no "XGID with 31 does not list what 31 lists"
expect_status 0 "XGID with DICE" 'XGID=-b----E-C---eE---c-e----B-:1:-1:1:00:2:1:0:7:10' 31
cmp -s "$dir/out" "$dir/open31" || no "XGID and DICE 31 do not list what 31 lists"

# Errors: a message and exit 1.
expect_status 1 "bad Position ID" 4HPwATDgc/ABM! 31
grep -q 'shesh moves: ' "$dir/err" || no "bad Position ID: no message"
expect_status 1 "short Position ID" 4HPwAT 31
expect_status 1 "die 7" 4HPwATDgc/ABMA 37
grep -q "bad dice '37'" "$dir/err" || no "die 7: message does not name the dice"
expect_status 1 "one die" 4HPwATDgc/ABMA 3
expect_status 1 "die 0" 4HPwATDgc/ABMA 3 0
expect_status 1 "three dice" 4HPwATDgc/ABMA 3-1-2
expect_status 1 "no roll anywhere" 4HPwATDgc/ABMA:cAkAAAAAAAAA
grep -q 'no dice' "$dir/err" || no "no roll: message does not say so"

# --match: any spelling gnubg reads finds the one legal move; the rest fail.
for text in '8/5 6/5' '6/5 8/5' '8 5 6 5' '8/5, 6/5*' '8/5 6/5\r\n' '6/5 8/5)'; do
    expect_status 0 "--match '$text'" 4HPwATDgc/ABMA 31 --match "$(printf "$text")"
    grep -qxP '8/5 6/5\t4HPwATCwZ/ABMA' "$dir/out" || no "--match '$text' printed '$(cat "$dir/out")'"
done
expect_status 0 "--match with counts" 4HPwATDgc/ABMA 66 --match '13/7 13/7 24/18 24/18'
grep -qxP '24/18\(2\) 13/7\(2\)\t4HPwATDg28HBAA' "$dir/out" || no "--match 13/7 13/7 24/18 24/18"
expect_status 0 "--match an elided hit" n/MCEQD/TQAASQ 65 --match bar/14
grep -qxP 'bar/19\*/14\tn/OACED/TQACEg' "$dir/out" || no "--match bar/14 printed '$(cat "$dir/out")'"
expect_status 1 "--match ambiguous" 3wAxg0I9XOCIBA 32 --match 7/2
grep -q '7/2 is ambiguous with 3-2: it could be 7/4\*/2 or 7/5\*/2' "$dir/err" || no "--match 7/2: $(cat "$dir/err")"
expect_status 1 "--match illegal" 4HPwATDgc/ABMA 31 --match 24/1
grep -q '24/1 is not legal with 3-1' "$dir/err" || no "--match 24/1: $(cat "$dir/err")"
expect_status 1 "--match unreadable" 4HPwATDgc/ABMA 31 --match '24-18'
grep -q "'-' means off" "$dir/err" || no "--match 24-18: $(cat "$dir/err")"
expect_status 1 "--match empty with moves" 4HPwATDgc/ABMA 31 --match ''
expect_status 0 "--match empty when dancing" n/MCEQD/TQAASQ 55 --match ''
[ -s "$dir/out" ] && no "--match '' when dancing printed '$(cat "$dir/out")'"
expect_status 0 "--match --json" --json 4HPwATDgc/ABMA 31 --match '6/5 8/5'
python3 -m json.tool "$dir/out" > /dev/null || no "--match --json is not valid JSON"
grep -q '"moves": \[{"move": "8/5 6/5", "result": "4HPwATCwZ/ABMA"}\]' "$dir/out" ||
    no "--match --json printed '$(cat "$dir/out")'"
expect_status 2 "--match without MOVE" 4HPwATDgc/ABMA 31 --match
expect_status 2 "--match with '-'" - --match 8/5

# No legal move: nothing printed, success.
expect_status 0 "dancing" n/MCEQD/TQAASQ 55
[ -s "$dir/out" ] && no "dancing: printed '$(head -c 80 "$dir/out")'"

# Every row of the vectors through stdin: the answer lines are the first
# four columns of the file, byte for byte.
zcat "$VECTORS" | grep -v '^#' | cut -f1-4 > "$dir/want.tsv"
zcat "$VECTORS" | cut -f1,2 | "$SHESH" moves - > "$dir/got.tsv"
status=$?
[ "$status" = 0 ] || no "stdin over moves.tsv.gz: exit $status"
if cmp -s "$dir/want.tsv" "$dir/got.tsv"; then
    echo "ok: $(wc -l < "$dir/got.tsv") rows of moves.tsv.gz answered as gnubg lists them"
else
    no "stdin over moves.tsv.gz differs from gnubg:"
    diff "$dir/want.tsv" "$dir/got.tsv" | head -5
fi

# A few rows one at a time, turned into the vector's RESULT=MOVE column.
for n in 1 77 1234 4321 6615; do
    row=$(sed -n "${n}p" "$dir/want.tsv")
    id=$(cut -f1 <<< "$row") dice=$(cut -f2 <<< "$row")
    got=$("$SHESH" moves "$id" "$dice" | awk -F'\t' '{printf "%s%s=%s", (NR > 1 ? ";" : ""), $2, $1}')
    [ "$got" = "$(cut -f4 <<< "$row")" ] || no "row $n ($id $dice) differs from gnubg's list"
done

# JSON: one object that parses and holds the same moves; JSON lines from
# stdin, errors included.
expect_status 0 "--json" --json 4HPwATDgc/ABMA 31
python3 -m json.tool "$dir/out" > /dev/null || no "--json output is not valid JSON"
python3 - "$dir/out" "$dir/open31" <<'EOF' || no "--json does not match the text output"
import json, sys
o = json.load(open(sys.argv[1]))
lines = [l.rstrip("\n").split("\t") for l in open(sys.argv[2])]
assert o["position_id"] == "4HPwATDgc/ABMA" and o["dice"] == [3, 1], o
assert [[m["move"], m["result"]] for m in o["moves"]] == lines
EOF
printf '4HPwATDgc/ABMA 3-1\n\n# comment\nnot-an-id "31"\n4HPwATDgc/ABMA 6 6\n' |
    "$SHESH" moves --json - > "$dir/lines.json"
status=$?
[ "$status" = 1 ] || no "--json - with a bad line: exit $status, expected 1"
python3 -m json.tool --json-lines "$dir/lines.json" > /dev/null || no "--json - is not valid JSON lines"
[ "$(wc -l < "$dir/lines.json")" = 3 ] || no "--json -: $(wc -l < "$dir/lines.json") answers, not 3"
grep -q '^{"line": 4, "error": ' "$dir/lines.json" || no "--json -: no error object for line 4"

# Text lines from stdin: an error line keeps its place.
printf '4HPwATDgc/ABMA 31\nbad 31\n4HPwATDgc/ABMA 7 1\n' | "$SHESH" moves - > "$dir/lines.txt"
status=$?
[ "$status" = 1 ] || no "stdin with bad lines: exit $status, expected 1"
sed -n 2p "$dir/lines.txt" | grep -q '^error: line 2: ' || no "stdin: line 2 is not an error line"
sed -n 3p "$dir/lines.txt" | grep -q "^error: line 3: bad dice" || no "stdin: line 3 is not a dice error"

# A NUL byte makes its line an error (not "too long"), and the next line is
# still answered.
printf '4HPwATDgc/ABMA 31\0\n4HPwATDgc/ABMA 66\n' | "$SHESH" moves - > "$dir/nul.txt"
[ $? = 1 ] || no "stdin with a NUL does not exit 1"
sed -n 1p "$dir/nul.txt" | grep -qx "error: line 1: a NUL byte in the line" || no "NUL: $(head -c 200 "$dir/nul.txt")"
sed -n 2p "$dir/nul.txt" | grep -q "^4HPwATDgc/ABMA	66	" || no "the line after a NUL was not answered"

[ $fail = 0 ] && echo "t_moves: all passed"
exit $fail
