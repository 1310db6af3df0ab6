/* cli_label.c - `shesh label`: positions from the engine's own games,
 * each labelled by a rollout: the data a network is trained on, or judged
 * by, beyond what it teaches itself by TD (docs/training.md).
 *
 * Positions: the engine plays cubeless money games against itself at 0
 * ply, game g on the dice of the g-th draw of a generator seeded by
 * --seed; of the positions before a roll that still have contact, one in
 * --every is taken (the k-th, 2k-th ... in the order they arise), until
 * --positions are found. With --moves K each position taken stands for the
 * results of the K moves the engine ranks best at 0 ply for a roll (drawn
 * from a stream derived from --seed), each seen by the other side, then on
 * roll, those with contact: the positions a choice among moves is made on,
 * rather than only the one that was played. With --disagree X a position
 * (or a move's result) is taken only when the engine's cubeless equities
 * for it at 0 and at 1 ply differ by at least X: the positions where the
 * network's own lookahead finds it wrong, those a rollout teaches most
 * (--every counts all positions, before this test). With --window LO,HI
 * a position (or result) is taken only when the player on roll wins it LO
 * to HI by the engine's cubeless 0-ply evaluation: the positions where a
 * double is offered and taken, whose values the cube rests on. Every
 * shard plays the same games (they are cheap) and so finds the same
 * positions: shard K of N labels those whose index i has i mod N = K - 1.
 *
 * A label: the position rolled out --trials times by the engine at
 * --plies (cubeless, variance reduction, truncated after --truncate turns
 * where the engine's 0-ply evaluation is taken), on dice seeded from
 * --seed and the index; the means of the five chances, and the cubeless
 * equity with its standard error. With --trials 0 the label is the
 * engine's cubeless evaluation at --plies instead (standard error 0): a
 * search label, some hundred times cheaper than a rollout, which teaches
 * a network what its own lookahead sees.
 *
 * The file: gzip members (gzmember.h), the first the header line
 *     # shesh-label 1 positions=N seed=S every=M trials=T truncate=K plies=P
 *       [moves=K] [phase=race] [disagree=X] [window=LO,HI] [values=integers]
 *       engine=ID
 *       network=FNV64 shard=K/N   (one line; each bracketed field only
 *       with its option, so that files made before it resume as they were)
 * then a member a label:
 *     INDEX <tab> POSITION-ID <tab> WIN WG WBG LG LBG <tab> EQUITY SE
 * A run killed midway loses at most the label being written; --resume
 * checks the header, keeps every whole label and goes on after the last,
 * to the very file an uninterrupted run writes. `shesh label merge` puts
 * the N shards' labels back in index order (cli_label_merge.c), checking
 * that they are the shards of one run, complete.
 *
 * With --race the positions are races instead, those with a checker of
 * either side still outside its home board: what the race evaluator
 * models rather than reads from the bear-off database.
 *
 * With --from FILE the positions are those of FILE instead, in its order,
 * whatever their kind: a file of shesh label (a shard or a merge, plain or
 * gzip) or Position IDs a line: the positions of an older run labelled
 * again by today's network, or a user's own. The header's from= field is
 * a hash of them (their IDs in order), so a resume on another list is
 * refused; with the run's seed and settings the labels of a run's own
 * file are the run's very labels.
 *
 * The networks value in floats, as every label set before --integers was
 * made (make train reproduces them so); --integers plays and labels with
 * the first layer in integers, as the engine plays, for 1.6 to 1.8 times
 * the labels an hour. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "cli.h"
#include "cli_opt.h"
#include "cli_watch.h"
#include "engine.h"
#include "err.h"
#include "eval_outputs.h"
#include "eval_static.h"
#include "fnv.h"
#include "gzlines.h"
#include "gzmember.h"
#include "id_state.h"
#include "label_file.h"
#include "num.h"
#include "player_engine.h"
#include "posid.h"
#include "rollout.h"
#include "rules.h"
#include "selfplay.h"
#include "splitmix.h"

#define CMD "label"

typedef struct LabelOpts {
    long positions, every;
    uint64_t seed;
    int trials, truncate, plies;
    int moves; /* 0: the positions themselves; K: the results of the K best moves */
    double disagree; /* > 0: only positions whose 0- and 1-ply equities differ this much */
    double window[2]; /* window[1] > 0: only positions the roller wins window[0]..window[1] */
    bool race; /* races a model values instead of contact positions */
    bool integers; /* the networks' first layer in integers, as the engine plays */
    int shard[2];
    bool resume;
    const char *out, *weights;
    const char *from;   /* the positions are this file's */
    uint64_t from_hash; /* a hash of their IDs, in order */
} LabelOpts;

/* The header line of a run (the shard last, so that merge can compare the
 * rest). */
static void header_line(const LabelOpts *o, const Engine *e, Buf *b)
{
    buf_printf(b, LABEL_HEADER "positions=%ld seed=%" PRIu64 " ", o->positions, o->seed);
    if (o->from)
        buf_printf(b, "from=%016" PRIx64 " ", o->from_hash);
    else
        buf_printf(b, "every=%ld ", o->every);
    buf_printf(b, "trials=%d truncate=%d plies=%d ", o->trials, o->truncate, o->plies);
    if (o->moves > 0)
        buf_printf(b, "moves=%d ", o->moves);
    if (o->race)
        buf_printf(b, "phase=race ");
    if (o->disagree > 0)
        buf_printf(b, "disagree=%g ", o->disagree);
    if (o->window[1] > 0)
        buf_printf(b, "window=%g,%g ", o->window[0], o->window[1]);
    if (o->integers)
        buf_printf(b, "values=integers ");
    buf_printf(b, "engine=%s network=%s shard=%d/%d\n", engine_id(e), engine_network(e),
               o->shard[0], o->shard[1]);
}

/* ---- the positions ---- */

#define LABEL_MOVES_MAX 32
/* A --disagree or --window run that has found no position among this many
 * gives up: the two depths are never that far apart, or no position falls
 * in the window, and it would play on forever. */
#define LABEL_FILTER_TRIES 10000L

typedef struct Finder {
    const LabelOpts *o;
    Position *found; /* o->positions of them */
    long n, seen;    /* found so far; positions of the run's kind seen */
    long tried;      /* --disagree, --window: positions evaluated */
    bool hopeless;   /* --disagree, --window: none found in LABEL_FILTER_TRIES */
    /* --moves: the engine that ranks the moves, the dice of the rolls */
    const Engine *e;
    EngineScratch *sc;
    uint64_t dice;
    bool failed;
    Err err;
} Finder;

/* Whether a position is of the kind the run labels: contact, or with
 * --race a race with a checker of either side still outside its home
 * board (with all of them home the bear-off database is exact). */
static bool wanted(const LabelOpts *o, const Position *p)
{
    double out[OUT_COUNT];
    if (eval_game_over(p, out))
        return false;
    return eval_network_values(o->race, p);
}

/* The engine's cubeless evaluation of p at plies; false (f->failed, f->err)
 * when the engine fails. */
static bool evaluate_at(Finder *f, const Position *p, int plies, Evaluation *ev)
{
    EvalOptions opt = {plies, false};
    if (engine_evaluate(f->e, f->sc, p, NULL, &opt, ev, &f->err) != ENGINE_OK) {
        f->failed = true;
        return false;
    }
    return true;
}

static bool filtered(const LabelOpts *o)
{
    return o->disagree > 0 || o->window[1] > 0;
}

/* Whether p is taken: always, or when it passes the run's filters: with
 * --window the player on roll's cubeless 0-ply win chance lies in the
 * window, with --disagree the engine's cubeless equities for it at 0 and 1
 * ply differ by at least that much. */
static bool taken(Finder *f, const Position *p)
{
    const LabelOpts *o = f->o;
    if (!filtered(o))
        return true;
    Evaluation at0, at1;
    if (!evaluate_at(f, p, 0, &at0))
        return false;
    f->tried++;
    bool take = true;
    if (o->window[1] > 0)
        take = at0.p_win >= o->window[0] && at0.p_win <= o->window[1];
    /* The 1-ply evaluation, some twenty times the 0-ply one, only for a
     * position the window has kept. */
    if (take && o->disagree > 0) {
        if (!evaluate_at(f, p, 1, &at1))
            return false;
        take = fabs(at0.equity - at1.equity) >= o->disagree;
    }
    if (!take && f->n == 0 && f->tried >= LABEL_FILTER_TRIES) {
        if (o->window[1] <= 0)
            err_set(&f->err,
                    "none of the first %ld positions has 0- and 1-ply equities %g or more "
                    "apart: give a smaller --disagree",
                    f->tried, o->disagree);
        else if (o->disagree <= 0)
            err_set(&f->err,
                    "none of the first %ld positions has the player on roll winning %g to %g "
                    "at 0 ply: give a wider --window",
                    f->tried, o->window[0], o->window[1]);
        else
            err_set(&f->err,
                    "none of the first %ld positions has the player on roll winning %g to %g "
                    "at 0 ply and 0- and 1-ply equities %g or more apart: give a wider "
                    "--window or a smaller --disagree",
                    f->tried, o->window[0], o->window[1], o->disagree);
        f->failed = f->hopeless = true;
    }
    return take;
}

/* The results of the f->o->moves best moves for a roll of p, the other
 * side on roll, those of the run's kind, into found (while there is room). */
static void take_moves(Finder *f, const Position *p)
{
    EngineCandidate cand[LABEL_MOVES_MAX];
    int d1 = 1 + (int)(splitmix64(&f->dice) % 6), d2 = 1 + (int)(splitmix64(&f->dice) % 6), n;
    if (engine_hint_moves(f->e, f->sc, p, d1, d2, NULL, 0, cand, f->o->moves, &n, &f->err) !=
        ENGINE_OK) {
        f->failed = true;
        return;
    }
    for (int k = 0; k < n && f->n < f->o->positions; k++) {
        Position q = cand[k].move.result;
        pos_swap(&q);
        if (wanted(f->o, &q) && taken(f, &q))
            f->found[f->n++] = q;
    }
}

static void observe(void *ctx, const Position *p, int seat)
{
    (void)seat;
    Finder *f = ctx;
    if (f->n >= f->o->positions || f->failed || !wanted(f->o, p))
        return;
    if (f->seen++ % f->o->every != f->o->every - 1)
        return;
    if (f->o->moves > 0)
        take_moves(f, p);
    else if (taken(f, p))
        f->found[f->n++] = *p;
}

/* Plays games until o->positions are found (every shard does the same);
 * *stopped when SIGINT or SIGTERM came first. */
static bool find_positions(const LabelOpts *o, const Engine *e, EngineScratch *sc,
                           Position *found, bool *stopped, Err *err)
{
    *stopped = false;
    Player *pl = player_engine_new(e, 0, "shesh", err);
    if (!pl)
        return false;
    Player *const seats[2] = {pl, pl};
    /* The rolls of --moves come from a stream of their own, so that the
     * games (and the positions of a run without --moves) stay as they were. */
    Finder f = {.o = o, .found = found, .e = e, .sc = sc, .dice = o->seed ^ 0x6d6f766573u};
    uint64_t rng = o->seed;
    for (long g = 0; f.n < o->positions; g++) {
        if (cli_signals_seen()) {
            *stopped = true;
            break;
        }
        SelfplayResult res;
        player_new_game(pl);
        selfplay_game(seats, splitmix64(&rng), (int)(g & 1), observe, &f, &res);
        if (res.failed || f.failed) {
            if (f.hopeless) /* not the engine's failure: its message stands alone */
                err_set(err, "%s", f.err.text);
            else
                err_set(err, "the engine failed in game %ld: %s", g,
                        res.failed ? res.err.text : f.err.text);
            player_close(pl);
            return false;
        }
    }
    player_close(pl);
    if (filtered(o) && !*stopped)
        fprintf(stderr, "shesh label: %ld positions found, %.1f %% of the %ld evaluated at %s\n",
                f.n, 100.0 * (double)f.n / (double)(f.tried ? f.tried : 1), f.tried,
                o->disagree > 0 ? "0 and 1 ply" : "0 ply");
    return true;
}

/* ---- the positions of a file (--from) ---- */

/* One line of --from's file into *p: a label's position (a line with a
 * tab is a label of shesh label) or the Position ID the line starts with. */
static bool position_of_line(char *line, Position *p, Err *err)
{
    if (strchr(line, '\t')) {
        LabelLine l;
        if (!label_line_parse(line, strlen(line), &l, err))
            return false;
        *p = l.pos;
        return true;
    }
    char *id = line + strspn(line, " ");
    id[strcspn(id, " \r\n")] = '\0';
    return posid_decode(id, p, err);
}

/* What read_positions gathers: the positions, their count and hash. */
typedef struct FromFile {
    Position *pos;
    long n, cap;
    uint64_t hash; /* FNV-1a of the Position IDs */
} FromFile;

/* One line of --from's file (gzlines_each's callback). */
static bool take_position(void *ctx, char *line, size_t len, Err *err)
{
    FromFile *f = ctx;
    if (line[0] == '#' || strspn(line, " \t") == len)
        return true;
    Position p;
    Err why = {{0}};
    double out[OUT_COUNT];
    if (!position_of_line(line, &p, &why))
        return err_set(err, "neither a Position ID nor a label (%s)", why.text);
    if (eval_game_over(&p, out))
        return err_set(err, "the game is over in this position: nothing to label");
    if (f->n == LABEL_INDEX_MAX)
        return err_set(err, "more than %ld positions", LABEL_INDEX_MAX);
    if (f->n == f->cap) {
        long cap = f->cap ? 2 * f->cap : 1024;
        Position *grown = realloc(f->pos, (size_t)cap * sizeof *grown);
        if (!grown)
            return err_set(err, "out of memory");
        f->pos = grown;
        f->cap = cap;
    }
    char id[POSID_LEN + 1];
    posid_encode(&p, id);
    f->hash = fnv_bytes(f->hash, id, POSID_LEN);
    f->pos[f->n++] = p;
    return true;
}

/* Reads the positions of o->from into *found (malloc'd), their count into
 * o->positions and their hash into o->from_hash. */
static bool read_positions(LabelOpts *o, Position **found, Err *err)
{
    FromFile f = {.hash = FNV_OFFSET};
    bool ok = gzlines_each(o->from, LABEL_LINE_MAX, take_position, &f, err);
    if (ok && f.n == 0)
        ok = err_set(err, "%s holds no position", o->from);
    *found = f.pos;
    o->positions = f.n;
    o->from_hash = f.hash;
    return ok;
}

/* ---- a label ---- */

/* The search label: the engine's cubeless evaluation at o->plies (money,
 * the cube centred: engine_evaluate's state when given none). */
static bool label_by_search(const LabelOpts *o, const Engine *e, EngineScratch *sc,
                            LabelLine *l, Err *err)
{
    EvalOptions opt = {o->plies, false};
    Evaluation ev;
    if (engine_evaluate(e, sc, &l->pos, NULL, &opt, &ev, err) != ENGINE_OK)
        return false;
    const double out[OUT_COUNT] = {ev.p_win, ev.p_win_gammon, ev.p_win_bg, ev.p_lose_gammon,
                                   ev.p_lose_bg};
    memcpy(l->out, out, sizeof out);
    l->equity = ev.equity;
    l->se = 0.0;
    return true;
}

/* The rollout label: o->trials trials on dice drawn for the label's index. */
static bool label_by_rollout(const LabelOpts *o, const Engine *e, EngineScratch *sc,
                             LabelLine *l, Err *err)
{
    Rules rules = rules_default();
    Match m;
    if (!id_state_match(l->id, &rules, &m, err))
        return false;
    RolloutOptions ro = {.plies = o->plies, .truncate = o->truncate, .cubeful = false, .vr = true};
    uint64_t s = o->seed ^ ((uint64_t)l->index * 0x9e3779b97f4a7c15u);
    ro.seed = splitmix64(&s) & INT64_MAX;
    RolloutGame g;
    if (!rollout_game_init(&g, e, &m, &ro, err))
        return false;
    double sum[ROLLOUT_VALUES] = {0}, sq = 0.0, v[ROLLOUT_VALUES];
    for (int t = 0; t < o->trials; t++) {
        if (!rollout_trial(&g, sc, t, v, err))
            return false;
        for (int k = 0; k < ROLLOUT_VALUES; k++)
            sum[k] += v[k];
        sq += v[ROLLOUT_CUBELESS] * v[ROLLOUT_CUBELESS];
    }
    double n = o->trials, mean = sum[ROLLOUT_CUBELESS] / n;
    double var = o->trials > 1 ? (sq - n * mean * mean) / (n - 1) : 0.0;
    l->equity = mean;
    l->se = sqrt(var > 0 ? var : 0) / sqrt(n);
    for (int k = 0; k < OUT_COUNT; k++)
        l->out[k] = sum[k] / n; /* ROLLOUT_WIN .. ROLLOUT_LOSE_BG are the five chances */
    /* With the luck taken out, a mean may stray a little past 0 or past
     * the chance it is part of (a gammon rate of -0.002 where none can
     * happen): chances are kept chances, the equity as measured. */
    eval_clamp(l->out);
    return true;
}

/* The line of label `index`, position p: by search with --trials 0, by a
 * rollout otherwise. */
static bool label_one(const LabelOpts *o, const Engine *e, EngineScratch *sc, long index,
                      const Position *p, Buf *line, Err *err)
{
    LabelLine l = {.index = index, .pos = *p};
    posid_encode(p, l.id);
    if (!(o->trials == 0 ? label_by_search(o, e, sc, &l, err)
                         : label_by_rollout(o, e, sc, &l, err)))
        return false;
    label_line_format(line, &l);
    return true;
}

/* ---- resuming ---- */

typedef struct Resume {
    const char *header;
    long next;       /* the index the next label must have */
    int step;        /* the shard count */
    long long end;   /* where the last whole label ends */
    bool bad;
    Err *err;
    const char *path;
} Resume;

static bool resume_member(void *ctx, const char *data, size_t len, long long end)
{
    Resume *r = ctx;
    if (r->end == 0) { /* the header */
        if (len != strlen(r->header) || memcmp(data, r->header, len) != 0) {
            r->bad = true;
            err_set(r->err, "%s was made by another run (its first line is not '%.*s')", r->path,
                    (int)strlen(r->header) - 1, r->header);
            return false;
        }
        r->end = end;
        return true;
    }
    LabelLine l;
    if (!label_line_parse(data, len, &l, NULL) || l.index != r->next) {
        r->bad = true;
        err_set(r->err, "%s is damaged: label %ld is not where it should be", r->path, r->next);
        return false;
    }
    r->next += r->step;
    r->end = end;
    return true;
}

/* Opens o->out to append to (new, or resumed after its last whole label);
 * *first gets the index to label next, *fresh whether the file is new (and
 * so wants its header). */
static int open_out(const LabelOpts *o, const char *header, long *first, bool *fresh, Err *err)
{
    *first = o->shard[0] - 1;
    struct stat st;
    bool exists = stat(o->out, &st) == 0;
    if (exists && !o->resume) {
        err_set(err, "%s exists: add --resume to go on with it, or remove it to start again",
                o->out);
        return -1;
    }
    *fresh = !exists;
    if (!exists) {
        int fd = open(o->out, O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (fd < 0)
            err_set(err, "cannot create %s: %s", o->out, strerror(errno));
        return fd;
    }
    Resume r = {header, o->shard[0] - 1, o->shard[1], 0, false, err, o->out};
    GzStatus gs = gzmember_read_members(o->out, resume_member, &r, err);
    if (r.bad || gs == GZ_BAD)
        return -1;
    if (r.end == 0) {
        err_set(err, "%s holds no header: not a file of shesh label", o->out);
        return -1;
    }
    int fd = open(o->out, O_WRONLY);
    if (fd < 0 || ftruncate(fd, (off_t)r.end) != 0 || lseek(fd, 0, SEEK_END) < 0) {
        err_set(err, "cannot go on with %s: %s", o->out, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    *first = r.next;
    return fd;
}

/* ---- the command ---- */

static void label_usage(FILE *out)
{
    fprintf(out,
            "usage: shesh label [--positions N] [--seed S] [--every M] [--moves K]\n"
            "                   [--disagree X] [--window LO,HI] [--race] [--trials T]\n"
            "                   [--truncate K] [--plies P] [--integers]\n"
            "                   [--weights F]\n"
            "                   [--shard K/N] [--resume] --out FILE\n"
            "       shesh label --from F [--seed S] [--trials T] [--truncate K]\n"
            "                   [--plies P] [--integers] [--weights F]\n"
            "                   [--shard K/N] [--resume] --out FILE\n"
            "       shesh label merge SHARD...\n\n"
            "Finds N contact positions (with --race, races) in the engine's own\n"
            "cubeless games (one in M of those before a roll; with --moves, the\n"
            "results of the K best moves for a roll of each) and labels each by a\n"
            "rollout of T trials at P plies, cubeless, with variance reduction,\n"
            "truncated after K turns (0: to the end), or with T = 0 by the engine's\n"
            "cubeless P-ply evaluation: a line a position, INDEX, POSITION-ID, the\n"
            "five chances and the cubeless equity with its standard error, in FILE\n"
            "as gzip members after a header line. With --from F, the positions of\n"
            "the file F instead, in its order: a file of shesh label (a shard or a\n"
            "merge, gzip or plain) or a Position ID a line (the rest of the line,\n"
            "blank lines and lines starting with # skipped). A run stopped by Ctrl-C\n"
            "or killed goes on with --resume to the file an uninterrupted run writes.\n"
            "docs/training.md has the details.\n\n"
            "  --positions N  positions to label, 1 to 100000000 (default 1000)\n"
            "  --seed S       the games' and the rollouts' dice, 0 to 2^64-1 (default 1)\n"
            "  --every M      take one position in M, 1 to 1000 (default 5)\n"
            "  --moves K      take instead the results of the K moves ranked best at\n"
            "                 0 ply for a roll of it, those of the run's kind (contact,\n"
            "                 or races), the other side on roll; 1 to 32 (default:\n"
            "                 the position itself)\n"
            "  --disagree X   take only positions (or results) whose cubeless equities\n"
            "                 at 0 and at 1 ply differ by at least X, 0 to 3 (default\n"
            "                 0: all; none in the first 10000 evaluated: exit 1)\n"
            "  --window LO,HI take only positions (or results) whose player on roll\n"
            "                 wins LO to HI by the cubeless 0-ply evaluation, 0 <= LO <\n"
            "                 HI <= 1 (default: all; with --disagree, both must hold)\n"
            "  --race         races instead of contact positions: those with a checker\n"
            "                 of either side outside its home board\n"
            "  --trials T     rollout trials a position, 0 to 1000000 (default 72;\n"
            "                 0: no rollout, the P-ply evaluation is the label)\n"
            "  --truncate K   turns a trial plays before the 0-ply evaluation, 0 to\n"
            "                 1000 (default 10; 0 plays to the end; none with --trials 0)\n"
            "  --plies P      the players' lookahead in the rollouts, or the depth of\n"
            "                 the evaluation with --trials 0, 0 to 4 (default 0)\n"
            "  --integers     play and label with the networks' first layer in integers,\n"
            "                 as the engine plays (about 1.7 times as fast; default:\n"
            "                 in floats, as every label set before it was made)\n"
            "  --weights F    play and label with the network file F\n"
            "  --from F       label the positions of F (not with --positions, --every,\n"
            "                 --moves, --disagree, --window or --race)\n"
            "  --shard K/N    label only positions K-1, K-1+N, ... (merge the shards\n"
            "                 with shesh label merge)\n"
            "  --resume       go on with FILE after its last whole label\n"
            "  --out FILE     where the labels go (required)\n"
            "  -h, --help     this text\n\n"
            "Exit status: 0 done, 1 a failure (FILE exists without --resume, or is from\n"
            "another run), 2 usage, 130 stopped by SIGINT or SIGTERM (go on with\n"
            "--resume).\n");
}

/* --window LO,HI: two win chances, 0 <= LO < HI <= 1. */
static bool parse_window(const char *arg, double w[2], Err *err)
{
    const char *comma = strchr(arg, ',');
    char lo[64];
    if (!comma || (size_t)(comma - arg) >= sizeof lo)
        return err_set(err, "--window wants LO,HI (two win chances, such as 0.62,0.88), not '%s'",
                       arg);
    memcpy(lo, arg, (size_t)(comma - arg));
    lo[comma - arg] = '\0';
    if (!num_double("--window's LO", lo, 0.0, 1.0, false, &w[0], err) ||
        !num_double("--window's HI", comma + 1, 0.0, 1.0, true, &w[1], err))
        return false;
    if (w[0] >= w[1])
        return err_set(err, "--window's LO (%g) must be below its HI (%g)", w[0], w[1]);
    return true;
}

static int parse_options(int argc, char **argv, LabelOpts *o)
{
    enum { OPT_POS = 256, OPT_SEED, OPT_EVERY, OPT_MOVES, OPT_DISAGREE, OPT_WINDOW, OPT_RACE, OPT_TRIALS, OPT_TRUNC, OPT_PLIES,
           OPT_INTEGERS, OPT_WEIGHTS, OPT_SHARD, OPT_RESUME, OPT_OUT, OPT_FROM };
    static const struct option opts[] = {
        {"positions", required_argument, NULL, OPT_POS},
        {"seed", required_argument, NULL, OPT_SEED},
        {"every", required_argument, NULL, OPT_EVERY},
        {"moves", required_argument, NULL, OPT_MOVES},
        {"disagree", required_argument, NULL, OPT_DISAGREE},
        {"window", required_argument, NULL, OPT_WINDOW},
        {"race", no_argument, NULL, OPT_RACE},
        {"trials", required_argument, NULL, OPT_TRIALS},
        {"truncate", required_argument, NULL, OPT_TRUNC},
        {"plies", required_argument, NULL, OPT_PLIES},
        {"integers", no_argument, NULL, OPT_INTEGERS},
        {"weights", required_argument, NULL, OPT_WEIGHTS},
        {"shard", required_argument, NULL, OPT_SHARD},
        {"resume", no_argument, NULL, OPT_RESUME},
        {"out", required_argument, NULL, OPT_OUT},
        {"from", required_argument, NULL, OPT_FROM},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    *o = (LabelOpts){.positions = 1000, .every = 5, .seed = 1, .trials = 72, .truncate = 10,
                     .shard = {1, 1}};
    Err err = {{0}};
    bool ok = true;
    int c, at = 0;
    cli_getopt_start();
    const char *finder = NULL; /* the last option given that chooses positions */
    while (ok && (c = getopt_long(argc, argv, ":h", opts, &at)) != -1) {
        if (c == OPT_POS || c == OPT_EVERY || c == OPT_MOVES || c == OPT_DISAGREE ||
            c == OPT_WINDOW || c == OPT_RACE)
            finder = opts[at].name;
        switch (c) {
        case OPT_POS: ok = num_long("--positions", optarg, 1, 100000000L, &o->positions, &err); break;
        case OPT_SEED: ok = num_u64("--seed", optarg, &o->seed, &err); break;
        case OPT_EVERY: ok = num_long("--every", optarg, 1, 1000, &o->every, &err); break;
        case OPT_MOVES: ok = num_int("--moves", optarg, 1, LABEL_MOVES_MAX, &o->moves, &err); break;
        case OPT_DISAGREE:
            ok = num_double("--disagree", optarg, 0.0, 3.0, false, &o->disagree, &err);
            break;
        case OPT_WINDOW: ok = parse_window(optarg, o->window, &err); break;
        case OPT_RACE: o->race = true; break;
        case OPT_TRIALS: ok = num_int("--trials", optarg, 0, 1000000, &o->trials, &err); break;
        case OPT_TRUNC: ok = num_int("--truncate", optarg, 0, 1000, &o->truncate, &err); break;
        case OPT_PLIES: ok = num_int("--plies", optarg, 0, 4, &o->plies, &err); break;
        case OPT_INTEGERS: o->integers = true; break;
        case OPT_WEIGHTS: ok = cli_weights_option(optarg, &o->weights, &err); break;
        case OPT_SHARD: ok = cli_parse_shard(optarg, o->shard, &err); break;
        case OPT_RESUME: o->resume = true; break;
        case OPT_OUT: o->out = optarg; break;
        case OPT_FROM: o->from = optarg; break;
        case 'h': label_usage(stdout); return -1;
        default: return cli_option_error(CMD, c, argv, opts);
        }
    }
    if (ok && optind < argc)
        ok = err_set(&err, "unexpected argument '%s'", argv[optind]);
    if (ok && !o->out)
        ok = err_set(&err, "--out FILE is required");
    if (ok && o->from && finder)
        ok = err_set(&err, "--%s chooses among the engine's games: not with --from, which labels "
                           "the file's positions",
                     finder);
    if (o->trials == 0) /* no rollout to truncate: one header for every --truncate */
        o->truncate = 0;
    return ok ? EXIT_OK : cli_usage_error(CMD, "%s", err.text);
}

int cli_label(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "merge"))
        return cli_label_merge(argc - 1, argv + 1);
    LabelOpts o;
    int status = parse_options(argc, argv, &o);
    if (status != EXIT_OK)
        return status < 0 ? EXIT_OK : status;
    /* SIGINT and SIGTERM are counted, and looked for between labels: a
     * label is never cut in half. */
    cli_signals_catch();
    Err err = {{0}};
    Engine *e = engine_new_with("default", o.weights, &err);
    if (e && !o.integers) /* in floats, as labels were before --integers */
        engine_use_floats(e);
    EngineScratch *sc = e ? engine_scratch_new(&err) : NULL;
    GzMember *z = sc ? gzmember_new(&err) : NULL;
    Position *found = NULL;
    bool have = z && (o.from ? read_positions(&o, &found, &err)
                             : (found = malloc((size_t)o.positions * sizeof *found)) != NULL);
    Buf line;
    buf_init(&line);
    int fd = -1;
    long first = 0, done = 0;
    status = EXIT_FAIL;
    if (!have) {
        fprintf(stderr, "shesh label: %s\n", err.text[0] ? err.text : "out of memory");
        goto out;
    }
    header_line(&o, e, &line);
    bool fresh = false;
    if ((fd = open_out(&o, line.data, &first, &fresh, &err)) < 0) {
        fprintf(stderr, "shesh label: %s\n", err.text);
        goto out;
    }
    if (fresh && !gzmember_write(z, fd, line.data, line.len, o.out, &err)) {
        fprintf(stderr, "shesh label: %s\n", err.text);
        goto out;
    }
    bool stopped = false;
    if (!o.from && !find_positions(&o, e, sc, found, &stopped, &err)) {
        fprintf(stderr, "shesh label: %s\n", err.text);
        if (fresh) /* a header alone would only stand in the way of the next run */
            unlink(o.out);
        goto out;
    }
    if (stopped) {
        fprintf(stderr, "shesh label: stopped while finding the positions, before label %ld; go "
                        "on with --resume\n",
                first);
        status = 130;
        goto out;
    }
    status = EXIT_OK;
    for (long i = first; i < o.positions; i += o.shard[1]) {
        if (cli_signals_seen()) {
            fprintf(stderr, "shesh label: stopped before label %ld; go on with --resume\n", i);
            status = 130;
            break;
        }
        buf_clear(&line);
        if (!label_one(&o, e, sc, i, &found[i], &line, &err) ||
            !gzmember_write(z, fd, line.data, line.len, o.out, &err)) {
            fprintf(stderr, "shesh label: label %ld: %s\n", i, err.text);
            status = EXIT_FAIL;
            break;
        }
        done++;
    }
    if (status == EXIT_OK)
        fprintf(stderr, "shesh label: %ld labels written to %s\n", done, o.out);
out:
    if (fd >= 0 && close(fd) != 0 && status == EXIT_OK) {
        fprintf(stderr, "shesh label: cannot write %s: %s\n", o.out, strerror(errno));
        status = EXIT_FAIL;
    }
    cli_signals_release();
    buf_free(&line);
    free(found);
    gzmember_free(z);
    engine_scratch_free(sc);
    engine_free(e);
    return status;
}
