# shellcheck shell=bash
# tests/lib/check.sh - what a shell test starts with: a scratch directory
# ($dir), one background process ($bg_pid) stopped at exit, and the failure
# count with its helpers (sourced by the shell tests).
dir=$(mktemp -d)
bg_pid=
cleanup() {
    [ -n "$bg_pid" ] && kill "$bg_pid" 2> /dev/null && wait "$bg_pid" 2> /dev/null
    rm -rf "$dir"
}
trap cleanup EXIT
fails=0

no() { echo "FAIL: $*"; fails=$((fails + 1)); }
passed() { # FAILS-BEFORE MESSAGE: "ok: MESSAGE" if nothing failed since
    [ "$fails" = "$1" ] && echo "ok: $2"
}
usage_says() { # COMMAND, then 'ARGS|MESSAGE' lines on standard input: each
    # ARGS makes `$SHESH COMMAND ARGS` exit 2 saying "shesh COMMAND: MESSAGE"
    local args says status
    while IFS='|' read -r args says; do
        # shellcheck disable=SC2086
        "$SHESH" "$1" $args > /dev/null 2> "$dir/err" < /dev/null
        status=$?
        if [ "$status" != 2 ] || ! grep -qF "shesh $1: $says" "$dir/err"; then
            no "shesh $1 $args: exit $status, $(head -1 "$dir/err"), not '$says'"
        fi
    done
}
