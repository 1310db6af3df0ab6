#!/usr/bin/env python3
"""fake_player.py - an external-protocol player that misbehaves on purpose,
for the tests of the referee (`shesh match`) and of anything else that talks
to a remote player.

    fake_player.py --listen ADDR --backend ADDR
                   [--fault KIND] [--after N] [--every] [--once]

It listens on ADDR, serves any number of clients at once (a thread each) and
answers every request line by forwarding it to a real server (`shesh serve`)
over a backend connection of its own (one per client connection) and
relaying the reply byte for byte, except where the fault says otherwise.

ADDR is `unix:PATH` or `tcp:HOST:PORT` (`tcp:[::1]:PORT` for IPv6; a bare
PATH with a `/` or HOST:PORT work too). Port 0 lets the system pick a free
port. Once listening it prints the address it listens on, in that syntax
(`tcp:127.0.0.1:40123`, `unix:/tmp/x/p.sock`), as the first line of stdout,
flushed, so that a shell test can read it and pass it on. SIGTERM (or
SIGINT) stops it: the listener closes, a Unix socket file is removed, every
connection is dropped, exit status 0.

Requests are counted per client connection, from 1: every line is one
request (blank lines and `version` too). KIND is what happens at request N
(`--after N`, default 1):

  none        (default) nothing: a plain relay
  illegal     the answer is a well-formed move that is not legal for the
              board: two parts, each from a point (7 to 24) where the side
              that must act has no checker, neither starting where the other
              ends (`23/20 22/21 ` for 3-1 at the opening), with the board's
              dice (6 and 5 when it has none). A cube or take question, or a
              request that is not a board, gets such a move too (a move is
              never a legal answer to those).
  garbage     the answer is the line `hello?`
  silence     that request and every later one of the connection are read
              and never answered nor forwarded; the connection stays open
              until the client closes it
  disconnect  the connection is closed without an answer
  beaver      every take question (a board line with a double pending) from
              request N on is answered `beaver`; everything else is relayed

--every makes illegal and garbage happen on every request from the Nth on
(silence and beaver always do; disconnect can happen only once).
--once limits the fault to the first client connection ever accepted: later
connections (a client that reconnects) are served normally.

The request is still forwarded, and its reply read and dropped, when the
answer is replaced (illegal, garbage, beaver), so the backend session stays
as the client's requests make it.

How replies are framed: the reply to a board or `evaluation` line is any
`DBG:` lines and then one line. Any other request (version, help, set,
errors) is followed on the backend connection by a marker request, an
unknown command word unique to this process; the reply is every line up to
the backend's error line that names the marker. `exit`/`quit` are forwarded
and end the connection. A take question is recognised as `shesh serve` and
gnubg recognise it (protocol notes, 2.2): field 40 (was doubled) nonzero, or
both may-double fields (38 and 39) zero.

Every fault is logged on stderr: `fake_player: connection C request R: KIND`.
Standard library only.
"""

import argparse
import os
import secrets
import signal
import stat
import socket
import sys
import threading

KINDS = ("none", "illegal", "garbage", "silence", "disconnect", "beaver")

log_lock = threading.Lock()


def log(msg):
    with log_lock:
        sys.stderr.write("fake_player: %s\n" % msg)
        sys.stderr.flush()


def parse_addr(text):
    """('unix', path) or ('tcp', (host, port)) from ADDR."""
    if text.startswith("unix:"):
        path = text[5:]
        if not path:
            raise ValueError("empty Unix socket path in '%s'" % text)
        return ("unix", path)
    rest = text[4:] if text.startswith("tcp:") else text
    if not text.startswith("tcp:") and ("/" in text or ":" not in text):
        return ("unix", text)
    host, sep, port = rest.rpartition(":")
    if not sep or not port.isdigit() or int(port) > 65535:
        raise ValueError("'%s' is not tcp:HOST:PORT" % text)
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    return ("tcp", (host or "0.0.0.0", int(port)))


def tcp_family(host):
    return socket.AF_INET6 if ":" in host else socket.AF_INET


def connect(addr):
    kind, where = addr
    if kind == "unix":
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(where)
        return s
    return socket.create_connection(where)


# --- what a request is ---------------------------------------------------

def words(line):
    """The request as text, without blanks around it nor the NUL that
    gnubg sends after each newline (`shesh serve` skips that one NUL)."""
    if line.startswith(b"\0"):
        line = line[1:]
    return line.rstrip(b"\n").decode("latin-1").strip(" \t\r")


def board_word(text):
    """The `board:...` word at the start of text (quotes may hold blanks),
    and the rest of the line."""
    i, quote = 0, None
    while i < len(text):
        c = text[i]
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c in " \t\r":
            break
        i += 1
    return text[:i], text[i:]


class Board:
    """The fields of a board line that decide what is asked (None when the
    line is not a board this can read)."""

    def __init__(self, text):
        word = board_word(text)[0]
        # The last 50 fields are the integers, whatever the names hold.
        fields = word.split(":")
        if len(fields) < 53:
            raise ValueError("short board")
        n = [int(f) for f in fields[-50:]]
        f = lambda k: n[k - 3]  # field k, numbered from 1 after "board:"
        self.points = [f(6 + i) for i in range(26)]  # FIBS board[0..25]
        self.turn, self.colour, self.direction = f(32), f(41), f(42)
        self.dice = (f(33), f(34)) if f(33) else (f(35), f(36))
        self.take = f(40) != 0 or (f(38) == 0 and f(39) == 0)

    def actor_points(self):
        """The own points (1..24, bar 25) where the side that must act has
        checkers: the side on roll, or its opponent when a double is
        pending."""
        roller = 1 if self.turn > 0 else -1
        direction = self.direction if self.turn == self.colour else -self.direction
        sign = -roller if self.take else roller
        if self.take:
            direction = -direction
        own = set()
        for k, c in enumerate(self.points):
            if c * sign > 0:
                own.add(k if direction < 0 else 25 - k)
        return own


def parse_board(text):
    if not text[:6].lower() == "board:":
        return None
    try:
        return Board(text)
    except (ValueError, IndexError):
        return None


def illegal_move(board):
    """Two parts, each from a point (7 to 24) where the side that must act
    has no checker, neither starting where the other ends: no order of them
    is a legal move, whatever the dice."""
    d1, d2 = 6, 5
    occupied = set()
    if board is not None:
        if all(1 <= d <= 6 for d in board.dice):
            d1, d2 = board.dice
        occupied = board.actor_points()
    free = [p for p in range(24, 6, -1) if p not in occupied]
    for a in free:
        for b in free:
            if a != b and b != a - d1 and a != b - d2:
                return "%d/%d %d/%d " % (a, a - d1, b, b - d2)
    # Not reached: 15 checkers leave at least 3 of the 18 points free, and
    # the highest free point with either of the other two will do.
    raise AssertionError("no free points")


# --- serving --------------------------------------------------------------

class Server:
    def __init__(self, opts):
        self.opts = opts
        self.backend = parse_addr(opts.backend)
        self.marker = "fakeplayer_" + secrets.token_hex(6)
        self.lock = threading.Lock()
        self.count = 0
        self.conns = set()

    def faulty(self, conn_no, req_no):
        o = self.opts
        if o.fault == "none" or (o.once and conn_no != 1):
            return False
        if o.fault in ("beaver", "silence") or o.every:
            return req_no >= o.after
        return req_no == o.after

    def serve(self, client):
        with self.lock:
            self.count += 1
            conn_no = self.count
            self.conns.add(client)
        backend = None
        try:
            try:
                backend = connect(self.backend)
            except OSError as e:
                log("connection %d: backend %s: %s" % (conn_no, self.opts.backend, e))
                return
            self.session(conn_no, client, backend)
        except OSError:
            pass
        finally:
            with self.lock:
                self.conns.discard(client)
            for s in (client, backend):
                if s is not None:
                    try:
                        s.close()
                    except OSError:
                        pass

    def session(self, conn_no, client, backend):
        cin = client.makefile("rb")
        bin_ = backend.makefile("rb")
        req_no = 0
        while True:
            line = cin.readline()
            if not line:
                return
            if not line.endswith(b"\n"):
                # A last line without its newline: a request unless it is
                # only the NUL gnubg puts after each of its lines.
                if not line.strip(b"\0"):
                    return
                line += b"\n"
            req_no += 1
            text = words(line)
            fault = self.faulty(conn_no, req_no)
            kind = self.opts.fault
            if fault and kind in ("silence", "disconnect"):
                log("connection %d request %d: %s" % (conn_no, req_no, kind))
                if kind == "silence":
                    while cin.readline():
                        pass
                return
            board = parse_board(text)
            low = text.lower()
            if low in ("exit", "quit"):
                backend.sendall(line)
                return
            first = low.split()[0] if low.split() else ""
            reply = self.relay(backend, bin_, line,
                               board is not None or first == "evaluation")
            if reply is None:
                return
            if fault and kind == "illegal":
                log("connection %d request %d: illegal" % (conn_no, req_no))
                reply = (illegal_move(board) + "\n").encode()
            elif fault and kind == "garbage":
                log("connection %d request %d: garbage" % (conn_no, req_no))
                reply = b"hello?\n"
            elif fault and kind == "beaver" and board is not None and board.take:
                log("connection %d request %d: beaver" % (conn_no, req_no))
                reply = b"beaver\n"
            client.sendall(reply)

    def relay(self, backend, bin_, line, one_line):
        """Sends line to the backend and returns its whole reply (None if
        the backend went away)."""
        if one_line:
            backend.sendall(line)
            out = b""
            while True:
                r = bin_.readline()
                if not r.endswith(b"\n"):
                    return None
                out += r
                if not r.startswith(b"DBG:"):
                    return out
        backend.sendall(line + self.marker.encode() + b"\n")
        out = b""
        mark = self.marker.encode()
        while True:
            r = bin_.readline()
            if not r.endswith(b"\n"):
                return None
            if mark in r:
                return out
            out += r


class Stop(Exception):
    pass


def main():
    ap = argparse.ArgumentParser(
        description="An external-protocol player that relays to a real server "
        "and misbehaves as told (see the top of this file).")
    ap.add_argument("--listen", required=True, metavar="ADDR",
                    help="unix:PATH or tcp:HOST:PORT (port 0: any free port)")
    ap.add_argument("--backend", required=True, metavar="ADDR",
                    help="the real server: unix:PATH or tcp:HOST:PORT")
    ap.add_argument("--fault", choices=KINDS, default="none")
    ap.add_argument("--after", type=int, default=1, metavar="N",
                    help="the fault happens on request N of a connection (from 1)")
    ap.add_argument("--every", action="store_true",
                    help="on every request from the Nth on")
    ap.add_argument("--once", action="store_true",
                    help="only on the first connection ever")
    opts = ap.parse_args()
    if opts.after < 1:
        ap.error("--after must be 1 or more")
    try:
        listen = parse_addr(opts.listen)
        parse_addr(opts.backend)
    except ValueError as e:
        ap.error(str(e))

    kind, where = listen
    if kind == "unix":
        lsock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            if stat.S_ISSOCK(os.stat(where).st_mode):
                os.unlink(where)  # left behind by a server that died
        except OSError:
            pass
        lsock.bind(where)
        shown = "unix:" + where
    else:
        host, port = where
        lsock = socket.socket(tcp_family(host), socket.SOCK_STREAM)
        lsock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        lsock.bind((host, port))
        port = lsock.getsockname()[1]
        shown = "tcp:%s:%d" % ("[%s]" % host if ":" in host else host, port)
    lsock.listen(64)
    server = Server(opts)

    def stop(signum, frame):
        raise Stop()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print(shown, flush=True)
    try:
        while True:
            client, _ = lsock.accept()
            threading.Thread(target=server.serve, args=(client,), daemon=True).start()
    except Stop:
        pass
    finally:
        lsock.close()
        if kind == "unix":
            try:
                os.unlink(where)
            except OSError:
                pass
        with server.lock:
            for c in list(server.conns):
                try:
                    c.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
