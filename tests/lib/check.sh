# shellcheck shell=bash
# tests/lib/check.sh - what a shell test starts with: a scratch directory
# ($dir), one background process ($bg_pid) stopped at exit, and the failure
# count with its two helpers (sourced by the shell tests).
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
