#!/usr/bin/env bash
# bench_ubgi.sh - decisions per second of `shesh ubgi` over its pipe, beside
# the same decisions made by `shesh hint` in one batch process, in the same
# run. A step of `make bench` (docs/performance.md has the figures).
#
#   bash tests/bench_ubgi.sh SHESH   (from the top of the tree)
#
# The decisions are every position and roll of positions/gnubg-1.07/
# moves.tsv.gz (gnubg's own move vectors), each sent as `position gnubgid
# POSID`, `dice A B`, `go`, at 0 ply (engine.ply 1). Three ways, each
# BENCH_UBGI_ROUNDS times (default 3), the median printed:
#   pipelined   every command written at once, the answers read as they
#               come: what the engine and the protocol cost per decision
#               (the time of a process that only starts and quits, also
#               printed, taken off);
#   lockstep    one `go` at a time, the next sent only once its `bestmove`
#               is read (a controller that waits, as a match runner does):
#               the round trip through the pipe included;
#   hint batch  `shesh hint --plies 0 --max 1 -` on the same positions: the
#               same engine without UBGI, for the protocol's share.
# Not a test: it asserts nothing about time. It fails (exit 1) only when an
# answer is missing or is not a move.
set -u
SHESH=${1:?usage: bench_ubgi.sh SHESH}
ROUNDS=${BENCH_UBGI_ROUNDS:-3}
die() { echo "bench_ubgi: $*" >&2; exit 1; }
[ -x "$SHESH" ] || die "$SHESH is not an executable"
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || die "BENCH_UBGI_ROUNDS must be a positive integer"
data=positions/gnubg-1.07/moves.tsv.gz
[ -r "$data" ] || die "cannot read $data (run from the top of the tree)"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/shesh-bench-ubgi.XXXXXX") || die "cannot make a temporary directory"
trap 'rm -rf "$tmp"' EXIT

zcat "$data" | awk -F'\t' '!/^#/ { print $1 "\t" substr($2, 1, 1) "\t" substr($2, 2, 1) }' \
    > "$tmp/pos.tsv"
n=$(wc -l < "$tmp/pos.tsv")
[ "$n" -gt 0 ] || die "no positions in $data"

python3 - "$SHESH" "$tmp/pos.tsv" "$ROUNDS" <<'PY'
import statistics, subprocess, sys, time

shesh, path, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
pos = [line.rstrip("\n").split("\t") for line in open(path)]
n = len(pos)
script = "".join("position gnubgid %s\ndice %s %s\ngo\n" % (p, a, b) for p, a, b in pos)
hint_in = "".join("%s %s%s\n" % (p, a, b) for p, a, b in pos)

def fail(msg):
    print("bench_ubgi: " + msg, file=sys.stderr)
    sys.exit(1)

def check(lines):
    moves = [l for l in lines if l.startswith("bestmove ")]
    if len(moves) != n or len(lines) != n:
        fail("%d answers for %d decisions (first: %r)" % (len(moves), n, lines[:1]))

def start():
    t0 = time.perf_counter()
    r = subprocess.run([shesh, "ubgi"], input="quit\n", capture_output=True, text=True)
    if r.returncode != 0:
        fail("shesh ubgi exited %d: %s" % (r.returncode, r.stderr.strip()))
    return time.perf_counter() - t0

def pipelined():
    t0 = time.perf_counter()
    r = subprocess.run([shesh, "ubgi"], input=script + "quit\n", capture_output=True, text=True)
    t = time.perf_counter() - t0
    if r.returncode != 0:
        fail("shesh ubgi exited %d: %s" % (r.returncode, r.stderr.strip()))
    check(r.stdout.splitlines())
    return t

def lockstep():
    p = subprocess.Popen([shesh, "ubgi"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         text=True, bufsize=1)
    p.stdin.write("isready\n")
    p.stdin.flush()
    if p.stdout.readline() != "readyok\n":
        fail("no readyok")
    lines, lat = [], []
    t0 = time.perf_counter()
    for q, a, b in pos:
        s = time.perf_counter()
        p.stdin.write("position gnubgid %s\ndice %s %s\ngo\n" % (q, a, b))
        p.stdin.flush()
        lines.append(p.stdout.readline().rstrip("\n"))
        lat.append(time.perf_counter() - s)
    t = time.perf_counter() - t0
    p.stdin.write("quit\n")
    p.stdin.close()
    p.wait()
    check(lines)
    lat.sort()
    return t, lat[len(lat) // 2], lat[min(len(lat) - 1, int(len(lat) * 0.99))]

def hint():
    t0 = time.perf_counter()
    r = subprocess.run([shesh, "hint", "--plies", "0", "--max", "1", "-"], input=hint_in,
                       capture_output=True, text=True)
    t = time.perf_counter() - t0
    if r.returncode != 0:
        fail("shesh hint exited %d: %s" % (r.returncode, r.stderr.strip()))
    return t

starts, pipe, lock, p50, p99, batch = [], [], [], [], [], []
for _ in range(rounds):
    starts.append(start())
    pipe.append(pipelined())
    t, a, b = lockstep()
    lock.append(t); p50.append(a); p99.append(b)
    batch.append(hint())
med = statistics.median
print("UBGI at 0 ply: %d decisions (positions/gnubg-1.07/moves.tsv.gz), median of %d rounds"
      % (n, rounds))
print("  start and quit: %.0f ms (the engine's tables are built at start)" % (med(starts) * 1e3))
print("  %-12s %10s  %s" % ("", "decisions/s", ""))
print("  %-12s %10.0f  (%.0f with the start included)"
      % ("pipelined", n / (med(pipe) - med(starts)), n / med(pipe)))
print("  %-12s %10.0f  latency p50 %.0f us, p99 %.0f us (the driver's own time included)"
      % ("lockstep", n / med(lock), med(p50) * 1e6, med(p99) * 1e6))
print("  %-12s %10.0f  shesh hint --plies 0 --max 1 - on the same positions, start included"
      % ("hint batch", n / med(batch)))
print("  pipelined/hint batch: x%.2f (round by round: %s)"
      % (med(batch) / med(pipe), " ".join("x%.2f" % (b / p) for b, p in zip(batch, pipe))))
PY
