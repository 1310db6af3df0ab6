#!/usr/bin/env python3
# cube_rejudge.py - another network's cube decisions judged on the very
# decisions of an earlier tests/tools/cube_agree.sh run, without gnubg:
# the referee's equities (ND, DT, DP) are read back from that run's
# decisions.tsv, and only Shesh answers again. From the top of the tree,
# after make:
#
#   python3 tests/tools/cube_rejudge.py DECISIONS.tsv PLIES [NET...]
#
# For each NET (a network file; "-" or none: the one compiled in) it asks
# `shesh hint --json --plies PLIES [--weights NET]` (SHESH, default
# build/shesh) every cube decision of the file and prints, for the money
# games and the matches apart, the equity lost in all on the doubles and
# on the takes, in gnubg's EMG, as cube_agree.py counts it. With two or
# more networks it also prints each one's difference from the first,
# decision by decision: the sum and its standard error (decisions of one
# game are correlated: read it as rough), and how many decisions differ.
# Why: judging a network again with cube_agree.sh's REUSE=1 asks gnubg
# 2-ply every decision again (ten minutes for 23,000 of them); the
# equities do not change, so this takes the time of the hints alone.
# Exit status: 0 done, 1 a file or an answer missing, 2 usage.
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cube_loss import judge, mean_se  # noqa: E402 (beside this file)


def die(msg, status=1):
    sys.stderr.write("cube_rejudge: %s\n" % msg)
    sys.exit(status)


def read_decisions(path):
    """(play, GNUBG-ID) -> the referee's ND, DT, DP and whether a double
    was offered there (the file has a take line for those)."""
    dec = {}
    try:
        lines = open(path).read().splitlines()
    except OSError as e:
        die("cannot read %s: %s" % (path, e.strerror))
    for n, line in enumerate(lines, 1):
        if line.startswith("#") or not line.strip():
            continue
        f = line.split("\t")
        if len(f) != 11 or f[2] not in ("double", "take"):
            die("%s line %d: not a line of cube_agree.sh's decisions.tsv" % (path, n))
        try:
            nd, dt, dp = float(f[6]), float(f[7]), float(f[8])
        except ValueError:
            die("%s line %d: no equities" % (path, n))
        d = dec.setdefault((f[1], f[3]), {"nd": nd, "dt": dt, "dp": dp, "take": False})
        d["take"] = d["take"] or f[2] == "take"
    if not dec:
        die("%s has no decisions" % path)
    return dec


def losses(shesh, net, plies, keys, dec):
    """Per decision, the EMG lost on the double and on the take."""
    cmd = [shesh, "hint", "--json", "--plies", plies]
    if net != "-":
        cmd += ["--weights", net]
    cmd.append("-")
    run = subprocess.run(cmd, input="".join(k[1] + "\n" for k in keys),
                         capture_output=True, text=True)
    answers = run.stdout.splitlines()
    if run.returncode != 0 or len(answers) != len(keys):
        die("%s answered %d of %d decisions: %s" %
            (" ".join(cmd), len(answers), len(keys), run.stderr.strip()))
    out = []
    for k, line in zip(keys, answers):
        a = json.loads(line)
        if "action" not in a:
            die("no cube action for %s: %s" % (k[1], line))
        _, dloss, _, tloss = judge(dec[k], a["action"].startswith("double"),
                                   "pass" in a["action"])
        out.append((dloss, tloss if dec[k]["take"] else 0.0))
    return out


def main():
    if len(sys.argv) < 3 or sys.argv[2] not in ("0", "1", "2", "3", "4"):
        die("usage: cube_rejudge.py DECISIONS.tsv PLIES(0-4) [NET...]", 2)
    shesh = os.environ.get("SHESH", "build/shesh")
    dec = read_decisions(sys.argv[1])
    plies, nets = sys.argv[2], sys.argv[3:] or ["-"]
    keys = sorted(dec)
    runs = [losses(shesh, net, plies, keys, dec) for net in nets]
    name = {net: "the compiled-in network" if net == "-" else net for net in nets}
    for net, run in zip(nets, runs):
        parts = []
        for play in ("money", "match"):
            sel = [(k, l) for k, l in zip(keys, run) if k[0] == play]
            takes = sum(1 for k, _ in sel if dec[k]["take"])
            dl, tl = sum(l[0] for _, l in sel), sum(l[1] for _, l in sel)
            parts.append("%s %.2f EMG (doubles %.2f over %d, takes %.2f over %d)" %
                         (play, dl + tl, dl, len(sel), tl, takes))
        print("%s at %s plies: %s" % (name[net], plies, "; ".join(parts)))
    for net, run in zip(nets[1:], runs[1:]):
        for play in ("money", "match"):
            d = [sum(b) - sum(a) for k, a, b in zip(keys, runs[0], run) if k[0] == play]
            n = len(d)
            if n < 2:
                continue
            se = n * mean_se(d)[1]  # of the sum
            print("%s less %s, %s: %+.2f +- %.2f EMG in all, %d of %d decisions differ" %
                  (name[net], name[nets[0]], play, sum(d), se, sum(1 for x in d if x), n))


if __name__ == "__main__":
    main()
