#!/usr/bin/env bash
# bench_serve.sh - requests per second and p50/p99 latency of `shesh serve`
# beside gnubg's own `external` server, at the same depth, on the same
# requests, in the same run. The second step of `make bench`.
#
#   bash tests/bench_serve.sh SHESH NETC [BENCH_PROTO]   (from the top of the tree)
#
# SHESH is the shesh binary, NETC tests/tools/netc.c built (the load
# generator), BENCH_PROTO tests/tools/bench_proto.c built (optional: the
# same requests answered in-process, no sockets or threads, for the
# engine's share of the server's CPU time). The requests are every move, cube and take board of
# positions/gnubg-1.07/client_capture.tsv.gz and fibs.tsv.gz, as sent on the
# wire (session options included), each distinct line once, sent in turn.
#
# Each round starts both servers afresh on free ports of 127.0.0.1 and times
# their start (exec to the first answered board), sends every board once
# (the first pass: nothing cached yet), then alternates the timed runs:
# shesh on one connection, gnubg on one connection (it serves only one), and
# shesh on several connections at once. Every run is one process of NETC:
# requests per second, p50/p99 latency, and the CPU time the server used per
# request (user + system, from /proc), which says what a request costs the
# server whatever else the machine is doing. The summary gives the median
# over the rounds, and the shesh/gnubg ratios of requests per second and of
# CPU per request on one connection, round by round as well (the two runs
# of a round ran side by side, so their ratio moves less than either).
#
# Environment:
#   BENCH_ROUNDS         rounds (default 3)
#   BENCH_PLIES          depths, one table each (default "0 1")
#   BENCH_REQUESTS       requests per timed run at 0 ply (default 10000)
#   BENCH_REQUESTS_DEEP  requests per timed run deeper (default 2000)
#   BENCH_CONNS          shesh's many-connection runs (default: one per
#                        core, four per core, 64)
#   GNUBG                gnubg's binary (default /usr/games/gnubg)
#
# Not a test: it asserts nothing about time. It fails (exit 1) only when a
# server does not start or does not answer every request. Without gnubg it
# measures shesh alone and says so. Both servers are stopped on exit, by
# process id.
set -u

SHESH=${1:?usage: bench_serve.sh SHESH NETC}
NETC=${2:?usage: bench_serve.sh SHESH NETC}
BENCH_PROTO=${3:-}
GNUBG=${GNUBG:-/usr/games/gnubg}
ROUNDS=${BENCH_ROUNDS:-3}
PLIES=${BENCH_PLIES:-0 1}
ncpu=$(nproc 2>/dev/null || echo 1)
CONNS=${BENCH_CONNS:-$(printf '%s\n' "$ncpu" $((4 * ncpu)) 64 | sort -nu | tr '\n' ' ')}

die() { echo "bench_serve: $*" >&2; exit 1; }

for f in "$SHESH" "$NETC" ${BENCH_PROTO:+"$BENCH_PROTO"}; do
    [ -x "$f" ] || die "$f is not an executable"
done
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || die "BENCH_ROUNDS must be a positive integer"
for n in $CONNS; do
    [[ $n =~ ^[1-9][0-9]*$ ]] || die "BENCH_CONNS: '$n' is not a positive integer"
done
for p in $PLIES; do
    [[ $p =~ ^[0-4]$ ]] || die "BENCH_PLIES: '$p' is not a depth from 0 to 4"
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/shesh-bench.XXXXXX") || die "cannot make a temporary directory"
PIDS=()

# Stops a server we started: SIGTERM, then SIGKILL if it is still there
# after 5 s (gnubg ends on SIGTERM at once; shesh first answers what it had
# received). Reaped here and dropped from PIDS, so that no later kill can
# reach another process that got the same id.
stop() {
    local pid=$1 i keep=()
    for i in "${PIDS[@]}"; do
        [ "$i" = "$pid" ] || keep+=("$i")
    done
    PIDS=("${keep[@]}")
    kill "$pid" 2>/dev/null || return 0
    for ((i = 0; i < 50; i++)); do
        [ "$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null || echo Z)" = Z ] && break
        sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    return 0
}

cleanup() {
    while [ ${#PIDS[@]} -gt 0 ]; do
        stop "${PIDS[0]}"
    done
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The requests: gnubg's own client boards are in both files; keep each once.
req=$tmp/requests.txt
{
    zcat positions/gnubg-1.07/client_capture.tsv.gz |
        awk -F'\t' '!/^#/ && ($3 == "move" || $3 == "cube" || $3 == "take") { print $4 }'
    zcat positions/gnubg-1.07/fibs.tsv.gz |
        awk -F'\t' '!/^#/ && $1 ~ /^(gnubg-client:[^:]*|synth):(move|cube|take)(:|$)/ { print $2 }'
} | awk '!seen[$0]++' >"$req" || die "cannot read positions/gnubg-1.07 (run from the top of the tree)"
nreq=$(wc -l <"$req")
[ "$nreq" -gt 0 ] || die "no requests read from positions/gnubg-1.07"
first=$(head -n 1 "$req")

have_gnubg=1
if ! [ -x "$GNUBG" ]; then
    have_gnubg=0
    gnubg_why="gnubg not installed: no comparison"
fi

# Starts a server on a free port, its command line built by $1 from the
# port. Sets SPID, SPORT and SSTART (ms from exec to the first answered
# board). Another process may take the free port first: then try another.
# Returns 1 if the server cannot start.
start_server() {
    local build=$1 log=$2 try t0 t1 rc
    for ((try = 0; try < 5; try++)); do
        SPORT=$("$NETC" -F) || return 1
        "$build" "$SPORT"
        t0=$EPOCHREALTIME
        "${CMD[@]}" >"$log" 2>&1 <"${CMD_INPUT:-/dev/null}" &
        SPID=$!
        PIDS+=("$SPID")
        t1=$("$NETC" -w 60 -P "$SPID" -r "$first" "127.0.0.1:$SPORT" 2>>"$log")
        rc=$?
        if [ $rc -eq 0 ]; then
            SSTART=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", (b - a) * 1000 }')
            return 0
        fi
        stop "$SPID"
        # 4: it exited; a taken port is the one reason worth another try.
        [ $rc -eq 4 ] && grep -qi 'in use' "$log" || return 1
    done
    return 1
}

shesh_cmd() {
    CMD=("$SHESH" serve --plies "$plies" --listen "127.0.0.1:$1")
    CMD_INPUT=/dev/null
}

# gnubg reads its settings and then `external` from stdin; `external`
# never returns, so stdin ending there does no harm.
gnubg_cmd() {
    printf 'set evaluation chequerplay evaluation plies %s\nset evaluation cubedecision evaluation plies %s\nexternal 127.0.0.1:%s\n' \
        "$plies" "$plies" "$1" >"$tmp/gnubg.cmd"
    CMD=("$GNUBG" -t -q)
    CMD_INPUT=$tmp/gnubg.cmd
}

# One load run: who conns total [label]. Appends a row to $res and prints it.
run() {
    local who=$1 conns=$2 total=$3 label=${4:-} pid port out per
    if [ "$who" = shesh ]; then pid=$shesh_pid port=$shesh_port; else pid=$gnubg_pid port=$gnubg_port; fi
    per=$(( (total + conns - 1) / conns ))
    # -W: gnubg listens again only a moment after its previous client left.
    # Run in the background and waited for, so that a signal is acted on at
    # once rather than after the run.
    "$NETC" -L -c "$conns" -n "$per" -p 1 -l 1 -W 5 -P "$pid" -f "$req" "127.0.0.1:$port" \
        >"$tmp/netc.out" 2>"$tmp/netc.err" &
    if ! wait $!; then
        cat "$tmp/netc.out" "$tmp/netc.err" >&2
        die "$who did not answer every request ($conns connections, $plies plies)"
    fi
    out=$(cat "$tmp/netc.out")
    echo "$out" | awk -v who="$who" -v c="$conns" -v r="$round" -v p="$plies" -v l="$label" '{
        for (i = 1; i < NF; i++) v[$i] = $(i + 1)
        cpu = ("cpu_per_req" in v) ? v["cpu_per_req"] : "-"
        printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", p, r, who, c, l, v["rps"], v["p50"], v["p99"], cpu
    }' >>"$res"
    tail -n 1 "$res" | awk -F'\t' '{
        printf "  round %s  %-5s %3d conn%s %-10s %8.0f req/s  p50 %7.3f ms  p99 %7.3f ms  %s\n",
            $2, $3, $4, ($4 == 1 ? " " : "s"), $5, $6, $7, $8, ($9 == "-" ? "" : sprintf("%.1f us CPU/req", $9))
    }'
}

res=$tmp/results.tsv
: >"$res"
load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
model=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)
echo
echo "== shesh serve beside gnubg external"
echo "machine: $ncpu CPUs${model:+ ($model)}, Linux $(uname -r), load average $load"
echo "requests: $nreq distinct boards (move, cube and take of client_capture and fibs), sent in turn"
[ $have_gnubg -eq 0 ] && echo "$gnubg_why"

for plies in $PLIES; do
    if [ "$plies" -eq 0 ]; then total=${BENCH_REQUESTS:-10000}; else total=${BENCH_REQUESTS_DEEP:-2000}; fi
    echo
    echo "-- $plies ply: $ROUNDS rounds, $total requests a timed run"
    if [ -n "$BENCH_PROTO" ]; then
        "$BENCH_PROTO" -p "$plies" -s 1 "$req" >"$tmp/proto.$plies" || die "$BENCH_PROTO failed"
        awk '{ printf "  in-process, no sockets or threads: %.1f us a request (p50 %.1f us, longest %.0f us), engine start %.0f ms\n", $8, $10, $12, $4 }' "$tmp/proto.$plies"
    fi
    for ((round = 1; round <= ROUNDS; round++)); do
        start_server shesh_cmd "$tmp/shesh.log" || {
            cat "$tmp/shesh.log" >&2
            die "shesh serve did not start"
        }
        shesh_pid=$SPID shesh_port=$SPORT
        started="shesh $SSTART ms"
        printf '%s\t%s\tshesh\tstart\t%s\n' "$plies" "$round" "$SSTART" >>"$tmp/start.tsv"
        gnubg_pid=
        if [ $have_gnubg -eq 1 ]; then
            if start_server gnubg_cmd "$tmp/gnubg.log"; then
                gnubg_pid=$SPID gnubg_port=$SPORT
                started="$started, gnubg $SSTART ms"
                printf '%s\t%s\tgnubg\tstart\t%s\n' "$plies" "$round" "$SSTART" >>"$tmp/start.tsv"
            else
                have_gnubg=0
                gnubg_why="gnubg did not start ($(tail -n 1 "$tmp/gnubg.log")): no comparison"
                echo "$gnubg_why"
            fi
        fi
        echo "  round $round  started (exec to first answer): $started"
        run shesh 1 "$nreq" "first pass"
        [ -n "$gnubg_pid" ] && run gnubg 1 "$nreq" "first pass"
        run shesh 1 "$total"
        [ -n "$gnubg_pid" ] && run gnubg 1 "$total"
        for c in $CONNS; do
            [ "$c" -eq 1 ] || run shesh "$c" "$total"
        done
        stop "$shesh_pid"
        [ -n "$gnubg_pid" ] && stop "$gnubg_pid"
    done
done

# Medians over the rounds, one table per depth.
has_gnubg() { awk -F'\t' -v p="$1" '$1 == p && $3 == "gnubg" { found = 1 } END { exit !found }' "$res"; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
col() { # plies who conns label column
    awk -F'\t' -v p="$1" -v w="$2" -v c="$3" -v l="$4" -v k="$5" \
        '$1 == p && $3 == w && $4 == c && $5 == l && $k != "-" { print $k }' "$res" | median
}
# The ratio shesh/gnubg of column k of the timed one-connection runs, per
# round: the two runs of a round ran side by side.
round_ratios() { # plies column
    awk -F'\t' -v p="$1" -v k="$2" '$1 == p && $4 == 1 && $5 == "" && $k != "-" { v[$2, $3] = $k }
        END { for (r = 1; (r, "shesh") in v; r++) if ((r, "gnubg") in v && v[r, "gnubg"] > 0) printf " %.2f", v[r, "shesh"] / v[r, "gnubg"] }' "$res"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "-"; else printf "%.2f", a / b }'; }

echo
echo "== summary: medians over $ROUNDS rounds (server CPU per request from /proc; the load"
echo "   generator runs on the same $ncpu CPUs and takes its share of them)"
for plies in $PLIES; do
    echo
    printf '  %-5s %-14s %5s  %-10s %9s %9s %9s %11s\n' "$plies ply" server conns run req/s \
        "p50 ms" "p99 ms" "CPU us/req"
    rows="shesh 1 first pass|gnubg 1 first pass|shesh 1 |gnubg 1 "
    for c in $CONNS; do [ "$c" -eq 1 ] || rows="$rows|shesh $c "; done
    IFS='|' read -ra list <<<"$rows"
    for row in "${list[@]}"; do
        read -r who c label <<<"$row"
        [ "$who" = gnubg ] && ! has_gnubg "$plies" && continue
        awk -v name="$who" -v c="$c" -v run="${label:-timed}" -v rps="$(col "$plies" "$who" "$c" "$label" 6)" \
            -v p50="$(col "$plies" "$who" "$c" "$label" 7)" -v p99="$(col "$plies" "$who" "$c" "$label" 8)" \
            -v cpu="$(col "$plies" "$who" "$c" "$label" 9)" 'function f(v, fmt) { return v == "-" ? v : sprintf(fmt, v) }
            BEGIN { printf "        %-14s %5d  %-10s %9s %9s %9s %11s\n", (name == "gnubg" ? "gnubg external" : "shesh serve"),
                    c, run, f(rps, "%.0f"), f(p50, "%.3f"), f(p99, "%.3f"), f(cpu, "%.1f") }'
    done
    [ -f "$tmp/proto.$plies" ] && awk '{ printf "  in-process (proto_handle alone, one thread): %.1f us a request, p50 %.1f us\n", $8, $10 }' "$tmp/proto.$plies"
    s_start=$(awk -F'\t' -v p="$plies" '$1 == p && $3 == "shesh" { print $5 }' "$tmp/start.tsv" | median)
    if has_gnubg "$plies"; then
        g_start=$(awk -F'\t' -v p="$plies" '$1 == p && $3 == "gnubg" { print $5 }' "$tmp/start.tsv" | median)
        per_round=$(round_ratios "$plies" 6)
        cpu_round=$(round_ratios "$plies" 9)
        echo "  shesh/gnubg, one connection: req/s x$(ratio "$(col "$plies" shesh 1 "" 6)" "$(col "$plies" gnubg 1 "" 6)")" \
            "(rounds:$per_round), p50 x$(ratio "$(col "$plies" shesh 1 "" 7)" "$(col "$plies" gnubg 1 "" 7)")," \
            "p99 x$(ratio "$(col "$plies" shesh 1 "" 8)" "$(col "$plies" gnubg 1 "" 8)")," \
            "CPU/req x$(ratio "$(col "$plies" shesh 1 "" 9)" "$(col "$plies" gnubg 1 "" 9)") (rounds:$cpu_round)"
        echo "  start (exec to first answer): shesh $s_start ms, gnubg $g_start ms"
    else
        echo "  start (exec to first answer): shesh $s_start ms"
        echo "  $gnubg_why"
    fi
    for c in $CONNS; do
        [ "$c" -eq 1 ] && continue
        echo "  shesh, $c connections: req/s x$(ratio "$(col "$plies" shesh "$c" "" 6)" "$(col "$plies" shesh 1 "" 6)") of one connection"
    done
done
