#!/usr/bin/env bash
# t_serve.sh - `shesh serve` driven the way clients drive it: IPv4, IPv6 and
# a Unix socket at once; gnubg's 411 captured requests pipelined in one
# write; over-long lines, NUL bytes, binary junk; silent and half-line
# clients next to busy ones; clients that vanish mid-request; 256 clients at
# once; time budget and idle timeout; transcripts read by zcat, `shesh log
# cat` and `shesh replay` (including a cut file, a server killed with -9 and
# a full disk); addresses in use or invalid; SIGTERM and SIGINT. The client is
# tests/tools/netc.c, built here (no nc or python needed).
set -u
SHESH=${SHESH:-build/shesh}
# shellcheck source=tests/lib/servers.sh
. "$(dirname "$0")/lib/servers.sh"

NETC=$dir/netc
${CC:-cc} -O2 -std=c11 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L -Isrc/util -Isrc/net tests/tools/netc.c \
    src/net/listen.c src/util/err.c -lpthread -lm -o "$NETC" || { echo "FAIL: cannot build netc"; exit 1; }

# port_of REGEX FILE: the port of the listener whose address matches REGEX.
port_of() { grep -oE "listening on $1:[0-9]+" "$2" | head -1 | grep -oE '[0-9]+$'; }
# ask ADDR: sends stdin, prints the replies (the server closes after them).
# Generous: a hang still fails, and a slow build is not a hang.
ask() { "$NETC" -t 120 "$1"; }

BOARD='board:alice:extbot:5:0:0:0:-1:-1:0:0:0:5:0:3:0:0:0:-4:5:-1:0:0:-3:0:-5:0:0:0:0:2:0:1:1:4:1:4:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1'

# One ply: what is tested here is framing, order and concurrency, not depth,
# and the sanitizer build (make check) answers 2-ply boards ten times slower.
start_server main --listen 127.0.0.1:0 --listen '[::1]:0' --unix "$dir/s.sock" \
    --log-dir "$dir/logs" --threads 2 --plies 1
main=$pid
p4=$(port_of '127\.0\.0\.1' "$dir/main.err")
p6=$(port_of '\[::1\]' "$dir/main.err")
tcp=127.0.0.1:$p4
sock=$dir/s.sock
addrs=("$tcp" "$sock")
if [ -n "$p6" ]; then addrs+=("[::1]:$p6"); else echo "note: no IPv6 loopback here"; fi

# --- every address answers ---
for a in "${addrs[@]}"; do
    r=$(printf 'version\n' | ask "$a" | head -1)
    [ "$r" = "Interface: 2" ] && ok "version over $a" || bad "version over $a: '$r'"
done

# --- pipelining: gnubg's captured requests, each "\n\0"-terminated, in one
# write; every reply must come, in order (checked by the kind of request) ---
zcat positions/gnubg-1.07/client_capture.tsv.gz | awk -F'\t' 'NR > 1 { print $3 "\t" $4 }' \
    > "$dir/capture.tsv"
rows=$(wc -l < "$dir/capture.tsv")
cut -f1 "$dir/capture.tsv" > "$dir/kinds"
cut -f2 "$dir/capture.tsv" | while IFS= read -r line; do printf '%s\n\0' "$line"; done \
    > "$dir/requests"
for a in "$tcp" "$sock"; do
    ask "$a" < "$dir/requests" > "$dir/replies-${a//\//_}"
done
out=$dir/replies-${tcp//\//_}
n=$(wc -l < "$out")
wrong=$(paste "$dir/kinds" "$out" | awk -F'\t' '
    $1 == "cube" && $2 !~ /^(roll|double)$/ { n++ }
    $1 == "take" && $2 !~ /^(take|drop|beaver)$/ { n++ }
    $1 == "move" && $2 !~ /^([0-9]+\/[0-9]+\*? ?)*$/ { n++ }
    END { print n + 0 }')
if [ "$rows" -eq 411 ] && [ "$n" -eq "$rows" ] && [ "$wrong" -eq 0 ]; then
    ok "$rows pipelined gnubg requests: $n replies, each of the kind asked, in order"
else
    bad "pipelined gnubg requests: $rows sent, $n replies, $wrong of the wrong kind"
    paste "$dir/kinds" "$out" | head -5
fi
cmp -s "$out" "$dir/replies-${sock//\//_}" && ok "the Unix socket gives the same $n replies" \
    || bad "TCP and Unix socket replies differ"

# --- the 64 KiB line limit ---
{ head -c 70000 /dev/zero | tr '\0' a; printf '\nversion\n'; } | ask "$tcp" > "$dir/long"
if [ "$(sed -n 1p "$dir/long")" = "Error: line longer than 65536 bytes" ] &&
    [ "$(sed -n 2p "$dir/long")" = "Interface: 2" ] && [ "$(wc -l < "$dir/long")" -eq 5 ]; then
    ok "a 70000-byte line: one error, and the connection goes on"
else
    bad "over-long line: $(head -c 200 "$dir/long")"
fi
r=$({ head -c 65536 /dev/zero | tr '\0' a; printf '\n'; } | ask "$tcp")
case $r in
"Error: line longer"*) bad "a line of exactly 65536 bytes was refused as too long" ;;
Error:*) ok "a line of exactly 65536 bytes reaches the protocol layer" ;;
*) bad "65536-byte line: '$r'" ;;
esac

# --- NUL bytes: skipped right after a newline, an error anywhere else ---
printf 'ver\0sion\nversion\n\0version\n' | ask "$sock" > "$dir/nul"
if [ "$(sed -n 1p "$dir/nul")" = "Error: line contains a NUL byte" ] &&
    [ "$(grep -c '^Interface: 2$' "$dir/nul")" -eq 2 ] && [ "$(wc -l < "$dir/nul")" -eq 9 ]; then
    ok "NUL inside a line: an error; NUL after a newline: skipped"
else
    bad "NUL handling: $(cat -A "$dir/nul" | head -5)"
fi

# --- binary junk: one error line per junk line, then business as usual ---
LC_ALL=C awk 'BEGIN { srand(1); for (i = 0; i < 200000; i++) printf "%c", 1 + int(rand() * 255) }' \
    > "$dir/junk"
lines=$(($(wc -l < "$dir/junk") + 1)) # the last, unterminated line is answered at the end
ask "$tcp" < "$dir/junk" > "$dir/junk.out"
got=$(wc -l < "$dir/junk.out")
others=$(grep -vc '^Error: ' "$dir/junk.out")
if [ "$got" -eq "$lines" ] && [ "$others" -eq 0 ]; then
    ok "200000 bytes of junk: $got lines, $got error replies"
else
    bad "junk: $lines lines sent, $got replies, $others not errors"
fi
r=$(printf 'version\n' | ask "$tcp" | head -1)
[ "$r" = "Interface: 2" ] && ok "still serving after the junk" || bad "after junk: '$r'"

# --- a silent client and one stuck mid-line do not hold up the others ---
exec 5<> "/dev/tcp/127.0.0.1/$p4"
exec 6<> "/dev/tcp/127.0.0.1/$p4"
printf 'vers' >&6
r=$(printf 'version\n' | ask "$sock" | head -1)
[ "$r" = "Interface: 2" ] && ok "served while a client is silent and another mid-line" \
    || bad "blocked by a silent client: '$r'"
printf 'ion\n' >&6
r=$(timeout 10 head -1 <&6)
[ "$r" = "Interface: 2" ] && ok "the mid-line client gets its reply once the line ends" \
    || bad "mid-line client: '$r'"
exec 5>&- 6>&-

# --- clients that vanish mid-request cost nothing more ---
for i in $(seq 1 20); do
    (exec 7<> "/dev/tcp/127.0.0.1/$p4" && printf 'evaluation fibsboard %s plies 2\nversion\n' \
        "$BOARD" >&7) 2>/dev/null
done
r=$(printf 'version\n' | ask "$tcp" | head -1)
if [ "$r" = "Interface: 2" ] && kill -0 "$main" 2>/dev/null; then
    ok "20 clients gone mid-request; still serving"
else
    bad "after clients vanished mid-request: '$r'"
fi

# --- 256 clients at once (all connected before the first request) ---
r=$("$NETC" -L -c 256 -n 4 -r version -l 4 "$sock") && ok "256 clients on the Unix socket: $r" \
    || bad "256 clients on the Unix socket: $r"
r=$("$NETC" -L -c 256 -n 4 -r "$BOARD" "$tcp") && ok "256 clients over TCP, board requests: $r" \
    || bad "256 clients over TCP: $r"

# --- addresses in use or invalid: a clear message, exit 1 ---
expect_fail() { # WHAT MESSAGE-REGEX ARGS...
    local what=$1 re=$2 rc
    shift 2
    timeout 10 "$SHESH" serve "$@" 2> "$dir/fail.err"
    rc=$?
    if [ $rc -eq 1 ] && grep -qE "$re" "$dir/fail.err"; then
        ok "$what: exit 1, '$(head -1 "$dir/fail.err")'"
    else
        bad "$what: exit $rc, '$(cat "$dir/fail.err")'"
    fi
}
expect_fail "TCP address in use" "in use" --listen "$tcp"
expect_fail "Unix socket in use" "in use" --unix "$sock"
expect_fail "no port" "HOST:PORT" --listen localhost
expect_fail "port out of range" "65535" --listen 127.0.0.1:99999
expect_fail "IPv6 without brackets" "brackets" --listen ::1:10000
expect_fail "unknown host" "resolve" --listen no.such.host.invalid:10000
: > "$dir/plain-file"
expect_fail "a file that is not a socket" "not a socket" --unix "$dir/plain-file"
[ -e "$dir/plain-file" ] && ok "the plain file was left alone" || bad "plain file removed"
timeout 10 "$SHESH" serve --plies 9 2> /dev/null
[ $? -eq 2 ] && ok "bad option value: exit 2" || bad "bad option value: not a usage error"
# The Unix socket's mode: 0660 by default whatever the umask (the main
# server above was started under the test's umask), or --unix-mode's.
mode=$(stat -c %a "$sock")
[ "$mode" = 660 ] && ok "the Unix socket's mode is 660 by default" || bad "the Unix socket's mode is $mode"
(umask 000; start_server modes --unix "$dir/m.sock" --unix-mode 0600 --plies 0
 m=$(stat -c %a "$dir/m.sock"); kill "$pid"; wait "$pid" 2> /dev/null
 [ "$m" = 600 ]) && ok "--unix-mode 0600 under umask 000 gives 600" || bad "--unix-mode 0600: not 600"
for args in "--unix-mode 999 --unix $dir/m.sock" "--unix-mode 600" "--unix-mode 01777 --unix $dir/m.sock"; do
    # shellcheck disable=SC2086
    timeout 10 "$SHESH" serve $args 2> "$dir/mode.err"
    [ $? -eq 2 ] && grep -q "unix-mode" "$dir/mode.err" && ok "serve $args: exit 2, $(head -1 "$dir/mode.err")" ||
        bad "serve $args: $(cat "$dir/mode.err")"
done

# --- abandoned searches: clients that send a 3-ply board (most of a second
# each) and reset the connection once the server has it. Their searches,
# running or queued, are stopped (counted in the summary line), and a client
# that waits is answered with a move. ---
start_server abandon --listen 127.0.0.1:0 --plies 3 --max-plies 3 --threads 2
aban=$pid
ap=$(port_of '127\.0\.0\.1' "$dir/abandon.err")
python3 - "$ap" "$BOARD" > "$dir/abandon.out" <<'PY' || bad "abandoned searches: the client script failed"
import socket, struct, sys, time
port, board = int(sys.argv[1]), (sys.argv[2] + "\n").encode()
for _ in range(10):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(board)
    time.sleep(0.1)  # the server reads it and hands it to a worker
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    s.close()  # a reset: the reply can go nowhere
s = socket.create_connection(("127.0.0.1", port))
s.sendall(board)
data = b""
while not data.endswith(b"\n"):
    d = s.recv(4096)
    if not d:
        break
    data += d
print(data.decode().strip())
PY
kill -TERM "$aban"; wait "$aban" 2> /dev/null; forget "$aban"
grep -qE '^[0-9]+/[0-9]+' "$dir/abandon.out" && ok "after 10 abandoned 3-ply requests a waiting client gets its move" ||
    bad "abandoned searches: the waiting client got '$(cat "$dir/abandon.out")'"
n=$(sed -n 's/.*; \([0-9]*\) stopped under way.*/\1/p' "$dir/abandon.err")
[ "${n:-0}" -ge 1 ] && ok "$n searches of reset connections were stopped under way" ||
    bad "no search was stopped: $(tail -1 "$dir/abandon.err")"

# --- turns and caps: workers take peers in turn, and a request over the
# queue caps is answered "server busy" at once. One worker; host A
# (127.0.0.1) sends six 3-ply boards on six connections, then host B
# (127.0.0.2, the same loopback) three. A1 runs; per peer at most 3 wait
# (A2-A4; A5, A6 busy); in all at most 5 (B1, B2; B3 busy). B1 is answered
# right after A2, not after every A, and B is never shut out by A. Each
# request has its own roll: the worker's evaluation cache answers a board it
# has just searched at once, and replies that come together cannot be told
# apart by the order they are read in. ---
start_server fair --listen 127.0.0.1:0 --plies 3 --max-plies 3 --threads 1 \
    --max-queue 5 --max-queue-per-peer 3
fairpid=$pid
python3 - "$(port_of '127\.0\.0\.1' "$dir/fair.err")" "$BOARD" > "$dir/fair.out" <<'PY' ||
import select, socket, sys, time
port, fields = int(sys.argv[1]), sys.argv[2].split(":")
rolls = iter(((6, 3), (5, 2), (1, 4), (5, 3), (2, 1), (6, 5), (3, 2), (6, 4), (5, 4)))
conns = []
for host, n in (("127.0.0.1", 6), ("127.0.0.2", 3)):
    for i in range(n):
        fields[33:37] = [str(d) for d in next(rolls)] * 2  # both pairs of dice
        s = socket.socket()
        s.bind((host, 0))
        s.connect(("127.0.0.1", port))
        s.sendall((":".join(fields) + "\n").encode())
        conns.append(("AB"[host == "127.0.0.2"] + str(i + 1), s))
        time.sleep(0.005)  # in this order, all within the first request (0.4 s)
order, busy, left = [], [], dict((s.fileno(), (name, s, b"")) for name, s in conns)
while left:
    ready, _, _ = select.select([s for _, s, _ in left.values()], [], [], 300)
    if not ready:
        break
    for s in ready:
        name, _, data = left[s.fileno()]
        d = s.recv(4096)
        data += d
        if d and not data.endswith(b"\n"):
            left[s.fileno()] = (name, s, data)
            continue
        del left[s.fileno()]
        (busy if data.startswith(b"Error: server busy") else order).append(name)
print("answered", " ".join(order))
print("busy", " ".join(sorted(busy)))
PY
    bad "turns and caps: the client script failed"
kill -TERM "$fairpid"; wait "$fairpid" 2> /dev/null; forget "$fairpid"
grep -qx 'busy A5 A6 B3' "$dir/fair.out" &&
    ok "caps: 3 waiting per peer and 5 in all, the rest answered 'server busy' ($(tail -1 "$dir/fair.out"))" ||
    bad "caps: $(cat "$dir/fair.out")"
grep -qx 'answered A1 A2 B1 A3 B2 A4' "$dir/fair.out" &&
    ok "turns: host B's first request runs third, not after all of host A's ($(head -1 "$dir/fair.out"))" ||
    bad "turns: $(head -1 "$dir/fair.out")"
grep -q '(3 answered "server busy";' "$dir/fair.err" && ok "... and the summary counts them" ||
    bad "the summary: $(tail -1 "$dir/fair.err")"

# --- memory: 40 clients send 6,000 `help` each (6.6 MB of replies) and read
# nothing for 3 s, then read everything. With --max-buffered 4000000 the
# server holds about that much for them (about 45 MB more without it); once
# they are quiet their buffers are given back while they stay connected
# (kept, they were 70 MB). Every reply arrives. The RSS figures are not
# checked under ASan, whose allocator keeps freed memory in quarantine. ---
cat > "$dir/flood.py" <<'PY'
import select, socket, sys, time
port, pid, n, lines = (int(a) for a in sys.argv[1:5])
def rss():  # MB
    for l in open("/proc/%d/status" % pid):
        if l.startswith("VmRSS"):
            return int(l.split()[1]) // 1024
def connect():
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # before connect: a small window
    s.connect(("127.0.0.1", port))
    return s
one = connect()
one.sendall(b"help\nexit\n")
reply = b""
while True:
    d = one.recv(65536)
    if not d:
        break
    reply += d
before = rss()
socks = [connect() for _ in range(n)]
for s in socks:
    s.sendall(b"help\n" * lines)
time.sleep(3)
flooding = rss()
want = dict((s.fileno(), len(reply) * lines) for s in socks)
by_fd = dict((s.fileno(), s) for s in socks)
while want:
    ready, _, _ = select.select([by_fd[f] for f in want], [], [], 120)
    if not ready:
        break
    for s in ready:
        d = s.recv(1 << 20)
        want[s.fileno()] -= len(d)
        if not d or want[s.fileno()] <= 0:
            del want[s.fileno()]
time.sleep(0.5)
quiet = rss()
print(before, flooding, quiet, len(want))
PY
# flood NAME --max-buffered N: sets m0 m1 m2 (MB before, flooding, quiet) and unanswered.
flood() {
    start_server "$1" --listen 127.0.0.1:0 --plies 0 "${@:2}"
    local fp=$pid
    python3 "$dir/flood.py" "$(port_of '127\.0\.0\.1' "$dir/$1.err")" "$fp" 40 6000 > "$dir/$1.out" ||
        bad "memory: the client script failed"
    kill -TERM "$fp"; wait "$fp" 2> /dev/null; forget "$fp"
    read -r m0 m1 m2 unanswered < "$dir/$1.out"
    [ "${unanswered:-x}" = 0 ] && ok "memory ($*): 40 flooding clients got all their 240,000 replies" ||
        bad "memory ($*): $unanswered clients missed replies ($(cat "$dir/$1.out"))"
}
asan=false
grep -qa __asan_init "$SHESH" && asan=true
flood budget --max-buffered 4000000
if $asan; then
    echo "note: $SHESH is built with ASan: the memory held is not checked ($m0 $m1 $m2 MB)"
else
    [ $((m1 - m0)) -le 16 ] && ok "... --max-buffered 4000000: $((m1 - m0)) MB more while they flooded" ||
        bad "--max-buffered 4000000: $m0 MB before, $m1 MB while 40 clients flooded"
fi
grep -q 'over --max-buffered 4000000' "$dir/budget.err" && ok "... and said so once on stderr" ||
    bad "no line about --max-buffered: $(cat "$dir/budget.err")"
flood nobudget --max-buffered 0
if $asan; then
    echo "note: $SHESH is built with ASan: the memory held is not checked ($m0 $m1 $m2 MB)"
else
    [ $((m2 - m0)) -le 10 ] &&
        ok "... without a budget $((m1 - m0)) MB more while they flooded, $((m2 - m0)) MB once they were quiet, still connected" ||
        bad "quiet connections keep their memory: $m0 MB before, $m1 MB flooding, $m2 MB after"
fi

# A budget smaller than one reply: the connection is held back while its
# reply waits, and served again once it is read (an idle connection's spare
# buffers must not keep the squeeze on).
start_server tiny --listen 127.0.0.1:0 --plies 0 --max-buffered 1000
tinypid=$pid
r=$(python3 - "$(port_of '127\.0\.0\.1' "$dir/tiny.err")" <<'PY'
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.settimeout(60)
s.sendall(b"help\n")
data = b""
while b"quit" not in data.lower() and len(data) < 1000:
    data += s.recv(65536)
time.sleep(0.2)
s.sendall(b"version\n")
print(s.recv(100).split(b"\n")[0].decode())
PY
)
kill -TERM "$tinypid"; wait "$tinypid" 2> /dev/null; forget "$tinypid"
[ "$r" = "Interface: 2" ] && ok "--max-buffered 1000: after a reply bigger than the budget the next request is answered" ||
    bad "--max-buffered 1000: the request after a big reply got '$r'"

# --- too many connections: over --max-connections, or with no descriptor
# left (ulimit -n 64), a client is told so with one Error: line, never left
# waiting in silence; the others are served. ---
cat > "$dir/many.py" <<'PY'
import socket, sys
port, n = int(sys.argv[1]), int(sys.argv[2])
socks = [socket.create_connection(("127.0.0.1", port), timeout=60) for _ in range(n)]
for s in socks:
    s.sendall(b"version\n")
got = {"served": 0, "refused": 0, "other": 0}
for s in socks:
    data = b""
    try:
        while b"\n" not in data:
            d = s.recv(4096)
            if not d:
                break
            data += d
    except socket.timeout:
        data = b"(silence)"
    line = data.split(b"\n")[0]
    got["served" if line.startswith(b"Interface")
        else "refused" if line == b"Error: too many connections; try again later" else "other"] += 1
print(got["served"], got["refused"], got["other"])
PY
start_server few --listen 127.0.0.1:0 --max-connections 5 --plies 0
few=$pid
read -r served refused other < <(python3 "$dir/many.py" "$(port_of '127\.0\.0\.1' "$dir/few.err")" 12)
kill -TERM "$few"; wait "$few" 2> /dev/null; forget "$few"
[ "$served $refused $other" = "5 7 0" ] && ok "--max-connections 5: 5 of 12 served, 7 refused with an Error: line" ||
    bad "--max-connections 5: served $served, refused $refused, other $other"
grep -q "(7 refused)" "$dir/few.err" || bad "the summary does not count 7 refused: $(tail -1 "$dir/few.err")"
: > "$dir/fd.err"
(ulimit -n 64; exec "$SHESH" serve --listen 127.0.0.1:0 --plies 0 2> "$dir/fd.err") &
fdpid=$!
pids+=("$fdpid")
for _ in $(seq 1 200); do grep -q '^shesh serve: engine' "$dir/fd.err" && break; sleep 0.05; done
read -r served refused other < <(python3 "$dir/many.py" "$(port_of '127\.0\.0\.1' "$dir/fd.err")" 100)
kill -TERM "$fdpid"; wait "$fdpid" 2> /dev/null; forget "$fdpid"
[ "$other" = 0 ] && [ "$refused" -ge 1 ] && [ $((served + refused)) = 100 ] &&
    ok "ulimit -n 64: $served of 100 served, $refused refused with an Error: line, none left waiting" ||
    bad "ulimit -n 64: served $served, refused $refused, other $other"
[ "$(grep -c 'refused' "$dir/fd.err")" -le 3 ] && ok "... with at most a line a second about it" ||
    bad "the refusals flood stderr: $(grep -c refused "$dir/fd.err") lines"

# --- a stderr nobody reads: the diagnostics wait in a bounded buffer and
# are then dropped with a count; the server goes on serving. The pipe is
# held open here and read only at the end. 1,500 connections refused for
# want of a transcript (its directory is gone) make 150 KB of them. ---
mkfifo "$dir/diag.fifo"
exec 7<> "$dir/diag.fifo"
"$SHESH" serve --listen 127.0.0.1:0 --log-dir "$dir/gone2" --plies 0 2> "$dir/diag.fifo" &
dpid=$!
pids+=("$dpid")
dport=""
while [ -z "$dport" ] && read -r -t 20 line <&7; do
    dport=$(printf '%s\n' "$line" | grep -oE 'listening on 127\.0\.0\.1:[0-9]+' | grep -oE '[0-9]+$')
done
while read -r -t 20 line <&7; do case $line in *engine*) break ;; esac; done
rmdir "$dir/gone2"
python3 - "$dport" > "$dir/diag.out" <<'PY'
import socket, sys
port, answered = int(sys.argv[1]), 0
for _ in range(1500):
    s = socket.create_connection(("127.0.0.1", port), timeout=20)
    try:
        if s.recv(200).startswith(b"Error: the server cannot keep a transcript"):
            answered += 1
    except socket.timeout:
        break
    s.close()
print(answered)
PY
[ "$(cat "$dir/diag.out")" = 1500 ] && ok "stderr not read: all 1500 connections answered" ||
    bad "stderr not read: $(cat "$dir/diag.out") of 1500 connections answered"
timeout 3 cat <&7 > "$dir/diag.txt"
kill -TERM "$dpid"; wait "$dpid"; rc=$?; forget "$dpid"
timeout 3 cat <&7 >> "$dir/diag.txt"
exec 7<&-
[ $rc = 0 ] && grep -q "diagnostic lines dropped: stderr was not read" "$dir/diag.txt" &&
    ok "... the lines that did not fit were dropped and counted; exit 0" ||
    bad "stderr not read: exit $rc, $(grep -c . "$dir/diag.txt") lines, $(grep dropped "$dir/diag.txt")"

# --- SIGTERM: stop accepting, finish, remove the socket file, exit 0 ---
kill -TERM "$main"
wait "$main"
rc=$?
forget "$main"
[ $rc -eq 0 ] && ok "SIGTERM: exit 0" || bad "SIGTERM: exit status $rc"
[ -e "$sock" ] && bad "Unix socket file left behind" || ok "Unix socket file removed"
grep -q '^shesh serve: stopped after' "$dir/main.err" || bad "no summary line at exit"

# --- transcripts: zcat, shesh log cat, shesh replay ---
nlogs=$(ls "$dir"/logs/*.log.gz 2> /dev/null | wc -l)
[ "$nlogs" -gt 300 ] && ok "$nlogs transcripts written" || bad "only $nlogs transcripts"
if zcat "$dir"/logs/*.log.gz > "$dir/all.txt" && grep -q ' req version$' "$dir/all.txt"; then
    ok "zcat reads every transcript ($(wc -l < "$dir/all.txt") entries)"
else
    bad "zcat cannot read the transcripts"
fi
odd=$(ls "$dir"/logs | grep -cvE '^shesh-[0-9]{8}-[0-9]{6}-[0-9]+-[0-9]+-[0-9a-f]{16}\.log\.gz$')
[ "$odd" = 0 ] && ok "transcript names end in 16 random hex digits" || bad "$odd transcript names of another shape"
# A connection whose transcript cannot be made is refused with one Error:
# line (here the log directory is gone), and the server goes on.
start_server nolog --listen 127.0.0.1:0 --log-dir "$dir/gone" --plies 0
nolog=$pid
rmdir "$dir/gone"
reply=$(printf 'version\n' | ask "127.0.0.1:$(port_of '127\.0\.0\.1' "$dir/nolog.err")")
[ "$reply" = "Error: the server cannot keep a transcript of this connection; try again later" ] &&
    ok "no transcript possible: the connection is refused with one Error: line" ||
    bad "no transcript possible: got '$reply'"
grep -q "refused: transcript" "$dir/nolog.err" && ok "... and the refusal is said on stderr" ||
    bad "no diagnostic for the refusal: $(cat "$dir/nolog.err")"
kill "$nolog"; wait "$nolog" 2> /dev/null; forget "$nolog"
# The transcript of the pipelined gnubg requests over TCP.
big=""
for f in "$dir"/logs/*.gz; do
    if zcat "$f" | head -1 | grep -q "on 127.0.0.1:$p4\$" &&
        [ "$(zcat "$f" | grep -c ' req board:')" -eq 411 ]; then big=$f; break; fi
done
if [ -z "$big" ]; then
    bad "no transcript holds the 411 pipelined requests"
else
    "$SHESH" log cat "$big" > "$dir/cat.txt"
    rc=$?
    reqs=$(grep -cE '^[0-9T:.-]+Z req board:' "$dir/cat.txt")
    reps=$(grep -cE '^[0-9T:.-]+Z rep ' "$dir/cat.txt")
    [ $rc -eq 0 ] && [ "$reqs" -eq 411 ] && [ "$reps" -eq 411 ] &&
        ok "shesh log cat: $reqs requests and $reps replies, one a line" ||
        bad "shesh log cat: exit $rc, $reqs requests, $reps replies"
fi

# A second server to replay against (the first one is gone).
start_server again --listen 127.0.0.1:0 --unix "$sock" --plies 1 # as the first one
again=$pid
pa=$(port_of '127\.0\.0\.1' "$dir/again.err")
if [ -n "$big" ]; then
    r=$("$SHESH" replay "$big" --to "127.0.0.1:$pa")
    [ $? -eq 0 ] && ok "replay: $r" || bad "replay against an identical server: $r"
    # The same transcript with one reply changed must be caught.
    zcat "$big" | sed '0,/ rep roll\\n$/s// rep double\\n/' | gzip > "$dir/changed.log.gz"
    "$SHESH" replay "$dir/changed.log.gz" --to "$sock" > "$dir/replay.out"
    rc=$?
    if [ $rc -eq 1 ] && grep -q '1 difference' "$dir/replay.out" &&
        grep -q 'expected: double' "$dir/replay.out"; then
        ok "replay reports a changed reply (exit 1)"
    else
        bad "replay missed a changed reply: exit $rc, $(tail -3 "$dir/replay.out")"
    fi
    # Cut in the middle: readable up to the cut. The middle may fall right
    # between two gzip members (then nothing is cut short); a member is far
    # longer than one byte, so one byte further is inside one.
    size=$(stat -c %s "$big")
    for at in $((size / 2)) $((size / 2 + 1)); do
        head -c "$at" "$big" > "$dir/cut.log.gz"
        "$SHESH" log cat "$dir/cut.log.gz" > "$dir/cut.txt" 2> "$dir/cut.err"
        rc=$?
        grep -q 'cut short' "$dir/cut.err" && break
    done
    n=$(wc -l < "$dir/cut.txt")
    [ $rc -eq 0 ] && [ "$n" -gt 0 ] && grep -q 'cut short' "$dir/cut.err" &&
        ok "a transcript cut in half: $n entries and a warning" ||
        bad "cut transcript: exit $rc, $n entries, '$(cat "$dir/cut.err")'"
fi
printf 'hello\n' | gzip > "$dir/not.log.gz"
"$SHESH" log cat "$dir/not.log.gz" > /dev/null 2>&1
[ $? -eq 1 ] && ok "log cat refuses a file that is not a transcript" || bad "log cat took junk"

# --- log cat and replay read a transcript entry by entry, in memory
# bounded by its longest line, not by its size: under ulimit -v 50000 (50
# MB of address space) they read 48 MB of text (800 requests of 60000
# bytes, which held whole take more than that), and give the same output;
# a file of 40 KB that holds one line of 40 MB is refused as damaged
# rather than read into memory. ---
start_server huge --listen 127.0.0.1:0 --log-dir "$dir/hugelogs" --log-max-bytes 0 --plies 0
huge=$pid
hp=$(port_of '127\.0\.0\.1' "$dir/huge.err")
long=$(head -c 60000 /dev/zero | tr '\0' a)
for i in $(seq 1 800); do printf '%d%s\n' "$i" "$long"; done | ask "127.0.0.1:$hp" > /dev/null
hf=$(ls "$dir"/hugelogs/*.gz)
zcat "$hf" > "$dir/huge.zcat"
{ printf '2026-01-01T00:00:00.000000Z req '; head -c 40000000 /dev/zero | tr '\0' a; echo; } |
    gzip > "$dir/bomb.log.gz"
if grep -qa __asan_init "$SHESH"; then
    # AddressSanitizer reserves terabytes of address space at start.
    echo "note: $SHESH is built with ASan, which cannot run under ulimit -v: memory bounds of log cat and replay not checked"
else
    (ulimit -v 50000; exec "$SHESH" log cat "$hf") > "$dir/huge.txt" 2> "$dir/huge.err2"
    rc=$?
    [ $rc = 0 ] && cmp -s "$dir/huge.zcat" "$dir/huge.txt" &&
        ok "ulimit -v 50000: shesh log cat prints all $(wc -c < "$dir/huge.txt") bytes of a $(stat -c %s "$hf")-byte transcript, the same as zcat" ||
        bad "ulimit -v 50000: shesh log cat: exit $rc, $(head -c 300 "$dir/huge.err2")"
    r=$( (ulimit -v 50000; exec "$SHESH" replay "$hf" --to "127.0.0.1:$hp") 2>&1)
    [ $? = 0 ] && [ "$r" = "replayed 800 of 800 requests: every reply the same" ] &&
        ok "ulimit -v 50000: shesh replay: $r" || bad "ulimit -v 50000: shesh replay: $(printf '%s' "$r" | head -c 300)"
    for cmd in "log cat" replay; do
        if [ "$cmd" = replay ]; then set -- replay "$dir/bomb.log.gz" --to "127.0.0.1:$hp"
        else set -- log cat "$dir/bomb.log.gz"; fi
        (ulimit -v 50000; exec "$SHESH" "$@") > /dev/null 2> "$dir/bomb.err"
        rc=$?
        [ $rc = 1 ] && grep -q 'line 1 is longer than 1048576 bytes' "$dir/bomb.err" &&
            ok "ulimit -v 50000: a line of 40 MB in $(stat -c %s "$dir/bomb.log.gz") bytes of gzip: shesh $cmd refuses it, exit 1" ||
            bad "a line of 40 MB: shesh $cmd: exit $rc, $(head -c 300 "$dir/bomb.err")"
    done
fi
kill -TERM "$huge"; wait "$huge" 2> /dev/null; forget "$huge"

# --- time budget, idle timeout, SIGINT ---
start_server slow --listen 127.0.0.1:0 --idle-timeout 1 --request-timeout 0.1 --max-plies 4
slow=$pid
ps_=$(port_of '127\.0\.0\.1' "$dir/slow.err")
r=$(printf 'evaluation fibsboard %s plies 4\n' "$BOARD" | ask "127.0.0.1:$ps_" | head -1)
case $r in
*"time budget"*) ok "a request over its time budget: '$r'" ;;
*) bad "time budget: '$r'" ;;
esac
exec 5<> "/dev/tcp/127.0.0.1/$ps_"
timeout 10 cat <&5 > /dev/null
[ $? -eq 0 ] && ok "a silent client is closed after the idle timeout" || bad "idle client kept"
exec 5>&-
# A drip of one byte every 0.3 s, never a newline, keeps the connection
# from being idle but must not keep it open: the line has the idle timeout
# (1 s here) to be finished.
python3 - "$ps_" > "$dir/drip.out" <<'PY'
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
start = time.time()
try:
    for _ in range(30):  # 9 s of drip at most
        s.sendall(b"v")
        time.sleep(0.3)
    print("still open")
except (BrokenPipeError, ConnectionResetError):
    print("closed")
PY
[ "$(cat "$dir/drip.out")" = closed ] && ok "a one-byte drip is closed when its line is not finished within the idle timeout" ||
    bad "a drip kept its connection open: $(cat "$dir/drip.out")"
kill -INT "$slow"
wait "$slow"
rc=$?
forget "$slow"
[ $rc -eq 0 ] && ok "SIGINT: exit 0" || bad "SIGINT: exit status $rc"

# --- kill -9 with transcripts: every line written so far can be read ---
start_server k9 --listen 127.0.0.1:0 --unix "$dir/k9.sock" --log-dir "$dir/k9logs"
k9=$pid
pk=$(port_of '127\.0\.0\.1' "$dir/k9.err")
exec 8<> "/dev/tcp/127.0.0.1/$pk"
printf 'version\nhelp\n%s\n' "$BOARD" >&8
timeout 10 head -4 <&8 > /dev/null
sleep 0.2
{ kill -9 "$k9" && wait "$k9"; } 2> /dev/null
forget "$k9"
exec 8>&-
f=$(ls "$dir"/k9logs/*.gz | head -1)
"$SHESH" log cat "$f" > "$dir/k9.txt" 2> /dev/null
rc=$?
if [ $rc -eq 0 ] && grep -q ' req version$' "$dir/k9.txt" && grep -q ' rep Interface: 2' \
    "$dir/k9.txt" && zcat "$f" > /dev/null; then
    ok "after kill -9: the transcript reads back ($(wc -l < "$dir/k9.txt") entries)"
else
    bad "after kill -9: exit $rc, $(cat "$dir/k9.txt")"
fi
# Every reply a client has read is in the transcript, even when the kill
# comes the moment it has them: 200 pipelined requests, the last reply read,
# kill -9 at once (a reply is logged before it is sent).
start_server k9r --listen 127.0.0.1:0 --log-dir "$dir/k9rlogs" --plies 0
k9r=$pid
python3 - "$(port_of '127\.0\.0\.1' "$dir/k9r.err")" "$k9r" <<'PY' || bad "kill -9 at once: the client script failed"
import os, signal, socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=30)
s.sendall(b"version\n" * 200)
data = b""
while data.count(b"Software: ") < 200:
    d = s.recv(65536)
    if not d:
        break
    data += d
os.kill(int(sys.argv[2]), signal.SIGKILL)
PY
{ wait "$k9r"; } 2> /dev/null
forget "$k9r"
n=$("$SHESH" log cat "$dir"/k9rlogs/*.gz 2> /dev/null | grep -c ' rep Interface: ')
[ "$n" = 200 ] && ok "kill -9 as the last reply is read: all 200 replies are in the transcript" ||
    bad "kill -9 as the last reply is read: $n of 200 replies in the transcript"
# --log-max-bytes: past the limit a connection's recording ends with one
# note; the client is still answered.
start_server cap --listen 127.0.0.1:0 --log-dir "$dir/caplogs" --log-max-bytes 3000 --plies 0
cap=$pid
got=$(printf 'help\n%.0s' $(seq 1 50) | ask "127.0.0.1:$(port_of '127\.0\.0\.1' "$dir/cap.err")" | grep -c '^Shesh speaks')
kill -TERM "$cap"; wait "$cap" 2> /dev/null; forget "$cap"
"$SHESH" log cat "$dir"/caplogs/*.gz > "$dir/cap.txt" 2> /dev/null
bytes=$(zcat "$dir"/caplogs/*.gz | wc -c)
[ "$bytes" -le 3000 ] && [ "$(tail -1 "$dir/cap.txt" | grep -c 'note transcript limit of 3000 bytes reached')" = 1 ] &&
    [ "$got" = 50 ] && ok "--log-max-bytes 3000: $bytes bytes of text, ended by one note; all 50 requests answered" ||
    bad "--log-max-bytes 3000: $bytes bytes, last entry '$(tail -1 "$dir/cap.txt")', $got reply lines"
# Its socket file stays behind: a new server replaces the stale file.
[ -S "$dir/k9.sock" ] || bad "kill -9 should have left the socket file"
start_server k9b --unix "$dir/k9.sock"
r=$(printf 'version\n' | ask "$dir/k9.sock" | head -1)
[ "$r" = "Interface: 2" ] && ok "a stale socket file is replaced" || bad "stale socket: '$r'"
# A full disk, as a file size limit (ulimit -f 16: 16 KiB a file, no root
# needed): the write of a transcript's member fails part-way with EFBIG
# (the server ignores SIGXFSZ). The member is removed whole, so zcat reads
# the file without an error; the recording of that connection stops with
# one line on stderr, and every request is still answered. One request at
# a time, each a member of its own, of random text that does not compress
# much: the limit falls inside a member, after many whole ones.
: > "$dir/fsz.err"
(ulimit -f 16; exec "$SHESH" serve --listen 127.0.0.1:0 --log-dir "$dir/fszlogs" --plies 0 \
    2> "$dir/fsz.err") &
fpid=$!
pids+=("$fpid")
for _ in $(seq 1 200); do grep -q '^shesh serve: engine' "$dir/fsz.err" && break; sleep 0.05; done
python3 - "$(port_of '127\.0\.0\.1' "$dir/fsz.err")" > "$dir/fsz.out" <<'PY' || bad "ulimit -f: the client script failed"
import random, socket, string, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=30)
f = s.makefile("rb")
rng = random.Random(2)
for _ in range(1000):
    s.sendall(("x" + "".join(rng.choice(string.ascii_lowercase) for _ in range(60)) + "\n").encode())
    sys.stdout.write(f.readline().decode())
s.sendall(b"version\n")
sys.stdout.write(f.readline().decode())
PY
kill -TERM "$fpid"; wait "$fpid"; rc=$?; forget "$fpid"
errs=$(grep -c "^Error: unknown command 'x" "$dir/fsz.out")
f=$(ls "$dir"/fszlogs/*.gz)
size=$(stat -c %s "$f")
[ $rc = 0 ] && [ "$errs" = 1000 ] && grep -q '^Interface: 2$' "$dir/fsz.out" &&
    ok "ulimit -f 16: all 1001 requests answered, exit 0" ||
    bad "ulimit -f 16: exit $rc, $errs of 1000 error replies, $(tail -1 "$dir/fsz.out")"
n=$(zcat "$f" 2> "$dir/fsz.zcat" | wc -l)
[ ! -s "$dir/fsz.zcat" ] && [ "$size" -lt 16384 ] && [ "$n" -gt 10 ] &&
    ok "... zcat reads the transcript without an error: $n entries, $size bytes, whole members only" ||
    bad "... zcat of the transcript: $n entries, $size bytes, '$(cat "$dir/fsz.zcat")'"
"$SHESH" log cat "$f" > "$dir/fsz.txt" 2> "$dir/fsz.cat.err"
[ $? = 0 ] && [ ! -s "$dir/fsz.cat.err" ] && [ "$(wc -l < "$dir/fsz.txt")" = "$n" ] &&
    ok "... shesh log cat reads its $n entries, exit 0, no warning" ||
    bad "... shesh log cat: $(wc -l < "$dir/fsz.txt") entries, '$(cat "$dir/fsz.cat.err")'"
[ "$(grep -c 'the rest of this connection is not recorded' "$dir/fsz.err")" = 1 ] &&
    grep -q 'File too large' "$dir/fsz.err" && ok "... and stderr says so once" ||
    bad "... stderr: $(grep -c . "$dir/fsz.err") lines: $(head -c 600 "$dir/fsz.err")"
kill -TERM "$pid" "$again"
wait "$pid" "$again" || bad "a server did not exit cleanly"
forget "$pid" "$again"

exit $fail
