#!/usr/bin/env bash
# t_fake_player.sh - tests/tools/fake_player.py, the misbehaving external
# player of the referee's tests, in front of a real `shesh serve`: with no
# fault every reply is the backend's, byte for byte (TCP and Unix, gnubg's
# "\n\0" framing, multi-line replies, debug output); each fault (illegal,
# garbage, silence, disconnect, beaver) happens at exactly the request
# --after names, on every one from there with --every, on the first
# connection only with --once; connections are counted and served apart and
# at once; SIGTERM ends it. The client is a few lines of Python (below) that
# sends one request at a time and says what came back.
set -u
SHESH=${SHESH:-build/shesh}
FAKE=tests/tools/fake_player.py
# shellcheck source=tests/lib/check.sh
. tests/lib/check.sh
fakes=()
stop_all() {
    local p
    for p in "${fakes[@]}"; do kill "$p" 2> /dev/null; done
    cleanup
}
trap stop_all EXIT

# talk ADDR [nul] < SCRIPT: connects to ADDR (unix:PATH, tcp:HOST:PORT) and
# plays SCRIPT, one line per step, "N<TAB>REQUEST": sends REQUEST and "\n"
# ("\n\0" with nul, as gnubg does), then prints the N lines of the reply
# (10 s at most). N = 0: prints what comes within 0.3 s, or "<silent>".
# N = *: ends its side and prints everything up to the close. N = f: waits
# until the file REQUEST exists. N = w: sends nothing, waits (10 s at most) for the other
# side to close the connection. A closed connection prints "<closed>" and ends the run;
# a reply that does not come in time prints "<silent>".
TALK='
import os, socket, sys, time
addr, nul = sys.argv[1], len(sys.argv) > 2
if addr.startswith("unix:"):
    s = socket.socket(socket.AF_UNIX); s.connect(addr[5:])
else:
    host, port = addr[4:].rsplit(":", 1)
    s = socket.create_connection((host.strip("[]"), int(port)))
out, buf = sys.stdout.buffer, b""
def line(wait):
    global buf
    s.settimeout(wait)
    while b"\n" not in buf:
        try:
            d = s.recv(65536)
        except socket.timeout:
            return "silent"
        except OSError:
            return "closed"
        if not d:
            return "closed"
        buf += d
    i = buf.index(b"\n") + 1
    r, buf = buf[:i], buf[i:]
    return r
for step in sys.stdin.buffer.read().split(b"\n"):
    if not step:
        continue
    n, req = step.split(b"\t", 1)
    if n == b"f":
        while not os.path.exists(req):
            time.sleep(0.01)
        continue
    if n == b"w":
        r = line(10)
        out.write(b"<closed>\n" if r == "closed" else b"<still open>\n")
        break
    try:
        s.sendall(req + (b"\n\0" if nul else b"\n"))
    except OSError:
        out.write(b"<closed>\n"); break
    if n == b"*":
        s.shutdown(socket.SHUT_WR)
    count = 1 if n in (b"0", b"*") else int(n)
    got = 0
    while n == b"*" or got < count:
        r = line(0.3 if n == b"0" else 10)
        if r == "silent" and n == b"0":
            out.write(b"<silent>\n"); break
        if not isinstance(r, bytes):
            if n != b"*":
                out.write(("<%s>\n" % r).encode())
            break
        out.write(r); got += 1
    if r == "closed":
        break
    out.flush()
'
talk() { python3 -S -c "$TALK" "$@"; }

# start_fake NAME ARGS...: fake_player.py ARGS in front of the backend; sets
# $fake (its pid) and $addr (the address it printed).
start_fake() {
    local name=$1 i
    shift
    : > "$dir/$name.out"
    python3 -S "$FAKE" --backend "unix:$dir/b.sock" "$@" > "$dir/$name.out" 2> "$dir/$name.err" &
    fake=$!
    fakes+=("$fake")
    addr=
    for i in $(seq 1 200); do
        addr=$(head -n 1 "$dir/$name.out")
        [ -n "$addr" ] && return 0
        kill -0 "$fake" 2> /dev/null || break
        sleep 0.05
    done
    echo "FAIL: fake player '$name' did not start: $(cat "$dir/$name.err")"
    exit 1
}
# stop_fake: SIGTERM; the exit status must be 0, within 5 seconds.
stop_fake() {
    local i
    kill -TERM "$fake"
    for i in $(seq 1 100); do
        kill -0 "$fake" 2> /dev/null || break
        sleep 0.05
    done
    if kill -0 "$fake" 2> /dev/null; then
        no "fake player $fake still runs 5 s after SIGTERM"
        kill -9 "$fake"
    fi
    wait "$fake"
    stop_rc=$?
}

# The opening position, money, X to play 3-1 (protocol notes 3.1); a cube
# question and a take question of gnubg's client (client_capture.tsv.gz);
# and the opening before the roll with both may-double fields 0 and field
# 40 not set: a double pending all the same.
MOVE='board:You:Opp:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:3:1:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:0'
CUBE='board:alice:extbot:5:0:0:0:-1:-1:0:0:0:5:0:3:0:0:0:-4:5:-1:0:0:-3:0:-5:0:0:0:0:2:0:1:0:0:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1'
TAKE='board:extbot:alice:5:0:0:0:3:1:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:-2:-1:0:-1:0:0:0:0:2:0:1:1:1:-1:0:25:11:12:0:0:0:0:0:1'
TAKE2='board:You:Opp:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:0:0:0:0:1:0:0:0:1:-1:0:25:0:0:0:0:0:0:0:0'

"$SHESH" serve --unix "$dir/b.sock" --plies 0 --threads 2 2> "$dir/serve.err" &
bg_pid=$!
for _ in $(seq 1 200); do
    grep -q '^shesh serve: engine' "$dir/serve.err" && break
    sleep 0.05
done
grep -q '^shesh serve: engine' "$dir/serve.err" || { no "the backend did not start"; exit 1; }
backend=unix:$dir/b.sock

# What the backend itself answers, one request at a time.
printf '1\t%s\n' "$MOVE" "$CUBE" "$TAKE" "$TAKE2" > "$dir/four"
talk "$backend" < "$dir/four" > "$dir/four.want"
mapfile -t want < "$dir/four.want"
n=$fails
[ "${#want[@]}" -eq 4 ] || no "the backend's four answers: $(cat "$dir/four.want")"
[ "${want[0]}" = "8/5 6/5 " ] || no "backend move: '${want[0]}'"
[[ ${want[1]} =~ ^(roll|double)$ ]] || no "backend cube answer: '${want[1]}'"
[[ ${want[2]} =~ ^(take|drop)$ ]] || no "backend take answer: '${want[2]}'"
[[ ${want[3]} =~ ^(take|drop|beaver)$ ]] || no "backend take answer (flags 0/0): '${want[3]}'"
passed "$n" "the backend answers a move, a cube and two take questions"
W_MOVE=${want[0]} W_CUBE=${want[1]}
help_lines=$(printf '*\thelp\n' | talk "$backend" | wc -l)

# --- no fault: everything relayed unchanged, over TCP and Unix ---
{
    printf '4\tversion\n'
    printf '1\t%s\n' "$MOVE" "$CUBE" "$TAKE" "$TAKE2"
    printf '%s\thelp\n' "$help_lines"
    printf '1\t%s\n' hello '' '   ' 'version extra' 'board:x:y:1:2:3' 'evaluation fibsboard'
    printf '1\t%s\n' "evaluation fibsboard $MOVE" "evaluation fibsboard $MOVE cube on"
    printf '1\t%s\n' "$MOVE beavers off" "$TAKE2 beavers off" "$CUBE resignation 2"
    printf '1\tset debug on\n*\t%s\n' "$MOVE"
} > "$dir/relay"
talk "$backend" < "$dir/relay" > "$dir/relay.want"
talk "$backend" nul < "$dir/relay" > "$dir/relay.want-nul"
n=$fails
start_fake relay-tcp --listen tcp:127.0.0.1:0
[[ $addr =~ ^tcp:127\.0\.0\.1:[1-9][0-9]*$ ]] || no "TCP port 0: printed '$addr'"
talk "$addr" < "$dir/relay" > "$dir/relay.tcp"
talk "$addr" nul < "$dir/relay" > "$dir/relay.tcp-nul"
stop_fake
[ "$stop_rc" -eq 0 ] || no "SIGTERM: exit $stop_rc (want 0)"
start_fake relay-unix --listen "unix:$dir/f.sock"
[ "$addr" = "unix:$dir/f.sock" ] || no "Unix socket: printed '$addr'"
talk "$addr" < "$dir/relay" > "$dir/relay.unix"
stop_fake
[ -e "$dir/f.sock" ] && no "the Unix socket file is left after SIGTERM"
lines=$(wc -l < "$dir/relay.want")
grep -q '^DBG: ' "$dir/relay.want" || no "no debug lines in the backend's replies"
[ "$lines" -gt 30 ] || no "the backend's replies: only $lines lines"
cmp -s "$dir/relay.want" "$dir/relay.tcp" || no "TCP relay differs: $(diff "$dir/relay.want" "$dir/relay.tcp" | head -5)"
cmp -s "$dir/relay.want-nul" "$dir/relay.tcp-nul" || no "relay with gnubg's \\n\\0 differs"
cmp -s "$dir/relay.want" "$dir/relay.unix" || no "Unix relay differs: $(diff "$dir/relay.want" "$dir/relay.unix" | head -5)"
[ -s "$dir/relay-tcp.err" ] && no "stderr without a fault: $(cat "$dir/relay-tcp.err")"
passed "$n" "no fault: $lines lines of replies relayed unchanged (TCP, Unix, \\n\\0), exit 0 on SIGTERM"

# exit closes the connection, as the backend does.
n=$fails
start_fake quit --listen "unix:$dir/f.sock"
r=$(printf '1\t%s\n1\texit\n1\t%s\n' "$MOVE" "$MOVE" | talk "$addr")
[ "$r" = "$W_MOVE"$'\n<closed>' ] || no "exit: '$r'"
stop_fake
passed "$n" "exit closes the connection"

# --- illegal ---
n=$fails
start_fake illegal --listen "unix:$dir/f.sock" --fault illegal --after 2
printf '1\t%s\n' "$MOVE" "$MOVE" "$MOVE" > "$dir/three"
talk "$addr" < "$dir/three" > "$dir/illegal.got"
mapfile -t got < "$dir/illegal.got"
[ "${#got[@]}" -eq 3 ] && [ "${got[0]}" = "$W_MOVE" ] && [ "${got[2]}" = "$W_MOVE" ] ||
    no "illegal --after 2: $(cat "$dir/illegal.got")"
[[ ${got[1]} =~ ^([0-9]+/[0-9]+\ )+$ ]] || no "illegal move not well formed: '${got[1]}'"
"$SHESH" moves 4HPwATDgc/ABMA 31 --match "${got[1]}" > /dev/null 2>&1 &&
    no "the illegal answer '${got[1]}' is legal for 3-1 at the opening"
"$SHESH" moves 4HPwATDgc/ABMA 31 --match "${got[0]}" > /dev/null 2>&1 ||
    no "the relayed answer '${got[0]}' is not legal (bad check)"
grep -qx 'fake_player: connection 1 request 2: illegal' "$dir/illegal.err" ||
    no "illegal: stderr '$(cat "$dir/illegal.err")'"
stop_fake
passed "$n" "illegal --after 2: only the second answer is replaced, by '${got[1]}', which is not legal"

# Every kind of board (both colours and directions, quoted names, bars,
# gnubg's and FIBS's boards) with --every: each answer is well formed and
# illegal where the backend's own is legal (fibs.tsv.gz gives the Position
# ID and dice the side to act sees).
# One row in three, to keep it quick.
zcat positions/gnubg-1.07/fibs.tsv.gz | awk -F'\t' 'NR > 1 && $10 != "00" && $13 == 0 &&
    $2 !~ /resignation [1-9]/ && n++ % 3 == 0 { print $2 "\t" $4 "\t" $10 }' > "$dir/moves.tsv"
cut -f1 "$dir/moves.tsv" | sed 's/^/1\t/' > "$dir/moves.req"
talk "$backend" < "$dir/moves.req" > "$dir/moves.want"
start_fake every --listen "unix:$dir/f.sock" --fault illegal --after 1 --every
talk "$addr" < "$dir/moves.req" > "$dir/moves.got"
stop_fake
n=$fails
checked=0 dirs=
while IFS=$'\t' read -r board pos dice mine theirs; do
    "$SHESH" moves "$pos" "$dice" --match "$theirs" > /dev/null 2>&1 || continue
    checked=$((checked + 1))
    [[ $board == *:-1:1:25:0:* || $board == *:1:1:25:0:* ]] && dirs="$dirs+"
    [[ $mine =~ ^([0-9]+/[0-9]+\ )+$ ]] || no "not a well-formed move: '$mine' for $board"
    "$SHESH" moves "$pos" "$dice" --match "$mine" > /dev/null 2>&1 &&
        no "legal answer '$mine' for $board"
done < <(paste "$dir/moves.tsv" "$dir/moves.got" "$dir/moves.want")
total=$(wc -l < "$dir/moves.tsv")
[ "$checked" -ge 100 ] || no "only $checked of $total boards had a legal backend move"
[ -n "$dirs" ] || no "no board with direction +1 among those checked"
[ "$(grep -c ': illegal$' "$dir/every.err")" -eq "$total" ] ||
    no "illegal --every: $(grep -c ': illegal$' "$dir/every.err") faults logged for $total requests"
passed "$n" "illegal --every: $checked boards of every kind, each answer a well-formed illegal move"

# Not a move question: still a move (never a legal answer to a cube or take
# question, nor to version).
n=$fails
start_fake illegal2 --listen "unix:$dir/f.sock" --fault illegal --every
r=$(printf '1\t%s\n' "$CUBE" "$TAKE" version | talk "$addr")
[[ $r =~ ^([0-9]+/[0-9]+\ )+$'\n'([0-9]+/[0-9]+\ )+$'\n'([0-9]+/[0-9]+\ )+$ ]] ||
    no "illegal to cube/take/version: '$r'"
stop_fake
passed "$n" "illegal: cube and take questions and other requests get a move too"

# --- garbage ---
n=$fails
start_fake garbage --listen tcp:127.0.0.1:0 --fault garbage --after 3
r=$(printf '1\t%s\n' "$MOVE" "$CUBE" "$TAKE" "$MOVE" | talk "$addr")
[ "$r" = "$W_MOVE"$'\n'"$W_CUBE"$'\nhello?\n'"$W_MOVE" ] || no "garbage --after 3: '$r'"
stop_fake
start_fake garbage2 --listen tcp:127.0.0.1:0 --fault garbage --after 2 --every
r=$(printf '1\t%s\n' "$MOVE" version "$CUBE" "$TAKE" | talk "$addr")
[ "$r" = "$W_MOVE"$'\nhello?\nhello?\nhello?' ] || no "garbage --after 2 --every: '$r'"
stop_fake
passed "$n" "garbage: 'hello?' on the third request only, or on every one from the second"

# --- silence ---
n=$fails
start_fake silence --listen "unix:$dir/f.sock" --fault silence --after 2
r=$(printf '1\t%s\n0\t%s\n0\tversion\n0\t%s\n' "$MOVE" "$MOVE" "$CUBE" | talk "$addr")
[ "$r" = "$W_MOVE"$'\n<silent>\n<silent>\n<silent>' ] || no "silence --after 2: '$r'"
grep -qx 'fake_player: connection 1 request 2: silence' "$dir/silence.err" ||
    no "silence: stderr '$(cat "$dir/silence.err")'"
# The next connection is silenced again, at its own second request.
r=$(printf '1\t%s\n0\t%s\n' "$CUBE" "$MOVE" | talk "$addr")
[ "$r" = "$W_CUBE"$'\n<silent>' ] || no "silence, second connection: '$r'"
stop_fake
passed "$n" "silence --after 2: no answer from the second request on, the connection open"

# --- disconnect, and --once ---
n=$fails
start_fake disconnect --listen "unix:$dir/f.sock" --fault disconnect --after 2
r=$(printf '1\t%s\n' "$MOVE" "$MOVE" "$MOVE" | talk "$addr")
[ "$r" = "$W_MOVE"$'\n<closed>' ] || no "disconnect --after 2: '$r'"
r=$(printf '1\t%s\n' "$CUBE" "$MOVE" | talk "$addr")
[ "$r" = "$W_CUBE"$'\n<closed>' ] || no "disconnect, second connection: '$r'"
stop_fake
start_fake once --listen "unix:$dir/f.sock" --fault disconnect --once
r=$(printf '1\t%s\n' "$MOVE" | talk "$addr")
[ "$r" = '<closed>' ] || no "disconnect --once, first connection: '$r'"
for i in 2 3; do
    r=$(printf '1\t%s\n' "$MOVE" "$CUBE" | talk "$addr")
    [ "$r" = "$W_MOVE"$'\n'"$W_CUBE" ] || no "disconnect --once, connection $i: '$r'"
done
stop_fake
start_fake once2 --listen "unix:$dir/f.sock" --fault garbage --after 2 --every --once
r=$(printf '1\t%s\n' "$MOVE" "$MOVE" "$MOVE" | talk "$addr")
[ "$r" = "$W_MOVE"$'\nhello?\nhello?' ] || no "garbage --every --once, first connection: '$r'"
r=$(printf '1\t%s\n' "$MOVE" "$MOVE" "$MOVE" | talk "$addr")
[ "$r" = "$W_MOVE"$'\n'"$W_MOVE"$'\n'"$W_MOVE" ] || no "garbage --every --once, second: '$r'"
stop_fake
passed "$n" "disconnect at the request named; --once: a reconnected client is served normally"

# --- beaver ---
# The backend's answers to the same requests on one connection are the
# reference: what it answers a take question depends on what the
# connection has seen (the colour it learned, proto/README.md).
n=$fails
start_fake beaver --listen "unix:$dir/f.sock" --fault beaver
{ printf '1\t%s\n' "$TAKE" "$MOVE" "$CUBE" "$TAKE2" "$TAKE beavers off"; printf '4\tversion\n'; } \
    > "$dir/beaver.req"
mapfile -t want < <(talk "$backend" < "$dir/beaver.req")
mapfile -t got < <(talk "$addr" < "$dir/beaver.req")
exp=(beaver "${want[1]}" "${want[2]}" beaver beaver "${want[@]:5}")
[ "${#want[@]}" -eq 9 ] && [ "${got[*]}" = "${exp[*]}" ] && [ "${#got[@]}" -eq 9 ] ||
    no "beaver: got '${got[*]}', backend '${want[*]}'"
[ "$(grep -c ': beaver$' "$dir/beaver.err")" -eq 3 ] || no "beaver: stderr '$(cat "$dir/beaver.err")'"
stop_fake
start_fake beaver3 --listen "unix:$dir/f.sock" --fault beaver --after 3
printf '1\t%s\n' "$TAKE" "$TAKE2" "$MOVE" "$TAKE" "$TAKE2" > "$dir/beaver3.req"
mapfile -t want < <(talk "$backend" < "$dir/beaver3.req")
mapfile -t got < <(talk "$addr" < "$dir/beaver3.req")
exp=("${want[@]:0:3}" beaver beaver)
[ "${#want[@]}" -eq 5 ] && [ "${got[*]}" = "${exp[*]}" ] && [ "${#got[@]}" -eq 5 ] ||
    no "beaver --after 3: got '${got[*]}', backend '${want[*]}'"
[[ ${want[0]} =~ ^(take|drop)$ ]] || no "beaver --after 3: the backend answered '${want[0]}' (no test)"
printf '1\tset debug on\n*\t%s\n' "$TAKE" > "$dir/beaver-debug.req"
talk "$backend" < "$dir/beaver-debug.req" > "$dir/beaver-debug.want"
talk "$addr" < "$dir/beaver-debug.req" > "$dir/beaver-debug.got"
grep -q '^DBG: ' "$dir/beaver-debug.want" || no "beaver --after 3: no debug lines from the backend"
cmp -s "$dir/beaver-debug.want" "$dir/beaver-debug.got" || no "beaver --after 3, debug on: differs"
stop_fake
passed "$n" "beaver: every take question (field 40, or both may-double fields 0) from request N on"

# --- connections apart and at once ---
n=$fails
start_fake conc --listen tcp:127.0.0.1:0 --fault garbage --after 2
printf '1\t%s\nf\t%s\n1\t%s\n1\t%s\n' "$MOVE" "$dir/go" "$MOVE" "$MOVE" | talk "$addr" > "$dir/a.got" &
a=$!
for _ in $(seq 1 200); do
    [ -s "$dir/a.got" ] && break
    sleep 0.05
done
for i in 1 2 3; do
    printf '1\t%s\n' "$CUBE" "$MOVE" "$CUBE" | talk "$addr" > "$dir/b$i.got" &
    bs[i]=$!
done
for i in 1 2 3; do wait "${bs[i]}"; done
kill -0 "$a" 2> /dev/null || no "the first client ended before the others"
touch "$dir/go"
for i in 1 2 3; do
    [ "$(cat "$dir/b$i.got")" = "$W_CUBE"$'\nhello?\n'"$W_CUBE" ] ||
        no "client b$i beside an open connection: '$(cat "$dir/b$i.got")'"
done
wait "$a"
[ "$(cat "$dir/a.got")" = "$W_MOVE"$'\nhello?\n'"$W_MOVE" ] || no "client a: '$(cat "$dir/a.got")'"
stop_fake
passed "$n" "three clients served while another is connected, each counted on its own"

# --- SIGTERM with a client connected; no backend; usage ---
n=$fails
start_fake term --listen "unix:$dir/f.sock"
printf '1\t%s\nw\t\n' "$MOVE" | talk "$addr" > "$dir/term.got" &
t=$!
for _ in $(seq 1 100); do
    [ -s "$dir/term.got" ] && break
    sleep 0.05
done
stop_fake
[ "$stop_rc" -eq 0 ] || no "SIGTERM with a client: exit $stop_rc"
[ -e "$dir/f.sock" ] && no "the Unix socket file is left after SIGTERM with a client"
wait "$t"
[ "$(cat "$dir/term.got")" = "$W_MOVE"$'\n<closed>' ] ||
    no "SIGTERM: the client saw '$(cat "$dir/term.got")'"
python3 "$FAKE" --listen "unix:$dir/f.sock" --backend "unix:$dir/none.sock" > "$dir/nb.out" 2> "$dir/nb.err" &
fake=$!
fakes+=("$fake")
for _ in $(seq 1 200); do
    [ -s "$dir/nb.out" ] && break
    sleep 0.05
done
r=$(printf '1\t%s\n' "$MOVE" | talk "unix:$dir/f.sock")
[ "$r" = '<closed>' ] || no "no backend: '$r'"
grep -q 'none.sock' "$dir/nb.err" || no "no backend: stderr '$(cat "$dir/nb.err")'"
stop_fake
python3 "$FAKE" --listen tcp:127.0.0.1:0 --backend "$backend" --fault nonsense > /dev/null 2>&1
[ $? -eq 2 ] || no "an unknown fault is not a usage error"
python3 "$FAKE" --listen tcp:127.0.0.1:0 --backend "$backend" --after 0 > /dev/null 2>&1
[ $? -eq 2 ] || no "--after 0 is not a usage error"
python3 "$FAKE" --listen tcp:127.0.0.1:x --backend "$backend" > /dev/null 2>&1
[ $? -eq 2 ] || no "a bad port is not a usage error"
passed "$n" "SIGTERM with a client connected, no backend, usage errors"

exit $((fails > 0))
