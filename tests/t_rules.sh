#!/usr/bin/env bash
# shesh rules: the rules value that presets and individual rules options make,
# as text and JSON, and the exit status of inconsistent or malformed options.
set -u
SHESH=${SHESH:-build/shesh}
fail=0
check() { # WHAT EXPECTED ACTUAL
    if [ "$2" != "$3" ]; then echo "FAIL: $1: expected '$2', got '$3'"; fail=1; fi
}
field() { "$SHESH" rules "${@:2}" | awk -v f="$1" '$1 == f { $1 = ""; sub(/^ +/, ""); print }'; }

check "default opening" "play" "$(field opening)"
check "default max cube" "64" "$(field max_cube)"
check "default Crawford rule" "yes" "$(field crawford_rule)"
check "--no-cube" "no" "$(field doubling --no-cube)"
check "cafe opening" "reroll" "$(field opening --rules cafe)"
check "cafe later games" "winner-starts" "$(field later_games --rules cafe)"
check "--no-backgammons" "no" "$(field backgammons --no-backgammons)"
check "--star-mars" "yes" "$(field star_mars --star-mars)"
check "--beavers 2" "2" "$(field beavers --rules money --beavers 2)"
check "--max-cube 16" "16" "$(field max_cube --max-cube 16)"
check "match description" "7-point match" "$(field description --length 7 | cut -d, -f1)"

# The two customs: defaults, both values of each, as text, JSON, the
# description, and set again after the other value (the last one counts).
check "default backgammon zone" "home-or-bar" "$(field backgammon_zone)"
check "default closed out" "roll" "$(field closed_out)"
for zone in home home-or-bar; do
    check "--backgammon-zone $zone" "$zone" "$(field backgammon_zone --backgammon-zone $zone)"
done
check "--backgammon-zone=home" "home" "$(field backgammon_zone --backgammon-zone=home)"
check "--backgammon-zone last wins" "home-or-bar" \
    "$(field backgammon_zone --backgammon-zone home --backgammon-zone home-or-bar)"
for rule in roll no-roll; do
    check "--closed-out $rule" "$rule" "$(field closed_out --closed-out $rule)"
done
check "--closed-out after a preset" "no-roll" "$(field closed_out --rules cafe --closed-out no-roll)"
check "description with the customs" \
    "money, opening dice played, later games opening roll, backgammons 3 (home board only), closed out does not roll, cube up to 64" \
    "$(field description --backgammon-zone home --closed-out no-roll)"
check "default description has no custom" "" \
    "$(field description | grep -E 'home board only|closed out')"
for zone in home home-or-bar; do
    for rule in roll no-roll; do
        json=$("$SHESH" rules --json --backgammon-zone $zone --closed-out $rule)
        echo "$json" | Z=$zone C=$rule python3 -c 'import json,os,sys; d=json.load(sys.stdin); assert d["backgammon_zone"] == os.environ["Z"] and d["closed_out"] == os.environ["C"], d' \
            || { echo "FAIL: --json --backgammon-zone $zone --closed-out $rule: $json"; fail=1; }
    done
done
json=$("$SHESH" rules --json)
echo "$json" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["backgammon_zone"] == "home-or-bar" and d["closed_out"] == "roll", d' \
    || { echo "FAIL: --json defaults of the customs: $json"; fail=1; }

json=$("$SHESH" rules --json --rules money --auto-doubles 2)
echo "$json" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["jacoby"] is True and d["auto_doubles"] == 2 and d["doubling"] is True and d["crawford_rule"] is True, d' \
    || { echo "FAIL: --json: $json"; fail=1; }

status() { "$SHESH" rules "$@" >/dev/null 2>"$tmp"; echo $?; }
tmp=$(mktemp); trap 'rm -f "$tmp"' EXIT
check "Jacoby without a cube exits 1" 1 "$(status --no-cube --jacoby)"
grep -q 'needs the cube' "$tmp" || { echo "FAIL: message for Jacoby without a cube: $(cat "$tmp")"; fail=1; }
check "Holland without Crawford exits 1" 1 "$(status --holland --no-crawford)"
check "max cube not a power of two exits 2" 2 "$(status --max-cube 48)"
check "a preset after a flag exits 2" 2 "$(status --jacoby --rules cafe)"
check "unknown preset exits 2" 2 "$(status --rules backgammon-ish)"
check "bad number exits 2" 2 "$(status --beavers x)"
grep -q "'x' is not a whole number" "$tmp" || { echo "FAIL: message for --beavers x: $(cat "$tmp")"; fail=1; }
check "unknown option exits 2" 2 "$(status --bogus)"
check "bad --backgammon-zone exits 2" 2 "$(status --backgammon-zone x)"
grep -q "'x' is neither home nor home-or-bar" "$tmp" || { echo "FAIL: message for --backgammon-zone x: $(cat "$tmp")"; fail=1; }
check "bad --closed-out exits 2" 2 "$(status --closed-out sometimes)"
grep -q "'sometimes' is neither roll nor no-roll" "$tmp" || { echo "FAIL: message for --closed-out sometimes: $(cat "$tmp")"; fail=1; }
check "--closed-out without a value exits 2" 2 "$(status --closed-out)"
check "home zone without backgammons exits 1" 1 "$(status --no-backgammons --backgammon-zone home)"
grep -q 'needs backgammons' "$tmp" || { echo "FAIL: message for the home zone without backgammons: $(cat "$tmp")"; fail=1; }
check "bad --length exits 2" 2 "$(status --length 65)"
check "--help exits 0" 0 "$(status --help)"
[ $fail -eq 0 ] && echo "ok: shesh rules: presets, flags, JSON and every exit status"
exit $fail
