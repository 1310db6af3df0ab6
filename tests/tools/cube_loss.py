# cube_loss.py - what a cube decision loses by the referee's equities, for
# tests/tools/cube_agree.py (under gnubg's Python, which finds this file
# on the PYTHONPATH cube_agree.sh gives it) and tests/tools/cube_rejudge.py
# (plain Python): both judge the same way.
import math


def judge(g, doubles, passes):
    """Losses, in gnubg's EMG, of doubling or not and of passing or not,
    by the referee's ND, DT and DP (g["nd"], g["dt"], g["dp"])."""
    dmin = min(g["dt"], g["dp"])
    best_double = dmin > g["nd"]
    dloss = max(g["nd"], dmin) - (dmin if doubles else g["nd"])
    best_pass = g["dt"] > g["dp"]
    tloss = max(-g["dt"], -g["dp"]) - (-g["dp"] if passes else -g["dt"])
    return best_double, dloss, best_pass, tloss


def mean_se(xs):
    """The mean of xs and its standard error."""
    n = len(xs)
    if n == 0:
        return 0.0, 0.0
    m = sum(xs) / n
    if n < 2:
        return m, 0.0
    v = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, math.sqrt(v / n)
