#!/usr/bin/env python3
"""fake_ubgi.py - a UBGI engine (docs/referee.md) that plays or misbehaves on
purpose, for the tests of the referee's `ubgi:CMD` players.

    fake_ubgi.py MODE [--after N] [--shesh PATH] [--log FILE] [--marker WORD]

It speaks UBGI on stdin and stdout. Its moves come from `shesh moves ID
DICE`, run for each `go`, which lists the legal moves: it plays the first of those written
with the most parts, so that each part is one die (`8/5 6/5`, not the chain
`8/4`), without the `*` and `(2)` of gnubg's display notation, as UBGI
writes moves. MODE says how it behaves at its N-th `go` (`--after N`,
default 1; counted over the engine's life, every game):

  good      plays every move (the default behaviour before N in every mode)
  error     answers `error bad_state refused on purpose`
  illegal   answers `bestmove 24/1`, a well-formed move no roll allows
  pass      answers `bestmove pass` whether or not a move exists
  silent    answers nothing, then or ever, and stays until its input ends
  crash     exits at once with status 3, without an answer
  garbage   (at the handshake, whatever N) answers `ubgi` with a line that
            is no UBGI and never `ubgiok`
  stubborn  answers nothing, ignores SIGTERM, and stays after its input
            ends and after `quit`: only SIGKILL stops it

--shesh: the shesh binary (default build/shesh). --log FILE: every line
received is appended to FILE, for a test to read the transcript. --marker:
ignored; a word on the command line for a test to find its processes by
(pgrep -f).
"""
import argparse
import signal
import subprocess
import sys
import time


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def first_move(shesh, pid, d1, d2):
    """The move to play: of the legal moves (`shesh moves ID DICE`, one a
    line, gnubg's display notation then a tab), the first with the most
    parts once counts are written out and stars dropped."""
    out = subprocess.run([shesh, "moves", pid, f"{d1}{d2}"], capture_output=True, text=True,
                         check=True).stdout
    best = None
    for line in out.splitlines():
        parts = []
        for part in line.split("\t")[0].replace("*", "").split():
            times = 1
            if part.endswith(")"):
                part, count = part[:-1].split("(")
                times = int(count)
            parts += [part] * times
        if best is None or len(parts) > len(best):
            best = parts
    return " ".join(best) if best else "pass"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["good", "error", "illegal", "pass", "silent", "crash",
                                     "garbage", "stubborn"])
    ap.add_argument("--after", type=int, default=1)
    ap.add_argument("--shesh", default="build/shesh")
    ap.add_argument("--marker", default="")
    ap.add_argument("--log")
    a = ap.parse_args()
    log = open(a.log, "a", encoding="utf-8", buffering=1) if a.log else None

    pid, dice, gos = None, None, 0
    for raw in sys.stdin:
        if log:
            log.write(raw)
        words = raw.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "ubgi":
            if a.mode == "garbage":
                say("hello, I am no UBGI engine")
                continue
            say("id name fake-" + a.mode)
            say("id author shesh tests")
            say("proto 0.2")
            say("key engine.ply int 1..1 1 ignored")
            say("ubgiok")
        elif cmd == "isready":
            say("readyok")
        elif cmd == "newgame":
            pid, dice = None, None
        elif cmd == "position" and len(words) == 3 and words[1] == "gnubgid":
            pid = words[2]
        elif cmd == "dice" and len(words) == 3:
            dice = (int(words[1]), int(words[2]))
        elif cmd == "go":
            gos += 1
            faulty = gos >= a.after and a.mode != "good"
            if faulty and a.mode == "stubborn":
                signal.signal(signal.SIGTERM, signal.SIG_IGN)
                while True:
                    time.sleep(1)
            if faulty and a.mode == "silent":
                for _ in sys.stdin:  # to the end of its input
                    pass
                break
            if faulty and a.mode == "crash":
                sys.exit(3)
            if faulty and a.mode == "error":
                say("error bad_state refused on purpose")
            elif faulty and a.mode == "illegal":
                say("bestmove 24/1")
            elif faulty and a.mode == "pass":
                say("bestmove pass")
            elif pid is None or dice is None:
                say("error bad_state go without a position and dice")
            else:
                say("bestmove " + first_move(a.shesh, pid, dice[0], dice[1]))
        elif cmd == "quit":
            break
        else:
            say("error bad_command " + cmd)


if __name__ == "__main__":
    main()
