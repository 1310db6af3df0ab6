#!/usr/bin/env bash
# One command-line style for every command: each takes --opt=value and
# --opt value and unambiguous abbreviations of its long options; a
# malformed number (10x, abc, out of range) is a usage error that names the
# option; every usage error (bad value, unknown or ambiguous option, missing
# value, value where none goes, arguments that do not go together) is at
# most two lines on stderr ending in "try 'shesh CMD --help'", nothing on
# stdout, exit 2; with --json a refused single item is {"error": ...} on
# stdout; and a JSON key two commands print means the same in both.
set -u
SHESH=${SHESH:-build/shesh}
case $SHESH in /*) ;; *) SHESH=$PWD/$SHESH ;; esac
# shellcheck source=tests/lib/check.sh
. "$(dirname "$0")/lib/check.sh"

pid=4HPwATDgc/ABMA

# usage CMD NEEDLE ARGS...: `shesh ARGS` is a usage error of CMD (as the
# hint names it, "id encode") whose message holds NEEDLE.
usage() {
    local cmd=$1 needle=$2; shift 2
    "$SHESH" "$@" > "$dir/out" 2> "$dir/err" < /dev/null
    local status=$? what="shesh $*"
    [ "$status" = 2 ] || no "$what: exit $status, expected 2 ($(head -c 200 "$dir/err"))"
    [ -s "$dir/out" ] && no "$what: a usage error printed on stdout: $(head -c 200 "$dir/out")"
    local lines
    lines=$(wc -l < "$dir/err")
    { [ "$lines" -ge 1 ] && [ "$lines" -le 2 ]; } || no "$what: $lines lines on stderr, expected 1 or 2"
    local hint="try 'shesh ${cmd:+$cmd }--help'"
    [ "$(tail -n 1 "$dir/err")" = "$hint" ] ||
        no "$what: stderr does not end in \"$hint\": $(cat "$dir/err")"
    grep -qF -- "$needle" "$dir/err" || no "$what: stderr lacks '$needle': $(cat "$dir/err")"
    nusage=$((nusage + 1))
}

# accepted WANT-STATUS ARGS...: `shesh ARGS` exits WANT-STATUS, and no
# option of it is refused.
accepted() {
    local want=$1; shift
    "$SHESH" "$@" > "$dir/out" 2> "$dir/err" < /dev/null
    local status=$?
    [ "$status" = "$want" ] || no "shesh $*: exit $status, expected $want ($(head -c 300 "$dir/err"))"
    grep -q "try 'shesh" "$dir/err" && no "shesh $*: a usage error: $(cat "$dir/err")"
    naccepted=$((naccepted + 1))
}

nusage=0
naccepted=0

# ---- 1. --opt=value, --opt value, abbreviations -------------------------------
f0=$fails
accepted 0 id decode --js $pid
accepted 0 id encode --length=7 --score=1-2 --cube 2 --own=0 --dice=52 --max-cube=64 $pid
grep -q '^xgid .*:52:2:1:0:7:6$' "$dir/out" || no "id encode with --opt=value: $(cat "$dir/out")"
accepted 0 moves --match='8/5 6/5' $pid 31
[ "$(cat "$dir/out")" = "8/5 6/5	4HPwATCwZ/ABMA" ] || no "moves --match=MOVE: $(cat "$dir/out")"
accepted 0 moves --ma '8/5 6/5' --js $pid 31
accepted 0 rules --length=7 --max-cube=16 --no-cr --bea=1
grep -q '^max_cube      16$' "$dir/out" || no "rules --max-cube=16: $(cat "$dir/out")"
grep -q '^crawford_rule no$' "$dir/out" || no "rules --no-cr: $(cat "$dir/out")"
accepted 0 bench --seconds=0.01 --pos=positions/gnubg-1.07/moves.tsv.gz
accepted 0 bench --sec 0.01
accepted 0 match --games=4 --seed=18446744073709551615 --conc=1 --no-rec --quiet random random
grep -q 'seed 18446744073709551615' "$dir/out" || no "match --seed=2^64-1: $(cat "$dir/out")"
accepted 0 match --match-to=1 --matches=2 --on-f=stop --time=5 --no-rec --qu --js --max-c=4 shesh pubeval
grep -q '"match_to": 1' "$dir/out" || no "match --match-to=1: $(cat "$dir/out")"
accepted 0 selfplay --speed --pos=3 --se 7 random
accepted 0 calibrate --games=20 --threads=1 --engine=random --out="$dir/model.c" --win-f=0,1 --gammon-features 0
[ -s "$dir/model.c" ] || no "calibrate --out=model.c wrote nothing"
accepted 0 train --games=2 --check-every=2 --seed=3 --rate=0.5 --final-rate=0.25 --out="$dir/w.snn"
grep -q -- '--games 2 --seed 3 --rate 0.5 --final-rate 0.25 --id w ' "$dir/err" ||
    no "train --opt=value: the command it prints does not hold the options: $(cat "$dir/err")"
"$SHESH" weights "$dir/w.snn" > /dev/null || no "train --opt=value: w.snn is not a network file"
accepted 1 replay --timeout=0.5 --to=127.0.0.1:1 "$dir/no-such-file"
accepted 1 log cat "$dir/no-such-file"
# serve: --opt=value reaches the check of --plies against --max-plies
usage serve "--plies 3 is above --max-plies 1" serve --plies=3 --max-plies=1 --thr=1
passed "$f0" "$naccepted commands with --opt=value and abbreviations accepted"

# ---- 2. malformed numbers: exit 2, the option named ----------------------------
f0=$fails
for bad in 10x abc '' 99999999999999999999; do
    usage "id encode" "--length: '$bad'" id encode --length="$bad" $pid
    usage "id encode" "--cube: '$bad'" id encode --cube "$bad" $pid
    usage rules "--length: '$bad'" rules --length="$bad"
    usage rules "--beavers: '$bad'" rules --beavers "$bad"
    usage bench "--seconds: '$bad'" bench --seconds "$bad"
    usage match "--games: '$bad'" match --games "$bad" random random
    usage match "--seed: '$bad'" match --seed="$bad" random random
    usage match "--concurrency: '$bad'" match --concurrency "$bad" random random
    usage match "--match-to: '$bad'" match --match-to "$bad" random random
    usage match "--timeout: '$bad'" match --timeout="$bad" random random
    usage selfplay "--positions: '$bad'" selfplay --speed --positions "$bad"
    usage calibrate "--games: '$bad'" calibrate --games "$bad"
    usage calibrate "--seed: '$bad'" calibrate --seed "$bad"
    usage calibrate "--threads: '$bad'" calibrate --threads "$bad"
    usage calibrate "--win-features: '$bad'" calibrate --win-features "$bad"
    usage train "--games: '$bad'" train --games "$bad" --out w.c
    usage train "--seed: '$bad'" train --seed "$bad" --out w.c
    usage train "--rate: '$bad'" train --rate "$bad" --out w.c
    usage train "--check-every: '$bad'" train --check-every "$bad" --out w.c
    usage serve "--plies: '$bad'" serve --plies "$bad"
    usage serve "--idle-timeout: '$bad'" serve --idle-timeout="$bad"
    usage serve "--request-timeout: '$bad'" serve --request-timeout "$bad"
    usage serve "--threads: '$bad'" serve --threads "$bad"
    usage replay "--timeout: '$bad'" replay --timeout "$bad" --to 127.0.0.1:1 file
done
# out of range, one past each end
usage "id encode" "--length: '65' is not a whole number from 0 to 64" id encode --length 65 $pid
usage "id encode" "--on-roll: '2' is not a whole number from 0 to 1" id encode --on-roll 2 $pid
usage rules "--length: '65' is not a whole number from 0 to 64" rules --length 65
usage rules "--max-cube: '0'" rules --max-cube 0
usage bench "--seconds: '0.001' is not a number from 0.01 to 3600" bench --seconds 0.001
usage bench "--seconds: '3600.5'" bench --seconds 3600.5
usage match "--games: '1' is not a whole number from 2 to 100000000" match --games 1 a b
usage match "--games: '100000001'" match --games 100000001 a b
usage match "--seed: '18446744073709551616'" match --seed 18446744073709551616 a b
usage match "bad player 'default:+1': plies must be 0 to 4" match default:+1 random
usage match "bad player 'default: 1': plies must be 0 to 4" match 'default: 1' random
usage match "--concurrency: '257' is not a whole number from 1 to 256" match --concurrency 257 a b
usage match "--match-to: '65' is not a whole number from 1 to 64" match --match-to 65 a b
usage selfplay "--positions: '0'" selfplay --speed --positions 0
usage calibrate "--threads: '0' is not a whole number from 1 to 64" calibrate --threads 0
usage calibrate "--gammon-features: '13'" calibrate --gammon-features 0,13
usage train "--games: '0' is not a whole number from 1 to 1000000000" train --games 0 --out w.c
usage train "--final-rate: '10.5' is not a number above 0 and at most 10" train --final-rate 10.5 --out w.c
usage serve "--plies: '5' is not a whole number from 0 to 4" serve --plies 5
usage serve "--threads: '1025'" serve --threads 1025
usage serve "--idle-timeout: '10000001'" serve --idle-timeout 10000001
usage replay "--timeout: '0' is not a number above 0 and at most 3600" replay --timeout 0 --to 127.0.0.1:1 f
usage replay "--timeout: '3601'" replay --timeout 3601 --to 127.0.0.1:1 f
passed "$f0" "malformed and out-of-range numbers of every command exit 2 naming the option"

# ---- 3. every other usage error: two lines, the hint last ----------------------
f0=$fails
usage "" "give a command"
usage "" "unknown command 'frob'" frob
usage "" "unknown option '--frob'" --frob
for cmd in id moves rules bench match selfplay calibrate train serve log replay records; do
    usage "$cmd" "unknown option '--no-such-option'" "$cmd" --no-such-option
done
usage "id decode" "unknown option '--frob'" id decode --frob $pid
usage "id decode" "give one or more IDs" id decode
usage "id decode" "--json takes no value" id decode --json=yes $pid
usage "id decode" "after --" id decode -b----E-C---eE---c-e----B-:1:-1:1:00:2:1:0:7:10
usage "id encode" "--cube needs a value" id encode $pid --cube
usage "id encode" "nothing to encode" id encode
usage id "give an action" id
usage id "unknown action 'frob'" id frob
usage moves "give an ID and DICE" moves
usage moves "--match needs a MOVE" moves $pid 31 --match
usage moves "too many arguments" moves $pid 3 1 x
usage moves "--match does not go with '-'" moves --match 8/5 -
usage moves "unknown option '-x'" moves -x
usage rules "option '--no' is ambiguous: --no-backgammons" rules --no
usage rules "unexpected argument 'x'" rules x
usage rules "--rules cafe must come before --cube" rules --cube --rules cafe
usage bench "unexpected argument 'x'" bench x
usage match "give two players" match random
usage match "bad player 'random:9'" match random:9 random
usage match "must be even" match --games 3 random random
usage selfplay "shesh match PLAYER_A PLAYER_B" selfplay random random
usage selfplay "unexpected argument 'x'" selfplay --speed random x
usage calibrate "option '--gam' is ambiguous: --games, --gammon-features" calibrate --gam 3
usage calibrate "--engine: bad player" calibrate --engine random:x
usage train "--out FILE is required" train --games 10
usage train "--resume takes no value" train --resume=1 --out w.c
usage serve "unexpected argument 'x'" serve x
usage serve "--listen needs a value" serve --listen
usage log "give an action" log
usage log "unknown action 'dog'" log dog
usage "log cat" "give one or more transcript FILEs" log cat
usage "log cat" "unknown option '--frob'" log cat --frob
usage records "expected an action: cat FILE" records
usage records "unknown action 'frob'" records frob
usage records "cat needs the FILE of a record" records cat
usage records "cat takes one FILE" records cat a b
usage replay "give the transcript FILE" replay --to 127.0.0.1:1
usage replay "give the server with --to ADDR" replay file
usage replay "one transcript at a time" replay a b --to 127.0.0.1:1
passed "$f0" "$nusage usage errors: exit 2, one or two lines on stderr ending in the try-hint, nothing on stdout"

# ---- 4. --json: a refused single item is {"error": ...} on stdout --------------
f0=$fails
json_error() { # NEEDLE ARGS...: exit 1, stdout one JSON object whose "error" holds NEEDLE
    local needle=$1; shift
    "$SHESH" "$@" > "$dir/out" 2> "$dir/err" < /dev/null
    local status=$?
    [ "$status" = 1 ] || no "shesh $*: exit $status, expected 1"
    [ -s "$dir/err" ] || no "shesh $*: no message on stderr"
    python3 - "$dir/out" "$needle" <<'EOF' || no "shesh $*: stdout is not {\"error\": ...}: $(head -c 300 "$dir/out")"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 1, lines
o = json.loads(lines[0])
assert isinstance(o, dict) and sys.argv[2] in o['error'], o
EOF
}
json_error "not an ID" id decode --json nonsense
json_error "a Match ID alone does not make all four IDs" id encode --json QYkqASAAIAAA
json_error "cube value 3" id encode --json --cube 3 $pid
json_error "bad dice '77'" moves --json $pid 77
json_error "is not legal with 3-1" moves --json $pid 31 --match '24/1'
json_error "the Jacoby rule needs the cube" rules --json --no-cube --jacoby
# several IDs: one line each, the refused one as {"input": ..., "error": ...}
"$SHESH" id decode --json $pid nonsense 4HPwATDgc/ABMA:cIkFAAAAAAAA > "$dir/out" 2> /dev/null
python3 - "$dir/out" <<'EOF' || no "id decode --json with a bad ID among good ones: $(cat "$dir/out")"
import json, sys
o = [json.loads(l) for l in open(sys.argv[1])]
assert len(o) == 3 and 'error' not in o[0] and 'error' not in o[2], o
assert o[1]['input'] == 'nonsense' and o[1]['error'].startswith('not an ID'), o
EOF
passed "$f0" "--json answers a refused ID, roll, move or rules with {\"error\": ...} on stdout, exit 1"

# ---- 5. one JSON vocabulary ------------------------------------------------------
# A key that two commands print means the same there, in the same unit: the
# keys shared by id, moves and rules (and their errors) are exactly those
# below, each of one JSON type everywhere, and max_cube is a cube value in
# both id and rules (64 for an XGID whose field 10 is 6, and rules' default).
f0=$fails
{
    "$SHESH" id decode --json 'XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:3:0:6' | sed 's/^/id /'
    "$SHESH" id encode --json --length 5 --crawford $pid | sed 's/^/id /'
    "$SHESH" id decode --json nonsense 2> /dev/null | sed 's/^/id /'
    printf 'nonsense\n' | "$SHESH" id decode --json - 2> /dev/null | sed 's/^/id /'
    "$SHESH" moves --json $pid 31 | sed 's/^/moves /'
    "$SHESH" moves --json $pid 77 2> /dev/null | sed 's/^/moves /'
    printf 'x 31\n' | "$SHESH" moves --json - | sed 's/^/moves /'
    "$SHESH" rules --json --rules money | sed 's/^/rules /'
    "$SHESH" rules --json --no-cube --jacoby 2> /dev/null | sed 's/^/rules /'
} > "$dir/vocab"
python3 - "$dir/vocab" <<'EOF' || no "see above"
import json, sys
shared_ok = {'input', 'error', 'line', 'position_id', 'dice', 'jacoby', 'max_cube'}
seen = {}  # key -> {command: set of types}
lines = [l.split(' ', 1) for l in open(sys.argv[1])]
for cmd, text in lines:
    for k, v in json.loads(text).items():
        seen.setdefault(k, {}).setdefault(cmd, set()).add(type(v).__name__)
bad = 0
for k, by in sorted(seen.items()):
    types = set().union(*by.values())
    if len(by) > 1 and k not in shared_ok:
        print('FAIL: key %r is printed by %s: give it one meaning (and add it to shared_ok) '
              'or another name' % (k, ', '.join(sorted(by))))
        bad += 1
    if len(types) > 1 and not (k == 'xgid' and types == {'str', 'NoneType'}):
        print('FAIL: key %r has several types: %s' % (k, by))
        bad += 1
first = {}
for cmd, text in lines:
    first.setdefault(cmd, json.loads(text))
if first['id'].get('max_cube') != 64 or first['rules'].get('max_cube') != 64:
    print('FAIL: max_cube: id %s, rules %s; both should be the value 64'
          % (first['id'].get('max_cube'), first['rules'].get('max_cube')))
    bad += 1
sys.exit(bad > 0)
EOF
passed "$f0" "the keys id, moves and rules share mean the same in each, with one type; max_cube is a cube value in both"

if [ "$fails" -ne 0 ]; then
    echo "t_cli.sh: $fails failures"
    exit 1
fi
echo "t_cli.sh: all passed"
