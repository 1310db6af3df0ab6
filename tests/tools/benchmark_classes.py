"""benchmark_classes.py - the position classes of the move-quality
benchmark, for tests/tools/bench_moves.sh and rollout_choices.sh: a board
as `shesh id decode --json` gives it (a side's points numbered 1..24 from
its own home, its bar 25) is one of

  race     no contact: with a = the highest point the mover has a checker
           on and b = the same for the opponent in his own numbering,
           a + b <= 24 (every checker of one side has passed every
           checker of the other);
  crashed  contact, and a side has at most 6 checkers left, counting every
           checker on its points and its bar (not those borne off) but, on
           its own 1-point and on its own 2-point, at most two each;
  contact  the rest.
"""

CLASSES = ("race", "crashed", "contact")


def left(side):
    """Checkers still in play (points and bar), at most two counted on each
    of the side's own 1- and 2-points."""
    return sum(side) - max(0, side[0] - 2) - max(0, side[1] - 2)


def klass(board):
    me, opp = board["player"], board["opponent"]

    def back(side):
        return max(i + 1 for i, n in enumerate(side) if n)

    if back(me) + back(opp) <= 24:
        return "race"
    if left(me) <= 6 or left(opp) <= 6:
        return "crashed"
    return "contact"
