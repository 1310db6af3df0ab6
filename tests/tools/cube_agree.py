# cube_agree.py - how often Shesh's cube decisions agree with gnubg's
# (2-ply cubeful by default) on the positions of refereed games, and the
# equity lost on the disagreements, as gnubg measures it. Run by gnubg's
# Python, from the top of the tree after `make`:
#
#   PYTHONPATH=tests/tools CUBE_AGREE_RUNS="money.jsonl.gz match.jsonl.gz" \
#       gnubg -t -q -p tests/tools/cube_agree.py
#
# (PYTHONPATH: the losses are cube_loss.py's, shared with cube_rejudge.py.)
#
# (tests/tools/cube_agree.sh plays the games first and then runs this.)
#
# Environment:
#   CUBE_AGREE_RUNS    the .jsonl.gz records of `shesh match` runs (blank-separated)
#   CUBE_AGREE_SHESH   the shesh binary (default build/shesh)
#   CUBE_AGREE_PLIES   Shesh's depths to compare, comma-separated (default 0,1,2)
#   CUBE_AGREE_GNUBG_PLIES  the referee's depth (default 2)
#   CUBE_AGREE_OUT     if set, every decision as a TSV line there
#   CUBE_AGREE_WORST   the worst disagreements listed at each depth (default 3)
#
# What is counted. The records are replayed event by event: the cube's
# value and owner follow the doubles, takes and beavers; the position
# before each roll is the result of the previous move, seen from the
# roller (found with `shesh moves -`, the record's move text being the
# display notation that lists), or the same position after a dance. Each
# "move" event's own position (the records have none for a turn that ends
# in a dance or a dropped double) is checked against the replay, and the
# Match IDs made here against what `shesh hint` reads back. In a match
# the Crawford game is the first game with a player one point away. A cube decision is a player about to roll who may
# double (cube centred or his, not the Crawford game, below the cube limit,
# and not a dead cube: Shesh's `may_double`); a take decision is such a
# position where a double was offered in the game. Decisions are deduped on
# their GNUBG-ID (money: score left out, it does not count).
#
# For each, gnubg.cfevaluate() at the referee's depth (cubeful, pruning on,
# no noise) gives the cubeful equities of no double (ND), double/take (DT)
# and double/pass (DP, 1) for the player on roll, normalised to the cube
# before the double; in a match these are gnubg's EMG (its mwc2eq of the
# match winning chances at the current cube), so they are compared as is
# and also converted back to MWC with gnubg.eq2mwc. gnubg's proper double
# is min(DT, DP) > ND, its proper take DT <= DP. Shesh's answers are the
# "action" of `shesh hint --json --plies N` on the same GNUBG-ID without
# dice: a double if it starts with "double", a pass if it says "pass"
# (beaver counts as take). The loss of a decision is gnubg's equity of its
# own choice minus gnubg's equity of Shesh's choice: for the double, the
# doubler's equity (ND against min(DT, DP)); for the take, the taker's
# (-DT against -DP). gnubg at 0 ply, and a player who never doubles and
# always takes, are judged the same way, for scale.
import gzip
import json
import math
import os
import subprocess
import sys

import gnubg

from cube_loss import judge, mean_se  # beside this file (cube_agree.sh's PYTHONPATH)

SHESH = os.environ.get("CUBE_AGREE_SHESH", "build/shesh")
RUNS = os.environ.get("CUBE_AGREE_RUNS", "").split()
PLIES = [int(x) for x in os.environ.get("CUBE_AGREE_PLIES", "0,1,2").split(",") if x != ""]
GNUBG_PLIES = int(os.environ.get("CUBE_AGREE_GNUBG_PLIES", "2"))
OUT = os.environ.get("CUBE_AGREE_OUT", "")
WORST = int(os.environ.get("CUBE_AGREE_WORST", "3"))
MAX_CUBE = 64  # the referee's default cube limit

B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


# ---- IDs -------------------------------------------------------------------
def b64_bits(text, nbits):
    # Plain Base64 of the key's bytes; the bits are then read least
    # significant first within each byte.
    raw = bytearray()
    acc = 0
    n = 0
    for c in text:
        acc = (acc << 6) | B64.index(c)
        n += 6
        while n >= 8:
            n -= 8
            raw.append((acc >> n) & 0xFF)
    return raw[: nbits // 8]


def bits_b64(raw):
    out = []
    acc = 0
    n = 0
    for byte in raw:
        acc = (acc << 8) | byte
        n += 8
        while n >= 6:
            n -= 6
            out.append(B64[(acc >> n) & 0x3F])
    if n:
        out.append(B64[(acc << (6 - n)) & 0x3F])
    return "".join(out)


def posid_sides(posid):
    """The two runs of 25 counts in the order the ID stores them."""
    raw = b64_bits(posid, 80)
    sides = [[0] * 25, [0] * 25]
    side = point = 0
    for bit in range(80):
        if side > 1:
            break
        if raw[bit // 8] >> (bit % 8) & 1:
            sides[side][point] += 1
        else:
            point += 1
            if point == 25:
                side += 1
                point = 0
    return sides


def posid_encode(sides):
    raw = bytearray(10)
    bit = 0
    for side in sides:
        for count in side:
            for _ in range(count):
                raw[bit // 8] |= 1 << (bit % 8)
                bit += 1
            bit += 1
    return bits_b64(raw)[:14]


def posid_swap(posid):
    a, b = posid_sides(posid)
    return posid_encode([b, a])


def matchid(d):
    """The Match ID of a decision, the player on roll in seat 1, about to
    roll, no double offered, no dice; Jacoby off (the referee's default)."""
    fields = [
        (0, 4, int(math.log2(d["cube"]))),
        (4, 2, {-1: 3, 0: 0, 1: 1}[d["owner"]]),
        (6, 1, 1),
        (7, 1, d["crawford"]),
        (8, 3, 1),
        (11, 1, 1),
        (21, 15, d["match_to"]),
        (36, 15, d["score"][0]),
        (51, 15, d["score"][1]),
        (66, 1, 1),
    ]
    v = 0
    for at, width, value in fields:
        v |= (value & ((1 << width) - 1)) << at
    raw = bytearray((v >> (8 * k)) & 0xFF for k in range(9))
    return bits_b64(raw)


# ---- replaying the records --------------------------------------------------
def read_games(paths):
    for path in paths:
        with gzip.open(path, "rt") as f:
            for line in f:
                if line.strip():
                    yield json.loads(line)


def results(moves_needed):
    """{(posid, d1, d2): {move text: result posid}} from `shesh moves -`."""
    keys = sorted(moves_needed)
    text = "".join("%s %d%d\n" % k for k in keys)
    out = subprocess.run([SHESH, "moves", "-"], input=text, capture_output=True, text=True,
                         check=True).stdout.splitlines()
    table = {}
    for key, line in zip(keys, out):
        cols = line.split("\t")
        m = {}
        if len(cols) >= 4 and cols[3]:
            for pair in cols[3].split(";"):
                res, move = pair.split("=", 1)
                m[move] = res
        table[key] = m
    return table


def collect(paths):
    """The cube decisions of the games: {gnubg-id: decision}."""
    games = list(read_games(paths))
    needed = set()
    for g in games:
        for e in g["events"]:
            if e["action"] == "move":
                needed.add((e["position"], e["dice"][0], e["dice"][1]))
    table = results(needed)
    decisions = {}
    stats = {"games": 0, "turns": 0, "mismatch": 0, "unknown": 0, "no_access": 0}
    reached = {}  # (pair, half) -> a player has been one point away
    for g in games:
        stats["games"] += 1
        n = g["match_to"]
        score = g["score"]
        key = (g.get("pair"), g.get("half"))
        if n > 0 and g["game"] == 1:
            reached[key] = False
        crawford = 0
        if n > 1 and (score[0] == n - 1 or score[1] == n - 1) and not reached.get(key, False):
            crawford = 1
        if n > 0 and (score[0] == n - 1 or score[1] == n - 1):
            reached[key] = True
        cube, owner = 1, None  # owner: None centred, else the player (0 A, 1 B)
        pending = None  # (who offered, new value)
        state = None  # Position ID of the player to act next, from his side
        turn_open = False
        last = None  # the decision of the turn under way
        for e in g["events"]:
            a = e["action"]
            who = e.get("player")
            # The turn's cube question: asked before the roll (after a
            # resignation the other side rejected, none after one accepted).
            if a in ("roll", "double") and turn_open:
                turn_open = False
                last = None
                stats["turns"] += 1
                if state is None:
                    stats["unknown"] += 1
                elif (owner is None or owner == who) and not crawford and cube < MAX_CUBE:
                    d = {
                        "posid": state,
                        "cube": cube,
                        "owner": -1 if owner is None else (1 if owner == who else 0),
                        "crawford": crawford,
                        "match_to": n,
                        "score": (score[1 - who], score[who]) if n > 0 else (0, 0),
                        "doubled": False,
                        "seen": 0,
                    }
                    gid = d["posid"] + ":" + matchid(d)
                    d = decisions.setdefault(gid, d)
                    d["seen"] += 1
                    last = d
                else:
                    stats["no_access"] += 1
            if a == "double":
                pending = (who, e["cube"])
                if last is not None:
                    last["doubled"] = True
            elif a in ("beaver", "raccoon"):
                pending = (who, e["cube"])
            elif a == "take":
                cube, owner = pending[1], who
                pending = None
            elif a == "roll" and pending is not None:
                # A beaver or raccoon not answered by a take event: the one
                # who made it owns nothing, the other side holds the cube.
                cube, owner = pending[1], 1 - pending[0]
                pending = None
            elif a == "move":
                if state is not None and state != e["position"]:
                    stats["mismatch"] += 1
                res = table[(e["position"], e["dice"][0], e["dice"][1])].get(e["move"])
                state = posid_swap(res) if res else None
                turn_open = True
            elif a in ("pass", "closed out"):
                state = posid_swap(state) if state else None
                turn_open = True
    return decisions, stats


# ---- the two referees -------------------------------------------------------
def shesh_answers(ids, plies):
    text = "".join(i + "\n" for i in ids)
    out = subprocess.run([SHESH, "hint", "--json", "--plies", str(plies), "-"], input=text,
                         capture_output=True, text=True).stdout.splitlines()
    answers = {}
    for line in out:
        h = json.loads(line)
        answers[h["input"]] = h
    return answers


def cubeinfo(d):
    ci = gnubg.cubeinfo(d["cube"], d["owner"], 1, d["match_to"], tuple(d["score"]),
                        d["crawford"])
    ci["jacoby"] = 0
    ci["beavers"] = 0
    return ci


def gnubg_cube(d, plies):
    board = gnubg.positionfromid(d["posid"])
    ec = gnubg.evalcontext(1, plies, 1, 1, 0.0)
    r = gnubg.cfevaluate(board, cubeinfo(d), ec)
    return {"nd": r[1], "dt": r[2], "dp": r[3], "code": r[4], "text": r[5]}


def main():
    if not RUNS:
        sys.exit("cube_agree: set CUBE_AGREE_RUNS to the .jsonl.gz records")
    decisions, stats = collect(RUNS)
    ids = sorted(decisions)
    print("records: %s" % " ".join(RUNS))
    print("  %d games, %d turns before a roll; %d without cube access; %d positions not "
          "replayed; %d replay mismatches" % (stats["games"], stats["turns"], stats["no_access"],
                                             stats["unknown"], stats["mismatch"]))
    shesh = {p: shesh_answers(ids, p) for p in PLIES}
    # The Match IDs made here, read back by shesh: the same cube, owner and
    # match length, or the figures would judge other positions.
    owner_name = {-1: "centred", 0: "opponent", 1: "player"}
    for p in PLIES:
        for i in ids:
            h, d = shesh[p].get(i), decisions[i]
            if h is None or "error" in h:
                sys.exit("cube_agree: shesh refused %s: %s" % (i, h and h["error"]))
            if (h["cube"], h["cube_owner"], h["match_to"]) != \
                    (d["cube"], owner_name[d["owner"]], d["match_to"]):
                sys.exit("cube_agree: shesh reads %s as cube %s %s, match %s" %
                         (i, h["cube"], h["cube_owner"], h["match_to"]))
    # Dead cubes are left out.
    keep = [i for i in ids if all(i in shesh[p] and shesh[p][i].get("may_double") for p in PLIES)]
    dead = len(ids) - len(keep)
    gn = {i: gnubg_cube(decisions[i], GNUBG_PLIES) for i in keep}
    ref0 = {i: gnubg_cube(decisions[i], 0) for i in keep} if GNUBG_PLIES != 0 else None

    players = [("shesh %d-ply" % p, {i: shesh[p][i]["action"] for i in keep}) for p in PLIES]
    if ref0 is not None:
        def act(r):
            dmin = min(r["dt"], r["dp"])
            return ("double" if dmin > r["nd"] else "no double") + \
                (", pass" if r["dt"] > r["dp"] else ", take")
        players.append(("gnubg 0-ply", {i: act(ref0[i]) for i in keep}))
    # The scale at the other end: a player who never doubles and always takes.
    players.append(("never doubles", {i: "no double, take" for i in keep}))

    rows = []
    worst = []
    lines = []
    for kind in ("money", "match"):
        sel = [i for i in keep if (decisions[i]["match_to"] > 0) == (kind == "match")]
        takes = [i for i in sel if decisions[i]["doubled"]]
        for name, actions in players:
            dl, tl, dl_mwc, tl_mwc = [], [], [], []
            da = ta = 0
            close = [0, 0]
            for i in sel:
                g = gn[i]
                a = actions[i]
                doubles = a.startswith("double")
                passes = "pass" in a
                bd, dloss, bp, tloss = judge(g, doubles, passes)
                da += bd == doubles
                dl.append(dloss)
                # gnubg's "close" cube decision (isCloseCubedecision): the
                # double within 0.16 of the best action.
                if max(g["nd"], min(g["dt"], g["dp"])) - min(g["dt"], 1.0) < 0.16:
                    close[0] += 1
                    close[1] += bd == doubles
                if kind == "match":
                    ci = cubeinfo(decisions[i])
                    mw = {k: gnubg.eq2mwc(g[k], ci) for k in ("nd", "dt", "dp")}
                    dmin = min(mw["dt"], mw["dp"])
                    dl_mwc.append(max(mw["nd"], dmin) - (dmin if doubles else mw["nd"]))
                if decisions[i]["doubled"]:
                    ta += bp == passes
                    tl.append(tloss)
                    if kind == "match":
                        tl_mwc.append(max(-mw["dt"], -mw["dp"]) -
                                      (-mw["dp"] if passes else -mw["dt"]))
                if name.startswith("shesh"):
                    for what, loss, agree in (("double", dloss, bd == doubles),
                                              ("take", tloss, bp == passes)):
                        if what == "take" and not decisions[i]["doubled"]:
                            continue
                        if not agree:
                            worst.append((loss, name, what, i, a, g))
                        lines.append("\t".join([name, kind, what, i, a, g["text"],
                                                "%.4f" % g["nd"], "%.4f" % g["dt"],
                                                "%.4f" % g["dp"], "%.4f" % loss,
                                                str(decisions[i]["seen"])]))
            rows.append((kind, name, len(sel), da, mean_se(dl), sum(dl), len(takes), ta,
                         mean_se(tl), sum(tl), close, mean_se(dl_mwc), mean_se(tl_mwc)))

    print("  %d distinct cube decisions (%d seen), %d of them take decisions; %d left out "
          "(dead cube)" % (len(keep), sum(decisions[i]["seen"] for i in keep),
                           sum(1 for i in keep if decisions[i]["doubled"]), dead))
    odd = sum(1 for i in keep if gn[i]["code"] in (13, 14, 15))
    if odd:
        print("  (%d of them gnubg calls a dead or unavailable cube)" % odd)
    print("referee: gnubg %d-ply cubeful (cfevaluate, pruning); losses in gnubg's "
          "mEMG per decision, +- 1 SE" % GNUBG_PLIES)
    print()
    def pct(a, b):
        """Agreement in per cent, +- its binomial standard error."""
        if not b:
            return "-"
        p = a / b
        return "%.1f +- %.1f %% (%d / %d)" % (100 * p, 100 * math.sqrt(p * (1 - p) / b), a, b)

    print("| play | player | double: agree | close doubles: agree | mEMG lost / decision "
          "| take: agree | mEMG lost / take | EMG lost in all |")
    print("|---|---|---|---|---|---|---|---|")
    for (kind, name, n, da, (dm, dse), dsum, nt, ta, (tm, tse), tsum, close, dmw,
         tmw) in rows:
        if n:
            print("| %s | %s | %s | %s | %.1f +- %.1f | %s | %.1f +- %.1f | %.2f |"
                  % (kind, name, pct(da, n), pct(close[1], close[0]), 1000 * dm, 1000 * dse,
                     pct(ta, nt), 1000 * tm, 1000 * tse, dsum + tsum))
    print()
    print("match play in MWC (gnubg's eq2mwc of the same equities), thousandths per decision:")
    for (kind, name, n, da, dms, dsum, nt, ta, tms, tsum, close, dmw, tmw) in rows:
        if kind == "match" and n:
            print("  %s: double %.2f +- %.2f, take %.2f +- %.2f"
                  % (name, 1000 * dmw[0], 1000 * dmw[1], 1000 * tmw[0], 1000 * tmw[1]))
    print()
    print("worst disagreements at each depth (gnubg's ND / DT / DP; loss in mEMG):")
    worst.sort(key=lambda w: -w[0])
    for name, _ in players:
        for loss, _, what, i, a, g in [w for w in worst if w[1] == name][:WORST]:
            n = decisions[i]["match_to"]
            print("  %s, %s, %s %s: shesh '%s', gnubg '%s' (%+.3f / %+.3f / %+.3f): %.0f"
                  % (name, "%d-point match" % n if n else "money", what, i, a, g["text"],
                     g["nd"], g["dt"], g["dp"], 1000 * loss))
    if OUT:
        with open(OUT, "w") as f:
            f.write("# player\tplay\tdecision\tgnubg-id\tshesh\tgnubg\tnd\tdt\tdp\tloss\tseen\n")
            f.write("\n".join(lines) + "\n")


main()
