# gnubg_judge.py - rates the output of `shesh selfplay --dump` with GNU
# Backgammon's own evaluator (cubeless money, 0-ply, Jacoby off).
#
#   shesh selfplay --dump --positions 2000 default > dump.tsv
#   SHESH_DUMP=dump.tsv gnubg -t -q -p tests/tools/gnubg_judge.py
#
# For every line with more than one legal move it evaluates every result
# and reports, for the moves the engine chose at 0, 1 and 2 plies, how much
# equity they give up against gnubg's best (per unforced decision, in
# thousandths of a point) and how often they are gnubg's choice; then how
# far the engine's 0-ply chances are from gnubg's, for contact positions and
# for races. gnubg's 0-ply is itself an estimate: read these as distances
# to gnubg, not as errors.
import os

import gnubg

PATH = os.environ.get("SHESH_DUMP", "dump.tsv")
CUBE = gnubg.cubeinfo(1, -1, 1)  # money, cube 1 centred, Jacoby off
EVAL = gnubg.evalcontext(0, 0, 0, 1, 0.0)  # cubeless, 0-ply, no noise


def race(board):
    """No contact left: each side's last checker is past the other's."""
    b0, b1 = board
    back0 = max([i for i in range(25) if b0[i]] or [-1])
    back1 = max([i for i in range(25) if b1[i]] or [-1])
    return back0 < 0 or back1 < 0 or back1 < 23 - back0


def after(posid):
    """Cubeless equity for the mover of a result (the other side to roll)."""
    b0, b1 = gnubg.positionfromid(posid)
    return -gnubg.evaluate((b1, b0), CUBE, EVAL)[5]


loss = [0.0, 0.0, 0.0]
agree = [0, 0, 0]
decisions = 0
diff = {True: [0.0] * 4, False: [0.0] * 4}
count = {True: 0, False: 0}
for line in open(PATH):
    if line.startswith("#"):
        continue
    posid, dice, m0, m1, m2, chances, results = line.rstrip("\n").split("\t")
    board = gnubg.positionfromid(posid)
    ours = [float(x) for x in chances.split(",")]
    g = gnubg.evaluate(board, CUBE, EVAL)
    r = race(board)
    count[r] += 1
    for k, (a, b) in enumerate([(ours[0], g[0]), (ours[1], g[1]), (ours[3], g[3]), (ours[5], g[5])]):
        diff[r][k] += abs(a - b)
    results = results.split(",") if results else []
    if len(results) < 2:
        continue
    value = {p: after(p) for p in results}
    best = max(value.values())
    decisions += 1
    for k, m in enumerate((m0, m1, m2)):
        loss[k] += best - value[m]
        agree[k] += value[m] >= best - 1e-9

print("%d unforced decisions rated by gnubg 0-ply (cubeless money)" % decisions)
for k in range(3):
    print("  %d-ply moves: %.1f millipoints given up per decision, gnubg's choice %.1f %%"
          % (k, 1000 * loss[k] / max(decisions, 1), 100.0 * agree[k] / max(decisions, 1)))
for r in (False, True):
    n = max(count[r], 1)
    d = diff[r]
    print("  %s positions (%d): mean |ours - gnubg| win %.3f, win gammon %.3f, "
          "lose gammon %.3f, equity %.3f" % ("race" if r else "contact", count[r],
                                             d[0] / n, d[1] / n, d[2] / n, d[3] / n))
