#!/usr/bin/env bash
# Network files, through the commands a user types: `shesh weights` shows
# the compiled-in network and any file, checked (bad, cut, foreign files
# refused with exit 1 and a message); the compiled-in network is the file
# the Makefile names and src/engine/weights/README.md lists with its hash;
# and --weights FILE (hint, eval, rollout, bench, ubgi, serve) and
# shesh:weights=FILE (match) play with another network, refusing a bad
# file before anything else; rollout shards of two networks do not merge.
set -u
SHESH=${SHESH:-build/shesh}
case $SHESH in /*) ;; *) SHESH=$PWD/$SHESH ;; esac
# shellcheck source=tests/lib/check.sh
. "$(dirname "$0")/lib/check.sh"

OPENING=4HPwATDgc/ABMA

# ---- 1. the compiled-in network and the manifest ------------------------------
f0=$fails
default=$(sed -n 's/^NN_DEFAULT := //p' Makefile)
race=$(sed -n 's/^NN_RACE_DEFAULT := *//p' Makefile)
cube=$(sed -n 's/^NN_CUBE_DEFAULT := *//p' Makefile)
[ -f "$default" ] || no "the Makefile's NN_DEFAULT '$default' is not a file"
[ -z "$race" ] || [ -f "$race" ] || no "the Makefile's NN_RACE_DEFAULT '$race' is not a file"
[ -z "$cube" ] || [ -f "$cube" ] || no "the Makefile's NN_CUBE_DEFAULT '$cube' is not a file"
"$SHESH" weights > "$dir/in" 2>&1 || no "shesh weights: exit $? ($(cat "$dir/in"))"
# shellcheck disable=SC2086 # no race or cube network: no argument
"$SHESH" weights "$default" $race $cube > "$dir/file" 2>&1 || no "shesh weights $default $race $cube: $(cat "$dir/file")"
[ "$(sed 's/^[^:]*://' "$dir/in")" = "$(sed 's/^[^:]*://' "$dir/file")" ] ||
    no "the compiled-in networks are not $default $race $cube: $(cat "$dir/in" "$dir/file")"
[ "$(grep -c '^compiled-in race: network .*, inputs race-' "$dir/in")" = "$([ -n "$race" ] && echo 1 || echo 0)" ] ||
    no "shesh weights shows a compiled-in race network where the Makefile names '$race': $(cat "$dir/in")"
[ "$(grep -c '^compiled-in cube: network .*, inputs features-' "$dir/in")" = "$([ -n "$cube" ] && echo 1 || echo 0)" ] ||
    no "shesh weights shows a compiled-in cube network where the Makefile names '$cube': $(cat "$dir/in")"
# Every file of src/engine/weights is in the manifest with its id and hash,
# and the engine's id is the compiled-in network's.
manifest=src/engine/weights/README.md
for f in src/engine/weights/*.snn; do
    "$SHESH" weights --json "$f" > "$dir/j" || no "shesh weights $f refuses it"
    read -r id hash < <(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["id"], j["fnv64"])' "$dir/j")
    grep -qE "^\| \`$(basename "$f")\` \| $id \| $hash \|" "$manifest" ||
        no "$manifest has no row '| \`$(basename "$f")\` | $id | $hash |'"
done
id=$(python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["id"])' < <("$SHESH" weights --json))
passed "$f0" "shesh weights: the compiled-in networks are $default ($id) ${race:-and no race network} ${cube:-and no cube network}, every file in $manifest"

# ---- 2. bad files refused ----------------------------------------------------
f0=$fails
refused() { # NEEDLE FILE
    "$SHESH" weights "$2" > "$dir/out" 2> "$dir/err"
    local status=$?
    [ "$status" = 1 ] || no "weights $2: exit $status, expected 1"
    grep -qF -- "$1" "$dir/err" || no "weights $2: stderr lacks '$1': $(cat "$dir/err")"
    [ -s "$dir/out" ] && no "weights $2: printed $(head -c 200 "$dir/out")"
}
head -c 5000 "$default" > "$dir/cut.snn"
refused "cut short" "$dir/cut.snn"
python3 - "$default" "$dir/flip.snn" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
data[len(data) // 2] ^= 1
open(sys.argv[2], "wb").write(data)
PY
refused "damaged (its hash is" "$dir/flip.snn"
gzip -c "$default" > "$dir/gz.snn"
refused "not a network file" "$dir/gz.snn"
: > "$dir/empty.snn"
refused "not a network file" "$dir/empty.snn"
refused "cannot open $dir/none.snn" "$dir/none.snn"
refused "cannot read $dir: Is a directory" "$dir"
# read to a bound, not to the end: a network file is at most 4 MiB
head -c 4194305 /dev/zero > "$dir/big.snn"
refused "not a network file (over 4194304 bytes)" "$dir/big.snn"
refused "not a network file (over 4194304 bytes)" /dev/zero
# one bad file among good ones: the good ones are still shown, exit 1
"$SHESH" weights "$default" "$dir/cut.snn" "$default" > "$dir/out" 2> /dev/null
[ $? = 1 ] || no "weights GOOD BAD GOOD: not exit 1"
[ "$(grep -c 'network ' "$dir/out")" = 2 ] || no "weights GOOD BAD GOOD: not two shown: $(cat "$dir/out")"
"$SHESH" weights --json "$dir/cut.snn" > "$dir/out" 2> /dev/null
grep -qF '"error": ' "$dir/out" || no "weights --json BAD: no JSON error: $(cat "$dir/out")"
# a good file and a refused one name it by the same key
"$SHESH" weights --json "$default" "$dir/cut.snn" 2> /dev/null | python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin]
assert [r["input"] for r in rows] == [sys.argv[1], sys.argv[2]] and "error" in rows[1], rows
' "$default" "$dir/cut.snn" || no "weights --json: a good and a bad file not both named by \"input\""
passed "$f0" "cut, damaged, gzipped, empty, missing files and directories refused with exit 1"

# ---- 3. --weights plays with another network ------------------------------------
f0=$fails
(cd "$dir" && "$SHESH" train --games 40 --seed 5 --check-every 1000 --out small.snn 2> train.err) ||
    no "training a small network failed: $(cat "$dir/train.err")"
small=$dir/small.snn
# The engine is named by its contact network, then +RACE-ID where a race
# network is compiled in (a contact file keeps it).
plus=$("$SHESH" weights --json | python3 -c 'import json,sys; n=[json.loads(l) for l in sys.stdin if "race" in json.loads(l)]; print("+" + n[0]["id"] if n else "")')
# ... and +CUBE-ID last where a cube network is compiled in (a contact file
# takes its place).
cube_plus=$("$SHESH" weights --json | python3 -c 'import json,sys; n=[json.loads(l) for l in sys.stdin if json.loads(l)["input"] == "compiled-in cube"]; print("+" + n[0]["id"] if n else "")')
"$SHESH" eval "$OPENING" > "$dir/e0"
"$SHESH" eval --weights "$small" "$OPENING" > "$dir/e1" || no "eval --weights: exit $?"
cmp -s "$dir/e0" "$dir/e1" && no "eval --weights small.snn answers as the compiled-in network"
# (the network that values positions: the cube network where there is one)
"$SHESH" eval --weights "${cube:-$default}" "$OPENING" | cmp -s - "$dir/e0" ||
    no "eval --weights with the compiled-in network's file answers otherwise"
"$SHESH" hint --weights "$small" "$OPENING" 31 > "$dir/h1" || no "hint --weights: exit $?"
"$SHESH" hint "$OPENING" 31 | cmp -s - "$dir/h1" && no "hint --weights small.snn answers as the default"
"$SHESH" rollout --weights "$small" --trials 36 --truncate 2 --threads 1 --quiet "$OPENING" > /dev/null ||
    no "rollout --weights: exit $?"
# The shards of a rollout made with two networks are not one run.
"$SHESH" rollout --shard 1/2 --trials 8 --truncate 2 --threads 1 --quiet --json "$OPENING" > "$dir/r1.json"
"$SHESH" rollout --weights "$small" --shard 2/2 --trials 8 --truncate 2 --threads 1 --quiet --json "$OPENING" > "$dir/r2.json"
grep -qF "\"engine\": \"small$plus\"" "$dir/r2.json" || no "rollout --json does not name the network: $(head -c 200 "$dir/r2.json")"
"$SHESH" rollout merge "$dir/r1.json" "$dir/r2.json" > /dev/null 2> "$dir/err"
[ $? = 1 ] || no "rollout merge of shards of two networks: not exit 1"
grep -qF "not the same network ('$id$plus$cube_plus' " "$dir/err" || no "rollout merge: $(cat "$dir/err")"
# ... nor shards of two networks of the same id (the hash tells them apart)
(cd "$dir" && "$SHESH" train --games 40 --seed 6 --check-every 1000 --id small --out other.snn 2> /dev/null)
"$SHESH" rollout --weights "$dir/other.snn" --shard 1/2 --trials 8 --truncate 2 --threads 1 --quiet --json "$OPENING" > "$dir/r3.json"
"$SHESH" rollout merge "$dir/r3.json" "$dir/r2.json" > /dev/null 2> "$dir/err"
[ $? = 1 ] && grep -qF "not the same network ('small$plus' " "$dir/err" ||
    no "rollout merge of two networks called small: $(cat "$dir/err")"
"$SHESH" rollout --weights "$small" --shard 1/2 --trials 8 --truncate 2 --threads 1 --quiet --json "$OPENING" > "$dir/r4.json"
"$SHESH" rollout merge "$dir/r4.json" "$dir/r2.json" > /dev/null 2> "$dir/err" || no "rollout merge of one network's shards: $(cat "$dir/err")"
printf 'ubgi\nisready\nquit\n' | "$SHESH" ubgi --weights "$small" > "$dir/u" || no "ubgi --weights: exit $?"
grep -qx readyok "$dir/u" || no "ubgi --weights: no readyok: $(cat "$dir/u")"
# A bad file: refused before any work, exit 1, the file named.
bad_weights() { # COMMAND ARGS... (--weights BAD goes after COMMAND)
    "$SHESH" "$1" --weights "$dir/cut.snn" "${@:2}" < /dev/null > "$dir/out" 2> "$dir/err"
    local status=$?
    [ "$status" = 1 ] || no "$* --weights BAD: exit $status, expected 1"
    grep -qF "$dir/cut.snn: cut short" "$dir/err" || no "$* --weights BAD: stderr lacks the file: $(head -c 300 "$dir/err")"
}
bad_weights eval "$OPENING"
bad_weights hint "$OPENING" 31
bad_weights rollout --trials 2 "$OPENING"
bad_weights ubgi
bad_weights bench --seconds 0.01
bad_weights serve --unix "$dir/never.sock"
# an empty name is a usage error
for cmd in eval hint rollout ubgi bench serve label; do
    "$SHESH" "$cmd" --weights= "$OPENING" < /dev/null > /dev/null 2> "$dir/err"
    status=$?
    [ "$status" = 2 ] && grep -qF -- "--weights: give the network file's name" "$dir/err" ||
        no "$cmd --weights=: exit $status ($(head -c 200 "$dir/err"))"
done
[ -e "$dir/never.sock" ] && no "serve --weights BAD left its socket"
# The server says which network answers, at start and to 'version'.
"$SHESH" serve --unix "$dir/w.sock" --weights "$small" --plies 0 2> "$dir/serve.err" &
bg_pid=$!
for _ in $(seq 1 200); do
    grep -qF "engine small$plus" "$dir/serve.err" && break
    sleep 0.05
done
grep -qF "engine small$plus, 0 plies" "$dir/serve.err" || no "serve --weights: the start line: $(cat "$dir/serve.err")"
python3 - "$dir/w.sock" > "$dir/v" <<'PY' || no "serve --weights: version failed"
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall(b"version\n")
data = b""
while b"Software" not in data:
    chunk = s.recv(4096)
    if not chunk:
        break
    data += chunk
print(data.decode())
PY
grep -qxF "Engine: small$plus" "$dir/v" || no "serve --weights: version says $(cat "$dir/v")"
kill "$bg_pid"
wait "$bg_pid" 2> /dev/null
bg_pid=
passed "$f0" "--weights FILE in eval, hint, rollout, ubgi, serve; a bad file refused by each, bench too"

# ---- 4. players with weights=FILE in matches ---------------------------------------
f0=$fails
"$SHESH" match --cubeless --games 2 --no-record --quiet "shesh:weights=$small" shesh > "$dir/m" 2> "$dir/merr" ||
    no "match shesh:weights=FILE: exit $? ($(head -c 300 "$dir/merr"))"
grep -qF "small-0 (A) vs shesh-0 (B)" "$dir/m" || no "match: the player is not named small-0: $(head -2 "$dir/m")"
"$SHESH" match --cubeless --games 2 --no-record --quiet "shesh:1:weights=$small" "X=shesh:plies=0:weights=$default" > "$dir/m" 2> "$dir/merr" ||
    no "match shesh:1:weights=FILE: exit $?"
grep -qF "small-1 (A) vs X (B)" "$dir/m" || no "match: shesh:1:weights: $(head -2 "$dir/m")"
bad_player() { # STATUS NEEDLE SPEC
    "$SHESH" match --cubeless --games 2 --no-record --quiet "$3" shesh > /dev/null 2> "$dir/merr"
    local status=$?
    [ "$status" = "$1" ] || no "match $3: exit $status, expected $1"
    grep -qF -- "$2" "$dir/merr" || no "match $3: stderr lacks '$2': $(cat "$dir/merr")"
}
bad_player 1 "$dir/cut.snn: cut short" "shesh:weights=$dir/cut.snn"
# a bad file is refused before the records are made
(cd "$dir" && "$SHESH" match --cubeless --games 2 --record rec --quiet "shesh:weights=$dir/none.snn" shesh > /dev/null 2> "$dir/merr")
[ $? = 1 ] || no "match --record with a missing network file: not exit 1"
ls "$dir"/rec.* > /dev/null 2>&1 && no "match with a missing network file left records: $(ls "$dir"/rec.*)"
bad_player 2 "engine 'calibrated' has no network" "calibrated:weights=$small"
bad_player 2 "weights=FILE needs a file name" "shesh:weights="
bad_player 2 "weights=FILE is for an engine" "pubeval:weights=$small"
bad_player 2 "after the plies only :weights=FILE" "shesh:1:weight=$small"
bad_player 2 "plies must be 0 to 4" "shesh:9:weights=$small"
passed "$f0" "match players shesh[:N]:weights=FILE, named after the file; bad specs and files refused"

# ---- 5. the cube network -------------------------------------------------------------
# The compiled-in cube network values positions (the cube, eval) and the
# contact network chooses the moves: given the cube network's file as
# --weights (which then does both), the cube answers are the default
# build's and the moves are not; given the contact network's file, the
# moves are and the cube answers are not. The engine names the cube
# network last.
f0=$fails
if [ -n "$cube" ]; then
    cube_id=$("$SHESH" weights --json "$cube" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
    contact_id=$("$SHESH" weights --json "$default" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
    # money games (the opening, a double) and a 7-point match, at 0 and 2 plies
    for pos in "$OPENING" zM5gwGCzuRYCBA 'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:7:10'; do
        for plies in 0 2; do
            "$SHESH" hint --plies $plies "$pos" > "$dir/c0"
            "$SHESH" hint --plies $plies --weights "$cube" "$pos" | cmp -s - "$dir/c0" ||
                no "hint --plies $plies $pos: the cube network's file does not answer as the compiled-in cube network"
            "$SHESH" hint --plies $plies --weights "$default" "$pos" | cmp -s - "$dir/c0" &&
                no "hint --plies $plies $pos: the contact network's file answers the cube as the cube network"
        done
    done
    for plies in 0 1; do
        "$SHESH" hint --plies $plies "$OPENING" 42 > "$dir/m0"
        "$SHESH" hint --plies $plies --weights "$default" "$OPENING" 42 | cmp -s - "$dir/m0" ||
            no "hint --plies $plies 42: the contact network's file does not move as the default build"
        "$SHESH" hint --plies $plies --weights "$cube" "$OPENING" 42 | cmp -s - "$dir/m0" &&
            no "hint --plies $plies 42: the cube network's file moves as the contact network"
    done
    "$SHESH" eval --weights "$default" "$OPENING" | cmp -s - "$dir/e0" &&
        no "eval: the contact network's file values the opening as the cube network"
    "$SHESH" rollout --trials 4 --truncate 2 --threads 1 --quiet --json "$OPENING" > "$dir/r0.json"
    [ "$cube_plus" = "+$cube_id" ] || no "shesh weights --json: the compiled-in cube network is '$cube_plus', not $cube_id"
    grep -qF "\"engine\": \"$contact_id$plus+$cube_id\"" "$dir/r0.json" ||
        no "rollout --json does not name the engine $contact_id$plus+$cube_id: $(head -c 300 "$dir/r0.json")"
    "$SHESH" rollout --weights "$default" --trials 4 --truncate 2 --threads 1 --quiet --json "$OPENING" > "$dir/r1.json"
    grep -qF "\"engine\": \"$contact_id$plus\"" "$dir/r1.json" ||
        no "rollout --weights CONTACT --json names a cube network: $(head -c 300 "$dir/r1.json")"
else
    grep -q '^compiled-in cube' "$dir/in" && no "shesh weights shows a cube network the Makefile does not name"
fi
passed "$f0" "the cube network values positions, the contact network chooses the moves; the engine names both"

if [ "$fails" -ne 0 ]; then
    echo "t_weights.sh: $fails failures"
    exit 1
fi
echo "t_weights.sh: all passed"
