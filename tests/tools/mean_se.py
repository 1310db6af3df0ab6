"""mean_se.py - a sample's mean and the standard error of that mean, for
the benchmark tools (tests/tools/bench_moves.sh, rollout_choices.sh)."""

import math


def mean_se(xs):
    """(mean, standard error) of the numbers xs: (0, 0) for none, the
    error 0 for one (a single decision says nothing of its spread)."""
    n = len(xs)
    if not n:
        return 0.0, 0.0
    m = sum(xs) / n
    if n < 2:
        return m, 0.0
    return m, math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n)
