#!/usr/bin/env bash
# Game records as gnubg sees them: seeded random games written as record
# files game by game (tests/tools/record_games, the writer the referee will
# use), printed by `shesh records cat`, imported by the real gnubg 1.07
# (`import mat`). gnubg exits 0 even when an import fails, so each check
# reads what it prints: `show score` must give the record's games and score,
# it must not warn, and the match it exports again must hold every roll of
# the record in order (a score alone could come out right from the "Wins"
# lines even if gnubg had dropped the moves). A money session under
# gnubg's rules (its seed has chains of two raccoons and dropped beavers),
# one under the plain money rules, a 5-point and a 7-point match; a record
# cut inside its last game imports the games before it; bad files and
# usage.
set -u
SHESH=${SHESH:-build/shesh}
TOOLS=${TOOLS:-build/tools}
# shellcheck source=tests/lib/gnubg.sh
. "$(dirname "$0")/lib/gnubg.sh"
# shellcheck source=tests/lib/check.sh
. "$(dirname "$0")/lib/check.sh"

# gnubg_import MATFILE LOG [SET-COMMANDS...]: gnubg imports the file after
# the set commands (Jacoby and beavers are gnubg's own settings at import).
gnubg_import() {
    local mat=$1 log=$2
    shift 2
    { printf '%s\n' "$@"; echo "import mat $mat"; echo "show score"
      echo "export match mat $mat.back"; echo "quit"; } |
        timeout 120 "$GNUBG" -t -q > "$log" 2>&1
}

# same_rolls MATFILE NAME: gnubg's export of what it imported has the rolls
# of the file, in order, and gnubg printed no complaint.
same_rolls() {
    grep -o '[1-6][1-6]:' "$1" > "$1.rolls"
    if [ ! -s "$1.back" ]; then
        no "$2: gnubg exported nothing"
    elif ! grep -o '[1-6][1-6]:' "$1.back" | cmp -s - "$1.rolls"; then
        no "$2: gnubg's export has $(grep -o '[1-6][1-6]:' "$1.back" | wc -l) rolls," \
           "the record $(wc -l < "$1.rolls")"
    fi
}

COMPLAINTS="warning|invalid|unrecognised|illegal|not a valid|error|doesn't follow"

# score_line GAMES A B KIND: what gnubg's `show score` says of them.
score_line() {
    local s=s
    [ "$1" = 1 ] && s=
    echo "The score (after $1 game$s) is: Alice $2, Bob $3 ($4"
}

# check NAME LENGTH GAMES SEED PRESET KIND [SET-COMMANDS...]
check() {
    local name=$1 len=$2 games=$3 seed=$4 preset=$5 kind=$6 f0=$fails
    shift 6
    local rec=$dir/$name.mat.gz out
    out=$("$TOOLS/record_games" "$rec" "$len" "$games" "$seed" "$preset") ||
        { no "$name: record_games failed"; return; }
    # shellcheck disable=SC2086
    set -- $out "$@"
    local n=$2 a=$4 b=$5
    shift 5
    "$SHESH" records cat "$rec" > "$dir/$name.mat" 2> "$dir/$name.err" ||
        no "$name: shesh records cat exits $?"
    [ -s "$dir/$name.err" ] && no "$name: shesh records cat says: $(cat "$dir/$name.err")"
    gnubg_import "$dir/$name.mat" "$dir/$name.log" "$@"
    local want got
    want=$(score_line "$n" "$a" "$b" "$kind")
    got=$(grep -o 'The score (after .*' "$dir/$name.log" | tail -n 1)
    [[ $got == "$want"* ]] || no "$name: gnubg says '$got', the record '$want...)'"
    if grep -iE "$COMPLAINTS" "$dir/$name.log" > "$dir/$name.warn"; then
        no "$name: gnubg complained: $(head -n 3 "$dir/$name.warn")"
    fi
    same_rolls "$dir/$name.mat" "$name"
    passed "$f0" "$name: gnubg imports $n games, $(wc -l < "$dir/$name.mat.rolls") rolls, $got"
}

[ -x "$GNUBG" ] || { echo "FAIL: no gnubg at $GNUBG (make test installs it)"; exit 1; }
[ -x "$TOOLS/record_games" ] || { echo "FAIL: no $TOOLS/record_games (make unit-tests)"; exit 1; }

check money 0 10 3 money "money session" "set jacoby on" "set beavers 1"
check money-raccoons 0 10 6 gnubg "money session" "set jacoby on" "set beavers 3"
check match5 5 100 11 international "match to 5 points"
check match7 7 100 4 international "match to 7 points"

# A record whose writer was killed inside its last game: cut a few bytes
# off the end. cat prints every game before it, warns, exits 0; gnubg
# imports those games with the score the last game started at.
f0=$fails
cp "$dir/match7.mat.gz" "$dir/cut.mat.gz"
size=$(stat -c %s "$dir/cut.mat.gz")
truncate -s $((size - 7)) "$dir/cut.mat.gz"
"$SHESH" records cat "$dir/cut.mat.gz" > "$dir/cut.mat" 2> "$dir/cut.err"
status=$?
[ "$status" = 0 ] || no "a cut record: shesh records cat exits $status, expected 0"
grep -q 'warning: .*cut short.*printed the [0-9]* games before the cut' "$dir/cut.err" ||
    no "a cut record: no warning on stderr: $(cat "$dir/cut.err")"
whole=$(grep -c '^ Game ' "$dir/match7.mat")
games=$(grep -c '^ Game ' "$dir/cut.mat")
[ "$games" = $((whole - 1)) ] || no "a cut record prints $games games of $whole, expected $((whole - 1))"
# The score the last game of the whole record started at.
read -r a b < <(grep -A1 "^ Game $whole\$" "$dir/match7.mat" | tail -n 1 |
                sed -n 's/^ Alice : \([0-9]*\) *Bob : \([0-9]*\)$/\1 \2/p')
gnubg_import "$dir/cut.mat" "$dir/cut.log"
want=$(score_line "$games" "$a" "$b" "match to 7 points")
got=$(grep -o 'The score (after .*' "$dir/cut.log" | tail -n 1)
[[ $got == "$want"* ]] || no "a cut record: gnubg says '$got', expected '$want...)'"
grep -qiE "$COMPLAINTS" "$dir/cut.log" &&
    no "a cut record: gnubg complained: $(grep -iE "$COMPLAINTS" "$dir/cut.log" | head -n 2)"
same_rolls "$dir/cut.mat" "a cut record"
passed "$f0" "a record cut inside game $whole: cat prints $games games and warns, gnubg: $got"

# The same games give the same bytes.
f0=$fails
"$TOOLS/record_games" "$dir/again.mat.gz" 7 100 4 international > /dev/null ||
    no "record_games failed"
cmp -s "$dir/match7.mat.gz" "$dir/again.mat.gz" || no "the same games gave different files"
passed "$f0" "the same seed writes the same record file byte for byte"

# Bad files and usage.
f0=$fails
"$SHESH" records cat "$dir/none.gz" > "$dir/out" 2> "$dir/err"
[ $? = 1 ] || no "a missing file does not exit 1"
grep -q 'No such file' "$dir/err" || no "a missing file: $(cat "$dir/err")"
"$SHESH" records cat "$dir/match7.mat" > "$dir/out" 2> "$dir/err"
[ $? = 1 ] || no "a plain .mat file does not exit 1"
grep -q 'not gzip' "$dir/err" || no "a plain .mat file: $(cat "$dir/err")"
printf 'hello\n' | gzip > "$dir/hello.gz"
"$SHESH" records cat "$dir/hello.gz" > "$dir/out" 2> "$dir/err"
[ $? = 1 ] || no "a gzip file that is no record does not exit 1"
grep -q 'not a game record' "$dir/err" || no "gzip but no record: $(cat "$dir/err")"
for args in "" "cat" "cat a b" "list x" "--bogus cat x"; do
    # shellcheck disable=SC2086
    "$SHESH" records $args > "$dir/out" 2> "$dir/err"
    status=$?
    [ "$status" = 2 ] || no "shesh records $args exits $status, expected 2"
    [ "$(wc -l < "$dir/err")" -le 2 ] || no "shesh records $args: more than two lines of error"
    grep -q "try 'shesh records --help'" "$dir/err" || no "shesh records $args: $(cat "$dir/err")"
done
"$SHESH" records --help | grep -q 'import mat' || no "shesh records --help does not say how to import"
passed "$f0" "missing, plain and foreign files exit 1; usage errors exit 2 with one line"

[ "$fails" = 0 ] && echo "t_records.sh: all passed"
exit $((fails > 0))
