# shellcheck shell=bash
# tests/lib/servers.sh - what the tests of `shesh serve` start with
# (t_serve.sh, t_http.sh): a scratch directory ($dir), the servers started
# ($pids, killed at exit unless forgotten), the failure flag ($fail) with ok
# and bad, and start_server. $SHESH must be set first.
dir=$(mktemp -d)
fail=0
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
    rm -rf "$dir"
}
trap cleanup EXIT
# forget PID...: servers already waited for, not to be killed again.
forget() {
    local p q keep=()
    for p in "${pids[@]}"; do
        for q in "$@"; do [ "$p" = "$q" ] && continue 2; done
        keep+=("$p")
    done
    pids=("${keep[@]}")
}
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

# start_server NAME ARGS...: runs `shesh serve ARGS` with stderr in
# $dir/NAME.err and waits until it is ready; sets $pid.
start_server() {
    local name=$1 i
    shift
    : > "$dir/$name.err"
    "$SHESH" serve "$@" 2> "$dir/$name.err" &
    pid=$!
    pids+=("$pid")
    for i in $(seq 1 200); do
        grep -q '^shesh serve: engine' "$dir/$name.err" && return 0
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
    done
    echo "FAIL: server '$name' did not start:"
    cat "$dir/$name.err"
    exit 1
}
