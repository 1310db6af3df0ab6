#!/usr/bin/env bash
# bench_http.sh - requests per second and p50/p99 latency of `shesh serve
# --http` (GET /v1/move) beside the same server's external-protocol socket
# on the same position, under 1 and 64 connections, in the same run. A step
# of `make bench` (docs/performance.md has the figures).
#
#   bash tests/bench_http.sh SHESH NETC   (from the top of the tree)
#
# One server listens on both doors at 0 ply. The position is the first
# move board gnubg 1.07 sent in positions/gnubg-1.07/fibs.tsv.gz: its board
# line for the socket, its GNUBG-ID (with the roll) for HTTP. HTTP load
# comes from wrk (Debian's `wrk`, keep-alive connections, one thread per
# connection up to the cores), the socket's from NETC (tests/tools/netc.c),
# BENCH_HTTP_SECONDS (default 5) a run for wrk and about as many requests
# for netc. Each answer is checked once by hand before the runs.
#
# Not a test: it asserts nothing about time. It fails (exit 1) only when the
# server does not start or answers wrongly; without wrk it says so and
# measures nothing.
set -u
SHESH=${1:?usage: bench_http.sh SHESH NETC}
NETC=${2:?usage: bench_http.sh SHESH NETC}
SECS=${BENCH_HTTP_SECONDS:-5}
die() { echo "bench_http: $*" >&2; exit 1; }
[ -x "$SHESH" ] && [ -x "$NETC" ] || die "$SHESH or $NETC is not an executable"
[[ $SECS =~ ^[1-9][0-9]*$ ]] || die "BENCH_HTTP_SECONDS must be a positive integer"
if ! command -v wrk >/dev/null 2>&1; then
    echo "HTTP: skipped, wrk is not installed (Debian: apt-get install wrk)"
    exit 0
fi
command -v curl >/dev/null 2>&1 || die "curl is not installed"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/shesh-bench-http.XXXXXX") || die "cannot make a temporary directory"
pid=
cleanup() {
    [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT

row=$(zcat positions/gnubg-1.07/fibs.tsv.gz | awk -F'\t' '$1 ~ /:move/ { print $2 "\t" $4 ":" $5; exit }')
line=${row%%$'\t'*}
id=${row#*$'\t'}
[ -n "$line" ] && [ -n "$id" ] || die "no move board in positions/gnubg-1.07/fibs.tsv.gz"

"$SHESH" serve --http 127.0.0.1:0 --listen 127.0.0.1:0 --plies 0 2>"$tmp/serve.err" &
pid=$!
for _ in $(seq 1 100); do
    grep -q 'listening on http://' "$tmp/serve.err" && grep -q 'listening on 127' "$tmp/serve.err" &&
        break
    sleep 0.1
done
hport=$(grep -oE 'listening on http://127\.0\.0\.1:[0-9]+' "$tmp/serve.err" | grep -oE '[0-9]+$')
sport=$(grep -oE 'listening on 127\.0\.0\.1:[0-9]+' "$tmp/serve.err" | grep -oE '[0-9]+$')
[ -n "$hport" ] && [ -n "$sport" ] || die "the server did not start: $(cat "$tmp/serve.err")"
url="http://127.0.0.1:$hport/v1/move?id=$id&max=1"

# The two doors give the same move.
http_move=$(curl -sf "$url" | sed -n 's/.*"moves": \[{"move": "\([^"]*\)".*/\1/p')
sock_move=$(printf '%s\n' "$line" | "$NETC" -t 30 "127.0.0.1:$sport" | head -n 1)
[ -n "$http_move" ] || die "no move from $url"
[ -n "$sock_move" ] || die "no reply from the socket"

ncpu=$(nproc 2>/dev/null || echo 1)
# wrk CONNS: requests/s, p50 ms, p99 ms.
run_wrk() {
    local c=$1 t=$1
    [ "$t" -gt "$ncpu" ] && t=$ncpu
    wrk -t "$t" -c "$c" -d "${SECS}s" --latency "$url" >"$tmp/wrk.out" 2>&1 ||
        die "wrk failed: $(cat "$tmp/wrk.out")"
    grep -q 'Non-2xx' "$tmp/wrk.out" && die "wrk got errors: $(cat "$tmp/wrk.out")"
    awk 'function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0;
                          if (v ~ /s$/) return v * 1000; return v }
         $1 == "50%" { p50 = ms($2) } $1 == "99%" { p99 = ms($2) }
         $1 == "Requests/sec:" { rps = $2 }
         END { printf "%8.0f %9.3f %9.3f\n", rps, p50, p99 }' "$tmp/wrk.out"
}
# netc CONNS REQUESTS_IN_ALL: the same three.
run_netc() {
    local c=$1 n=$(($2 / $1))
    [ "$n" -ge 1 ] || n=1
    "$NETC" -L -c "$c" -n "$n" -r "$line" "127.0.0.1:$sport" >"$tmp/netc.out" 2>&1 ||
        die "netc failed: $(cat "$tmp/netc.out")"
    awk '{ for (i = 1; i < NF; i++) { if ($i == "rps") rps = $(i + 1);
           if ($i == "p50") p50 = $(i + 1); if ($i == "p99") p99 = $(i + 1) } }
         END { printf "%8.0f %9.3f %9.3f\n", rps, p50, p99 }' "$tmp/netc.out"
}

echo "HTTP /v1/move beside the socket, 0 ply, one server, the same position ($id, $http_move)"
printf '  %-22s %8s %9s %9s\n' "" "req/s" "p50 ms" "p99 ms"
for c in 1 64; do
    h=$(run_wrk "$c")
    # About as many requests as wrk answered, at least 2,000.
    n=$(awk -v r="${h%% *}" -v s="$SECS" 'BEGIN { n = r * s; print (n < 2000 ? 2000 : int(n)) }')
    s=$(run_netc "$c" "$n")
    printf '  %-22s %s\n' "HTTP, $c connection(s)" "$h" "socket, $c connection(s)" "$s"
done
