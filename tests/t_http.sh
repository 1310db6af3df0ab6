#!/usr/bin/env bash
# t_http.sh - `shesh serve --http` driven with curl: every endpoint, its
# answer byte for byte the same as the command's --json; bad input (bad id,
# bad dice, missing and unknown parameters, an unknown path, POST, a body, a
# huge URL) answered with the right status and a JSON error; 64 clients at
# once; 429 past --max-queue; 503 over --request-timeout; the OpenAPI
# document (docs/openapi.json) checked against the real answers; the
# socket protocol beside HTTP on one server; SIGTERM exits 0.
set -u
SHESH=${SHESH:-build/shesh}
# shellcheck source=tests/lib/servers.sh
. "$(dirname "$0")/lib/servers.sh"

command -v curl >/dev/null || { echo "FAIL: curl is needed (make deps)"; exit 1; }

# start_http NAME ARGS...: start_server, then $port is that of the first
# HTTP address.
start_http() {
    start_server "$@"
    port=$(grep -oE 'listening on http://[^ ]+:[0-9]+' "$dir/$1.err" | head -1 | grep -oE '[0-9]+$')
}
# stop_server PID NAME: SIGTERM, and the exit status must be 0.
stop_server() {
    kill -TERM "$1"
    wait "$1"
    local rc=$?
    [ "$rc" = 0 ] && ok "$2: SIGTERM, exit 0" || bad "$2: exit status $rc after SIGTERM"
}
# get PATH [CURL ARGS...]: the body on stdout; the status in $dir/status.
get() {
    local path=$1
    shift
    curl -sS -m 60 -o "$dir/body" -w '%{http_code}' "$@" "http://127.0.0.1:$port$path" \
        > "$dir/status" 2> "$dir/curl.err"
    cat "$dir/body"
}
status() { cat "$dir/status"; }
# expect STATUS PATH [CURL ARGS...]: the status, and a JSON error body.
expect() {
    local want=$1 path=$2
    shift 2
    get "$path" "$@" > /dev/null
    local got
    got=$(status)
    [ ${#path} -gt 80 ] && path="${path:0:60}...(${#path} bytes)"
    if [ "$got" != "$want" ]; then
        bad "$path $*: status $got, want $want ($(head -c 200 "$dir/body"))"
    elif [ "$want" != 200 ] && ! grep -q '^{"error": ".*"}$' "$dir/body"; then
        bad "$path $*: $want without a JSON error: $(head -c 200 "$dir/body")"
    else
        ok "$path $*: $want"
    fi
}
# same NAME PATH CMD...: the answer to PATH is the command's output, byte
# for byte.
same() {
    local name=$1 path=$2
    shift 2
    get "$path" > "$dir/http.out"
    "$SHESH" "$@" > "$dir/cli.out" 2>&1
    if [ "$(status)" = 200 ] && cmp -s "$dir/http.out" "$dir/cli.out"; then
        ok "$name: the same bytes as 'shesh $*'"
    else
        bad "$name: status $(status), differs from 'shesh $*':"
        diff "$dir/http.out" "$dir/cli.out" | head -5
    fi
}

START=4HPwATDgc/ABMA
XGID='XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10'
XGID_Q='XGID%3D-b----E-C---eE---c-e----B-%3A0%3A0%3A1%3A52%3A0%3A0%3A0%3A7%3A10'
GNUBG='4HPwATDgc/ABMA:cAkAAAAAAAAA'

# --- every endpoint, beside the socket protocol on the same server ---
start_http main --http 127.0.0.1:0 --listen 127.0.0.1:0 --plies 0 --max-plies 2
main=$pid
same move "/v1/move?id=$START&dice=31" hint --json "$START" 31
same "move, max and plies" "/v1/move?id=$START&dice=6-5&max=3&plies=1" hint --json --max 3 \
    --plies 1 "$START" 65
same "move, the XGID's roll" "/v1/move?id=$XGID_Q" hint --json "$XGID"
same cube "/v1/cube?id=$START" hint --json "$START"
same "cube, a GNUBG-ID" "/v1/cube?id=$GNUBG&plies=1" hint --json --plies 1 "$GNUBG"
same eval "/v1/eval?id=$START&plies=1" eval --json --plies 1 "$START"
same "eval, an XGID" "/v1/eval?id=$XGID_Q" eval --json "$XGID"
same moves "/v1/moves?id=$START&dice=21" moves --json "$START" 21
same "moves, the XGID's roll" "/v1/moves?id=$XGID_Q" moves --json "$XGID"
same id "/v1/id?id=$XGID_Q" id decode --json "$XGID"
same "id, a GNUBG-ID" "/v1/id?id=$GNUBG" id decode --json "$GNUBG"
health=$(get /v1/health)
if [ "$(status)" = 200 ] && echo "$health" | grep -q '^{"status": "ok", "engine": "[^"]*", "software": "shesh", "version": "[0-9.]*"'; then
    ok "health: $health"
else
    bad "health: $(status) $health"
fi
head=$(curl -sS -m 10 -I "http://127.0.0.1:$port/v1/health")
echo "$head" | grep -q '^HTTP/1.1 200' && echo "$head" | grep -qi '^Content-Type: application/json' &&
    ok "HEAD /v1/health: 200, JSON, no body" || bad "HEAD: $head"
# Keep-alive: curl asks twice on one connection.
conns=$(curl -sS -m 10 -o /dev/null -o /dev/null -w '%{num_connects} ' "http://127.0.0.1:$port/v1/health" \
        "http://127.0.0.1:$port/v1/move?id=$START&dice=31")
[ "$conns" = "1 0 " ] && ok "two requests on one connection (keep-alive)" ||
    bad "keep-alive: connections made per request: $conns"
# The socket protocol still answers on the same server.
tcp=$(grep -oE 'listening on 127\.0\.0\.1:[0-9]+' "$dir/main.err" | grep -oE '[0-9]+$')
reply=$(exec 3<>"/dev/tcp/127.0.0.1/$tcp"; printf 'version\n' >&3; timeout 10 head -4 <&3)
echo "$reply" | grep -q '^Software: shesh' && ok "--listen beside --http: version answered" ||
    bad "--listen beside --http: '$reply'"

# --- bad input: a status and {"error": ...}, never a crash ---
expect 400 "/v1/move?dice=31"
expect 400 "/v1/move?id=nonsense&dice=31"
expect 400 "/v1/move?id=$START"
expect 400 "/v1/move?id=$START&dice=71"
expect 400 "/v1/move?id=$START&dice="
expect 400 "/v1/move?id=$START&dice=31&plies=3"
expect 400 "/v1/move?id=$START&dice=31&plies=x"
expect 400 "/v1/move?id=$START&dice=31&max=0"
expect 400 "/v1/move?id=$START&dice=31&colour=white"
expect 400 "/v1/move?id=$START&id=$START&dice=31"
expect 400 "/v1/move?id=$START%00&dice=31"
expect 400 "/v1/eval?id=$START&dice=31"
expect 400 "/v1/moves?id=$START"
expect 400 "/v1/id?id="
expect 400 "/v1/cube"
expect 404 "/v1/nothing"
expect 404 "/"
expect 404 "/v1/move/"
expect 405 "/v1/move?id=$START&dice=31" -X POST
expect 405 /v1/health -X DELETE
grep -q '^Allow: GET, HEAD' <(curl -sS -m 10 -D - -o /dev/null -X DELETE \
    "http://127.0.0.1:$port/v1/health" | tr -d '\r') && ok "405 says Allow: GET, HEAD" ||
    bad "405 without Allow"
# 250 parameters in 1,000 bytes: MHD makes a record of each before we see
# the request; the connection must have room for them and be answered.
expect 400 "/v1/id?$(printf 'a=1&%.0s' $(seq 1 250))"
expect 413 "/v1/move?id=$START&dice=31" -X GET --data-binary 'a body'
long=$(head -c 3000 /dev/zero | tr '\0' A)
expect 414 "/v1/move?id=$long&dice=31"
huge=$(head -c 100000 /dev/zero | tr '\0' A)
printf 'GET /v1/move?id=%s HTTP/1.1\r\nHost: x\r\n\r\n' "$huge" > "$dir/huge.req"
first=$(curl -sS -m 10 -o /dev/null -w '%{http_code}' \
        "http://127.0.0.1:$port/v1/move?id=$(head -c 20000 /dev/zero | tr '\0' B)" 2>/dev/null)
[ "$first" = 414 ] && ok "a URL of 20 kB: 414" || bad "a URL of 20 kB: $first"
line=$(exec 3<>"/dev/tcp/127.0.0.1/$port"; cat "$dir/huge.req" >&3; timeout 10 head -1 <&3)
case $line in "HTTP/1.1 414"*) ok "a URL of 100 kB: 414";; *) bad "a URL of 100 kB: '$line'";; esac
junk=$(exec 3<>"/dev/tcp/127.0.0.1/$port"; head -c 3000 /dev/urandom >&3; printf '\r\n\r\n' >&3;
       timeout 10 head -1 <&3 | tr -d '\r')
kill -0 "$main" 2>/dev/null && ok "binary junk: '${junk:0:40}', the server is still up" ||
    bad "binary junk killed the server"

# --- the OpenAPI document against the real answers ---
if python3 tests/tools/check_openapi.py docs/openapi.json "http://127.0.0.1:$port" > "$dir/oa" 2>&1; then
    ok "docs/openapi.json: $(tail -1 "$dir/oa")"
else
    bad "docs/openapi.json:"; cat "$dir/oa"
fi

# --- 64 clients at once, each answered right ---
get "/v1/move?id=$START&dice=31" > "$dir/want"
clients=()
for i in $(seq 1 64); do
    curl -sS -m 60 -o "$dir/c$i" "http://127.0.0.1:$port/v1/move?id=$START&dice=31" &
    clients+=($!)
done
wait "${clients[@]}"
n=0
for i in $(seq 1 64); do cmp -s "$dir/c$i" "$dir/want" && n=$((n + 1)); done
[ "$n" = 64 ] && ok "64 clients at once: every answer right" || bad "64 clients at once: $n of 64 right"
stop_server "$main" main

# --- busy: one worker, one place in the queue; slow requests ---
start_http busy --http 127.0.0.1:0 --threads 1 --max-queue 1 --max-plies 4 --request-timeout 2
busy=$pid
# Each slow request asks another position: the server keeps the values a
# search computes, and a position asked again could finish in time from the
# subtrees an earlier request completed. A move for 11 at 4 plies values
# many candidates at 4 plies (6 to 9 s on one core, against about 2 s for
# an evaluation): several times the budget, however fast the machine.
slow_at() { echo "http://127.0.0.1:$port/v1/move?id=$1&dice=11&plies=4"; }
slow=$(slow_at "$START")
curl -sS -m 30 -o "$dir/s1" -w '%{http_code}' "$slow" > "$dir/s1.status" &
a=$!
sleep 0.5
curl -sS -m 30 -o "$dir/s2" -w '%{http_code}' "$(slow_at 4PPgCSDMZvABMA)" > "$dir/s2.status" &
b=$!
sleep 0.5
expect 429 "/v1/eval?id=$START&plies=4"
grep -qi '^Retry-After' <(curl -sS -m 10 -D - -o /dev/null "$slow") && ok "429 says Retry-After" ||
    bad "429 without Retry-After"
expect 200 "/v1/health" # cheap: answered on the loop, never busy
wait "$a" "$b"
for s in s1 s2; do
    if [ "$(cat "$dir/$s.status")" = 503 ] && grep -q 'time budget of 2 seconds' "$dir/$s"; then
        ok "a request over --request-timeout 2: 503 $(cat "$dir/$s")"
    else
        bad "$s: $(cat "$dir/$s.status") $(cat "$dir/$s")"
    fi
done
# A client that hangs up while its search runs gets it stopped.
curl -sS -m 0.5 -o /dev/null "$(slow_at Js/gARjMdsQBUA)" 2>/dev/null
sleep 0.3
# SIGTERM while a request runs: it is answered (here over its budget)
# before the server exits.
curl -sS -m 30 -o "$dir/s3" -w '%{http_code}' "$(slow_at zG42MABmzsEALA)" > "$dir/s3.status" &
c=$!
sleep 0.5
stop_server "$busy" busy
wait "$c"
[ "$(cat "$dir/s3.status")" = 503 ] && ok "SIGTERM: the request under way answered first" ||
    bad "SIGTERM under way: $(cat "$dir/s3.status") $(cat "$dir/s3")"
# Stopped under way: the three over their budget, and the one whose client left.
grep -q '3 over the time budget; 4 stopped under way' "$dir/busy.err" &&
    ok "a client gone: its search stopped" ||
    bad "a client gone: $(tail -1 "$dir/busy.err")"

# --- stopping with requests waiting: every client answered, exit 0
# (libmicrohttpd aborts the process if stopped with a request suspended) ---
start_http queued --http 127.0.0.1:0 --threads 1 --max-plies 4 --request-timeout 1
queued=$pid
slow="http://127.0.0.1:$port/v1/move?id=$START&dice=11&plies=4&max=1000"
pids=()
for i in $(seq 1 12); do
    curl -sS -m 60 -o /dev/null -w '%{http_code}' "$slow" > "$dir/q$i.status" 2>/dev/null &
    pids+=($!)
done
sleep 0.5
kill -TERM "$queued"
wait "$queued"
rc=$?
wait "${pids[@]}"
codes=$(for f in "$dir"/q*.status; do cat "$f"; echo; done | sort | uniq -c | tr -s ' ' | tr '\n' ';')
[ "$rc" = 0 ] && [ "$codes" = " 12 503;" ] &&
    ok "SIGTERM with 12 slow requests queued on one worker: exit 0, each answered 503" ||
    bad "SIGTERM with requests queued: exit $rc, statuses $codes $(tail -2 "$dir/queued.err")"
# A second signal: at once, still answered, still exit 0.
start_http twice --http 127.0.0.1:0 --threads 1 --max-plies 4 --request-timeout 0
twice=$pid
slow="http://127.0.0.1:$port/v1/move?id=$START&dice=11&plies=4&max=1000"
curl -sS -m 60 -o /dev/null -w '%{http_code}' "$slow" > "$dir/t1.status" 2>/dev/null &
t1=$!
sleep 0.5
kill -TERM "$twice"
sleep 0.3
kill -TERM "$twice"
wait "$twice"
rc=$?
wait "$t1"
[ "$rc" = 0 ] && [ "$(cat "$dir/t1.status")" = 503 ] &&
    ok "a second SIGTERM with a search under way: exit 0, its client answered 503" ||
    bad "a second SIGTERM: exit $rc, status $(cat "$dir/t1.status")"

# --- a request whose bytes trickle in is cut at --idle-timeout ---
start_http slow --http 127.0.0.1:0 --idle-timeout 2
slowpid=$pid
cut=$(python3 - "$port" <<'PY'
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
t0 = time.time()
try:
    for b in b"GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 40:
        s.send(bytes([b]))
        time.sleep(0.5)
    print("never")
except OSError:
    print("%.0f" % (time.time() - t0))
PY
)
[ "$cut" != never ] && [ "$cut" -le 5 ] &&
    ok "a request sent a byte every 0.5 s: cut after about $cut s (--idle-timeout 2)" ||
    bad "a trickling request was not cut: $cut"
stop_server "$slowpid" slow

# --- --http alone, an address in use ---
start_http only --http 127.0.0.1:0
only=$pid
grep -q 'listening on 127' "$dir/only.err" && bad "--http alone also listened on 10000" ||
    ok "--http alone: no socket-protocol listener"
"$SHESH" serve --http "127.0.0.1:$port" 2> "$dir/inuse.err"
rc=$?
[ "$rc" = 1 ] && grep -q 'already in use' "$dir/inuse.err" && ok "--http on a port in use: exit 1" ||
    bad "--http in use: $rc $(cat "$dir/inuse.err")"
stop_server "$only" only

[ "$fail" = 0 ] && echo "t_http.sh: all passed" || echo "t_http.sh: FAILED"
exit "$fail"
